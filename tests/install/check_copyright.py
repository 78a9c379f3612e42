#!/usr/bin/python3
"""A Debian copyright file in the machine-readable format (copyright-format 1.0), read strictly
by python3-debian: every file under Apache-2.0 WITH LLVM-exception, the licence's text with the
exceptions in full, the maintainer as upstream contact and copyright holder.
Usage: check_copyright.py COPYRIGHT MAINTAINER"""
import sys

try:
    from debian import copyright as dep5
except ImportError:
    sys.exit("check_copyright: python3-debian is missing (scripts/setup.sh installs it)")

path, maintainer = sys.argv[1], sys.argv[2]
LICENSE = "Apache-2.0 WITH LLVM-exception"
failures = []
with open(path) as f:
    c = dep5.Copyright(f, strict=True)
if c.header.format != "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/":
    failures.append("Format: %r" % c.header.format)
if c.header.upstream_name != "gridlock":
    failures.append("Upstream-Name: %r" % c.header.upstream_name)
if list(c.header.upstream_contact or []) != [maintainer]:
    failures.append("Upstream-Contact: %r, expected %r" % (c.header.upstream_contact, maintainer))
files = list(c.all_files_paragraphs())
if [p.files for p in files] != [("*",)]:
    failures.append("Files paragraphs: %r, expected one for *" % [p.files for p in files])
for p in files:
    if p.license.synopsis != LICENSE:
        failures.append("Files %s: License %r" % (" ".join(p.files), p.license.synopsis))
    if not p.copyright.endswith(maintainer):
        failures.append("Files %s: Copyright %r does not name %r" % (" ".join(p.files),
                                                                     p.copyright, maintainer))
licenses = {p.license.synopsis: p.license.text for p in c.all_license_paragraphs()}
text = licenses.get(LICENSE, "")
for words in ("Licensed under the Apache License, Version 2.0",
              "/usr/share/common-licenses/Apache-2.0",
              "LLVM Exceptions to the Apache 2.0 License",
              "without complying\nwith the conditions of Sections 4(a), 4(b) and 4(d)",
              "only with respect to the Combined\nSoftware."):
    if words not in text:
        failures.append("the licence text of %r lacks %r" % (LICENSE, words))
for f in failures:
    print("check_copyright: FAIL: " + f)
sys.exit(1 if failures else 0)
