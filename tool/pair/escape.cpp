#include "pair/escape.h"

#include <algorithm>
#include <cstdio>

namespace gridlock::pair {

std::string printable(std::string_view text) {
  std::string out;
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += ch;
    }
  }
  return out;
}

std::string markdownText(std::string_view text) {
  std::string out;
  for (char ch : printable(text)) {
    switch (ch) {
      case '\\':
        out += "\\\\";
        break;
      case '|':
        out += "\\|";
        break;
      case '`':
        out += "\\`";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string markdownCode(std::string_view text) {
  std::string body, s = printable(text);
  size_t longest = 0, run = 0;
  for (char ch : s) {
    run = ch == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += ch == '|' ? std::string("\\|") : std::string(1, ch);
  }
  std::string fence(longest + 1, '`');
  // A span that starts or ends with a backtick needs a space to keep it off the fence.
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace gridlock::pair
