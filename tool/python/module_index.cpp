#include "python/module_index.h"

#include <algorithm>

namespace gridlock::python {
namespace {

// Deep enough for any real chain of re-exports; a cycle (`a = b` and `b = a` across modules)
// stops here and names what it reached.
constexpr int kMaxDepth = 32;

std::string join(const std::vector<std::string>& names, size_t begin = 0,
                 size_t end = std::string::npos) {
  std::string out;
  end = std::min(end, names.size());
  for (size_t i = begin; i < end; ++i) out += (i > begin ? "." : "") + names[i];
  return out;
}

std::vector<std::string> split(const std::string& dotted) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (true) {
    size_t dot = dotted.find('.', begin);
    out.push_back(dotted.substr(begin, dot - begin));
    if (dot == std::string::npos) return out;
    begin = dot + 1;
  }
}

void add(std::vector<std::string>& out, std::string name) {
  if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
}

}  // namespace

std::string moduleName(const std::string& file, const std::string& packageRoot) {
  std::string rel = file;
  std::string root = packageRoot;
  while (!root.empty() && root.back() == '/') root.pop_back();
  if (!root.empty() && root != "." && rel.size() > root.size() + 1 &&
      rel.compare(0, root.size(), root) == 0 && rel[root.size()] == '/')
    rel = rel.substr(root.size() + 1);
  if (rel.size() >= 3 && rel.compare(rel.size() - 3, 3, ".py") == 0) rel.resize(rel.size() - 3);
  std::replace(rel.begin(), rel.end(), '/', '.');
  if (rel == "__init__") return "";
  if (rel.size() > 9 && rel.compare(rel.size() - 9, 9, ".__init__") == 0)
    rel.resize(rel.size() - 9);
  return rel;
}

ModuleIndex::ModuleIndex(const std::vector<ModuleFacts>& modules, const std::string& packageRoot,
                         const std::map<std::string, std::string>& named)
    : modules_(modules), bindings_(modules.size()) {
  for (size_t m = 0; m < modules.size(); ++m) {
    auto given = named.find(modules[m].file);
    names_.push_back(given != named.end() ? given->second
                                          : moduleName(modules[m].file, packageRoot));
    byName_.emplace(names_.back(), m);  // the first of two files naming one module wins
    for (size_t dot = names_.back().find('.'); dot != std::string::npos;
         dot = names_.back().find('.', dot + 1))
      prefixes_.insert(names_.back().substr(0, dot));
    prefixes_.insert(names_.back());
    for (size_t b = 0; b < modules[m].bindings.size(); ++b)
      bindings_[m][modules[m].bindings[b].name].push_back(b);
  }
  for (size_t m = 0; m < modules.size(); ++m)
    for (const Path& load : modules[m].loads)
      if (std::optional<Names> abs = absolute(m, load))
        for (size_t k = 1; k <= abs->size(); ++k) loaded_.insert(join(*abs, 0, k));
}

std::optional<size_t> ModuleIndex::find(const std::string& dotted) const {
  auto it = byName_.find(dotted);
  if (it == byName_.end()) return std::nullopt;
  return it->second;
}

// `from ..a import b` in package x.y.z's module: x.y.a.b.
std::optional<ModuleIndex::Names> ModuleIndex::absolute(size_t module, const Path& path) const {
  if (path.level == 0) return path.names;
  Names base = names_[module].empty() ? Names{} : split(names_[module]);
  if (!modules_[module].isPackage) {
    if (base.empty()) return std::nullopt;
    base.pop_back();
  }
  for (unsigned up = 1; up < path.level; ++up) {
    if (base.empty()) return std::nullopt;  // above the top-level package
    base.pop_back();
  }
  base.insert(base.end(), path.names.begin(), path.names.end());
  return base;
}

std::vector<std::string> ModuleIndex::resolve(size_t module, const Path& path) const {
  Names out;
  if (path.names.empty()) return out;
  if (path.global) {
    member(module, path.names[0], Names(path.names.begin() + 1, path.names.end()), out, 0, false);
  } else if (std::optional<Names> abs = absolute(module, path)) {
    canonical(*abs, out, 0);
  }
  return out;
}

