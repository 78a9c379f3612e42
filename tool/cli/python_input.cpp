#include "cli/python_input.h"

#include "cache/key.h"
#include "python/python_scan.h"

#include <filesystem>
#include <iostream>
#include <set>

namespace gridlock::cli {
namespace {

namespace fs = std::filesystem;

// `path` (absolute, or relative to the working directory) relative to the root; nothing when
// it lies outside it.
std::optional<std::string> underRoot(const std::string& root, const std::string& path) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(path), ec);
  if (ec) return std::nullopt;
  std::string rel = abs.lexically_relative(root).generic_string();
  if (rel.empty() || rel == ".." || rel.rfind("../", 0) == 0) return std::nullopt;
  return rel == "." ? std::string() : rel;
}

}  // namespace

bool readsPython(const ScanOptions& o, const rules::RuleSet& rules) {
  return !o.pythonRoots.empty() || python::hasPythonRules(rules);
}

PythonInput scanPythonInput(
    const ScanOptions& o, const std::string& root, const rules::RuleSet& rules,
    const std::function<void(size_t, size_t, const facts::UnitFacts&)>& onUnitDone) {
  PythonInput out;
  if (!readsPython(o, rules)) return out;
  out.ran = true;
  python::PythonScan s;
  s.options.root = root;
  s.options.packageRoot = o.packageRoot;
  s.options.jobs = o.jobs;
  for (const auto& [path, text] : o.overlay)
    if (auto rel = underRoot(root, path)) s.options.overlay[*rel] = text;
  s.roots = o.pythonRoots;
  for (const std::string& f : o.files)
    if (auto rel = underRoot(root, f)) s.only.push_back(*rel);
  // Positional paths or a diff that name nothing under the root: no Python unit is asked for.
  if ((!o.files.empty() || o.filesFromDiff) && s.only.empty()) return out;
  if (!o.cache.off) {
    s.cacheDir = !o.cache.dir.empty()  ? o.cache.dir
                 : !o.buildDir.empty() ? o.buildDir + "/.gridlock-cache"
                                       : root + "/.gridlock-cache";
    if (auto bytes = cache::parseSize(o.cache.size)) s.cacheBytes = *bytes;
  }
  python::PythonUnits units = python::scanPython(s, rules);
  static std::set<std::string> said;  // once per process: rewrite scans again
  for (const auto& w : units.warnings)
    if (said.insert(w).second) std::cerr << "gridlock: warning: " << w << "\n";
  out.cache = {units.cacheHits, units.cacheMisses};
  size_t n = 0;
  for (auto& u : units.units) {
    if (onUnitDone) onUnitDone(++n, units.units.size(), u);
    out.units.push_back(std::move(u));
  }
  return out;
}

}  // namespace gridlock::cli
