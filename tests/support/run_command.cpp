#include "support/run_command.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace gridlock::test {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeFile(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string makeTempDir(const std::string& tag) {
  std::string templ =
      (std::filesystem::temp_directory_path() / ("gridlock-" + tag + "-XXXXXX")).string();
  if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  return templ;
}

CommandResult runCommand(const std::string& command) {
  // A scan prints a progress line every few seconds when stderr is no terminal: how many
  // depends on the machine's speed, so tests that compare stderr would fail on a slow day.
  // Tests of the progress line set the interval in their command.
  setenv("GRIDLOCK_PROGRESS_INTERVAL", "1000000000", /*overwrite=*/0);
  std::string dir = makeTempDir("cmd");
  std::string out = dir + "/out", err = dir + "/err";
  int raw = std::system((command + " >" + out + " 2>" + err).c_str());
  CommandResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = readFile(out);
  r.err = readFile(err);
  std::filesystem::remove_all(dir);
  return r;
}

pid_t spawnProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                   const std::string& errPath, const std::string& cwd) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int fd = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 2);
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    for (const auto& e : env) ::putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

std::optional<int> waitOrKill(pid_t pid, std::chrono::milliseconds limit) {
  int status = 0;
  for (auto until = std::chrono::steady_clock::now() + limit;
       std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(std::chrono::milliseconds(20)))
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return std::nullopt;
}

Spawned runStopping(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                    const std::function<void()>& whileStopped) {
  std::string errPath = makeTempDir("spawn") + "/err";
  pid_t pid = spawnProcess(argv, env, errPath);
  Spawned s;
  int raw = 0;
  while (::waitpid(pid, &raw, WUNTRACED) == pid) {
    if (WIFSTOPPED(raw)) {
      whileStopped();
      ::kill(pid, SIGCONT);
      continue;
    }
    s.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    break;
  }
  s.err = readFile(errPath);
  std::filesystem::remove_all(std::filesystem::path(errPath).parent_path());
  return s;
}

}  // namespace gridlock::test
