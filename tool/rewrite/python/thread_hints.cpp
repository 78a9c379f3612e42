#include "rewrite/python/thread_hints.h"

#include "rewrite/python/import_add.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/ts_node.h"

namespace gridlock::rewrite::py {
namespace {

bool annotated(const PySource& src, TSNode def) {
  if (!ts_node_is_null(ts::field<"return_type">(def))) return true;
  for (const PyParam& p : src.params(def))
    if (p.annotated) return true;
  return false;
}

void addImportEdit(PyState& s, const ThreadFn& fn, const ImportEdit& e) {
  s.edit(fn.file, e.offset, 0, e.text, facts::Strategy::Thread, fn.file + " import for a hint");
}

bool definesClass(const PySource& src, const std::string& name) {
  for (TSNode c : ts::namedChildren(src.root()))
    if (ts::is<"class_definition">(c) && src.text(ts::field<"name">(c)) == name) return true;
  return false;
}

// The type of a group as the file reaches it, importing torch.distributed when nothing does.
// `import torch` alone does not: pyright (with torch installed) finds no attribute
// `distributed` of module torch until the submodule is imported, and would hold the file back.
std::string groupType(PyState& s, const ThreadGraph& g, const ThreadFn& fn) {
  const PySource& src = *fn.src;
  if (auto t = importedAs(src, "torch.distributed", "ProcessGroup")) return *t;
  if (auto d = importedAs(src, "torch", "distributed", true)) return *d + ".ProcessGroup";
  addImportEdit(s, fn, addImport(fn.file, src, "torch.distributed"));
  s.importedGroups(fn.file, *g.rule);
  return "torch.distributed.ProcessGroup";
}

// The class of the collection whose shim the graph read, as the file reaches it ("" when the
// graph read no shim).
std::string collectionType(PyState& s, const ThreadGraph& g, const ThreadFn& fn) {
  for (size_t i : g.reads) {
    const facts::Read& r = s.read(i);
    if (r.yields != facts::Yields::Collection) continue;
    std::string cls = r.name.substr(0, r.name.rfind('.'));  // drop the shim's method
    size_t dot = cls.rfind('.');
    if (dot == std::string::npos) return "";
    std::string module = cls.substr(0, dot), name = cls.substr(dot + 1);
    if (auto t = importedAs(*fn.src, module, name)) return *t;
    if (!definesClass(*fn.src, name))
      addImportEdit(s, fn, addFromImport(fn.file, *fn.src, module, name));
    return name;
  }
  return "";
}

}  // namespace

std::string declaration(PyState& s, const ThreadGraph& g, const ThreadFn& fn) {
  const std::string& p = g.param;
  if (!annotated(*fn.src, fn.def) || s.unhinted.count(fn.file)) return fn.keyword ? p + "=None" : p;
  s.extras.hinted.insert(fn.file);
  // typing's import first: where both are new at one place, the standard library goes first.
  std::string optional = "Optional";
  if (!fn.keyword)
    optional.clear();
  else if (auto o = importedAs(*fn.src, "typing", "Optional"))
    optional = *o;
  else
    addImportEdit(s, fn, addFromImport(fn.file, *fn.src, "typing", "Optional"));
  std::string type = g.group.empty() ? collectionType(s, g, fn) : groupType(s, g, fn);
  if (!g.group.empty()) {
    s.extras.groupHints[fn.file].push_back(
        {p, type.substr(type.rfind('.') + 1), groupMethods(*g.rule)});
  }
  if (!fn.keyword) return p + ": " + type;
  return p + ": " + optional + "[" + type + "] = None";
}

}  // namespace gridlock::rewrite::py
