// What one parse of a translation unit collects: the preprocessor's recorders and the AST's
// collectors, shared by the scan (which runs Clang itself, frontend.h) and the Clang plugin
// (tool/plugin, which rides along the project's own compile), so both collect the same facts.
#pragma once

#include "facts/facts.h"
#include "frontend/frontend.h"
#include "rules/rule_set.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/PPCallbacks.h>

#include <memory>
#include <set>
#include <string>

namespace gridlock::frontend {

// What a unit's preprocessor saw, across the commands the database has for its file.
struct Seen {
  std::set<std::string> files;   // under the root: the main file and its includes
  std::set<std::string> macros;  // rules::RuleSet::seenKey of rule macros defined
};

// The files under the root a unit enters: its main file and its includes, direct or not.
class IncludeRecorder : public clang::PPCallbacks {
 public:
  IncludeRecorder(const clang::SourceManager& sm, const FrontendOptions& options,
                  std::set<std::string>& out)
      : sm_(sm), options_(options), out_(out) {}
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override;

 private:
  const clang::SourceManager& sm_;
  const FrontendOptions& options_;
  std::set<std::string>& out_;
};

// Adds the recorders a unit's facts need to `ci`'s preprocessor and returns the consumer that
// collects its AST's facts into `out`. `rules`, `options`, `out` and `seen` outlive the parse.
std::unique_ptr<clang::ASTConsumer> makeScanConsumer(clang::CompilerInstance& ci,
                                                     const rules::RuleSet& rules,
                                                     const FrontendOptions& options,
                                                     facts::TuFacts& out, Seen& seen);

// After the parses of a unit: the files under the root it includes and the rules it declares,
// from what its preprocessor saw.
void finishFacts(facts::TuFacts& out, Seen& seen);

}  // namespace gridlock::frontend
