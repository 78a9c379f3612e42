#include "python/cpython_check.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

extern char** environ;

namespace gridlock::python {
namespace {

// Reads `LENGTH\n` then that many bytes, per source, from stdin, each compiled as it comes;
// writes 1 or 0 for each at the end. 0x400 is ast.PyCF_ONLY_AST: compiled to a tree, never
// to code that could run.
constexpr const char* kScript =
    "import sys\n"
    "r, out = sys.stdin.buffer, []\n"
    "while True:\n"
    "    n = r.readline()\n"
    "    if not n:\n"
    "        break\n"
    "    s = r.read(int(n))\n"
    "    try:\n"
    "        compile(s, 'm.py', 'exec', 0x400, True)\n"
    "        out.append('1')\n"
    "    except Exception:\n"
    "        out.append('0')\n"
    "sys.stdout.write(''.join(out))\n";

}  // namespace

void CPythonCheck::start() {
  int sock[2], pipeFds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0) {
    failed_ = true;
    return;
  }
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
    ::close(sock[0]);
    ::close(sock[1]);
    failed_ = true;
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sock[1], 0);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  char* argv[] = {const_cast<char*>("python3"), const_cast<char*>("-I"),    const_cast<char*>("-S"),
                  const_cast<char*>("-c"),      const_cast<char*>(kScript), nullptr};
  int spawned = ::posix_spawnp(&pid_, "python3", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(sock[1]);
  ::close(pipeFds[1]);
  in_ = sock[0];
  out_ = pipeFds[0];
  if (spawned != 0) {
    pid_ = -1;
    failed_ = true;
  }
}

void CPythonCheck::send(const std::string& bytes) {
  for (size_t done = 0; done < bytes.size() && !failed_;) {
    ssize_t n = ::send(in_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      failed_ = true;  // the child is gone: every answer is no
    else
      done += static_cast<size_t>(n);
  }
}

size_t CPythonCheck::add(const std::string& source) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (count_ == 0) start();
  if (!failed_) send(std::to_string(source.size()) + '\n' + source);
  return count_++;
}

std::vector<bool> CPythonCheck::answers() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<bool> accepted(count_, false);
  if (in_ >= 0) ::shutdown(in_, SHUT_WR);  // end of the sources: the child answers
  std::string answer;
  char buf[4096];
  for (ssize_t n; out_ >= 0 && (n = ::read(out_, buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    answer.append(buf, static_cast<size_t>(n));
  }
  int status = 0;
  bool ok = pid_ > 0 && ::waitpid(pid_, &status, 0) == pid_ && WIFEXITED(status) &&
            WEXITSTATUS(status) == 0 && !failed_ && answer.size() == count_;
  pid_ = -1;
  if (ok)
    for (size_t i = 0; i < count_; ++i) accepted[i] = answer[i] == '1';
  return accepted;
}

CPythonCheck::~CPythonCheck() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (in_ >= 0) ::close(in_);
  if (out_ >= 0) ::close(out_);
}

}  // namespace gridlock::python
