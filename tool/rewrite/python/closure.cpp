#include "rewrite/python/closure.h"

#include "rewrite/python/ts_node.h"

#include <functional>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::same;

// Whether identifier `id` is bound where it stands. Conservative: an identifier anywhere in a
// parameter list (a default value too), an import, or a `global`/`nonlocal`/`del` counts.
bool binds(TSNode id) {
  TSNode n = id, p = ts_node_parent(id);
  while (is<"pattern_list">(p) || is<"tuple_pattern">(p) || is<"list_pattern">(p) ||
         is<"list_splat_pattern">(p) || is<"expression_list">(p) ||
         is<"parenthesized_expression">(p)) {
    n = p;
    p = ts_node_parent(p);
  }
  if (is<"assignment">(p) || is<"augmented_assignment">(p) || is<"for_statement">(p) ||
      is<"for_in_clause">(p))
    return same(field<"left">(p), n);
  if (is<"named_expression">(p) || is<"function_definition">(p) || is<"class_definition">(p))
    return same(field<"name">(p), n);
  for (TSNode a = p; !ts_node_is_null(a); a = ts_node_parent(a)) {
    if (is<"as_pattern_target">(a) || is<"global_statement">(a) || is<"nonlocal_statement">(a) ||
        is<"delete_statement">(a) || is<"parameters">(a) || is<"lambda_parameters">(a) ||
        is<"import_statement">(a) || is<"import_from_statement">(a))
      return true;
    if (is<"block">(a) || is<"expression_statement">(a)) return false;
  }
  return false;
}

// Every identifier `name` under `n` that is bound where it stands, with `f`.
void bindings(const PySource& src, TSNode n, const std::string& name,
              const std::function<void(TSNode)>& f) {
  if (is<"identifier">(n) && src.text(n) == name && binds(n)) f(n);
  for (uint32_t i = 0, count = ts_node_child_count(n); i < count; ++i)
    bindings(src, ts_node_child(n, i), name, f);
}

}  // namespace

TSNode outerDef(TSNode def, TSNode* statement) {
  TSNode s = def;
  if (is<"decorated_definition">(ts_node_parent(s))) s = ts_node_parent(s);
  *statement = s;
  for (TSNode p = ts_node_parent(s); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (is<"function_definition">(p)) return p;
    if (is<"class_definition">(p) || is<"lambda">(p)) return TSNode{};
  }
  return TSNode{};
}

TSNode outermostDef(TSNode def) {
  TSNode statement{};
  for (TSNode o = outerDef(def, &statement); !ts_node_is_null(o); o = outerDef(o, &statement))
    def = o;
  return def;
}

bool closesOver(const PySource& src, TSNode def, TSNode outer, TSNode statement,
                const std::string& name) {
  bool bound = false;
  // `def`'s own parameters and body, and its name (a def named like the value rebinds it).
  bindings(src, def, name, [&](TSNode) { bound = true; });
  if (bound) return false;
  // In `outer`: a binding after `statement`, or one in another def inside it (a `nonlocal`
  // there rebinds it whenever that def runs).
  uint32_t from = ts_node_start_byte(statement);
  bindings(src, outer, name, [&](TSNode id) {
    if (ts_node_start_byte(id) >= from || !same(PySource::enclosingDef(id), outer)) bound = true;
  });
  return !bound;
}

}  // namespace gridlock::rewrite::py
