#include "python/cpython_check.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

extern char** environ;

namespace gridlock::python {
namespace {

// Reads `LENGTH\n` then that many bytes, per source, from stdin; writes 1 or 0 for each.
// 0x400 is ast.PyCF_ONLY_AST: compiled to a tree, never to code that could run.
constexpr const char* kScript =
    "import sys\n"
    "d = sys.stdin.buffer.read()\n"
    "i, out = 0, []\n"
    "while i < len(d):\n"
    "    j = d.index(b'\\n', i)\n"
    "    n = int(d[i:j])\n"
    "    s, i = d[j + 1:j + 1 + n], j + 1 + n\n"
    "    try:\n"
    "        compile(s, 'm.py', 'exec', 0x400, True)\n"
    "        out.append('1')\n"
    "    except Exception:\n"
    "        out.append('0')\n"
    "sys.stdout.write(''.join(out))\n";

// The sources in kScript's framing, in a private temporary file (the child's stdin).
std::string writeInput(const std::vector<std::string>& sources) {
  std::string path = (std::filesystem::temp_directory_path() / "gridlock-py-XXXXXX").string();
  int fd = ::mkstemp(path.data());
  if (fd < 0) return "";
  ::close(fd);
  std::ofstream out(path, std::ios::binary);
  for (const std::string& s : sources) out << s.size() << '\n' << s;
  if (!out.flush()) {
    std::filesystem::remove(path);
    return "";
  }
  return path;
}

}  // namespace

std::vector<bool> cpythonAccepts(const std::vector<std::string>& sources) {
  std::vector<bool> accepted(sources.size(), false);
  if (sources.empty()) return accepted;
  std::string input = writeInput(sources);
  if (input.empty()) return accepted;
  int pipeFds[2];
  if (::pipe(pipeFds) != 0) {
    std::filesystem::remove(input);
    return accepted;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, input.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
  posix_spawn_file_actions_addclose(&actions, pipeFds[1]);
  char* argv[] = {const_cast<char*>("python3"), const_cast<char*>("-I"),    const_cast<char*>("-S"),
                  const_cast<char*>("-c"),      const_cast<char*>(kScript), nullptr};
  pid_t pid = 0;
  int spawned = ::posix_spawnp(&pid, "python3", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipeFds[1]);
  std::string answer;
  char buf[4096];
  for (ssize_t n; spawned == 0 && (n = ::read(pipeFds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    answer.append(buf, static_cast<size_t>(n));
  }
  ::close(pipeFds[0]);
  int status = 0;
  bool ok = spawned == 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
            WEXITSTATUS(status) == 0 && answer.size() == sources.size();
  std::filesystem::remove(input);
  if (!ok) return accepted;
  for (size_t i = 0; i < sources.size(); ++i) accepted[i] = answer[i] == '1';
  return accepted;
}

}  // namespace gridlock::python
