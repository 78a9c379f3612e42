#include "support/run_program.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
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
  // Reads what `polled` (the pipes as poll() left them, first) says is ready.
  void take(const pollfd* polled) {
    char buf[65536];
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || polled[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        continue;
      }
      sinks[i]->append(buf, static_cast<size_t>(n));
    }
  }
  // Waits at most `ms` for output; false once nothing came in that time.
  bool readSome(int ms) {
    if (!open()) return false;
    int ready = ::poll(fds, 2, ms);
    if (ready <= 0) return ready < 0 && errno == EINTR;
    take(fds);
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
  RunningProgram program(run, /*fed=*/false);
  return program.finish(run.timeoutSeconds);
}

RunningProgram::RunningProgram(const ProgramRun& run, bool fed) {
  if (run.argv.empty()) {
    result_.error = "no program to run";
    return;
  }
  if (interruptSignal()) return;  // noted before: finish() throws
  int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, sock[2] = {-1, -1};
  auto closeAll = [&] {
    for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], sock[0], sock[1]})
      if (fd >= 0) ::close(fd);
  };
  if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0 ||
      (fed && (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0 ||
               ::fcntl(sock[0], F_SETFL, O_NONBLOCK) != 0))) {
    result_.error = std::strerror(errno);
    closeAll();
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!run.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, run.cwd.c_str());
  std::string in = run.stdinPath.empty() ? "/dev/null" : run.stdinPath;
  if (fed)
    posix_spawn_file_actions_adddup2(&actions, sock[1], 0);
  else
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
  if (spawned != 0) {
    closeAll();
    result_.error = run.argv[0] + ": " + std::strerror(spawned);
    return;
  }
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  if (fed) ::close(sock[1]);
  in_ = sock[0];
  pipes_[0] = outPipe[0];
  pipes_[1] = errPipe[0];
  pid_ = pid;
  result_.started = true;
  setForwardGroup(pid);
  if (int s = interruptSignal()) ::kill(-pid, s);  // came before the group was known
}

RunningProgram::~RunningProgram() {
  if (in_ >= 0) ::close(in_);
  for (int fd : pipes_)
    if (fd >= 0) ::close(fd);
  if (pid_ > 0) {  // neither finished nor stopped: an exception on its way
    ::kill(-pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    setForwardGroup(0);
  }
}

RunningProgram::Fed RunningProgram::feed(std::string_view bytes, int timeoutSeconds) {
  if (in_ < 0) return Fed::Closed;
  Pipes pipes{{{pipes_[0], POLLIN, 0}, {pipes_[1], POLLIN, 0}}, {&result_.out, &result_.err}};
  auto took = Clock::now();  // when it last took a byte
  Fed fed = Fed::Yes;
  while (!bytes.empty()) {
    if (interruptSignal()) {
      fed = Fed::Interrupted;
      break;
    }
    ssize_t n = ::send(in_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(static_cast<size_t>(n));
      took = Clock::now();
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
      fed = Fed::Closed;
      break;
    }
    if (timeoutSeconds > 0 && Clock::now() - took >= std::chrono::seconds(timeoutSeconds)) {
      fed = Fed::TimedOut;
      break;
    }
    // Full: what it prints is read while it takes nothing, or it could wait on us as we on it.
    pollfd polled[3] = {pipes.fds[0], pipes.fds[1], {in_, POLLOUT, 0}};
    if (::poll(polled, 3, kPollMs) > 0) pipes.take(polled);
  }
  pipes_[0] = pipes.fds[0].fd;  // a pipe it closed is closed here
  pipes_[1] = pipes.fds[1].fd;
  return fed;
}

ProgramResult RunningProgram::finish(int timeoutSeconds) { return end(false, timeoutSeconds); }

ProgramResult RunningProgram::stop() { return end(true, 0); }

ProgramResult RunningProgram::end(bool stopNow, int timeoutSeconds) {
  if (in_ >= 0) ::close(std::exchange(in_, -1));  // the end of its input
  if (pid_ < 0) {                                 // not started (or collected before)
    throwIfInterrupted();
    return std::move(result_);
  }
  const pid_t pid = std::exchange(pid_, -1);
  Pipes pipes{{{pipes_[0], POLLIN, 0}, {pipes_[1], POLLIN, 0}}, {&result_.out, &result_.err}};
  pipes_[0] = pipes_[1] = -1;
  auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds);
  if (stopNow) {
    stopGroup(pid, SIGTERM);
    result_.timedOut = true;
  }
  while (!result_.timedOut && !ended(pid) && !interruptSignal()) {
    if (timeoutSeconds > 0 && Clock::now() >= deadline) {
      stopGroup(pid, SIGTERM);
      result_.timedOut = true;
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
  if (!result_.timedOut) {
    if (WIFEXITED(status)) result_.exitStatus = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result_.signal = WTERMSIG(status);
  }
  return std::move(result_);
}

}  // namespace gridlock::support
