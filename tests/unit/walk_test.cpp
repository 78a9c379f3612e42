// support::walkTree never ends short: a directory it cannot open (gone since its parent was
// listed, out of file descriptors) is an error naming it, or, when asked, handed over while
// the walk goes on with the rest.
#include "support/walk.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <utility>
#include <vector>

namespace gridlock::support {
namespace {

namespace fs = std::filesystem;

// a/x.py, b/y.py, b/c/z.py under a fresh directory.
class Walk : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("gridlock-walk-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    for (const char* f : {"a/x.py", "b/y.py", "b/c/z.py"}) {
      fs::create_directories((root_ / f).parent_path());
      std::ofstream(root_ / f) << "\n";
    }
  }
  void TearDown() override { fs::remove_all(root_); }

  // The files under the root, root-relative.
  std::set<std::string> files(const WalkFailure& failed = {}) {
    std::set<std::string> out;
    walkTree(
        root_.string(),
        [&](const fs::directory_entry& e) {
          if (e.is_regular_file()) out.insert(e.path().lexically_relative(root_).string());
          return e.is_directory();
        },
        failed);
    return out;
  }

  fs::path root_;
};

TEST_F(Walk, ListsEveryFile) {
  EXPECT_EQ(files(), (std::set<std::string>{"a/x.py", "b/c/z.py", "b/y.py"}));
}

// Removed after the root was listed, before it is opened: the walk names it.
TEST_F(Walk, ADirectoryThatVanishesIsAnErrorNamingIt) {
  auto removeB = [&](const fs::directory_entry& e) {
    if (e.path().filename() == "a") fs::remove_all(root_ / "b");
    return e.is_directory();
  };
  try {
    walkTree(root_.string(), removeB);
    FAIL() << "no error";
  } catch (const WalkError& e) {
    EXPECT_EQ(e.dir(), (root_ / "b").string());
    EXPECT_EQ(std::string(e.what()),
              (root_ / "b").string() + ": cannot read the directory: No such file or directory");
  }
}

// No descriptor left (EMFILE) to open a directory with: an error, never a shorter list.
TEST_F(Walk, RunningOutOfDescriptorsIsAnErrorNamingTheDirectory) {
  rlimit old;
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &old), 0);
  int lowest = ::dup(0);  // the lowest free descriptor: the next open takes it
  ASSERT_GE(lowest, 0);
  ::close(lowest);
  rlimit tight = old;
  tight.rlim_cur = static_cast<rlim_t>(lowest);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &tight), 0);
  std::string error = "(no error)";
  try {
    files();
  } catch (const WalkError& e) {
    error = e.what();
  }
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &old), 0);
  EXPECT_EQ(error, root_.string() + ": cannot read the directory: Too many open files");
}

// With a handler, the directory is handed over and the walk goes on with the others; a link
// to a directory is visited, never entered.
TEST_F(Walk, AHandlerGetsTheDirectoryAndTheWalkGoesOn) {
  fs::create_directories(root_ / "d");
  std::ofstream(root_ / "d/w.py") << "\n";
  fs::create_directory_symlink(root_ / "a", root_ / "l");
  std::vector<std::string> failed;
  std::set<std::string> seen;
  bool first = true;
  auto visit = [&](const fs::directory_entry& e) {
    if (std::exchange(first, false)) fs::remove_all(root_ / "b");  // the root is listed by now
    if (e.is_regular_file()) seen.insert(e.path().lexically_relative(root_).string());
    return e.is_directory();
  };
  walkTree(root_.string(), visit, [&](const WalkError& e) { failed.push_back(e.dir()); });
  EXPECT_EQ(failed, (std::vector<std::string>{(root_ / "b").string()}));
  EXPECT_EQ(seen, (std::set<std::string>{"a/x.py", "d/w.py"}));
}

}  // namespace
}  // namespace gridlock::support
