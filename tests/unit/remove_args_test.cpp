// What the scan leaves out of a database command (frontend/remove_args.h): flags Clang does not
// know, and what --remove-arg patterns match; never the compiler, the inputs, or the flags
// gridlock adds itself (frontend/compile_db.h).
#include "frontend/remove_args.h"
#include "frontend/compile_db.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>

#include <fstream>
#include <stdexcept>

namespace gridlock::frontend {
namespace {

using Args = std::vector<std::string>;

TEST(RemoveArgs, AFlagGoesWithItsValuesAndInputsStay) {
  ArgRemover r({"*"});
  ArgRemover::Result out = r.apply({"g++", "-O2", "-include", "pre.h", "a.cpp", "-o", "a.o"});
  EXPECT_EQ(out.args, (Args{"g++", "a.cpp"}));
  EXPECT_EQ(out.notes,
            (Args{"removed -O2 (remove pattern '*')", "removed -include pre.h (remove pattern '*')",
                  "removed -o a.o (remove pattern '*')"}));
  EXPECT_EQ(out.matched, (std::vector<bool>{true}));
}

TEST(RemoveArgs, NameJoinedWordsAndGlob) {
  ArgRemover r({"-D", "-include p*", "-march=*", "-Wno-*"});
  ArgRemover::Result out = r.apply({"clang++", "-DA", "-D", "B", "-include", "pre.h", "-Ix",
                                    "-march=znver9", "-Wall", "-c", "a.cpp"});
  EXPECT_EQ(out.args, (Args{"clang++", "-Ix", "-Wall", "-c", "a.cpp"}));
  EXPECT_EQ(out.notes,
            (Args{"removed -DA (remove pattern '-D')", "removed -D B (remove pattern '-D')",
                  "removed -include pre.h (remove pattern '-include p*')",
                  "removed -march=znver9 (remove pattern '-march=*')"}));
  EXPECT_EQ(out.matched, (std::vector<bool>{true, true, true, false}));
}

// Without patterns, only what Clang's driver does not know goes, said; a flag whose value is
// missing at the end is such a word too.
TEST(RemoveArgs, UnknownFlagsAreDroppedAndSaid) {
  ArgRemover r({});
  ArgRemover::Result out = r.apply(
      {"/usr/bin/g++", "-ftree-vectorizer-verbose=2", "-O2", "-fconserve-stack", "a.cpp", "-o"});
  EXPECT_EQ(out.args, (Args{"/usr/bin/g++", "-O2", "a.cpp"}));
  EXPECT_EQ(out.notes, (Args{"dropped -ftree-vectorizer-verbose=2: Clang does not know it",
                             "dropped -fconserve-stack: Clang does not know it",
                             "dropped -o: Clang does not know it"}));
}

TEST(RemoveArgs, APatternThatIsNoGlobIsAnError) {
  try {
    ArgRemover r({"-f[oo"});
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--remove-arg '-f[oo': not a glob: invalid glob pattern, unmatched '['");
  }
  EXPECT_THROW(ArgRemover({""}), std::invalid_argument);
}

// An nvcc entry: the pattern applies to the translated Clang command, not to the CUDA flags
// gridlock adds (its own -isystem of CUDA's cccl stays), nor to --extra-arg.
TEST(RemoveArgs, GridlocksOwnFlagsStay) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gridlock-remove-args", dir));
  std::string d(dir);
  std::ofstream(d + "/compile_commands.json")
      << "[{\"directory\": \"" << d << "\", \"file\": \"" << d
      << "/k.cu\", \"command\": \"/usr/local/cuda/bin/nvcc -isystem /dep -DX -x cu -c " << d
      << "/k.cu\"}]\n";
  DatabaseOptions o;
  o.buildDir = d;
  o.removeArgs = {"-isystem", "-D"};
  o.extraArgs = {"-DEXTRA"};
  auto db = ScanDatabase::load(o);
  auto cmds = db->getCompileCommands(d + "/k.cu");
  ASSERT_EQ(cmds.size(), 1u);
  std::string line;
  for (const auto& a : cmds[0].CommandLine) line += (line.empty() ? "" : " ") + a;
  std::string want = "clang++ -x cuda " + d + "/k.cu";
  for (const auto& f : cudaHostFlags(o.cuda)) want += " " + f;
  EXPECT_EQ(line, want + " -fno-caret-diagnostics -DEXTRA");
  EXPECT_EQ(db->notes(d + "/k.cu"), (Args{"nvcc command translated to Clang CUDA (host side)",
                                          "removed -isystem /dep (remove pattern '-isystem')",
                                          "removed -DX (remove pattern '-D')"}));
  EXPECT_EQ(db->unusedRemovals(), Args{});
  llvm::sys::fs::remove_directories(d);
}

}  // namespace
}  // namespace gridlock::frontend
