#include "cli/scan_options.h"

#include "cli/progress.h"

#include "analysis/laundering.h"
#include "cli/python_input.h"
#include "cli/shard.h"
#include "frontend/file_places.h"
#include "frontend/frontend.h"
#include "frontend/resource_dir.h"
#include "rewrite/journal.h"
#include "support/atomic_write.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <stdexcept>

#ifndef GRIDLOCK_CLANG_BINARY
#define GRIDLOCK_CLANG_BINARY "clang++"
#endif

namespace gridlock::cli {

void addScanOptions(CLI::App& cmd, ScanOptions& o, bool rulesRequired) {
  // -p and --rules may come from .gridlock.json instead (applyConfig checks them).
  cmd.add_option("-p", o.buildDir,
                 "Build directory holding compile_commands.json, or that file (default: "
                 "\"build\" of .gridlock.json)");
  // One value per occurrence, so a file after --rules R is a file, not a second pack.
  cmd.add_option("--rules", o.rules,
                 std::string("Rule pack, a name or a path (repeatable; default: \"rules\" of "
                             ".gridlock.json)") +
                     (rulesRequired ? "" : "; optional here"))
      ->allow_extra_args(false);
  cmd.add_option("--root", o.root,
                 "Paths in output are relative to this directory (default: the directory of "
                 ".gridlock.json, else the current directory)");
  cmd.add_option("--config", o.config,
                 "Project configuration (default: the nearest .gridlock.json from the current "
                 "directory upward)");
  cmd.add_option("files", o.files, "Restrict the scan to these files or directories");
  cmd.add_option("--extra-arg", o.extraArgs, "Extra compiler flag (repeatable)")
      ->allow_extra_args(false);
  cmd.add_option("--remove-arg", o.removeArgs,
                 "Leave the compiler arguments this glob matches out of every database command "
                 "(repeatable; default: \"remove_args\" of .gridlock.json)")
      ->allow_extra_args(false);
  cmd.add_option("--jobs,-j", o.jobs, "Translation units in parallel (default: all cores)");
  cmd.add_flag("-q,--quiet", o.quiet, "No progress line; only errors, findings and the verdict");
  cmd.add_flag("--allow-parse-errors", o.allowParseErrors,
               "Exit 0 even when a file fails to parse (it is still reported)");
  cmd.add_option("--resource-dir", o.resourceDir,
                 "Clang resource directory (default: the one gridlock was built with)");
  cmd.add_option("--cuda-path", o.cudaPath, "CUDA installation for .cu files");
  addCacheOptions(cmd, o.cache);
}

// Once per process, since the rewriter scans its own edits again.
void warnUnmatched(const ScanRun& run, bool verbose) {
  static std::set<std::string> said;
  const index::Inventory& inv = run.inventory;
  auto warn = [](const std::string& line) {
    if (said.insert(line).second) std::cerr << "gridlock: warning: " << line << "\n";
  };
  for (const auto& u : run.rules.unmatched(inv.rulesSeen, inv.filesSeen, inv.filesScanned)) {
    if (verbose || u.lines.size() == 1) {
      for (const auto& line : u.lines) warn(line);
      continue;
    }
    // A pack written for other code misses most of its entries: one line, not dozens.
    size_t units = inv.filesScanned;
    warn("pack " + u.pack + ": " + std::to_string(u.lines.size()) + " of its " +
         std::to_string(u.entries) + " entries matched nothing in " + std::to_string(units) +
         (units == 1 ? " translation unit" : " translation units") + " (-v lists them)");
  }
}

// A pattern that removed nothing from any database is most likely mistyped: said once.
void warnUnusedRemovals(const std::vector<std::string>& unused) {
  static std::set<std::string> said;
  for (const auto& p : unused)
    if (said.insert(p).second)
      std::cerr << "gridlock: warning: --remove-arg '" << p
                << "' matched no argument of the compile database\n";
}

ScanRun runScan(const ScanOptions& o) {
  ScanRun run;
  if (!llvm::sys::fs::is_directory(o.root))
    throw std::runtime_error("--root " + o.root + ": not a directory");
  run.root = frontend::realPath(o.root);
  if (o.rules.empty()) {
    rules::RulePack all;
    all.name = "(no rules)";
    run.rules = rules::RuleSet({all});
  } else {
    rules::PackAnchor anchor;
    if (!o.rulesDir.empty()) anchor = {o.rulesDir, "beside .gridlock.json"};
    run.rules = rules::RuleSet::load(o.rules, anchor);
  }

  frontend::DatabaseOptions dbo;
  dbo.extraArgs = o.extraArgs;
  dbo.removeArgs = o.removeArgs;
  dbo.resourceDir = o.resourceDir.empty() ? frontend::clangResourceDir() : o.resourceDir;
  dbo.cuda.cudaPath = o.cudaPath;
  dbo.cuda.clang = GRIDLOCK_CLANG_BINARY;

  frontend::FrontendOptions fo;
  fo.root = run.root;
  fo.only = o.files;
  fo.onlyFromDiff = o.filesFromDiff;
  fo.jobs = o.jobs;
  std::optional<Progress> progress;
  if (!o.quiet) {
    progress.emplace(Progress::forStderr());
    fo.onUnitDone = [&progress](size_t n, size_t total, const facts::UnitFacts& tu) {
      progress->unitDone(n, total, tu);
    };
  }
  fo.cuda = dbo.cuda;
  fo.overlay = o.overlay;
  fo.rewriteFacts = o.rewriteFacts;
  std::vector<facts::UnitFacts> tus;
  std::set<std::string> scanned;   // a file two databases list is scanned once, as the first says
  std::vector<std::string> files;  // the first database's (shards and the cache are its)
  ShardPlan shard;
  index::CacheCounts counts;
  // No build directory: Python only, when the packs or the config ask for it (python_input.h).
  bool python = readsPython(o, run.rules);
  if (o.buildDir.empty() && !python) throw ConfigError(o.noBuildDir);
  if (python && !o.shard.empty())
    throw ConfigError("--shard splits compile databases only: this scan reads Python too");
  std::vector<std::string> dbs;
  if (!o.buildDir.empty()) dbs.push_back(o.buildDir);
  dbs.insert(dbs.end(), o.extraDbs.begin(), o.extraDbs.end());
  std::vector<std::string> unusedRemovals = o.removeArgs;
  for (size_t i = 0; i < dbs.size(); ++i) {
    dbo.buildDir = dbs[i];
    auto db = frontend::ScanDatabase::load(dbo);
    std::vector<std::string> unused = db->unusedRemovals();
    std::erase_if(unusedRemovals, [&](const std::string& p) {
      return std::find(unused.begin(), unused.end(), p) == unused.end();
    });
    fo.aliases = frontend::rootAliases(*db, run.root);
    std::vector<std::string> selected;
    try {
      selected = frontend::selectFiles(*db, fo);
    } catch (const frontend::InputError&) {
      // Positional paths may select only the first database's files; an extra database with
      // nothing under the root, or nothing at all, is still an error.
      if ((i == 0 && !python) || o.files.empty()) throw;
    }
    std::erase_if(selected, [&](const std::string& f) { return !scanned.insert(f).second; });
    if (i > 0) {  // an extra database (rewrite --extra-db): parsed, not cached
      fo.cache = nullptr;
      for (auto& tu : frontend::runFrontend(*db, run.rules, selected, fo))
        tus.push_back(std::move(tu));
      continue;
    }
    files = selected;
    shard = planShard(o, files);
    auto cache = openCache(o.cache, o.buildDir, run.rules, run.root, fo.aliases, o.rewriteFacts);
    fo.cache = cache.get();
    tus = frontend::runFrontend(*db, run.rules, shard.files, fo);
    counts = finishCache(cache.get(), o.cache, shard.files.size());
  }
  PythonInput py = scanPythonInput(o, run.root, run.rules, fo.onUnitDone);
  for (auto& u : py.units) {
    scanned.insert(u.tu.mainFile);
    tus.push_back(std::move(u));
  }
  counts.hits += py.cache.hits;
  counts.misses += py.cache.misses;
  if (progress) progress->finish();
  warnUnusedRemovals(unusedRemovals);
  run.subset = !o.files.empty() || o.filesFromDiff;
  if (!o.factsOut.empty()) writeShardFacts(o, run, files, shard, tus, counts);
  run.inventory = index::merge(std::move(tus), o.rewriteFacts);
  run.inventory.cache = counts;
  // The command line's root and the directories above it were checked before the scan (main);
  // an interrupted apply of a narrower root left its journal below, among the files seen.
  std::string held = rewrite::journalRootBelow(run.root, run.inventory.filesSeen);
  if (!held.empty())
    throw std::runtime_error(rewrite::journalMessage(held, rewrite::journalState(held)));
  analysis::launder(run.inventory, run.rules);
  // What one shard did not match another may: `gridlock merge` warns for the whole scan. A
  // diff may select no unit: nothing to warn of.
  if (o.factsOut.empty() && !scanned.empty()) warnUnmatched(run, o.cache.verbose);
  return run;
}

void writeOutput(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text << std::flush;
    return;
  }
  support::writeFileAtomic(path, text);
}

void checkOutputPath(const std::string& option, const std::string& path) {
  if (path.empty() || path == "-") return;
  std::string why = support::whyUnwritable(path);
  if (!why.empty()) throw ConfigError(option + " " + path + ": " + why);
}

int parseErrorStatus(const ScanRun& run, const ScanOptions& o) {
  const auto& errors = run.inventory.parseErrors;
  if (errors.empty()) return 0;
  for (const auto& e : errors) {
    std::cerr << "gridlock: error: " << e.file << " failed to parse; its reads may be incomplete\n";
    for (const auto& m : e.messages) std::cerr << "  " << m << "\n";
  }
  if (o.allowParseErrors) return 0;
  std::cerr << "gridlock: " << errors.size()
            << " file(s) failed to parse; the inventory is incomplete (pass --allow-parse-errors "
               "to accept that)\n";
  return 2;
}

}  // namespace gridlock::cli
