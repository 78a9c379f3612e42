#include "frontend/frontend.h"

#include "cache/recording_fs.h"
#include "frontend/cached_scan.h"
#include "frontend/file_places.h"
#include "frontend/scan_action.h"
#include "support/source_files.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Threading.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <exception>
#include <functional>
#include <iostream>
#include <mutex>
#include <set>

namespace gridlock::frontend {
namespace {

using namespace clang;

// Keeps a TU's first errors; the scan reports them and never counts a broken file as clean.
class ErrorCollector : public DiagnosticConsumer {
 public:
  explicit ErrorCollector(const FrontendOptions& options) : options_(options) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error || messages.size() >= 5) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    std::string where;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) {
        std::string rel;
        rootRelative(options_.root, &options_.aliases, realPath(p.getFilename()), rel);
        where =
            rel + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) + ": ";
        // The file and its includers, up to the main file.
        for (PresumedLoc q = p; q.isValid(); q = q.getIncludeLoc().isValid()
                                                     ? sm.getPresumedLoc(q.getIncludeLoc())
                                                     : PresumedLoc()) {
          std::string r;
          rootRelative(options_.root, &options_.aliases, realPath(q.getFilename()), r);
          if (std::find(files.begin(), files.end(), r) == files.end()) files.push_back(r);
        }
      }
    }
    messages.push_back(where + (level == DiagnosticsEngine::Fatal ? "fatal error: " : "error: ") +
                       std::string(text));
  }
  std::vector<std::string> messages;
  std::vector<std::string> files;

 private:
  const FrontendOptions& options_;
};

class ScanAction : public ASTFrontendAction {
 public:
  ScanAction(const rules::RuleSet& rules, const FrontendOptions& options, facts::TuFacts& out,
             Seen& seen)
      : rules_(rules), options_(options), out_(out), seen_(seen) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    return makeScanConsumer(ci, rules_, options_, out_, seen_);
  }

 private:
  const rules::RuleSet& rules_;
  const FrontendOptions& options_;
  facts::TuFacts& out_;
  Seen& seen_;
};

class ScanActionFactory : public tooling::FrontendActionFactory {
 public:
  ScanActionFactory(const rules::RuleSet& rules, const FrontendOptions& options,
                    facts::TuFacts& out, Seen& seen)
      : rules_(rules), options_(options), out_(out), seen_(seen) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ScanAction>(rules_, options_, out_, seen_);
  }

 private:
  const rules::RuleSet& rules_;
  const FrontendOptions& options_;
  facts::TuFacts& out_;
  Seen& seen_;
};

// Preprocessing alone, for the files a unit includes (which units a header selects).
class IncludesAction : public PreprocessOnlyAction {
 public:
  IncludesAction(const FrontendOptions& options, std::set<std::string>& out)
      : options_(options), out_(out) {}
  bool BeginSourceFileAction(CompilerInstance& ci) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeRecorder>(ci.getSourceManager(), options_, out_));
    return PreprocessOnlyAction::BeginSourceFileAction(ci);
  }

 private:
  const FrontendOptions& options_;
  std::set<std::string>& out_;
};

class IncludesActionFactory : public tooling::FrontendActionFactory {
 public:
  IncludesActionFactory(const FrontendOptions& options, std::set<std::string>& out)
      : options_(options), out_(out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<IncludesAction>(options_, out_);
  }

 private:
  const FrontendOptions& options_;
  std::set<std::string>& out_;
};

// A file system of its own for one unit: the shared real one would move the process's cwd
// under the other threads' feet. The CUDA 13 workaround header and the overlay (the
// rewriter's edited contents) lie in memory above it.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> unitFileSystem(
    const FrontendOptions& options) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(options.cuda.workaroundDir + "/texture_fetch_functions.h", 0,
                  llvm::MemoryBuffer::getMemBuffer(""));
  for (const auto& [path, text] : options.overlay)
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  overlay->pushOverlay(memory);
  return overlay;
}

// Runs `work(i)` for i in [0, n) on `jobs` threads (0: all cores). An exception in one is
// thrown again here, after all have run: the pool's futures would otherwise drop it, and leave
// a unit with no facts, counted as clean.
void parallelFor(size_t n, unsigned jobs, const std::function<void(size_t)>& work) {
  unsigned threads = jobs ? jobs : llvm::hardware_concurrency().compute_thread_count();
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
  std::mutex mutex;
  std::exception_ptr first;
  for (size_t i = 0; i < n; ++i)
    pool.async([&, i] {
      try {
        work(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!first) first = std::current_exception();
      }
    });
  pool.wait();
  if (first) std::rethrow_exception(first);
}

