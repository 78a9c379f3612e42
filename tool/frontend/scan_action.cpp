#include "frontend/scan_action.h"

#include "frontend/file_places.h"
#include "frontend/program_collector.h"
#include "frontend/read_collector.h"
#include "frontend/scope_sources.h"
#include "support/strings.h"

#include <clang/AST/ASTContext.h>
#include <clang/Lex/Preprocessor.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace gridlock::frontend {

using namespace clang;

void IncludeRecorder::FileChanged(SourceLocation loc, FileChangeReason reason,
                                  SrcMgr::CharacteristicKind, FileID) {
  if (reason != EnterFile) return;
  OptionalFileEntryRef entry = sm_.getFileEntryRefForID(sm_.getFileID(loc));
  if (!entry) return;
  std::string rel;
  if (rootRelative(options_.root, &options_.aliases,
                   sm_.getFileManager().getCanonicalName(*entry).str(), rel))
    out_.insert(rel);
}

namespace {

// Expansions of rule macros, and which rule macros the unit defines (on the command line too).
class MacroRecorder : public PPCallbacks {
 public:
  MacroRecorder(const rules::RuleSet& rules, std::shared_ptr<std::vector<MacroExpansion>> out,
                std::set<std::string>& defined)
      : rules_(rules), out_(std::move(out)), defined_(defined) {}
  void MacroExpands(const Token& name, const MacroDefinition&, SourceRange,
                    const MacroArgs*) override {
    if (const IdentifierInfo* ii = name.getIdentifierInfo())
      if (const rules::AccessorRule* r = rules_.macro(ii->getName().str()))
        out_->push_back({name.getLocation(), r});
  }
  void MacroDefined(const Token& name, const MacroDirective*) override {
    if (const IdentifierInfo* ii = name.getIdentifierInfo())
      if (const rules::AccessorRule* r = rules_.macro(ii->getName().str()))
        defined_.insert(rules::RuleSet::seenKey(*r));
  }

 private:
  const rules::RuleSet& rules_;
  std::shared_ptr<std::vector<MacroExpansion>> out_;
  std::set<std::string>& defined_;
};

// `fid`'s path relative to the root, when it is a file under the root.
bool underRoot(const SourceManager& sm, const FrontendOptions& options, FileID fid,
               std::string& rel) {
  OptionalFileEntryRef entry = sm.getFileEntryRefForID(fid);
  return entry &&
         rootRelative(options.root, &options.aliases, realPath(entry->getName().str()), rel);
}

// Identifiers in the preprocessor branches a build leaves out, in files under the root.
class SkippedRecorder : public PPCallbacks {
 public:
  SkippedRecorder(const SourceManager& sm, const FrontendOptions& options, facts::TuFacts& out)
      : sm_(sm), options_(options), out_(out) {}
  void SourceRangeSkipped(SourceRange range, SourceLocation) override {
    SourceLocation b = sm_.getExpansionLoc(range.getBegin()),
                   e = sm_.getExpansionLoc(range.getEnd());
    FileID fid = sm_.getFileID(b);
    if (fid != sm_.getFileID(e)) return;
    std::string rel;
    if (!underRoot(sm_, options_, fid, rel)) return;
    llvm::StringRef buffer = sm_.getBufferData(fid);
    unsigned from = sm_.getFileOffset(b),
             to = std::min<size_t>(sm_.getFileOffset(e), buffer.size());
    using support::identChar;
    using support::identStart;
    for (unsigned i = from; i < to;) {
      if (identStart(buffer[i])) {
        // A qualified name is one (`Profiler::Instance`): its qualifier may rule a function out.
        unsigned j = i;
        for (;;) {
          while (j < to && identChar(buffer[j])) ++j;
          if (j + 2 < to && buffer[j] == ':' && buffer[j + 1] == ':' && identStart(buffer[j + 2]))
            j += 2;
          else
            break;
        }
        out_.skipped.push_back({buffer.substr(i, j - i).str(), rel, sm_.getLineNumber(fid, i), i});
        i = j;
      } else {
        ++i;
      }
    }
  }

