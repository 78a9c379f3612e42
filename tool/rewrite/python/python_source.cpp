#include "rewrite/python/python_source.h"

#include "rewrite/python/ts_node.h"

namespace gridlock::rewrite::py {

using ts::field;
using ts::is;
using ts::namedChildren;

PySource::PySource(std::string text) : tree_(python::SyntaxTree::parse(std::move(text))) {}

bool PySource::parses() const { return tree_.errors("", 1).empty(); }

TSNode PySource::covering(unsigned offset, unsigned length) const {
  return ts_node_named_descendant_for_byte_range(root(), offset, offset + length);
}

TSNode PySource::statementOf(TSNode n) {
  while (!ts_node_is_null(n)) {
    TSNode parent = ts_node_parent(n);
    if (ts_node_is_null(parent) || is<"block">(parent) || is<"module">(parent)) return n;
    n = parent;
  }
  return n;
}

TSNode PySource::enclosingDef(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (is<"function_definition">(p)) return p;
  return TSNode{};
}

bool PySource::insideLambda(TSNode n, TSNode def) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts::same(p, def);
       p = ts_node_parent(p))
    if (is<"lambda">(p)) return true;
  return false;
}

TSNode PySource::classOf(TSNode def) {
  TSNode p = ts_node_parent(def);
  if (is<"decorated_definition">(p)) p = ts_node_parent(p);
  if (!is<"block">(p)) return TSNode{};
  p = ts_node_parent(p);
  return is<"class_definition">(p) ? p : TSNode{};
}

std::vector<std::string> PySource::decorators(TSNode def) const {
  std::vector<std::string> out;
  TSNode p = ts_node_parent(def);
  if (!is<"decorated_definition">(p)) return out;
  for (TSNode d : namedChildren(p))
    if (is<"decorator">(d) && ts_node_named_child_count(d) > 0) {
      TSNode e = ts_node_named_child(d, 0);
      if (is<"call">(e)) e = field<"function">(e);
      out.emplace_back(text(e));
    }
  return out;
}

std::vector<PyParam> PySource::params(TSNode def) const {
  std::vector<PyParam> out;
  bool keywordOnly = false;
  for (TSNode p : namedChildren(field<"parameters">(def))) {
    PyParam q;
    q.node = p;
    TSNode name = p;
    if (is<"default_parameter">(p) || is<"typed_default_parameter">(p)) {
      name = field<"name">(p);
      q.hasDefault = true;
      q.defaultText = std::string(text(field<"value">(p)));
      q.annotated = is<"typed_default_parameter">(p);
    } else if (is<"typed_parameter">(p)) {
      name = ts_node_named_child(p, 0);
      q.annotated = true;
    }
    if (is<"keyword_separator">(p)) {
      keywordOnly = true;
      continue;
    }
    if (is<"positional_separator">(p)) continue;
    if (is<"list_splat_pattern">(name)) {
      q.kind = PyParam::Kind::VarArgs;
      keywordOnly = true;
      name = ts_node_named_child(name, 0);
    } else if (is<"dictionary_splat_pattern">(name)) {
      q.kind = PyParam::Kind::VarKeywords;
      name = ts_node_named_child(name, 0);
    } else if (keywordOnly) {
      q.kind = PyParam::Kind::KeywordOnly;
    }
    q.name = std::string(text(name));
    out.push_back(std::move(q));
  }
  return out;
}

bool PySource::atModuleLevel(TSNode def) {
  TSNode at = ts_node_parent(def);
  if (is<"decorated_definition">(at)) at = ts_node_parent(at);
  return is<"module">(at);
}

std::vector<TSNode> PySource::body(TSNode def) { return namedChildren(field<"body">(def)); }

TSNode PySource::method(TSNode cls, const std::string& name) const {
  for (TSNode s : namedChildren(field<"body">(cls))) {
    TSNode def = is<"decorated_definition">(s) ? field<"definition">(s) : s;
    if (is<"function_definition">(def) && text(field<"name">(def)) == name) return def;
  }
  return TSNode{};
}

namespace {

// The definition of type `kind` whose keyword or name is on a 1-based line.
template <python::TypeName kind>
TSNode definitionAt(TSNode root, unsigned line) {
  std::vector<TSNode> todo{root};
  while (!todo.empty()) {
    TSNode n = todo.back();
    todo.pop_back();
    if (ts::lineOf(n) > line || ts_node_end_point(n).row + 1 < line) continue;
    if (is<kind>(n) && (ts::lineOf(n) == line || ts::lineOf(field<"name">(n)) == line)) return n;
    for (TSNode c : namedChildren(n)) todo.push_back(c);
  }
  return TSNode{};
}

}  // namespace

TSNode PySource::defAt(unsigned line) const {
  return definitionAt<"function_definition">(root(), line);
}

TSNode PySource::classAt(unsigned line) const {
  return definitionAt<"class_definition">(root(), line);
}

std::vector<TSNode> PySource::superclasses(TSNode cls) {
  std::vector<TSNode> out;
  for (TSNode b : namedChildren(field<"superclasses">(cls)))
    if (!is<"keyword_argument">(b)) out.push_back(b);
  return out;
}

unsigned PySource::lineStart(unsigned offset) const {
  size_t at = offset == 0 ? std::string::npos : text().rfind('\n', offset - 1);
  return at == std::string::npos ? 0 : static_cast<unsigned>(at + 1);
}

unsigned PySource::lineEnd(unsigned offset) const {
  size_t at = text().find('\n', offset);
  return static_cast<unsigned>(at == std::string::npos ? text().size() : at);
}

std::string PySource::indentAt(unsigned offset) const {
  unsigned start = lineStart(offset), end = start;
  while (end < text().size() && (text()[end] == ' ' || text()[end] == '\t')) ++end;
  return text().substr(start, end - start);
}

std::string PySource::indentUnit() const {
  size_t best = 0, tabbed = 0, spaced = 0;
  const std::string& t = text();
  for (size_t at = 0; at < t.size();) {
    size_t end = t.find('\n', at);
    if (end == std::string::npos) end = t.size();
    size_t n = 0;
    while (at + n < end && t[at + n] == ' ') ++n;
    if (at < end && t[at] == '\t') {
      size_t k = t.find_first_not_of(" \t", at);
      tabbed += k < end && t[k] != '#' && t[k] != '\r';
    } else if (n > 0 && at + n < end && t[at + n] != '#' && t[at + n] != '\r') {
      ++spaced;
      if (best == 0 || n < best) best = n;
    }
    at = end + 1;
  }
  // A file indented with tabs gets tabs: a space-indented line among them is a TabError.
  if (tabbed > spaced) return "\t";
  return std::string(best == 0 ? 4 : best, ' ');
}

std::string squeezed(std::string_view text) {
  std::string out;
  for (char c : text) {
    bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool dominates(TSNode statement, TSNode at) {
  TSNode block = ts_node_parent(statement);
  if (ts_node_end_byte(statement) > ts_node_start_byte(at)) return false;
  for (TSNode p = ts_node_parent(at); !ts_node_is_null(p); p = ts_node_parent(p))
    if (ts::same(p, block)) return true;
  return false;
}

}  // namespace gridlock::rewrite::py
