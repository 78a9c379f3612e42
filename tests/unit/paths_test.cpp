// support/paths.h names every path as llvm::sys (and frontend::realPath, which is built on it)
// named it: the parts without Clang must print the same paths as the full build did.
#include "support/paths.h"
#include "frontend/file_places.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace gridlock::support {
namespace {

namespace fs = std::filesystem;

std::string llvmAbsolute(const std::string& p, bool fold) {
  llvm::SmallString<256> out(p);
  llvm::sys::fs::make_absolute(out);
  if (fold) llvm::sys::path::remove_dots(out, true);
  return std::string(out);
}

std::string llvmRemoveDots(const std::string& p) {
  llvm::SmallString<256> out(p);
  llvm::sys::path::remove_dots(out, true);
  return std::string(out);
}

std::string llvmJoin(const std::string& a, const std::string& b) {
  llvm::SmallString<256> out(a);
  llvm::sys::path::append(out, b);
  return std::string(out);
}

// A directory with a file, a symlink to the directory, a dangling symlink, a symlink loop and
// a directory the working directory is reached through by a symlink.
class Paths : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("gridlock-paths-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "dir");
    std::ofstream(root_ / "dir/file") << "x\n";
    fs::create_directory_symlink(root_ / "dir", root_ / "link");
    fs::create_symlink(root_ / "missing", root_ / "dangling");
    fs::create_symlink(root_ / "loop2", root_ / "loop");
    fs::create_symlink(root_ / "loop", root_ / "loop2");
    fs::create_directory_symlink(root_ / "dir", root_ / "via");
    old_ = fs::current_path();
    const char* pwd = ::getenv("PWD");
    oldPwd_ = pwd ? pwd : "";
    hadPwd_ = pwd != nullptr;
  }
  void TearDown() override {
    fs::current_path(old_);
    if (hadPwd_)
      ::setenv("PWD", oldPwd_.c_str(), 1);
    else
      ::unsetenv("PWD");
    fs::remove_all(root_);
  }
  // The working directory `dir`, named `pwd` in $PWD as a shell names it.
  void enter(const fs::path& dir, const std::string& pwd) {
    fs::current_path(dir);
    ::setenv("PWD", pwd.c_str(), 1);
  }

  // Every path the table covers: relative ones are read from the working directory.
  std::vector<std::string> cases() const {
    std::string r = root_.string();
    return {// existing
            r + "/dir", r + "/dir/file", "dir", "dir/file", "file",
            // missing
            "missing", r + "/missing", "missing/../dir", "missing/x/..",
            // a trailing /, a doubled one
            "dir/", r + "/dir/", "dir/file/", "dir//file", "./",
            // .. above the root
            "/..", "/../..", "/../../x", r + "/../../../../../../..", "../x/..", "..",
            // .
            ".", "./dir/./file", "dir/.",
            // symlinks, a dangling one, a loop
            "link", r + "/link/file", "link/../dir", "dangling", "loop", r + "/loop/x",
            // the empty string, roots
            "", "/", "//", "///x", "//host/x", "//host", "//host/"};
  }

  void expectSameAsLlvm() {
    for (const std::string& p : cases()) {
      SCOPED_TRACE("path \"" + p + "\" from " + fs::current_path().string());
      EXPECT_EQ(realPath(p), frontend::realPath(p));
      EXPECT_EQ(absolute(p), llvmAbsolute(p, true));
      EXPECT_EQ(absoluteAsIs(p), llvmAbsolute(p, false));
      EXPECT_EQ(removeDots(p), llvmRemoveDots(p));
      EXPECT_EQ(parentPath(p), llvm::sys::path::parent_path(p).str());
      EXPECT_EQ(fileName(p), llvm::sys::path::filename(p).str());
      EXPECT_EQ(rootPath(p), llvm::sys::path::root_path(p).str());
      EXPECT_EQ(isAbsolute(p), llvm::sys::path::is_absolute(p));
      EXPECT_EQ(exists(p), llvm::sys::fs::exists(p));
      EXPECT_EQ(isDirectory(p), llvm::sys::fs::is_directory(p));
      EXPECT_EQ(isRegularFile(p), llvm::sys::fs::is_regular_file(p));
      EXPECT_EQ(isSymlink(p), llvm::sys::fs::is_symlink_file(p));
      for (const std::string& name : {"", "x", "/x", "x/", "//host/x"})
        EXPECT_EQ(join(p, name), llvmJoin(p, name)) << "joined with \"" << name << "\"";
    }
  }

  fs::path root_, old_;
  std::string oldPwd_;
  bool hadPwd_ = false;
};

TEST_F(Paths, SameAsLlvm) {
  enter(root_, root_.string());
  expectSameAsLlvm();
}

// From a directory reached through a symlink, relative paths are made absolute under the name
// the shell gives it ($PWD), not its real path.
TEST_F(Paths, SameAsLlvmThroughASymlinkedWorkingDirectory) {
  enter(root_ / "via", (root_ / "via").string());
  expectSameAsLlvm();
  EXPECT_EQ(absolute("x/../file"), (root_ / "via/file").string());
  EXPECT_EQ(realPath("file"), (fs::canonical(root_) / "dir/file").string());
  // A $PWD naming another directory is not believed.
  enter(root_ / "via", root_.string());
  expectSameAsLlvm();
  EXPECT_EQ(absolute("x"), (fs::canonical(root_) / "dir/x").string());
}

// What the table's answers are, written out, so that support and LLVM cannot agree on a
// wrong one.
TEST_F(Paths, Answers) {
  enter(root_, root_.string());
  std::string r = root_.string(), real = fs::canonical(root_).string();
  EXPECT_EQ(realPath("link/file"), real + "/dir/file");
  EXPECT_EQ(realPath("missing/../dir/"), r + "/dir");
  EXPECT_EQ(realPath("loop"), r + "/loop");
  EXPECT_EQ(realPath(""), r);
  EXPECT_EQ(realPath("/../../x"), "/x");
  EXPECT_EQ(absolute("./a//b/./"), r + "/a/b");
  EXPECT_EQ(absoluteAsIs("a/.."), r + "/a/..");
  EXPECT_EQ(parentPath("/a"), "/");
  EXPECT_EQ(parentPath("a"), "");
  EXPECT_EQ(parentPath("/"), "");
  EXPECT_EQ(parentPath("a/b/"), "a/b");
  EXPECT_EQ(fileName("a/"), ".");
  EXPECT_EQ(join("a", "/b"), "a/b");
  EXPECT_EQ(join("", "b"), "b");
  EXPECT_TRUE(isDirectory("link"));
  EXPECT_FALSE(exists("dangling"));
  EXPECT_TRUE(isSymlink("dangling"));
  EXPECT_FALSE(isRegularFile("dir"));
}

}  // namespace
}  // namespace gridlock::support
