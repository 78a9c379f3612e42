#include "pair/process.h"

#include "pair/interrupt.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gridlock::pair {

std::string ProcessResult::describe() const {
  if (timedOut) return "timed out";
  if (signal) return "killed by signal " + std::to_string(signal);
  return "exited with status " + std::to_string(exitStatus);
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::milliseconds(20);
constexpr auto kGrace = std::chrono::seconds(2);     // for a group to end on its own signal
constexpr auto kKillWait = std::chrono::seconds(5);  // for SIGKILL to take effect

ProcessResult fromWaitStatus(int status) {
  ProcessResult r;
  if (WIFEXITED(status)) r.exitStatus = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

// "PID NAME" of the running processes of group `pgid` but `except`, at most `limit`; nothing
// when /proc cannot be read. Zombies do not count: they are dead and wait only to be reaped
// (orphans by init, which in a container may never do it).
std::vector<std::string> groupMembers(pid_t pgid, pid_t except, size_t limit) {
  std::vector<std::string> out;
#ifdef __linux__
  DIR* proc = opendir("/proc");
  if (!proc) return out;
  while (dirent* e = readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::string path = std::string("/proc/") + e->d_name + "/stat";
    int fd = open(path.c_str(), O_RDONLY);
    if (fd < 0) continue;
    char buf[512];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = 0;
    const char* close = strrchr(buf, ')');  // the command name may hold spaces and parentheses
    const char* open = strchr(buf, '(');
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (close && open && open < close &&
        sscanf(close + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid && state != 'Z' &&
        state != 'X' && atoi(e->d_name) != except) {
      out.push_back(std::string(e->d_name) + " " + std::string(open + 1, close));
      if (out.size() >= limit) break;
    }
  }
  closedir(proc);
#else
  (void)pgid, (void)except, (void)limit;
#endif
  return out;
}

// Whether a process of group `pgid` is still running (zombies aside).
bool groupRunning(pid_t pgid) {
#ifdef __linux__
  if (access("/proc/self/stat", R_OK) == 0) return !groupMembers(pgid, 0, 1).empty();
#endif
  return kill(-pgid, 0) == 0;  // counts zombies: may wait out the grace time
}

void waitWhileRunning(pid_t pgid, Clock::duration limit) {
  auto until = Clock::now() + limit;
  while (groupRunning(pgid) && Clock::now() < until) std::this_thread::sleep_for(kPoll);
}

// `signal` (0: already sent) to the whole group, a grace time to end, then SIGKILL for the rest.
void stopGroup(pid_t pgid, int signal) {
  if (signal) kill(-pgid, signal);
  waitWhileRunning(pgid, kGrace);
  kill(-pgid, SIGKILL);
  waitWhileRunning(pgid, kKillWait);
}

// Whether `pid` has ended, without reaping it: while its zombie stays, its pid, the group's id,
// cannot be reused, so a kill of the group never reaches a stranger.
bool ended(pid_t pid) {
  siginfo_t info = {};
  return waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

// Reads what is left in the pipe `fd` once its writers are gone (one that left the group may
// still hold it: stops at the first silence).
void drain(int fd, std::string& into) {
  pollfd p = {fd, POLLIN, 0};
  char buf[4096];
  ssize_t n = 0;
  while (poll(&p, 1, static_cast<int>(kPoll.count())) > 0 && (n = read(fd, buf, sizeof buf)) > 0)
    into.append(buf, static_cast<size_t>(n));
}

[[noreturn]] void childExec(const ProcessSpec& spec, int outFd, const sigset_t& mask) {
  setpgid(0, 0);  // its own group, so a timeout can kill mpirun and every rank with it
  // Our handlers must not run here (they forward to the group of whatever ran before); the
  // signals were blocked over fork() so that none could.
  for (const int* s = interruptSignals(); *s; ++s) signal(*s, SIG_DFL);
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  if (outFd >= 0)
    dup2(outFd, STDOUT_FILENO);
  else
    dup2(STDERR_FILENO, STDOUT_FILENO);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
    dprintf(STDERR_FILENO, "gridlock pair: cannot enter %s: %s\n", spec.cwd.c_str(),
            strerror(errno));
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
  if (spec.interruptible) throwIfInterrupted();
  int pipeFds[2] = {-1, -1};
  if (spec.capture && pipe(pipeFds) != 0) throw std::runtime_error("pipe failed");
  // Blocked until the child's group is registered for forwarding: a signal in between is then
  // delivered, and forwarded, at the unblock below.
  sigset_t block, old;
  sigemptyset(&block);
  for (const int* s = interruptSignals(); *s; ++s) sigaddset(&block, *s);
  sigprocmask(SIG_BLOCK, &block, &old);
  pid_t pid = fork();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &old, nullptr);
    throw std::runtime_error(std::string("fork failed: ") + strerror(errno));
  }
  if (pid == 0) {
    if (spec.capture) close(pipeFds[0]);
    childExec(spec, spec.capture ? pipeFds[1] : -1, old);
  }
  setpgid(pid, pid);  // also here, so the group exists before any kill below
  setForwardGroup(pid);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  int fd = -1;
  if (spec.capture) {
    close(pipeFds[1]);
    fd = pipeFds[0];
  }
  // Reads what the command wrote, waiting at most kPoll; false at EOF. Polled, not a blocking
  // read: a process that ignores a signal may hold the pipe open, and the timeout and an
  // interrupt must still apply.
  auto readSome = [&] {
    pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(kPoll.count())) <= 0) return true;  // nothing yet, or EINTR
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) spec.capture->append(buf, static_cast<size_t>(n));
    return n > 0 || (n < 0 && errno == EINTR);
  };
  // Cleanup (not interruptible) runs to its end after an interrupt; a further signal still
  // reaches it through the handler.
  auto interrupted = [&] { return spec.interruptible && interruptSignal(); };
  bool timedOut = false;
  auto deadline = Clock::now() + std::chrono::seconds(spec.timeoutSeconds);
  while (!interrupted()) {
    if (fd >= 0) {
      if (!readSome()) {  // all output read; now wait for the end
        close(fd);
        fd = -1;
      } else if (ended(pid)) {
        break;  // a background child may hold the pipe open: the rest is read below
      }
    } else if (ended(pid)) {
      break;
    } else {
      std::this_thread::sleep_for(kPoll);
    }
    if (spec.timeoutSeconds > 0 && Clock::now() >= deadline) {
      stopGroup(pid, SIGTERM);  // SIGTERM first: mpirun passes it on and can still report
      timedOut = true;
      break;
    }
  }
  // The command exited, and what it started in the background outlived it: end them, as a
  // timeout would, so that nothing of this run goes on into the next (a server holding a port,
  // a rank still writing results). While the leader's zombie stays, the group id is its own.
  std::vector<std::string> leftovers;
  if (!timedOut && !interrupted()) {
    leftovers = groupMembers(pid, pid, 16);
    if (!leftovers.empty()) stopGroup(pid, SIGTERM);
  }
  if (fd >= 0) {
    // Cut short by a timeout or an interrupt, the rest of the output does not matter.
    if (!timedOut && !interrupted()) drain(fd, *spec.capture);
    close(fd);
  }
  // The handler forwarded the signal; what ignores it (or outlived the leader) goes now.
  if (interrupted()) stopGroup(pid, 0);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  setForwardGroup(0);
  if (spec.interruptible) throwIfInterrupted();
  if (timedOut) {
    ProcessResult r;
    r.timedOut = true;
    return r;
  }
  ProcessResult r = fromWaitStatus(status);
  r.leftovers = std::move(leftovers);
  return r;
}

ProcessResult runShell(const std::string& command, const std::string& cwd,
                       const std::vector<std::pair<std::string, std::string>>& env,
                       int timeoutSeconds) {
  return runProcess({{"/bin/sh", "-c", command}, cwd, env, timeoutSeconds, nullptr});
}

}  // namespace gridlock::pair
