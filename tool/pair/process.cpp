#include "pair/process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace gridlock::pair {

std::string ProcessResult::describe() const {
  if (timedOut) return "timed out";
  if (signal) return "killed by signal " + std::to_string(signal);
  return "exited with status " + std::to_string(exitStatus);
}

namespace {

ProcessResult fromWaitStatus(int status) {
  ProcessResult r;
  if (WIFEXITED(status)) r.exitStatus = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

[[noreturn]] void childExec(const ProcessSpec& spec, int outFd) {
  setpgid(0, 0);  // its own group, so a timeout can kill mpirun and every rank with it
  if (outFd >= 0) dup2(outFd, STDOUT_FILENO); else dup2(STDERR_FILENO, STDOUT_FILENO);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
    dprintf(STDERR_FILENO, "gridlock pair: cannot enter %s: %s\n", spec.cwd.c_str(), strerror(errno));
    _exit(127);
  }
  for (auto& [k, v] : spec.env) setenv(k.c_str(), v.c_str(), 1);
  std::vector<char*> argv;
  for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  dprintf(STDERR_FILENO, "gridlock pair: cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

}  // namespace

ProcessResult runProcess(const ProcessSpec& spec) {
  int pipeFds[2] = {-1, -1};
  if (spec.capture && pipe(pipeFds) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + strerror(errno));
  if (pid == 0) {
    if (spec.capture) close(pipeFds[0]);
    childExec(spec, spec.capture ? pipeFds[1] : -1);
  }
  setpgid(pid, pid);  // also here, so the group exists before any kill below
  if (spec.capture) {
    close(pipeFds[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(pipeFds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
      if (n > 0) spec.capture->append(buf, static_cast<size_t>(n));
    close(pipeFds[0]);
  }
  int status = 0;
  if (spec.timeoutSeconds <= 0) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return fromWaitStatus(status);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(spec.timeoutSeconds);
  while (true) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) return fromWaitStatus(status);
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Give the group a moment to write what it can, then make sure it is gone.
  kill(-pid, SIGTERM);
  for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(-pid, SIGKILL);
  waitpid(pid, &status, 0);
  ProcessResult r;
  r.timedOut = true;
  return r;
}

ProcessResult runShell(const std::string& command, const std::string& cwd,
                       const std::vector<std::pair<std::string, std::string>>& env,
                       int timeoutSeconds) {
  return runProcess({{"/bin/sh", "-c", command}, cwd, env, timeoutSeconds, nullptr});
}

}  // namespace gridlock::pair
