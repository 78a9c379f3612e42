// SIGINT/SIGTERM to a real `gridlock pair` process while its command hangs: the command's whole
// process group goes (a member that ignores the signal too), the git worktrees and temporary
// results go, and gridlock exits 128+signal. Also the default timeout in --help.
#include "fake_suite.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

extern char** environ;

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;

// Records its pid and group, starts a child that ignores the signals, says it is ready (the
// test's barrier), then waits forever. The tree it works in is recorded before this.
const char* kHangTail = R"(
echo $$ > "$m/pid"
cut -d' ' -f5 /proc/$$/stat > "$m/pgid"
echo "${GRIDLOCK_RESULTS_DIR:-}" > "$m/results"
sh -c 'trap "" TERM INT HUP; echo $$ > "$PAIR_TEST_MARKS/stubborn.tmp";
       mv "$PAIR_TEST_MARKS/stubborn.tmp" "$PAIR_TEST_MARKS/stubborn"; while :; do sleep 1; done' &
while [ ! -e "$m/stubborn" ]; do sleep 0.01; done
: > "$m/ready"
wait
)";

// The hung build or test command.
std::string hangScript() {
  return std::string("m=$PAIR_TEST_MARKS\npwd > \"$m/tree\"\n") + kHangTail;
}

// A `git` that hangs right after `git worktree add` added the worktree ($6), before pair knows.
std::string hangingGit(const std::string& realGit) {
  return "#!/bin/sh\nif [ \"$3\" = worktree ] && [ \"$4\" = add ]; then\n  '" + realGit +
         "' \"$@\" || exit $?\n  m=$PAIR_TEST_MARKS\n  echo \"$6\" > \"$m/tree\"\n" + kHangTail +
         "fi\nexec '" + realGit + "' \"$@\"\n";
}

// Live (not zombie) processes in process group `pgid`.
std::vector<int> liveMembers(int pgid) {
  std::vector<int> pids;
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = readFile(e.path() / "stat");
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (sscanf(stat.c_str() + close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) continue;
    if (pgrp == pgid && state != 'Z' && state != 'X') pids.push_back(std::stoi(name));
  }
  return pids;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

struct Case {
  const char* name;
  int signal;
  const char* build;  // "" for none
  const char* test;
  bool hangingGit = false;  // `git worktree add` hangs instead of a command
};

class Interrupt : public ::testing::TestWithParam<Case> {};

TEST_P(Interrupt, StopsTheCommandsGroupRemovesWhatItMadeAndExits128PlusSignal) {
  const Case& c = GetParam();
  TempDir d;
  std::string repo = d / "repo", marks = d / "marks", tmp = d / "tmp";
  fs::create_directories(marks);
  fs::create_directories(tmp);
  makeTree(repo, "A.a pass\n");
  writeFile(repo + "/hang.sh", hangScript());
  std::string git = "cd '" + repo +
                    "' && git -c init.defaultBranch=main init -q && "
                    "git -c user.name=t -c user.email=t@t add -A && "
                    "git -c user.name=t -c user.email=t@t commit -qm base && "
                    "echo 'A.a fail' > tests.txt && "
                    "git -c user.name=t -c user.email=t@t commit -qam change";
  ASSERT_EQ(std::system(git.c_str()), 0);

  std::vector<std::string> args = {GRIDLOCK_BIN, "pair", "--baseline", "HEAD~1", "--change", "HEAD",
                                   "--repo",     repo,   "--test",     c.test,   "--reruns", "1"};
  if (*c.build) args.insert(args.end(), {"--build", c.build});
  std::vector<std::string> envs = {"TMPDIR=" + tmp, "PAIR_TEST_MARKS=" + marks};
  std::string path = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
  if (c.hangingGit) {
    std::string realGit;
    FILE* which = popen("command -v git", "r");
    char buf[4096] = {};
    if (which && fgets(buf, sizeof buf, which)) realGit = trim(buf);
    if (which) pclose(which);
    ASSERT_FALSE(realGit.empty());
    writeFile(d / "bin/git", hangingGit(realGit));
    fs::permissions(d / "bin/git", fs::perms::owner_all);
    path = (d / "bin") + ":" + path;
  }
  envs.push_back("PATH=" + path);
  for (char** e = environ; *e; ++e)
    if (strncmp(*e, "TMPDIR=", 7) != 0 && strncmp(*e, "PATH=", 5) != 0) envs.push_back(*e);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int out = open((d / "stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open((d / "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    for (auto& e : envs) envp.push_back(e.data());
    argv.push_back(nullptr);
    envp.push_back(nullptr);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }

  // Barrier: the hung command is running (and its stubborn child ignores the signals).
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!fs::exists(marks + "/ready") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(marks + "/ready")) << readFile(d / "stderr");
  int pgid = std::stoi(readFile(marks + "/pgid"));
  std::string results = trim(readFile(marks + "/results")), tree = trim(readFile(marks + "/tree"));

  kill(pid, c.signal);
  int status = 0;
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waitpid(pid, &status, WNOHANG) == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  bool exited = WIFEXITED(status);
  if (!exited && !WIFSIGNALED(status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  std::vector<int> left = liveMembers(pgid);
  kill(-pgid, SIGKILL);  // whatever the outcome, leave nothing behind

  EXPECT_TRUE(exited) << "gridlock did not exit by itself: status " << status;
  if (exited) EXPECT_EQ(WEXITSTATUS(status), 128 + c.signal);
  EXPECT_EQ(left, std::vector<int>{}) << "still running in the command's process group";
  std::string err = readFile(d / "stderr");
  EXPECT_NE(err.find(std::string("gridlock pair: interrupted by signal ") +
                     std::to_string(c.signal) + (c.signal == SIGINT ? " (SIGINT)" : " (SIGTERM)")),
            std::string::npos)
      << err;
  EXPECT_EQ(readFile(d / "stdout"), "");  // no report from an interrupted run
  // The scratch directory (worktrees, temporary results) is gone, and so are git's worktrees.
  EXPECT_TRUE(fs::is_empty(tmp)) << fs::directory_iterator(tmp)->path();
  EXPECT_FALSE(fs::exists(tree)) << tree;
  if (!results.empty()) EXPECT_FALSE(fs::exists(results)) << results;
  std::string list;
  std::string count = "git -C '" + repo + "' worktree list --porcelain | grep -c '^worktree '";
  FILE* p = popen(count.c_str(), "r");
  char buf[64] = {};
  if (p && fgets(buf, sizeof buf, p)) list = buf;
  if (p) pclose(p);
  EXPECT_EQ(list, "1\n");
}

INSTANTIATE_TEST_SUITE_P(
    Pair, Interrupt,
    ::testing::Values(Case{"TermDuringTheBaselinesTests", SIGTERM, "", "sh hang.sh"},
                      Case{"IntDuringTheBuild", SIGINT, "sh hang.sh", "sh run_tests.sh"},
                      Case{"TermDuringARerun", SIGTERM, "",
                           "if [ $GRIDLOCK_RUN = 1 ]; then exec sh hang.sh; fi; sh run_tests.sh"},
                      Case{"IntDuringGitWorktreeAdd", SIGINT, "", "sh run_tests.sh", true}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(DefaultTimeout, HelpSaysTheDefaultAndHowToTurnItOff) {
  std::string out;
  FILE* p = popen((std::string(GRIDLOCK_BIN) + " pair --help").c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (p) pclose(p);
  EXPECT_NE(out.find("Seconds a test command run may take before its process group is killed "
                     "(default 3600; 0: no limit)"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace gridlock::pair