 private:
  const SourceManager& sm_;
  const FrontendOptions& options_;
  facts::TuFacts& out_;
};

// The branches of preprocessor conditionals in files under the root: where each starts and
// ends, and its condition as written (ConditionalFact).
class ConditionalRecorder : public PPCallbacks {
 public:
  ConditionalRecorder(const SourceManager& sm, const FrontendOptions& options, facts::TuFacts& out)
      : sm_(sm), options_(options), out_(out) {}
  void If(SourceLocation loc, SourceRange, ConditionValueKind) override { open(loc); }
  void Ifdef(SourceLocation loc, const Token&, const MacroDefinition&) override { open(loc); }
  void Ifndef(SourceLocation loc, const Token&, const MacroDefinition&) override { open(loc); }
  void Elif(SourceLocation loc, SourceRange, ConditionValueKind, SourceLocation) override {
    next(loc);
  }
  void Elifdef(SourceLocation loc, const Token&, const MacroDefinition&) override { next(loc); }
  void Elifdef(SourceLocation loc, SourceRange, SourceLocation) override { next(loc); }
  void Elifndef(SourceLocation loc, const Token&, const MacroDefinition&) override { next(loc); }
  void Elifndef(SourceLocation loc, SourceRange, SourceLocation) override { next(loc); }
  void Else(SourceLocation loc, SourceLocation) override { next(loc); }
  void Endif(SourceLocation loc, SourceLocation) override {
    if (open_.empty()) return;
    Place end = placeOf(loc);
    if (!includeGuard(end)) close(end);
    open_.pop_back();
  }

 private:
  // Where a directive's line starts.
  struct Place {
    FileID fid;
    unsigned begin = 0;
  };
  struct Branch {
    Place at;
    std::string condition, first;  // this branch's directive, and the #if it belongs to
  };
  Place placeOf(SourceLocation loc) const {
    loc = sm_.getExpansionLoc(loc);
    Place p{sm_.getFileID(loc), 0};
    size_t from = sm_.getBufferData(p.fid).rfind('\n', sm_.getFileOffset(loc));
    p.begin = from == llvm::StringRef::npos ? 0 : static_cast<unsigned>(from + 1);
    return p;
  }
  // The directive's line as written, blanks squeezed (`#  ifdef X` -> `# ifdef X`), without
  // a comment after it.
  std::string conditionAt(Place p) const {
    llvm::StringRef line = sm_.getBufferData(p.fid).substr(p.begin);
    std::string text;
    for (char ch : line.substr(0, line.find('\n'))) {
      bool blank = ch == ' ' || ch == '\t' || ch == '\r';
      if (blank && (text.empty() || text.back() == ' ')) continue;
      text += blank ? ' ' : ch;
    }
    // A comment after the condition is not part of it (`#ifdef USING_MPI // parallel only`).
    for (const char* lead : {"//", "/*"})
      if (size_t c = text.find(lead); c != std::string::npos) text.resize(c);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
  }
  void open(SourceLocation loc) {
    Branch b;
    b.at = placeOf(loc);
    b.condition = b.first = conditionAt(b.at);
    open_.push_back(std::move(b));
  }
  void next(SourceLocation loc) {
    if (open_.empty()) return;
    Place end = placeOf(loc);
    close(end);
    Branch& b = open_.back();
    b.at = end;
    b.condition = conditionAt(end) + " of " + b.first;
  }
  // Only comments and blanks in `text`.
  static bool trivia(llvm::StringRef text) {
    for (size_t i = 0; i < text.size();) {
      if (std::isspace(static_cast<unsigned char>(text[i]))) {
        ++i;
      } else if (text.substr(i).starts_with("//")) {
        i = text.find('\n', i);
      } else if (text.substr(i).starts_with("/*")) {
        size_t end = text.find("*/", i + 2);
        if (end == llvm::StringRef::npos) return false;
        i = end + 2;
      } else {
        return false;
      }
    }
    return true;
  }
  // The branch closing at `end` is its file's include guard (`#ifndef X_H` ... `#endif` around
  // everything): it is not a configuration, and headers' guards differ.
  bool includeGuard(Place end) const {
    const Branch& b = open_.back();
    for (size_t i = 0; i + 1 < open_.size(); ++i)
      if (open_[i].at.fid == b.at.fid) return false;  // nested in the file
    if (b.condition != b.first || !(llvm::StringRef(b.first).starts_with("#ifndef") ||
                                    llvm::StringRef(b.first).starts_with("#if !defined")))
      return false;
    if (end.fid != b.at.fid) return false;
    llvm::StringRef buffer = sm_.getBufferData(end.fid);
    size_t after = buffer.find('\n', end.begin);
    return trivia(buffer.substr(0, b.at.begin)) &&
           (after == llvm::StringRef::npos || trivia(buffer.substr(after)));
  }
  void close(Place end) {
    const Branch& b = open_.back();
    if (end.fid != b.at.fid) return;
    auto rel = files_.find(end.fid);
    if (rel == files_.end()) {
      std::string path;
      if (!underRoot(sm_, options_, end.fid, path)) path.clear();
      rel = files_.emplace(end.fid, path).first;
    }
    if (rel->second.empty()) return;
    out_.conditionals.push_back(
        {rel->second, b.at.begin, end.begin, sm_.getLineNumber(end.fid, b.at.begin), b.condition});
  }

