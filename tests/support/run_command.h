// Runs a shell command for tests, capturing its exit status, stdout and stderr.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::test {

struct CommandResult {
  int status = -1;  // exit status, or -1 when it did not exit normally
  std::string out;
  std::string err;
};

CommandResult runCommand(const std::string& command);
std::string readFile(const std::string& path);
void writeFile(const std::string& path, const std::string& text);
// A fresh empty directory under the system temp dir.
std::string makeTempDir(const std::string& tag);

// What a child process did: its exit status (or 128 + signal) and its stderr.
struct Spawned {
  int status = -1;
  std::string err;
};

// Starts `argv` (argv[0] a path) in `cwd` ("": ours) with `env` ("NAME=VALUE") added to the
// environment, its stderr to `errPath` and its stdout to /dev/null; its pid.
pid_t spawnProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                   const std::string& errPath, const std::string& cwd = "");
// Waits up to `limit` for child `pid` to end: its wait status; nothing when it did not, after
// killing it (SIGKILL) and reaping it.
std::optional<int> waitOrKill(pid_t pid, std::chrono::milliseconds limit);

// Runs `argv` with `env` added to the environment; when the child stops itself (SIGSTOP, from
// GRIDLOCK_STOP_AT), calls `whileStopped` and continues it. A barrier, not a sleep.
Spawned runStopping(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                    const std::function<void()>& whileStopped);

}  // namespace gridlock::test
