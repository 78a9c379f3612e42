// gridlock's Clang plugin: the facts `gridlock scan` collects, collected while the project's own
// clang compiles each file, so a build that is already distributed (distcc, icecream, sccache,
// Bazel remote execution) distributes the scan with it and no file is parsed twice.
//
//   clang++ ... -fplugin=libgridlock_plugin.so -fplugin-arg-gridlock-out=DIR
//     -fplugin-arg-gridlock-root=ROOT -fplugin-arg-gridlock-rules=PACK [...rules=PACK]
//
// Each compile of a file under ROOT writes one facts file into DIR (pipeline/facts_file.h, one
// unit); `gridlock merge DIR` gives the report a scan of the same units gives. A bad argument or
// pack is a compile error that names it: a build never goes on without its facts.
#include "frontend/file_places.h"
#include "frontend/scan_action.h"
#include "pipeline/facts_file.h"
#include "rules/rule_set.h"
#include "support/atomic_write.h"
#include "support/file_io.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendPluginRegistry.h>
#include <llvm/Support/FileSystem.h>

#include <memory>
#include <string>
#include <vector>

namespace gridlock::plugin {
namespace {

using namespace clang;

struct Settings {
  std::string out;                    // DIR
  frontend::FrontendOptions options;  // root (real path)
  rules::RuleSet rules;
};

// Collects one unit's facts with the scan's consumer, then writes them.
class FactsWriter : public ASTConsumer {
 public:
  FactsWriter(CompilerInstance& ci, std::shared_ptr<const Settings> settings, std::string main)
      : ci_(ci), settings_(std::move(settings)) {
    facts_.mainFile = std::move(main);
    scan_ = frontend::makeScanConsumer(ci, settings_->rules, settings_->options, facts_, seen_);
  }
  void HandleTranslationUnit(ASTContext& ctx) override {
    scan_->HandleTranslationUnit(ctx);
    frontend::finishFacts(facts_, seen_);
    DiagnosticsEngine& diags = ci_.getDiagnostics();
    if (diags.hasErrorOccurred()) {
      facts::ParseError e;
      e.file = facts_.mainFile;
      e.messages.push_back("the compiler reported errors in this file");
      facts_.parseError = std::move(e);
    }
    pipeline::FactsFile f = pipeline::factsFileFor(settings_->options.root, settings_->rules);
    f.units = {facts_.mainFile};
    f.shard = f.shards = 0;  // one unit of a build, not a shard of a scan
    f.positions = {0};
    f.tus.push_back(std::move(facts_));
    // One file per compile: the same file compiled to two objects is two units.
    std::string name = support::md5Hex(f.units[0] + "\n" + ci_.getFrontendOpts().OutputFile);
    std::string path = settings_->out + "/" + name + ".facts";
    try {
      support::writeFileAtomic(path, pipeline::encodeFactsFile(f));
    } catch (const std::exception& e) {
      diags.Report(diags.getCustomDiagID(DiagnosticsEngine::Error,
                                         "gridlock plugin: cannot write the facts: %0"))
          << e.what();
    }
  }

 private:
  CompilerInstance& ci_;
  std::shared_ptr<const Settings> settings_;
  facts::TuFacts facts_;
  frontend::Seen seen_;
  std::unique_ptr<ASTConsumer> scan_;
};

class GridlockAction : public PluginASTAction {
 protected:
  bool ParseArgs(const CompilerInstance& ci, const std::vector<std::string>& args) override {
    DiagnosticsEngine& diags = ci.getDiagnostics();
    auto fail = [&](const std::string& why) {
      diags.Report(diags.getCustomDiagID(DiagnosticsEngine::Error, "gridlock plugin: %0")) << why;
      return false;
    };
    auto settings = std::make_shared<Settings>();
    std::string root;
    std::vector<std::string> packs;
    for (const auto& a : args) {
      size_t eq = a.find('=');
      std::string key = a.substr(0, eq), value = eq == std::string::npos ? "" : a.substr(eq + 1);
      if (eq == std::string::npos || value.empty())
        return fail("argument '" + a + "' is not KEY=VALUE (out=DIR, root=DIR, rules=PACK)");
      if (key == "out")
        settings->out = value;
      else if (key == "root")
        root = value;
      else if (key == "rules")
        packs.push_back(value);
      else
        return fail("unknown argument '" + key + "' (out=DIR, root=DIR, rules=PACK)");
    }
    if (settings->out.empty()) return fail("-fplugin-arg-gridlock-out=DIR is required");
    if (root.empty()) return fail("-fplugin-arg-gridlock-root=DIR is required");
    if (packs.empty()) return fail("-fplugin-arg-gridlock-rules=PACK is required");
    if (!llvm::sys::fs::is_directory(settings->out))
      return fail("out=" + settings->out + ": not a directory");
    if (!llvm::sys::fs::is_directory(root)) return fail("root=" + root + ": not a directory");
    settings->options.root = frontend::realPath(root);
    try {
      settings->rules = rules::RuleSet::load(packs);
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    settings_ = std::move(settings);
    return true;
  }

  ActionType getActionType() override { return AddAfterMainAction; }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef file) override {
    std::string main;
    // A file outside the root is not the project's: no facts, as a scan has none for it.
    if (!frontend::rootRelative(settings_->options.root, nullptr, frontend::realPath(file.str()),
                                main))
      return std::make_unique<ASTConsumer>();
    return std::make_unique<FactsWriter>(ci, settings_, main);
  }

 private:
  std::shared_ptr<const Settings> settings_;
};

FrontendPluginRegistry::Add<GridlockAction> registered("gridlock",
                                                       "collect gridlock's facts while compiling");

}  // namespace
}  // namespace gridlock::plugin
