#include "frontend/frontend.h"

#include "cache/recording_fs.h"
#include "frontend/cached_scan.h"
#include "frontend/file_places.h"
#include "frontend/program_collector.h"
#include "frontend/read_collector.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Threading.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <iostream>
#include <mutex>

namespace gridlock::frontend {
namespace {

using namespace clang;

// Keeps a TU's first errors; the scan reports them and never counts a broken file as clean.
class ErrorCollector : public DiagnosticConsumer {
 public:
  explicit ErrorCollector(const std::string& root) : root_(root) {}
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
        std::string file = realPath(p.getFilename()), rel;
        relativeTo(root_, file, rel);
        where = rel + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) + ": ";
        // The file and its includers, up to the main file.
        for (PresumedLoc q = p; q.isValid();
             q = q.getIncludeLoc().isValid() ? sm.getPresumedLoc(q.getIncludeLoc()) : PresumedLoc()) {
          std::string f = realPath(q.getFilename()), r;
          relativeTo(root_, f, r);
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
  std::string root_;
};

class MacroRecorder : public PPCallbacks {
 public:
  MacroRecorder(const rules::RuleSet& rules, std::vector<MacroExpansion>& out)
      : rules_(rules), out_(out) {}
  void MacroExpands(const Token& name, const MacroDefinition&, SourceRange,
                    const MacroArgs*) override {
    if (const IdentifierInfo* ii = name.getIdentifierInfo())
      if (const rules::AccessorRule* r = rules_.macro(ii->getName().str()))
        out_.push_back({name.getLocation(), r});
  }

 private:
  const rules::RuleSet& rules_;
  std::vector<MacroExpansion>& out_;
};

// Identifiers in the preprocessor branches a build leaves out, in files under the root.
class SkippedRecorder : public PPCallbacks {
 public:
  SkippedRecorder(const SourceManager& sm, const std::string& root, facts::TuFacts& out)
      : sm_(sm), root_(root), out_(out) {}
  void SourceRangeSkipped(SourceRange range, SourceLocation) override {
    SourceLocation b = sm_.getExpansionLoc(range.getBegin()), e = sm_.getExpansionLoc(range.getEnd());
    FileID fid = sm_.getFileID(b);
    if (fid != sm_.getFileID(e)) return;
    OptionalFileEntryRef entry = sm_.getFileEntryRefForID(fid);
    if (!entry) return;
    std::string rel;
    if (!relativeTo(root_, realPath(entry->getName().str()), rel)) return;
    llvm::StringRef buffer = sm_.getBufferData(fid);
    unsigned from = sm_.getFileOffset(b), to = std::min<size_t>(sm_.getFileOffset(e), buffer.size());
    for (unsigned i = from; i < to;) {
      char c = buffer[i];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        unsigned j = i;
        while (j < to && (std::isalnum(static_cast<unsigned char>(buffer[j])) || buffer[j] == '_')) ++j;
        std::string name = buffer.substr(i, j - i).str();
        if (!out_.skippedNames.count(name))
          out_.skippedNames[name] = rel + ":" + std::to_string(sm_.getLineNumber(fid, i));
        i = j;
      } else {
        ++i;
      }
    }
  }

 private:
  const SourceManager& sm_;
  std::string root_;
  facts::TuFacts& out_;
};

class ScanConsumer : public ASTConsumer {
 public:
  ScanConsumer(const rules::RuleSet& rules, const std::string& root, bool rewriteFacts,
               std::vector<MacroExpansion>& macros, facts::TuFacts& out)
      : rules_(rules), root_(root), rewriteFacts_(rewriteFacts), macros_(macros), out_(out) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    FilePlaces places(ctx.getSourceManager(), rules_, root_);
    ReadCollector collector(ctx, rules_, places, macros_, out_);
    collector.TraverseDecl(ctx.getTranslationUnitDecl());
    collector.finish();
    ProgramCollector program(ctx, places, rules_, out_, rewriteFacts_);
    program.TraverseDecl(ctx.getTranslationUnitDecl());
  }

 private:
  const rules::RuleSet& rules_;
  const std::string& root_;
  bool rewriteFacts_;
  std::vector<MacroExpansion>& macros_;
  facts::TuFacts& out_;
};

