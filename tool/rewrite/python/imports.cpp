#include "rewrite/python/imports.h"

#include "rewrite/python/ts_node.h"
#include "support/strings.h"

#include <algorithm>
#include <map>
#include <set>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

struct Uses {
  std::set<std::string> names;  // identifiers outside import statements
  std::string strings;          // every string's text, joined
  bool reflective = false;      // globals(), locals(), vars(), eval, exec
};

void collect(const PySource& src, TSNode n, Uses& out) {
  if (is<"import_statement">(n) || is<"import_from_statement">(n) ||
      is<"future_import_statement">(n))
    return;
  if (is<"string">(n)) {
    out.strings += std::string(src.text(n)) + "\n";
  } else if (is<"identifier">(n)) {
    std::string name(src.text(n));
    out.names.insert(name);
    if (name == "globals" || name == "locals" || name == "vars" || name == "eval" ||
        name == "exec" || name == "__import__")
      out.reflective = true;
  }
  for (TSNode c : namedChildren(n)) collect(src, c, out);
}

// Whether `text` holds `name` as a word.
bool spells(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    bool left = at == 0 || !support::identChar(text[at - 1]);
    bool right = at + name.size() >= text.size() || !support::identChar(text[at + name.size()]);
    if (left && right) return true;
  }
  return false;
}

// The name an imported element binds: `a` for `a`, `a.b` (its first part), `x as y` -> y.
std::string bound(const PySource& src, TSNode element) {
  if (is<"aliased_import">(element)) return std::string(src.text(field<"alias">(element)));
  std::string text(src.text(element));
  return text.substr(0, text.find('.'));
}

// The elements a statement imports (after `from m import`), or none for a star import.
std::vector<TSNode> elements(TSNode statement) {
  std::vector<TSNode> out;
  TSNode module = field<"module_name">(statement);
  for (TSNode c : namedChildren(statement)) {
    if (is<"wildcard_import">(c)) return {};
    if (!ts_node_is_null(module) && ts::same(c, module)) continue;
    if (is<"dotted_name">(c) || is<"aliased_import">(c)) out.push_back(c);
  }
  return out;
}

// The statement's whole lines, and a blank line after them when one is before them too, or
// when it is the first statement of a block (black leaves no blank line opening a block).
apply::Edit removeStatement(const std::string& file, const PySource& src, TSNode statement) {
  const std::string& t = src.text();
  unsigned start = src.lineStart(ts_node_start_byte(statement));
  unsigned end = src.lineEnd(ts_node_end_byte(statement));
  if (end < t.size()) ++end;
  bool blankBefore = start >= 1 && (start == 1 || t[start - 2] == '\n') && t[start - 1] == '\n';
  TSNode parent = ts_node_parent(statement);
  bool opens = ts::is<"block">(parent) && ts::same(ts_node_named_child(parent, 0), statement);
  if ((blankBefore || opens) && end < t.size() && t[end] == '\n') ++end;
  return {file, start, end - start, "", facts::Strategy::Substitute, file + " unused import"};
}

// The import statements a removal may take: the module's own, and those of a def's body (under
// `if`, `for`, `while`, `else`: the import runs where it is), but not one inside a `try` or
// `with` (an ImportError there may be what the code tests), nor one in a block of imports alone
// (removing them all would leave it empty).
std::vector<TSNode> removable(const PySource& src) {
  std::vector<TSNode> out;
  ts::walk(src.root(), [&](TSNode n) {
    if (!is<"import_statement">(n) && !is<"import_from_statement">(n)) return;
    TSNode parent = ts_node_parent(n);
    if (is<"module">(parent)) {
      out.push_back(n);
      return;
    }
    if (!is<"block">(parent)) return;
    std::vector<TSNode> statements = namedChildren(parent);
    if (std::all_of(statements.begin(), statements.end(), [](TSNode s) {
          return is<"import_statement">(s) || is<"import_from_statement">(s);
        }))
      return;
    for (TSNode p = parent; !ts_node_is_null(p); p = ts_node_parent(p)) {
      if (is<"try_statement">(p) || is<"with_statement">(p) || is<"class_definition">(p) ||
          is<"module">(p))
        return;
      if (is<"function_definition">(p)) {
        out.push_back(n);
        return;
      }
    }
  });
  return out;
}

}  // namespace

std::vector<apply::Edit> unusedImports(const std::string& file, const PySource& before,
                                       const PySource& after) {
  std::vector<apply::Edit> out;
  if (file == "__init__.py" || file.ends_with("/__init__.py")) return out;
  Uses was, now;
  collect(before, before.root(), was);
  collect(after, after.root(), now);
  for (TSNode statement : removable(before)) {
    // Reflection reaches a def's own import only from inside that def (`locals()` there);
    // a module's, from anywhere in the file.
    TSNode def = PySource::enclosingDef(statement);
    if (ts_node_is_null(def)) {
      if (now.reflective) continue;
    } else {
      Uses inside;
      collect(before, def, inside);
      if (inside.reflective) continue;
    }
    std::vector<TSNode> names = elements(statement);
    std::vector<TSNode> kept;
    for (TSNode e : names) {
      std::string name = bound(before, e);
      bool unused = was.names.count(name) && !now.names.count(name) && !spells(now.strings, name);
      if (!unused) kept.push_back(e);
    }
    if (names.empty() || kept.size() == names.size()) continue;
    const std::string& t = before.text();
    unsigned s = ts_node_start_byte(statement), e = ts_node_end_byte(statement);
    bool ownLines = t.find_first_not_of(" \t", before.lineStart(s)) == s;
    if (kept.empty() && ownLines && t.find(';', s) > e) {
      out.push_back(removeStatement(file, before, statement));
      continue;
    }
    if (kept.empty()) continue;  // shares its line with other code: left as it is
    unsigned first = ts_node_start_byte(names.front()), last = ts_node_end_byte(names.back());
    bool oneLine = before.lineStart(first) == before.lineStart(last);
    std::string sep = oneLine ? ", " : ",\n" + before.indentAt(first);
    std::string text;
    for (TSNode k : kept) text += (text.empty() ? "" : sep) + std::string(before.text(k));
    out.push_back(
        {file, first, last - first, text, facts::Strategy::Substitute, file + " unused import"});
  }
  return out;
}

}  // namespace gridlock::rewrite::py
