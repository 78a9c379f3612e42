#include "pair/normalise.h"

#include <cctype>
#include <regex>

namespace gridlock::pair {
namespace {

bool isWord(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isPathChar(char c) {
  return isWord(c) || c == '/' || c == '.' || c == '-' || c == '+' || c == '~';
}

// "file.cpp:42", "unknown file", "file.cpp:42: Failure", "file.cpp(42): error: Failure", and
// the "Failed" line of FAIL() after it.
// Only the first line is matched: std::regex recurses per character and long text overflows.
std::string dropLocationLine(std::string_view m) {
  static const std::regex location(
      R"(^\s*(unknown file|\S+(:\d+|\(\d+\)))(:? ?(error: )?Failure)?\s*$)");
  size_t nl = m.find('\n');
  std::string first(m.substr(0, nl));
  if (first.size() > 512 || !std::regex_match(first, location)) return std::string(m);
  std::string rest = nl == std::string_view::npos ? std::string() : std::string(m.substr(nl + 1));
  // FAIL() << "why" and ADD_FAILURE() put a bare "Failed" line before the reason.
  if (rest == "Failed" || rest.rfind("Failed\n", 0) == 0) rest.erase(0, rest.size() > 6 ? 7 : 6);
  return rest;
}

std::string unwrapException(const std::string& m) {
  static constexpr std::string_view open = "C++ exception with description \"";
  size_t b = m.find(open);
  size_t e = m.rfind("\" thrown in ");
  if (b == std::string::npos || e == std::string::npos || e < b + open.size()) return m;
  return m.substr(b + open.size(), e - b - open.size());
}

// A path is a run of path characters with a '/' that starts at '/', '.' or '~' or whose last
// component has an extension; "tp/dp" stays as it is.
bool looksLikePath(std::string_view token) {
  size_t slash = token.rfind('/');
  if (slash == std::string_view::npos || slash + 1 == token.size()) return false;
  if (token[0] == '/' || token[0] == '.' || token[0] == '~') return true;
  std::string_view last = token.substr(slash + 1);
  size_t dot = last.rfind('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < last.size();
}

}  // namespace

std::string oneLine(std::string_view message, size_t max) {
  std::string out;
  bool space = false;
  for (char c : message) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (max > 3 && out.size() > max) out = out.substr(0, max - 3) + "...";
  return out;
}

std::string readableMessage(std::string_view message, size_t max) {
  return oneLine(unwrapException(dropLocationLine(message)), max);
}

std::string normaliseMessage(std::string_view message) {
  std::string m = unwrapException(dropLocationLine(message));
  std::string out;
  size_t i = 0;
  while (i < m.size()) {
    char c = m[i];
    bool boundary = i == 0 || !isWord(m[i - 1]);
    if (boundary && c == '0' && i + 2 < m.size() && (m[i + 1] == 'x' || m[i + 1] == 'X') &&
        std::isxdigit(static_cast<unsigned char>(m[i + 2]))) {
      i += 2;
      while (i < m.size() && std::isxdigit(static_cast<unsigned char>(m[i]))) ++i;
      out += "<addr>";
      continue;
    }
    if (boundary && isPathChar(c) && c != '-' && c != '+') {
      size_t j = i;
      while (j < m.size() && isPathChar(m[j])) ++j;
      // A trailing '.' ends the sentence, not the path.
      size_t end = j;
      while (end > i && m[end - 1] == '.') --end;
      std::string_view token(m.data() + i, end - i);
      if (looksLikePath(token)) {
        out += token.substr(token.rfind('/') + 1);
        i = end;
        continue;
      }
    }
    if (boundary && std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j]))) ++j;
      if (j + 1 < m.size() && m[j] == '.' && std::isdigit(static_cast<unsigned char>(m[j + 1]))) {
        ++j;
        while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j]))) ++j;
      }
      if (j < m.size() && (m[j] == 'e' || m[j] == 'E')) {
        size_t k = j + 1;
        if (k < m.size() && (m[k] == '-' || m[k] == '+')) ++k;
        if (k < m.size() && std::isdigit(static_cast<unsigned char>(m[k]))) {
          j = k;
          while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j]))) ++j;
        }
      }
      if (j == m.size() || !isWord(m[j])) {
        out += "<n>";
        i = j;
        continue;
      }
      // Digits that run into letters (2nd, 3x) are a word, not a number: copy them whole.
      while (j < m.size() && isWord(m[j])) ++j;
      out.append(m, i, j - i);
      i = j;
      continue;
    }
    // Copy a whole word at once, so the digits in tp2 are never seen as a number.
    if (isWord(c)) {
      size_t j = i;
      while (j < m.size() && isWord(m[j])) ++j;
      out.append(m, i, j - i);
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return oneLine(out);
}

}  // namespace gridlock::pair
