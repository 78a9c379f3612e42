// The rewrite core links no compiler: this binary is the core and its tests alone, and its
// process maps neither libclang-cpp nor libLLVM (as PythonScan.LoadsNoLLVM for the Python scan).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace gridlock::rewrite {
namespace {

TEST(RewriteCore, LinksNoClang) {
  std::ifstream maps("/proc/self/maps");
  ASSERT_TRUE(maps) << "/proc/self/maps cannot be read";
  std::string line, loaded;
  size_t lines = 0;
  while (std::getline(maps, line)) {
    ++lines;
    if (line.find("libclang-cpp") != std::string::npos || line.find("libLLVM") != std::string::npos)
      loaded += line.substr(line.rfind(' ') + 1) + " ";
  }
  EXPECT_GT(lines, 0u);
  EXPECT_EQ(loaded, "");
}

}  // namespace
}  // namespace gridlock::rewrite
