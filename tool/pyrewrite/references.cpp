#include "pyrewrite/references.h"

#include "pyrewrite/ts_node.h"

#include <functional>

namespace gridlock::pyrewrite {
namespace {

using ts::field;
using ts::is;

void walk(TSNode n, const std::function<void(TSNode)>& f) {
  f(n);
  for (uint32_t i = 0, count = ts_node_child_count(n); i < count; ++i) walk(ts_node_child(n, i), f);
}

bool inImport(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (is<"import_statement">(p) || is<"import_from_statement">(p)) return true;
  return false;
}

// `f` in `def f` / `class f`.
bool definesIt(TSNode n) {
  TSNode p = ts_node_parent(n);
  return (is<"function_definition">(p) || is<"class_definition">(p)) &&
         ts::same(field<"name">(p), n);
}

// The call `n` is the callee of, directly (`f(...)`) or as the attribute (`m.f(...)`).
TSNode calleeOf(TSNode n) {
  TSNode p = ts_node_parent(n);
  if (is<"attribute">(p) && ts::same(field<"attribute">(p), n)) {
    n = p;
    p = ts_node_parent(p);
  }
  return is<"call">(p) && ts::same(field<"function">(p), n) ? p : TSNode{};
}

}  // namespace

std::vector<NameUse> usesOf(Sources& sources, const std::set<std::string>& files,
                            const std::string& name) {
  std::vector<NameUse> out;
  for (const std::string& file : files) {
    const PySource* src = sources.get(file);
    if (!src) continue;
    walk(src->root(), [&](TSNode n) {
      if (!is<"identifier">(n) || src->text(n) != name || definesIt(n) || inImport(n)) return;
      out.push_back({file, src, n, calleeOf(n)});
    });
  }
  return out;
}

TSNode applyCall(const NameUse& use) {
  TSNode p = ts_node_parent(use.node);
  if (!is<"attribute">(p) || !ts::same(field<"object">(p), use.node) ||
      use.src->text(field<"attribute">(p)) != "apply")
    return TSNode{};
  TSNode call = ts_node_parent(p);
  return is<"call">(call) && ts::same(field<"function">(call), p) ? call : TSNode{};
}

}  // namespace gridlock::pyrewrite
