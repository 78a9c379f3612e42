#include "frontend/nvcc_lex.h"

namespace gridlock::frontend {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

}  // namespace

std::vector<std::string> splitNvccList(std::string_view value, NvccListStyle style) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c == '"') {
      quoted = !quoted;
      if (style == NvccListStyle::Text) cur += c;
    } else if (c == '\\' && style == NvccListStyle::Text && i + 1 < value.size()) {
      cur += value[++i];
    } else if (c == ',' && !quoted) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

Tokens tokenizeNvccOptionsFile(std::string_view text) {
  Tokens out;
  std::string cur;
  bool inWord = false, quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      if (i + 1 == text.size()) {
        out.error = "Stray '' character";
        break;
      }
      cur += text[++i];
      inWord = true;
    } else if (c == '"') {
      quoted = !quoted;
      inWord = true;
    } else if (isSpace(c) && !quoted) {
      if (inWord) out.words.push_back(cur);
      cur.clear();
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quoted) out.error = "Stray '\"' character";
  if (inWord && out.error.empty()) out.words.push_back(cur);
  return out;
}

Tokens splitShellWords(std::string_view text) {
  Tokens out;
  std::string cur;
  bool inWord = false;
  char quote = 0;  // '\'' or '"' while inside one
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
      else
        cur += c;
    } else if (quote == '"') {
      // Inside "...", '\' only escapes the characters the shell gives a meaning there.
      if (c == '"')
        quote = 0;
      else if (c == '\\' && i + 1 < text.size() &&
               std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos)
        cur += text[++i];
      else
        cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == '\\') {
      if (i + 1 < text.size()) cur += text[++i];
      inWord = true;
    } else if (isSpace(c)) {
      if (inWord) out.words.push_back(cur);
      cur.clear();
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) out.error = std::string("unterminated ") + quote;
  if (inWord) out.words.push_back(cur);
  return out;
}

}  // namespace gridlock::frontend