// `recorder`, when given, records every file the parse depends on (tool/cache).
facts::TuFacts scanOne(const ScanDatabase& db, const rules::RuleSet& rules, const std::string& file,
                       const FrontendOptions& options, cache::Recorder* recorder) {
  facts::TuFacts out;
  rootRelative(options.root, &options.aliases, realPath(file), out.mainFile);
  out.notes = db.notes(file);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = unitFileSystem(options);
  if (recorder) fs = recorder->wrap(fs);
  tooling::ClangTool tool(db, {file}, std::make_shared<PCHContainerOperations>(), fs);
  tool.setPrintErrorMessage(false);  // errors are reported once, by the scan
  ErrorCollector errors(options);
  tool.setDiagnosticConsumer(&errors);
  Seen seen;
  ScanActionFactory factory(rules, options, out, seen);
  int rc = tool.run(&factory);
  finishFacts(out, seen);
  if (errors.getNumErrors() > 0 || rc != 0) {
    facts::ParseError e;
    e.file = out.mainFile;
    e.messages = errors.messages;
    e.files = errors.files;
    if (e.messages.empty()) e.messages.push_back("the compiler could not run on this file");
    out.parseError = std::move(e);
  }
  return out;
}

// The files under the root each of `files` includes (its main file among them).
std::vector<std::set<std::string>> includesOf(const ScanDatabase& db,
                                              const std::vector<std::string>& files,
                                              const FrontendOptions& options) {
  std::vector<std::set<std::string>> out(files.size());
  parallelFor(files.size(), options.jobs, [&](size_t i) {
    tooling::ClangTool tool(db, {files[i]}, std::make_shared<PCHContainerOperations>(),
                            unitFileSystem(options));
    tool.setPrintErrorMessage(false);
    IgnoringDiagConsumer quiet;  // the scan itself reports what does not parse
    tool.setDiagnosticConsumer(&quiet);
    IncludesActionFactory factory(options, out[i]);
    tool.run(&factory);
  });
  return out;
}

// `path` made absolute with its directories resolved, but not its last component: where the
// database puts a file, even when the file is a symlink.
std::string namedPath(const std::string& path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, true);
  llvm::StringRef parent = llvm::sys::path::parent_path(abs);
  if (parent.empty()) return std::string(abs);
  return realPath(parent.str()) + "/" + llvm::sys::path::filename(abs).str();
}

// A database file under the root: as the database names it, its real path, its root-relative
// name.
struct Unit {
  std::string file, real, rel;
};

// The database's files under the root, one per real file: of a symlink and its target, the
// name that is the real path is kept, so that the file Clang opens is the one the reports
// (and the rewriter's edits) name.
std::vector<Unit> unitsUnderRoot(const ScanDatabase& db, const FrontendOptions& options) {
  std::vector<Unit> out;
  std::map<std::string, size_t> byReal;
  for (const auto& f : db.getAllFiles()) {
    Unit u{f, realPath(f), ""};
    if (!rootRelative(options.root, &options.aliases, u.real, u.rel)) {
      db.checkRelativeEntries(f);  // its name says nothing when its directory is missing
      continue;
    }
    auto [it, fresh] = byReal.emplace(u.real, out.size());
    if (fresh)
      out.push_back(std::move(u));
    else if (namedPath(f) == u.real)
      out[it->second] = std::move(u);
  }
  return out;
}

bool holds(const std::string& dir, const std::string& path) {
  return path == dir || llvm::StringRef(path).starts_with(dir + "/");
}

