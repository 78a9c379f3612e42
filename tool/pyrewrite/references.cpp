#include "pyrewrite/references.h"

#include "pyrewrite/ts_node.h"

#include <algorithm>
#include <functional>
#include <tuple>

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
    if (!src || src->text().find(name) == std::string::npos) continue;
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

namespace {

// Whether `n` is an argument of a call of `isinstance`, `issubclass` or `super` (in a tuple
// of classes too).
bool classArgument(const PySource& src, TSNode n) {
  TSNode p = ts_node_parent(n);
  if (is<"tuple">(p)) p = ts_node_parent(p);
  if (!is<"argument_list">(p)) return false;
  TSNode call = ts_node_parent(p);
  if (!is<"call">(call)) return false;
  std::string_view callee = src.text(field<"function">(call));
  return callee == "isinstance" || callee == "issubclass" || callee == "super";
}

// Whether `n` is a base in a class statement's list (`class X(C)`, `class X(m.C)`).
bool baseOf(TSNode n) {
  TSNode p = ts_node_parent(n);
  if (is<"attribute">(p) && ts::same(field<"attribute">(p), n)) {
    n = p;
    p = ts_node_parent(p);
  }
  return is<"argument_list">(p) && is<"class_definition">(ts_node_parent(p)) &&
         ts::same(field<"superclasses">(ts_node_parent(p)), p);
}

bool inAnnotation(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (is<"type">(p)) return true;
    if (is<"function_definition">(p) || is<"class_definition">(p) || is<"module">(p)) return false;
  }
  return false;
}

bool objectOfAttribute(TSNode n) {
  TSNode p = ts_node_parent(n);
  return is<"attribute">(p) && ts::same(field<"object">(p), n);
}

bool hasInit(const PySource& src, TSNode cls) {
  return !ts_node_is_null(src.method(cls, "__init__"));
}

}  // namespace

std::string namedAsValue(Sources& sources, const std::set<std::string>& files,
                         const std::string& file, const PySource& src, TSNode def) {
  TSNode cls = PySource::classOf(def);
  bool isClass = !ts_node_is_null(cls);
  std::vector<std::string> names{std::string(src.text(field<"name">(isClass ? cls : def)))};
  std::vector<std::tuple<std::string, const PySource*, TSNode>> classes{{file, &src, cls}};
  for (size_t k = 0; k < names.size(); ++k) {
    if (isClass) {
      // A method that builds its own class (`cls(...)`, `type(self)(...)`) passes what it will.
      const auto& [cfile, csrc, node] = classes[k];
      std::string_view text = csrc->text(node);
      for (std::string_view builds : {"cls(", "type(self)(", "__class__("})
        if (size_t at = text.find(builds); at != std::string_view::npos)
          return cfile + ":" +
                 std::to_string(ts_node_start_point(node).row + 1 +
                                std::count(text.begin(), text.begin() + at, '\n')) +
                 " builds " + names[k] + " by `" + std::string(builds) + "...)`";
    }
    for (const NameUse& use : usesOf(sources, files, names[k])) {
      if (!ts_node_is_null(use.call)) continue;
      if (isClass && baseOf(use.node)) {
        // A subclass without __init__ of its own is built through this one.
        TSNode sub = ts_node_parent(ts_node_parent(use.node));
        if (!is<"class_definition">(sub)) sub = ts_node_parent(sub);
        if (is<"class_definition">(sub) && !hasInit(*use.src, sub)) {
          std::string name(use.src->text(field<"name">(sub)));
          if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(name);
            classes.push_back({use.file, use.src, sub});
          }
        }
        continue;
      }
      if (isClass && (classArgument(*use.src, use.node) || inAnnotation(use.node) ||
                      objectOfAttribute(use.node)))
        continue;
      return use.file + ":" + std::to_string(ts::lineOf(use.node)) + " names " + names[k] +
             (k == 0 ? "" : " (which inherits " + names[0] + ".__init__)");
    }
  }
  return "";
}

}  // namespace gridlock::pyrewrite