  const SourceManager& sm_;
  const FrontendOptions& options_;
  facts::TuFacts& out_;
  std::vector<Branch> open_;
  std::map<FileID, std::string> files_;  // "" when outside the root
};

class ScanConsumer : public ASTConsumer {
 public:
  ScanConsumer(const rules::RuleSet& rules, const FrontendOptions& options,
               std::shared_ptr<std::vector<MacroExpansion>> macros, facts::TuFacts& out)
      : rules_(rules), options_(options), macros_(std::move(macros)), out_(out) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    // First what the unit declares of the rules: the types its accessors return are the
    // group and collection types that guards test and sources hold.
    DeclaredRules declared = declaredRules(ctx, rules_);
    out_.rulesSeen.insert(out_.rulesSeen.end(), declared.seen.begin(), declared.seen.end());
    FilePlaces places(ctx.getSourceManager(), rules_, options_.root, &options_.aliases);
    ReadCollector collector(ctx, rules_, places, *macros_, out_, &declared.inferred);
    collector.TraverseDecl(ctx.getTranslationUnitDecl());
    collector.finish();
    ProgramCollector program(ctx, places, rules_, out_, options_.rewriteFacts, &declared.inferred);
    program.TraverseDecl(ctx.getTranslationUnitDecl());
    program.finish();
  }

 private:
  const rules::RuleSet& rules_;
  const FrontendOptions& options_;
  std::shared_ptr<std::vector<MacroExpansion>> macros_;  // shared with the MacroRecorder
  facts::TuFacts& out_;
};

}  // namespace

std::unique_ptr<ASTConsumer> makeScanConsumer(CompilerInstance& ci, const rules::RuleSet& rules,
                                              const FrontendOptions& options, facts::TuFacts& out,
                                              Seen& seen) {
  Preprocessor& pp = ci.getPreprocessor();
  auto macros = std::make_shared<std::vector<MacroExpansion>>();
  if (rules.hasMacros())
    pp.addPPCallbacks(std::make_unique<MacroRecorder>(rules, macros, seen.macros));
  // Only the rewriter reads skipped branches (index::RewriteIndex); every identifier in them
  // is a large part of a unit's facts, and of its cache entry.
  if (options.rewriteFacts) {
    pp.addPPCallbacks(std::make_unique<SkippedRecorder>(ci.getSourceManager(), options, out));
    pp.addPPCallbacks(std::make_unique<ConditionalRecorder>(ci.getSourceManager(), options, out));
  }
  pp.addPPCallbacks(std::make_unique<IncludeRecorder>(ci.getSourceManager(), options, seen.files));
  return std::make_unique<ScanConsumer>(rules, options, std::move(macros), out);
}

void finishFacts(facts::TuFacts& out, Seen& seen) {
  seen.files.erase(out.mainFile);
  out.includes.assign(seen.files.begin(), seen.files.end());
  std::set<std::string> rulesSeen(out.rulesSeen.begin(), out.rulesSeen.end());
  rulesSeen.insert(seen.macros.begin(), seen.macros.end());
  out.rulesSeen.assign(rulesSeen.begin(), rulesSeen.end());
}

}  // namespace gridlock::frontend
