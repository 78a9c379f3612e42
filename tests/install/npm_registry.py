#!/usr/bin/env python3
"""A registry for npm on 127.0.0.1, for tests/install/npm_package.sh: it serves the files of
DIR (a request for /a/-/b.tgz is the file a_-_b.tgz), logs each path it is asked for in
DIR/requests, and writes the port it listens on to DIR/port."""
import http.server
import os
import sys

root = sys.argv[1]


class Registry(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(os.path.join(root, "requests"), "a") as log:
            log.write(self.path + "\n")
        path = os.path.join(root, self.path.lstrip("/").replace("/", "_"))
        if not os.path.isfile(path):
            self.send_response(404)
            self.end_headers()
            return
        with open(path, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream" if path.endswith(".tgz")
                         else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Registry)
with open(os.path.join(root, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(root, "port.tmp"), os.path.join(root, "port"))
server.serve_forever()
