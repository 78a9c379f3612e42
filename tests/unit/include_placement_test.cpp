// Where new #includes and forward declarations go (rewrite/include_placement.h): offsets
// checked against the line they must precede, in files written for each case.
#include "rewrite/cpp/include_placement.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite::cpp {
namespace {

// The text from `at` to the end of its line, or "(none)".
std::string lineAt(const std::string& text, std::optional<size_t> at) {
  if (!at) return "(none)";
  if (*at == text.size()) return "(end)";
  return text.substr(*at, text.find('\n', *at) - *at);
}

TEST(IncludePlacement, JoinsTheBlockOfItsDirectoryInOrder) {
  const std::string text =
      "#include \"model/init.h\"\n"
      "#include \"model/rotary.h\"\n"
      "\n"
      "#include \"gridlock/collectives.h\"\n"
      "#include \"gridlock/tp_shard.h\"\n"
      "\n"
      "#include <vector>\n";
  // Sorted among its directory's includes: before the first that sorts after it ...
  EXPECT_EQ(lineAt(text, blockOffset(text, "gridlock/process_group.h")),
            "#include \"gridlock/tp_shard.h\"");
  // ... or after the last of them, not after the block's other lines.
  EXPECT_EQ(lineAt(text, blockOffset(text, "gridlock/zz.h")), "");
  EXPECT_EQ(blockOffset(text, "gridlock/zz.h"), text.find("\n\n#include <vector>") + 1);
  EXPECT_EQ(lineAt(text, blockOffset(text, "model/a.h")), "#include \"model/init.h\"");
  // No include of its directory, no directory, or angled: clang-format's categories decide.
  EXPECT_EQ(lineAt(text, blockOffset(text, "runtime/x.h")), "(none)");
  EXPECT_EQ(lineAt(text, blockOffset(text, "x.h")), "(none)");
}

TEST(IncludePlacement, ABlockMixingDirectoriesTakesItAmongItsOwn) {
  const std::string text =
      "#include \"gridlock/parallel_state.h\"\n"
      "#include \"gridlock/tp_shard.h\"\n"
      "#include \"model/init.h\"\n"
      "\n"
      "namespace m {}\n";
  EXPECT_EQ(lineAt(text, blockOffset(text, "gridlock/require.h")),
            "#include \"gridlock/tp_shard.h\"");
  // After tp_shard.h, before model/init.h (the last include of its directory).
  EXPECT_EQ(lineAt(text, blockOffset(text, "gridlock/zz.h")), "#include \"model/init.h\"");
}

TEST(IncludePlacement, ForwardDeclarationsGoAfterTheLastIncludeElseThePragma) {
  EXPECT_EQ(lineAt("#pragma once\n\n#include <span>\n#include <vector>\n\nnamespace m {}\n",
                   forwardDeclarationOffset(
                       "#pragma once\n\n#include <span>\n#include <vector>\n\nnamespace m {}\n")),
            "");
  const std::string pragmaOnly = "// x\n#pragma once\nnamespace m {}\n";
  EXPECT_EQ(lineAt(pragmaOnly, forwardDeclarationOffset(pragmaOnly)), "namespace m {}");
  EXPECT_EQ(forwardDeclarationOffset("#ifndef X_H\n#define X_H\nint f();\n#endif\n"), std::nullopt);
  // A file ending in an include without a newline: none (the include is used instead).
  EXPECT_EQ(forwardDeclarationOffset("#include <vector>"), std::nullopt);
}

TEST(IncludePlacement, IncludesHeaderMatchesQuotedAndAngledSpellings) {
  const std::string text = "#include \"gridlock/a.h\"\n#  include <mpi.h>\n// #include \"b.h\"\n";
  EXPECT_TRUE(includesHeader(text, "gridlock/a.h"));
  EXPECT_TRUE(includesHeader(text, "\"gridlock/a.h\""));
  EXPECT_TRUE(includesHeader(text, "<mpi.h>"));
  EXPECT_FALSE(includesHeader(text, "mpi.h"));
  EXPECT_FALSE(includesHeader(text, "b.h"));
  const std::string declared = "namespace gridlock {\n  class ProcessGroupCollection;\n}\n";
  EXPECT_TRUE(declaresForward(declared, "class gridlock::ProcessGroupCollection"));
  EXPECT_FALSE(declaresForward(declared, "struct gridlock::ProcessGroupCollection"));
  EXPECT_FALSE(declaresForward("// class ProcessGroupCollection;\n",
                               "class gridlock::ProcessGroupCollection"));
  EXPECT_TRUE(isHeaderFile("model/rotary.h"));
  EXPECT_TRUE(isHeaderFile("k.cuh"));
  EXPECT_FALSE(isHeaderFile("model/rotary.cpp"));
}

}  // namespace
}  // namespace gridlock::rewrite::cpp