// An absolute dotted name: the longest prefix that is a scanned module, then its member.
void ModuleIndex::canonical(const Names& names, Names& out, int depth) const {
  if (depth > kMaxDepth) return add(out, join(names));
  for (size_t k = names.size(); k > 0; --k) {
    std::optional<size_t> m = find(join(names, 0, k));
    if (!m) continue;
    if (k == names.size()) return add(out, join(names));
    return member(*m, names[k], Names(names.begin() + k + 1, names.end()), out, depth + 1, true);
  }
  add(out, join(names));  // no scanned module: an outside name, as written
}

// `name` of `module` with the attributes `rest` after it. A name it does not bind may be a
// submodule, seen from outside the module (an import, an attribute of the module) and, in a
// package's `__init__`, from inside too where an import of the program loads it: importing
// `pkg.sub` sets `sub` in the package's namespace (CPython's import system), whichever import
// loads it (the `__init__`'s own `import pkg.sub`, `import pkg.sub as other`, `from .sub import
// x`, or another module's, in whatever order the program runs them: a use before any of them
// fails, so one that runs names the submodule). Else, from inside, it is a builtin: a submodule
// no import loads is never set on the package.
void ModuleIndex::member(size_t module, const std::string& name, const Names& rest, Names& out,
                         int depth, bool fromOutside) const {
  std::string here = names_[module].empty() ? name : names_[module] + "." + name;
  if (depth > kMaxDepth) return add(out, here + (rest.empty() ? "" : "." + join(rest)));
  auto found = bindings_[module].find(name);
  if (found != bindings_[module].end()) {
    for (size_t b : found->second) {
      const Binding& binding = modules_[module].bindings[b];
      if (binding.kind != Binding::Kind::Alias) {
        add(out, here + (rest.empty() ? "" : "." + join(rest)));
        continue;
      }
      Path target = binding.target;
      target.names.insert(target.names.end(), rest.begin(), rest.end());
      if (target.global)
        member(module, target.names[0], Names(target.names.begin() + 1, target.names.end()), out,
               depth + 1, false);
      else if (std::optional<Names> abs = absolute(module, target))
        canonical(*abs, out, depth + 1);
    }
    return;
  }
  if ((fromOutside || (modules_[module].isPackage && loaded_.count(here))) && find(here)) {
    Names sub = split(here);
    sub.insert(sub.end(), rest.begin(), rest.end());
    return canonical(sub, out, depth + 1);
  }
  // `import *` brings no name that starts with an underscore (this ignores `__all__`).
  if (!name.empty() && name[0] == '_') {
    if (fromOutside) add(out, here + (rest.empty() ? "" : "." + join(rest)));
    return;
  }
  for (const Path& star : modules_[module].starImports) {
    std::optional<Names> abs = absolute(module, star);
    std::optional<size_t> from = abs ? find(join(*abs)) : std::nullopt;
    if (from && *from != module && bindings_[*from].count(name))
      return member(*from, name, rest, out, depth + 1, true);
  }
  if (fromOutside) add(out, here + (rest.empty() ? "" : "." + join(rest)));
}

const Binding* ModuleIndex::definition(const std::string& dotted) const {
  size_t dot = dotted.rfind('.');
  std::optional<size_t> m = find(dot == std::string::npos ? "" : dotted.substr(0, dot));
  if (!m) return nullptr;
  auto found = bindings_[*m].find(dot == std::string::npos ? dotted : dotted.substr(dot + 1));
  if (found == bindings_[*m].end()) return nullptr;
  const Binding* def = nullptr;
  for (size_t b : found->second) {
    const Binding& binding = modules_[*m].bindings[b];
    if (binding.kind == Binding::Kind::Alias) continue;
    // A value a function sets under `global` says so, whichever binding comes first.
    if (!def || binding.setByFunction) def = &binding;
  }
  return def;
}

}  // namespace gridlock::python
