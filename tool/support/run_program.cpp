#include "support/run_program.h"

#include "support/interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

extern char** environ;

namespace gridlock::support {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPollMs = 20;
constexpr auto kSilence = std::chrono::milliseconds(200);  // the pipes after the exit
constexpr auto kGrace = std::chrono::seconds(2);           // for SIGTERM to end the group

// Both pipes, read as they come.
struct Pipes {
  pollfd fds[2];
  std::string* sinks[2];
  bool open() const { return fds[0].fd >= 0 || fds[1].fd >= 0; }
  // Waits at most `ms` for output; false once nothing came in that time.
  bool readSome(int ms) {
    if (!open()) return false;
    int ready = ::poll(fds, 2, ms);
    if (ready <= 0) return ready < 0 && errno == EINTR;
    char buf[65536];
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        continue;
      }
      sinks[i]->append(buf, static_cast<size_t>(n));
    }
    return true;
  }
  void close() {
    for (auto& p : fds)
      if (p.fd >= 0) ::close(std::exchange(p.fd, -1));
  }
};

// Whether `pid` has ended, without reaping it: while its zombie stays, its pid, the group's id,
// cannot be reused, so a kill of the group never reaches a stranger.
bool ended(pid_t pid) {
  siginfo_t info = {};
  return ::waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

// SIGTERM (0: already sent) to the group, a grace time for the leader to end, then SIGKILL.
void stopGroup(pid_t pgid, int signal) {
  if (signal) ::kill(-pgid, signal);
  for (auto until = Clock::now() + kGrace; !ended(pgid) && Clock::now() < until;)
    std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
  ::kill(-pgid, SIGKILL);
}

}  // namespace

ProgramResult runProgram(const ProgramRun& run) {
  ProgramResult result;
  if (run.argv.empty()) {
    result.error = "no program to run";
    return result;
  }
  InterruptScope interrupts;
  throwIfInterrupted();
  int outPipe[2], errPipe[2];
  if (::pipe2(outPipe, O_CLOEXEC) != 0) {
    result.error = std::strerror(errno);
    return result;
  }
  if (::pipe2(errPipe, O_CLOEXEC) != 0) {
    result.error = std::strerror(errno);
    ::close(outPipe[0]);
    ::close(outPipe[1]);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!run.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, run.cwd.c_str());
  std::string in = run.stdinPath.empty() ? "/dev/null" : run.stdinPath;
  posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  // A group of its own (so that it and what it starts can be stopped together), with the
  // signals gridlock handles at their defaults and none blocked.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigemptyset(&none);
  for (const int* s = interruptSignals(); *s; ++s) sigaddset(&defaults, *s);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> argv;
  for (const std::string& a : run.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  int spawned = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  if (spawned != 0) {
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    result.error = run.argv[0] + ": " + std::strerror(spawned);
    return result;
  }
  result.started = true;
  setForwardGroup(pid);
  if (int s = interruptSignal()) ::kill(-pid, s);  // came before the group was known
  Pipes pipes{{{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}}, {&result.out, &result.err}};
  auto deadline = Clock::now() + std::chrono::seconds(run.timeoutSeconds);
  while (!ended(pid) && !interruptSignal()) {
    if (run.timeoutSeconds > 0 && Clock::now() >= deadline) {
      stopGroup(pid, SIGTERM);
      result.timedOut = true;
      break;
    }
    if (!pipes.readSome(kPollMs) && !pipes.open())
      std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
  }
  if (interruptSignal()) stopGroup(pid, 0);  // the handler passed the signal on
  // What it printed before it ended; a descendant holding a pipe open is not waited for.
  for (auto silentFrom = Clock::now(), stop = silentFrom + kGrace;
       pipes.open() && Clock::now() - silentFrom < kSilence && Clock::now() < stop;)
    if (pipes.readSome(kPollMs)) silentFrom = Clock::now();
  ::kill(-pid, SIGKILL);  // what it left running: nothing of this run outlives it
  pipes.close();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  setForwardGroup(0);
  throwIfInterrupted();
  if (result.timedOut) return result;
  if (WIFEXITED(status)) result.exitStatus = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace gridlock::support
