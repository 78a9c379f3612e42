// The apply library's YAML (apply/replacements_yaml.h), written without LLVM, against what
// LLVM's YAML writer makes of the same clang::tooling::TranslationUnitReplacements, which
// clang-apply-replacements reads: byte for byte for every ASCII string of one and two
// characters, the words and numbers a plain scalar would misread, and code points of every
// kind. The one difference allowed: a code point Unicode has not assigned, which LLVM escapes
// (\uXXXX) and this writes as it is; both read back as the same text.
#include "apply/replacements_yaml.h"

#include <clang/Tooling/ReplacementsYaml.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/YAMLTraits.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <vector>

namespace gridlock::apply {
namespace {

// LLVM's document for one file's replacements whose texts are `texts`, and ours.
std::string llvmDocument(const std::string& main, const std::string& path,
                         const std::vector<std::string>& texts) {
  clang::tooling::TranslationUnitReplacements tu;
  tu.MainSourceFile = main;
  for (size_t i = 0; i < texts.size(); ++i)
    tu.Replacements.emplace_back(path, static_cast<unsigned>(3 * i), 1u, texts[i]);
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::yaml::Output yaml(os);
  yaml << tu;
  return out;
}

std::string ourDocument(const std::string& main, const std::string& path,
                        const std::vector<std::string>& texts) {
  Prepared p;
  if (!texts.empty()) {
    p.changes.push_back({"f.cpp", path, "", "", {}});
    for (size_t i = 0; i < texts.size(); ++i)
      p.changes[0].replacements.push_back({static_cast<unsigned>(3 * i), 1u, texts[i]});
  }
  return exportYaml(p, main);
}

std::string utf8(uint32_t cp) {
  char buf[4];
  char* end = buf;
  llvm::ConvertCodePointToUTF8(cp, end);
  return std::string(buf, end);
}

// Each text, as ReplacementText and as FilePath and MainSourceFile, the same in both.
void expectSame(const std::vector<std::string>& texts) {
  EXPECT_EQ(ourDocument("main.cpp", "/src/f.cpp", texts),
            llvmDocument("main.cpp", "/src/f.cpp", texts));
  for (const auto& t : texts) {
    SCOPED_TRACE("text: " + t);
    EXPECT_EQ(ourDocument(t, t, {"x"}), llvmDocument(t, t, {"x"}));
  }
}

TEST(ReplacementsYaml, EmptyAsLlvmWritesIt) {
  EXPECT_EQ(ourDocument("", "", {}), llvmDocument("", "", {}));
  EXPECT_EQ(ourDocument("", "", {}), "---\nMainSourceFile:  ''\nReplacements:    []\n...\n");
  expectSame({""});
}

TEST(ReplacementsYaml, EveryAsciiStringOfOneAndTwoCharactersAsLlvmWritesIt) {
  std::vector<std::string> texts;
  for (int a = 0; a < 128; ++a) {
    texts.push_back(std::string(1, static_cast<char>(a)));
    for (int b = 0; b < 128; ++b) texts.push_back({static_cast<char>(a), static_cast<char>(b)});
  }
  // One document each, so that a failure names the text (one of 16k would not be shown).
  size_t differ = 0;
  for (const auto& t : texts)
    if (ourDocument(t, "/f", {t}) != llvmDocument(t, "/f", {t}) && ++differ <= 10)
      ADD_FAILURE() << "text (hex):" << llvm::toHex(t) << "\nours:\n"
                    << ourDocument(t, "/f", {t}) << "LLVM's:\n"
                    << llvmDocument(t, "/f", {t});
  EXPECT_EQ(differ, 0u);
}

TEST(ReplacementsYaml, WordsNumbersAndCodeAsLlvmWritesThem) {
  expectSame({"null",
              "Null",
              "NULL",
              "~",
              "true",
              "True",
              "TRUE",
              "false",
              "False",
              "FALSE",
              "nulls",
              "yes",
              "0",
              "12",
              "-1",
              "+1",
              "1.5",
              ".5",
              "5.",
              "1e5",
              "1e",
              "1e+",
              "1E-3",
              "5.e3",
              ".e5",
              "e5",
              "1.2.3",
              ".",
              "-",
              "+",
              "-.",
              ".nan",
              ".NaN",
              ".NAN",
              "-.nan",
              ".inf",
              "-.inf",
              "+.Inf",
              ".INF",
              "0o17",
              "0o",
              "0o8",
              "0x1F",
              "0x",
              "0xg",
              "+0x1",
              "-0o7",
              " lead",
              "trail ",
              "\ttab",
              "tab\t",
              "it's",
              "a\"b",
              "back\\slash",
              "#include \"gridlock/require.h\"\n",
              "line\r\n",
              "this->tp_",
              "gridlock::require_group<T>(\"msg\")",
              ", pg_collection",
              "a: b",
              "a #b",
              "- x",
              "std::string",
              "/*env=*/env, ",
              "\x7f",
              "a\x1b",
              "\x01\x02"});
}

TEST(ReplacementsYaml, CodePointsOfEveryKindAsLlvmWritesThem) {
  std::vector<std::string> texts;
  // Letters, CJK, an emoji, C1 controls, NEL, NBSP, the soft hyphen, the line and paragraph
  // separators, format characters (ZWSP, BOM, bidi marks, musical symbol formats, tags),
  // private use, noncharacters, spaces, the last code point.
  for (uint32_t cp :
       {0xe9u,     0x65e5u,   0x1f600u, 0x80u,    0x9fu,    0x85u,    0xa0u,   0xadu,
        0x2028u,   0x2029u,   0x200bu,  0x200fu,  0x202au,  0x2066u,  0xfeffu, 0x600u,
        0x61cu,    0x70fu,    0x180eu,  0x1d173u, 0xe0001u, 0xe0041u, 0xe000u, 0xf8ffu,
        0xf0000u,  0x10fffdu, 0xfdd0u,  0xfffeu,  0xffffu,  0x1fffeu, 0x2000u, 0x3000u,
        0x10ffffu, 0xfff9u,   0x110bdu, 0x13430u, 0x1bca0u})
    texts.push_back("a" + utf8(cp) + "b");
  expectSame(texts);
}

TEST(ReplacementsYaml, UnassignedCodePointsAloneMayDifferAndReadBackTheSame) {
  for (uint32_t cp = 0x80; cp <= 0x10ffff; cp += 89) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    std::string text = utf8(cp);
    std::string ours = ourDocument(text, "/f", {text});
    std::string theirs = llvmDocument(text, "/f", {text});
    if (ours == theirs) continue;
    SCOPED_TRACE("U+" + llvm::utohexstr(cp));
    clang::tooling::TranslationUnitReplacements back;
    llvm::yaml::Input in(ours);
    in >> back;
    ASSERT_FALSE(in.error());
    EXPECT_EQ(back.MainSourceFile, text);
    ASSERT_EQ(back.Replacements.size(), 1u);
    EXPECT_EQ(back.Replacements[0].getReplacementText(), text);
    // LLVM escaped it (\uXXXX, \UXXXXXXXX); we wrote it raw.
    EXPECT_NE(theirs.find(cp <= 0xffff ? "\\u" : "\\U"), std::string::npos);
    EXPECT_NE(ours.find(text), std::string::npos);
  }
}

}  // namespace
}  // namespace gridlock::apply
