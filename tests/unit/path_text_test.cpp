// File names in JSON: written reversibly whatever their bytes.
#include "index/path_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::index {
namespace {

TEST(PathText, Utf8NamesWithoutPercentAreUnchanged) {
  EXPECT_EQ(jsonPath("core/attention.cpp"), "core/attention.cpp");
  EXPECT_EQ(jsonPath("caf\xC3\xA9/\xE2\x82\xAC.h"), "caf\xC3\xA9/\xE2\x82\xAC.h");
  EXPECT_EQ(jsonPath("a b/c.cpp"), "a b/c.cpp");
}

TEST(PathText, PercentAndNonUtf8BytesAreEscaped) {
  EXPECT_EQ(jsonPath("caf\xE9.cpp"), "caf%E9.cpp");
  EXPECT_EQ(jsonPath("100%.cpp"), "100%25.cpp");
  EXPECT_EQ(jsonPath("100%E9.cpp"), "100%25E9.cpp");
  // Overlong '/', a surrogate, past U+10FFFF, a truncated sequence: each byte escaped.
  EXPECT_EQ(jsonPath("\xC0\xAF"), "%C0%AF");
  EXPECT_EQ(jsonPath("\xED\xA0\x80"), "%ED%A0%80");
  EXPECT_EQ(jsonPath("\xF4\x90\x80\x80"), "%F4%90%80%80");
  EXPECT_EQ(jsonPath("a\xE2\x82"), "a%E2%82");
}

TEST(PathText, EveryByteRoundTripsAndDumps) {
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
  for (const std::string& name : {all, std::string("caf\xE9%25.cpp"), std::string("%"),
                                  std::string("x%"), std::string("%%41")}) {
    std::string text = jsonPath(name);
    EXPECT_TRUE(isUtf8(text)) << text;
    EXPECT_EQ(fromJsonPath(text), name);
    EXPECT_NO_THROW(nlohmann::json(text).dump());
  }
}

TEST(PathText, DecodingLeavesStrayPercentSigns) {
  EXPECT_EQ(fromJsonPath("100%.cpp"), "100%.cpp");
  EXPECT_EQ(fromJsonPath("a%4"), "a%4");
  EXPECT_EQ(fromJsonPath("a%e9"), "a\xE9");
}

TEST(PathText, EscapeNonUtf8KeepsPercent) {
  EXPECT_EQ(escapeNonUtf8("{\"file\": \"caf\xE9 100%.cpp\"}"), "{\"file\": \"caf%E9 100%.cpp\"}");
  EXPECT_EQ(escapeNonUtf8("plain"), "plain");
}

TEST(PathText, UriPathEncodesAllButUnreservedAndSlash) {
  EXPECT_EQ(uriPath("core/attention.cpp"), "core/attention.cpp");
  EXPECT_EQ(uriPath("/tmp/a b/caf\xE9#1%.cpp"), "/tmp/a%20b/caf%E9%231%25.cpp");
  EXPECT_EQ(uriPath("x~y_z-1.cu"), "x~y_z-1.cu");
}

}  // namespace
}  // namespace gridlock::index