// The units the positional paths select (see selectFiles).
std::vector<std::string> selectGiven(const ScanDatabase& db, const FrontendOptions& options,
                                     const std::vector<Unit>& units) {
  std::vector<bool> chosen(units.size(), false);
  std::vector<std::pair<std::string, std::string>> headers;  // as given, root-relative
  for (const auto& given : options.only) {
    // A path from a diff (onlyFromDiff) that selects nothing is skipped: a README, a deleted
    // file, a header no unit includes.
    if (!llvm::sys::fs::exists(given)) {
      if (options.onlyFromDiff) continue;
      throw InputError(given + ": no such file or directory");
    }
    std::string real = realPath(given), rel;
    bool underRoot =
        real == options.root || rootRelative(options.root, &options.aliases, real, rel);
    bool hit = false;
    for (size_t i = 0; i < units.size(); ++i)
      if (real == options.root || holds(real, units[i].real) ||
          (!rel.empty() && holds(rel, units[i].rel)))
        chosen[i] = hit = true;
    if (hit) continue;
    if (!underRoot && options.onlyFromDiff) continue;
    if (options.othersSelectToo && underRoot) {
      if (!support::isPythonSource(given)) headers.emplace_back(given, rel);
      continue;
    }
    for (const auto& f : db.getAllFiles())
      if (holds(real, realPath(f)))
        throw InputError(given + ": in the compile database, but outside --root " + options.root);
    if (!underRoot) throw InputError(given + ": outside --root " + options.root);
    headers.emplace_back(given, rel);
  }
  if (!headers.empty()) {
    std::vector<std::string> files;
    for (const auto& u : units) {
      db.checkEntries(u.file);
      files.push_back(u.file);
    }
    std::vector<std::set<std::string>> includes = includesOf(db, files, options);
    for (const auto& [given, rel] : headers) {
      bool any = false;
      for (size_t i = 0; i < units.size(); ++i)
        for (const auto& inc : includes[i])
          if (holds(rel, inc)) {
            chosen[i] = any = true;
            break;
          }
      if (!any && !options.onlyFromDiff && !options.othersSelectToo)
        throw InputError(given +
                         ": not in the compile database, and no translation unit under --root "
                         "includes it");
    }
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < units.size(); ++i)
    if (chosen[i]) out.push_back(units[i].file);
  return out;
}

}  // namespace

RootAliases rootAliases(const ScanDatabase& db, const std::string& root) {
  RootAliases out;
  for (const auto& f : db.getAllFiles()) {
    std::string real = realPath(f), rel;
    if (relativeTo(root, real, rel)) continue;
    if (relativeTo(root, namedPath(f), rel)) out.emplace(real, rel);
  }
  return out;
}

std::vector<std::string> selectFiles(const ScanDatabase& db, const FrontendOptions& options) {
  size_t entries = db.getAllFiles().size();
  if (entries == 0)
    throw InputError("the compile database " + db.path() + " has no entries: nothing to scan");
  std::vector<Unit> units = unitsUnderRoot(db, options);
  std::vector<std::string> files;
  if (!options.only.empty() || options.onlyFromDiff) {
    files = selectGiven(db, options, units);
  } else {
    // Every unit under the root: an excluded one reports no reads, but its call sites still
    // reach the functions others scan.
    for (const auto& u : units) files.push_back(u.file);
    if (files.empty())
      throw InputError("none of the " + std::to_string(entries) +
                       " file(s) in the compile database " + db.path() + " lies under --root " +
                       options.root + ": nothing to scan");
  }
  for (const auto& f : files) db.checkEntries(f);
  return files;
}

std::vector<facts::UnitFacts> runFrontend(const ScanDatabase& db, const rules::RuleSet& rules,
                                          const std::vector<std::string>& files,
                                          const FrontendOptions& options) {
  std::vector<facts::UnitFacts> results(files.size());
  std::atomic<size_t> done{0};
  std::mutex progressMutex;
  bool progress = options.progress && isatty(STDERR_FILENO) && !options.onUnitDone;
  std::optional<cache::FileView> view;
  if (options.cache) view.emplace(unitFileSystem(options));
  parallelFor(files.size(), options.jobs, [&](size_t i) {
    auto parse = [&](cache::Recorder* r) { return scanOne(db, rules, files[i], options, r); };
    results[i] = options.cache ? scanCached(db, files[i], options, *view, parse)
                               : facts::UnitFacts{parse(nullptr), nullptr};
    size_t n = ++done;
    if (options.onUnitDone) {
      std::lock_guard<std::mutex> lock(progressMutex);
      options.onUnitDone(n, files.size(), results[i]);
    } else if (progress) {
      std::lock_guard<std::mutex> lock(progressMutex);
      std::cerr << "\r\033[K[" << n << "/" << files.size() << "] " << results[i].tu.mainFile
                << std::flush;
    }
  });
  if (progress) std::cerr << "\r\033[K" << std::flush;
  return results;
}

}  // namespace gridlock::frontend
