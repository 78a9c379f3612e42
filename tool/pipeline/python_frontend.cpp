#include "pipeline/python_frontend.h"

#include "cache/key.h"
#include "cache/store.h"
#include "pipeline/root_path.h"
#include "pipeline/shard.h"
#include "python/python_scan.h"
#include "support/ownership.h"
#include "support/source_files.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <optional>
#include <set>

namespace gridlock::pipeline {
namespace {

// `path` (absolute, or relative to the working directory) relative to the root, as the tree
// names it (a module linked in from outside keeps its name in the tree: the rewriter's
// overlay of it is its text, and the write refuses it); nothing when it lies outside.
std::optional<std::string> underRoot(const std::string& root, const std::string& path) {
  std::vector<std::string> rel = rootRelative(root, path);
  if (rel.empty()) return std::nullopt;
  return rel.front();
}

// Each --downstream directory, absolute and normalised (its modules' files start so).
std::vector<python::Downstream> downstreamCheckouts(const std::vector<std::string>& dirs) {
  std::vector<python::Downstream> out;
  for (const std::string& d : dirs) {
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(d, ec);
    std::string path = (ec ? std::filesystem::path(d) : abs).lexically_normal().generic_string();
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    out.push_back({d, path});
  }
  return out;
}

// What a run left out of the downstream checkouts as vendored copies of the tree, once per
// process (rewrite scans again).
void noteVendored(const std::vector<std::string>& vendored) {
  static std::set<std::string> said;
  for (const std::string& v : vendored)
    if (said.insert(v).second)
      std::cerr << "gridlock: note: downstream: not read, a vendored copy: " << v << "\n";
}

}  // namespace

bool readsPython(const ScanRequest& o, const rules::RuleSet& rules) {
  return !o.pythonRoots.empty() || !o.downstream.empty() || python::hasPythonRules(rules);
}

Units PythonFrontend::scan(const Scope& scope) {
  const ScanRequest& o = request_;
  Units out;
  python::PythonScan s;
  s.options.root = scope.root;
  s.options.packageRoot = o.packageRoot;
  s.options.jobs = o.jobs;
  s.options.cpythonTimeoutSeconds = o.cpythonTimeoutSeconds;
  for (const auto& [path, text] : o.overlay)
    if (auto rel = underRoot(scope.root, path)) s.options.overlay[*rel] = text;
  s.roots = o.pythonRoots;
  s.downstream = downstreamCheckouts(o.downstream);
  for (const std::string& f : o.files)
    for (const std::string& rel : rootRelative(scope.root, f)) s.only.push_back(rel);
  // Positional paths or a diff that name nothing under the root: no Python unit is asked for.
  if ((!o.files.empty() || o.filesFromDiff) && s.only.empty()) return out;
  if (!o.cache.off) {
    s.cacheDir = !o.cache.dir.empty()  ? o.cache.dir
                 : !o.buildDir.empty() ? o.buildDir + "/.gridlock-cache"
                                       : scope.root + "/.gridlock-cache";
    if (auto bytes = cache::parseSize(o.cache.size)) s.cacheBytes = *bytes;
  }
  python::PythonUnits units = python::scanPython(s, scope.rules);
  for (const std::string& w : units.cacheWarnings) support::warnOnce(w);
  for (const std::string& w : units.downstreamWarnings) support::warnOnce(w);
  if (!o.quiet) noteVendored(units.vendored);
  out.seen = std::move(units.downstream);
  for (const python::Downstream& d : s.downstream) out.downstream[d.path] = d.dir;
  // The Python scan writes through the store, whose eviction (cache_evict: no LLVM) keeps
  // the directory within its bound, C++ entries of a shared cache included, as a C++ scan does.
  if (!s.cacheDir.empty() && units.cacheMisses > 0) {
    try {
      cache::Store(s.cacheDir, s.cacheBytes).evict();
    } catch (const std::exception& e) {
      support::warnOnce(std::string("cache: ") + e.what());
    }
  }
  // What one shard did not match another may: `gridlock merge` warns for the whole scan.
  if (o.factsOut.empty()) warnUnmatchedPython(units.warnings);
  out.cache = {units.cacheHits, units.cacheMisses};
  out.selected = !units.units.empty();
  std::vector<size_t> mine(units.units.size());
  std::iota(mine.begin(), mine.end(), 0);
  if (!o.factsOut.empty()) {
    // Every module is read and resolved in each shard (names resolve across all of them);
    // the shard's units are cut as the C++ ones are, and its cache counts are theirs.
    for (const auto& u : units.units) out.wholeScan.push_back(scope.root + "/" + u.tu.mainFile);
    mine = out.shardPositions = planShard(o, out.wholeScan).positions;
    out.cache = {};
    for (size_t i : mine) (units.fromCache[i] ? out.cache.hits : out.cache.misses) += 1;
    if (s.cacheDir.empty()) out.cache.misses = 0;
  }
  for (size_t i : mine) {
    if (scope.onUnitDone) scope.onUnitDone(out.units.size() + 1, mine.size(), units.units[i]);
    out.units.push_back(std::move(units.units[i]));
  }
  // A shard's facts file holds its own units; a subset run that selected a module sees every
  // other module too.
  if (o.factsOut.empty() && !out.units.empty()) out.context = std::move(units.context);
  return out;
}

void warnUnmatchedPython(const std::vector<std::string>& warnings) {
  static std::set<std::string> said;  // once per process: rewrite scans again
  for (const auto& w : warnings)
    if (said.insert(w).second) std::cerr << "gridlock: warning: " << w << "\n";
}

void warnUnmatchedPython(const rules::RuleSet& rules, const std::set<std::string>& seen,
                         const std::vector<std::string>& units) {
  size_t modules = std::count_if(units.begin(), units.end(),
                                 [](const std::string& u) { return support::isPythonSource(u); });
  if (modules && python::hasPythonRules(rules))
    warnUnmatchedPython(python::unmatchedPythonRules(rules, seen, modules));
}

}  // namespace gridlock::pipeline
