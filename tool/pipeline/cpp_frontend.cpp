#include "pipeline/cpp_frontend.h"

#include "frontend/file_places.h"
#include "frontend/frontend.h"
#include "frontend/resource_dir.h"
#include "pipeline/facts_cache.h"

#include <algorithm>
#include <iostream>
#include <set>

#ifndef GRIDLOCK_CLANG_BINARY
#define GRIDLOCK_CLANG_BINARY "clang++"
#endif

namespace gridlock::pipeline {
namespace {

frontend::DatabaseOptions databaseOptions(const ScanRequest& o) {
  frontend::DatabaseOptions dbo;
  dbo.extraArgs = o.extraArgs;
  dbo.removeArgs = o.removeArgs;
  dbo.resourceDir = o.resourceDir.empty() ? frontend::clangResourceDir() : o.resourceDir;
  dbo.cuda.cudaPath = o.cudaPath;
  dbo.cuda.clang = GRIDLOCK_CLANG_BINARY;
  return dbo;
}

frontend::FrontendOptions frontendOptions(const ScanRequest& o, const Scope& scope,
                                          const frontend::CudaSettings& cuda, bool pythonToo) {
  frontend::FrontendOptions fo;
  fo.root = scope.root;
  fo.only = o.files;
  fo.onlyFromDiff = o.filesFromDiff;
  fo.othersSelectToo = pythonToo;
  fo.jobs = o.jobs;
  fo.onUnitDone = scope.onUnitDone;
  fo.cuda = cuda;
  fo.overlay = o.overlay;
  fo.rewriteFacts = o.rewriteFacts;
  return fo;
}

// A pattern that removed nothing from any database is most likely mistyped: said once.
void warnUnusedRemovals(const std::vector<std::string>& unused) {
  static std::set<std::string> said;
  for (const auto& p : unused)
    if (said.insert(p).second)
      std::cerr << "gridlock: warning: --remove-arg '" << p
                << "' matched no argument of the compile database\n";
}

// A subset run's context in `db`: every unit under the root its paths do not select (and no
// earlier database listed), which is parsed too, since whether a fallback is dead or a call
// launders one is decided on the whole program. None when the run selects no unit of the
// database (nothing of it to decide on), and none in a shard, whose facts file holds its own
// units only.
std::vector<std::string> contextOf(const ScanRequest& o, const frontend::ScanDatabase& db,
                                   const frontend::FrontendOptions& fo, const Scope& scope,
                                   const std::vector<std::string>& selected,
                                   std::set<std::string>& scanned) {
  if (!scope.subset || selected.empty() || !o.factsOut.empty()) return {};
  frontend::FrontendOptions every = fo;
  every.only.clear();
  every.onlyFromDiff = false;
  std::vector<std::string> out = frontend::selectFiles(db, every);
  std::erase_if(out, [&](const std::string& f) { return !scanned.insert(f).second; });
  return out;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The first `n` of `units` are the run's, the rest its context.
void split(std::vector<facts::UnitFacts> units, size_t n, Units& out) {
  for (size_t i = 0; i < units.size(); ++i)
    (i < n ? out.units : out.context).push_back(std::move(units[i]));
}

}  // namespace

Units CppFrontend::scan(const Scope& scope) {
  const ScanRequest& o = request_;
  Units out;
  frontend::DatabaseOptions dbo = databaseOptions(o);
  frontend::FrontendOptions fo = frontendOptions(o, scope, dbo.cuda, pythonToo_);
  std::set<std::string> scanned;  // a file two databases list is scanned once, as the first says
  std::vector<std::string> dbs;   // none without a build directory: a scan of Python only
  if (!o.buildDir.empty()) dbs.push_back(o.buildDir);
  dbs.insert(dbs.end(), o.extraDbs.begin(), o.extraDbs.end());
  unusedRemovals_ = o.removeArgs;
  for (size_t i = 0; i < dbs.size(); ++i) {
    dbo.buildDir = dbs[i];
    auto db = frontend::ScanDatabase::load(dbo);
    std::vector<std::string> unused = db->unusedRemovals();
    std::erase_if(unusedRemovals_, [&](const std::string& p) {
      return std::find(unused.begin(), unused.end(), p) == unused.end();
    });
    fo.aliases = frontend::rootAliases(*db, scope.root);
    std::vector<std::string> selected;
    try {
      selected = frontend::selectFiles(*db, fo);
    } catch (const frontend::InputError&) {
      // Positional paths may select only the first database's files; an extra database with
      // nothing under the root, or nothing at all, is still an error.
      if ((i == 0 && !pythonToo_) || o.files.empty()) throw;
    }
    std::erase_if(selected, [&](const std::string& f) { return !scanned.insert(f).second; });
    std::vector<std::string> context = contextOf(o, *db, fo, scope, selected, scanned);
    if (i > 0) {  // an extra database (rewrite --extra-db): parsed, not cached
      fo.cache = nullptr;
      split(frontend::runFrontend(*db, scope.rules, joined(selected, context), fo), selected.size(),
            out);
      continue;
    }
    // The first database's units: shards and the cache are its.
    ShardPlan shard = planShard(o, selected);
    auto cache =
        openCache(o.cache, o.buildDir, scope.rules, scope.root, fo.aliases, o.rewriteFacts);
    fo.cache = cache.get();
    split(frontend::runFrontend(*db, scope.rules, joined(shard.files, context), fo),
          shard.files.size(), out);
    out.cache = finishCache(cache.get(), o.cache, shard.files.size() + context.size());
    out.wholeScan = selected;
    out.shardPositions = shard.positions;
  }
  out.selected = !scanned.empty();
  return out;
}

void CppFrontend::finish(const Scope& /*scope*/, const Units& /*scanned*/) {
  warnUnusedRemovals(unusedRemovals_);
}

}  // namespace gridlock::pipeline