class ScanAction : public ASTFrontendAction {
 public:
  ScanAction(const rules::RuleSet& rules, const std::string& root, bool rewriteFacts,
             facts::TuFacts& out)
      : rules_(rules), root_(root), rewriteFacts_(rewriteFacts), out_(out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    if (rules_.hasMacros())
      ci.getPreprocessor().addPPCallbacks(std::make_unique<MacroRecorder>(rules_, macros_));
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<SkippedRecorder>(ci.getSourceManager(), root_, out_));
    return std::make_unique<ScanConsumer>(rules_, root_, rewriteFacts_, macros_, out_);
  }

 private:
  const rules::RuleSet& rules_;
  const std::string& root_;
  bool rewriteFacts_;
  facts::TuFacts& out_;
  std::vector<MacroExpansion> macros_;
};

class ScanActionFactory : public tooling::FrontendActionFactory {
 public:
  ScanActionFactory(const rules::RuleSet& rules, const std::string& root, bool rewriteFacts,
                    facts::TuFacts& out)
      : rules_(rules), root_(root), rewriteFacts_(rewriteFacts), out_(out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ScanAction>(rules_, root_, rewriteFacts_, out_);
  }

 private:
  const rules::RuleSet& rules_;
  const std::string& root_;
  bool rewriteFacts_;
  facts::TuFacts& out_;
};

// The files a parse sees: a physical file system of its own (the shared real one would move the
// process's cwd under the other threads' feet), with the CUDA 13 workaround header and the
// overlay in memory above it.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> parseFileSystem(const FrontendOptions& options) {
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

// `recorder`, when given, records every file the parse depends on (tool/cache).
facts::TuFacts scanOne(const ScanDatabase& db, const rules::RuleSet& rules,
                       const std::string& file, const FrontendOptions& options,
                       cache::Recorder* recorder) {
  facts::TuFacts out;
  std::string abs = realPath(file);
  relativeTo(options.root, abs, out.mainFile);
  out.notes = db.notes(file);
  auto fs = parseFileSystem(options);
  if (recorder) fs = recorder->wrap(fs);
  tooling::ClangTool tool(db, {file}, std::make_shared<PCHContainerOperations>(), fs);
  tool.setPrintErrorMessage(false);  // errors are reported once, by the scan
  ErrorCollector errors(options.root);
  tool.setDiagnosticConsumer(&errors);
  ScanActionFactory factory(rules, options.root, options.rewriteFacts, out);
  int rc = tool.run(&factory);
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

}  // namespace

std::vector<std::string> selectFiles(const ScanDatabase& db, const FrontendOptions& options) {
  std::vector<std::string> only;
  for (const auto& o : options.only) only.push_back(realPath(o));
  std::vector<bool> used(only.size(), false);
  std::vector<std::string> files;
  for (const auto& f : db.getAllFiles()) {
    std::string abs = realPath(f), rel;
    bool under = relativeTo(options.root, abs, rel);
    if (!only.empty()) {
      bool hit = false;
      for (size_t i = 0; i < only.size(); ++i) {
        if (abs == only[i] || llvm::StringRef(abs).starts_with(only[i] + "/")) {
          hit = true;
          used[i] = true;
        }
      }
      if (!hit) continue;
    }
    // Every TU under the root: an excluded one reports no reads, but its call sites still
    // reach the functions others scan.
    if (under) files.push_back(f);
  }
  for (size_t i = 0; i < only.size(); ++i)
    if (!used[i])
      throw InputError(options.only[i] + ": not in the compile database");
  return files;
}

std::vector<facts::TuFacts> runFrontend(const ScanDatabase& db, const rules::RuleSet& rules,
                                        const std::vector<std::string>& files,
                                        const FrontendOptions& options) {
  std::vector<facts::TuFacts> results(files.size());
  unsigned jobs = options.jobs ? options.jobs : llvm::hardware_concurrency().compute_thread_count();
  std::atomic<size_t> done{0};
  std::mutex progressMutex;
  bool progress = options.progress && isatty(STDERR_FILENO);
  std::optional<cache::FileView> view;
  if (options.cache) view.emplace(parseFileSystem(options));
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(jobs));
    for (size_t i = 0; i < files.size(); ++i) {
      pool.async([&, i] {
        auto parse = [&](cache::Recorder* r) { return scanOne(db, rules, files[i], options, r); };
        results[i] = options.cache ? scanCached(db, files[i], options, *view, parse) : parse(nullptr);
        size_t n = ++done;
        if (progress) {
          std::lock_guard<std::mutex> lock(progressMutex);
          std::cerr << "\r\033[K[" << n << "/" << files.size() << "] " << results[i].mainFile
                    << std::flush;
        }
      });
    }
    pool.wait();
  }
  if (progress) std::cerr << "\r\033[K" << std::flush;
  return results;
}

}  // namespace gridlock::frontend
