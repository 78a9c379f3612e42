// The Clang resource directory, looked up at run time (never a build-tree path): the first
// candidate holding include/stddef.h, or an error naming every place it looked.
#include "frontend/resource_dir.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace gridlock::frontend {
namespace {

namespace fs = std::filesystem;

TEST(ResourceDir, TheFirstCandidateHoldingStddefWins) {
  std::string templ = (fs::temp_directory_path() / "gridlock-resdir-XXXXXX").string();
  ASSERT_NE(mkdtemp(templ.data()), nullptr);
  fs::create_directories(templ + "/empty/include");
  fs::create_directories(templ + "/good/include");
  fs::create_directories(templ + "/also/include");
  std::ofstream(templ + "/good/include/stddef.h") << "\n";
  std::ofstream(templ + "/also/include/stddef.h") << "\n";
  EXPECT_EQ(findResourceDir({{templ + "/missing", "a"},
                             {templ + "/empty", "b"},
                             {templ + "/good", "c"},
                             {templ + "/also", "d"}}),
            templ + "/good");
  fs::remove_all(templ);
}

TEST(ResourceDir, NoneFoundIsAnErrorNamingWhereItLookedAndTheFix) {
  try {
    findResourceDir({{"/nonexistent/a", "built with"}, {"/nonexistent/b", "beside libclang-cpp"}});
    FAIL() << "found a resource directory in nonexistent directories";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "the Clang resource directory (Clang's own headers) was not found: no "
                 "include/stddef.h in /nonexistent/a (built with), /nonexistent/b (beside "
                 "libclang-cpp); install libclang-common-19-dev or pass --resource-dir DIR");
  }
}

TEST(ResourceDir, TheDefaultsAreTheBakedPathThenBesideTheLoadedLibclangCpp) {
  std::vector<ResourceDirCandidate> c = resourceDirCandidates();
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0].why, "built with");
  EXPECT_EQ(c[1].why, "beside libclang-cpp");
  // <dir of the loaded libclang-cpp.so.19.*>/clang/19: that dir holds the library.
  fs::path libdir = fs::path(c[1].dir).parent_path().parent_path();
  bool holds = false;
  for (const auto& e : fs::directory_iterator(libdir))
    if (e.path().filename().string().rfind("libclang-cpp.so.19", 0) == 0) holds = true;
  EXPECT_TRUE(holds) << libdir;
  EXPECT_EQ(fs::path(c[1].dir).filename(), "19");
  // On a machine with libclang-common-19-dev (setup.sh installs it) one of them is there.
  std::string found = clangResourceDir();
  EXPECT_TRUE(fs::exists(found + "/include/stddef.h")) << found;
}

}  // namespace
}  // namespace gridlock::frontend
