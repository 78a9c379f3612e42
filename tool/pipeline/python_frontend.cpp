#include "pipeline/python_frontend.h"

#include "cache/key.h"
#include "python/python_scan.h"

#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

namespace gridlock::pipeline {
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

bool readsPython(const ScanRequest& o, const rules::RuleSet& rules) {
  return !o.pythonRoots.empty() || python::hasPythonRules(rules);
}

Units PythonFrontend::scan(const Scope& scope) {
  const ScanRequest& o = request_;
  Units out;
  python::PythonScan s;
  s.options.root = scope.root;
  s.options.packageRoot = o.packageRoot;
  s.options.jobs = o.jobs;
  for (const auto& [path, text] : o.overlay)
    if (auto rel = underRoot(scope.root, path)) s.options.overlay[*rel] = text;
  s.roots = o.pythonRoots;
  for (const std::string& f : o.files)
    if (auto rel = underRoot(scope.root, f)) s.only.push_back(*rel);
  // Positional paths or a diff that name nothing under the root: no Python unit is asked for.
  if ((!o.files.empty() || o.filesFromDiff) && s.only.empty()) return out;
  if (!o.cache.off) {
    s.cacheDir = !o.cache.dir.empty()  ? o.cache.dir
                 : !o.buildDir.empty() ? o.buildDir + "/.gridlock-cache"
                                       : scope.root + "/.gridlock-cache";
    if (auto bytes = cache::parseSize(o.cache.size)) s.cacheBytes = *bytes;
  }
  python::PythonUnits units = python::scanPython(s, scope.rules);
  static std::set<std::string> said;  // once per process: rewrite scans again
  for (const auto& w : units.warnings)
    if (said.insert(w).second) std::cerr << "gridlock: warning: " << w << "\n";
  out.cache = {units.cacheHits, units.cacheMisses};
  size_t n = 0;
  for (auto& u : units.units) {
    if (scope.onUnitDone) scope.onUnitDone(++n, units.units.size(), u);
    out.units.push_back(std::move(u));
  }
  out.selected = !out.units.empty();
  return out;
}

}  // namespace gridlock::pipeline
