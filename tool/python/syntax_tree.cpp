#include "python/syntax_tree.h"

#include "python/grammar.h"

#include <cstdio>
#include <cstring>

namespace gridlock::python {
namespace {

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};

std::string at(const std::string& file, TSPoint p) {
  return file + ":" + std::to_string(p.row + 1) + ":" + std::to_string(p.column + 1);
}

// Where `offset` is, as a tree-sitter point.
TSPoint pointOf(std::string_view text, size_t offset) {
  TSPoint p{0, 0};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

std::string_view slice(std::string_view source, uint32_t b, uint32_t e) {
  if (b > source.size() || e > source.size() || e < b) return {};
  return source.substr(b, e - b);
}

// What an ERROR node holds, for its message: its first token, shortened.
std::string firstToken(const SyntaxTree& tree, TSNode error) {
  TSNode n = error;
  while (ts_node_child_count(n) > 0) n = ts_node_child(n, 0);
  std::string t(tree.text(n).substr(0, 40));
  if (size_t nl = t.find('\n'); nl != std::string::npos) t.resize(nl);
  return t;
}

void collect(const SyntaxTree& tree, TSNode n, const std::string& file, size_t max,
             std::vector<std::string>& out) {
  if (out.size() >= max) return;
  if (ts_node_is_missing(n)) {
    out.push_back(at(file, ts_node_start_point(n)) + ": error: invalid syntax: expected '" +
                  ts_node_type(n) + "'");
    return;
  }
  if (std::strcmp(ts_node_type(n), "ERROR") == 0) {
    std::string token = firstToken(tree, n);
    out.push_back(at(file, ts_node_start_point(n)) + ": error: invalid syntax" +
                  (token.empty() ? std::string() : " at '" + token + "'"));
    return;
  }
  if (!ts_node_has_error(n)) return;
  for (uint32_t i = 0, c = ts_node_child_count(n); i < c; ++i)
    collect(tree, ts_node_child(n, i), file, max, out);
}

}  // namespace

size_t firstInvalidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
      continue;
    }
    size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    if (len == 0 || b > 0xF4 || b < 0xC2 || i + len > s.size()) return i;
    unsigned cp = b & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (c & 0x3F);
    }
    bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return i;
    i += len;
  }
  return std::string_view::npos;
}

SyntaxTree SyntaxTree::parse(std::string source) {
  const TSLanguage* language = pythonLanguage();
  SyntaxTree t;
  t.source_ = std::move(source);
  for (size_t i = t.source_.find('\r'); i != std::string::npos; i = t.source_.find('\r', i + 1))
    if (i + 1 == t.source_.size() || t.source_[i + 1] != '\n') t.source_[i] = '\n';
  // One parser per thread, kept: a new one allocates its stacks again for each file.
  thread_local std::unique_ptr<TSParser, ParserDeleter> parser;
  if (!parser) {
    parser.reset(ts_parser_new());
    ts_parser_set_language(parser.get(), language);
  }
  t.tree_.reset(ts_parser_parse_string(parser.get(), nullptr, t.source_.data(),
                                       static_cast<uint32_t>(t.source_.size())));
  t.flat_ = std::make_unique<FlatTree>(t.tree_.get());
  return t;
}

std::string_view SyntaxTree::text(TSNode n) const {
  return slice(source_, ts_node_start_byte(n), ts_node_end_byte(n));
}

std::string_view SyntaxTree::text(Node n) const {
  return slice(source_, n.startByte(), n.endByte());
}

std::vector<std::string> SyntaxTree::errors(const std::string& file, size_t max) const {
  std::vector<std::string> out;
  if (size_t bad = firstInvalidUtf8(source_); bad != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(source_[bad]));
    out.push_back(at(file, pointOf(source_, bad)) + ": error: not UTF-8 (byte " + hex +
                  "): gridlock reads Python source as UTF-8");
  }
  collect(*this, root(), file, max, out);
  return out;
}

}  // namespace gridlock::python
