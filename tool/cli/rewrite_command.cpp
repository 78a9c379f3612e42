// gridlock rewrite: remove the global reads a plan can remove, prove the result holds (each
// backend's checks in the core's loop, rewrite/core/verify.h), then export, show or write the
// edits. Reads left alone
// are listed with their reasons. `--recover` puts back a tree an interrupted --apply left
// (apply/recover.h). See docs/rewrite.md.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "apply/journal.h"
#include "apply/recover.h"
#include "apply/replacements_yaml.h"
#include "apply/unified_diff.h"
#include "apply/write.h"
#include "rewrite/core/rewriter.h"
#include "rewrite/core/summary.h"
#include "rewrite/core/verify.h"
#include "rewrite/python/checker.h"
#include "rewrite/python/verify.h"

#include "support/paths.h"

#include <iostream>
#include <memory>

namespace gridlock::cli {
namespace {

struct RewriteFlags {
  std::string exportFixes;
  bool apply = false;
  bool diff = false;
  bool check = false;  // --diff --check: exit 1 when there is a diff
  bool recover = false;
  bool force = false;
  bool allowOutsideDb = false;
  std::string pythonChecker = "require";  // require | warn (pyright missing or failing)
  int pyrightTimeout = rewrite::py::checks::kDefaultPyrightTimeoutSeconds;
};

// Each backend's word on the verified plan (C++: files no database lists that name a function
// whose parameter list changes, errors or with --allow-outside-db warnings). Returns whether to
// go on.
bool confirmed(const rewrite::Rewriters& backends, const rewrite::Plan& plan,
               const pipeline::ScanRun& run) {
  for (const auto& backend : backends) {
    rewrite::Confirmation c = backend->confirm(plan, run.inventory, run.root);
    for (const auto& line : c.lines) std::cerr << line << "\n";
    if (c.refused) return false;
  }
  return true;
}

// What the plan did and left, on stderr (stdout carries the diff).
void report(const rewrite::Plan& plan, const index::Inventory& inv,
            const rewrite::Rewriters& backends, bool quiet) {
  for (size_t i = 0; i < inv.reads.size() && !quiet; ++i) {
    const facts::Read& r = inv.reads[i];
    const facts::Verdict& v = plan.verdicts[i];
    if (r.kind == facts::ReadKind::GlobalWrite || v.applied) continue;
    std::cerr << facts::where(r.file, r.line, r.column) << ": note: left " << r.name << ": "
              << facts::spell(v.left) << (v.detail.empty() ? "" : " (" + v.detail + ")") << "\n";
  }
  std::cerr << "gridlock: rewrite: " << rewrite::summaryLine(plan, inv, backends) << "\n";
}

// What the refused rewrite found, on stderr.
int refused(const apply::Prepared& prepared) {
  for (const auto& c : prepared.changedFiles)
    std::cerr << "gridlock: error: " << c << "; scan again (nothing written)\n";
  for (const auto& c : prepared.conflicts)
    std::cerr << "gridlock: error: conflicting edits: " << c << "\n";
  for (const auto& e : prepared.errors) std::cerr << "gridlock: error: " << e << "\n";
  std::cerr << "gridlock: error: rewrite refused; nothing written\n";
  return 2;
}

int refused(const apply::WriteRefused& e) {
  for (const auto& p : e.problems) std::cerr << "gridlock: error: " << p << "\n";
  return 2;
}

// rewrite --recover: the tree at --root put back as it was before an interrupted --apply.
int recover(const std::string& root, bool force) {
  if (!support::isDirectory(root)) {
    std::cerr << "gridlock: error: --root " << root << ": not a directory\n";
    return 2;
  }
  std::string real = support::realPath(root);
  try {
    apply::RecoverReport r = apply::recover(real, force);
    if (r.ignored) {
      std::cerr << "gridlock: error: " << apply::journalMessage(real, apply::JournalState::Ignored)
                << "\n";
      return 2;
    }
    if (!r.journal) {
      // An interrupted apply of a tree above this one holds these files too: say where.
      std::string held = apply::journalRootAtOrAbove(real);
      if (!held.empty()) {
        std::cerr << "gridlock: error: " << apply::journalMessage(held, apply::journalState(held))
                  << "\n";
        return 2;
      }
      std::cerr << "gridlock: rewrite: " << real << " holds no journal; nothing to recover\n";
      return 0;
    }
    if (!r.written) {
      std::cerr << "gridlock: rewrite: " << real << "/" << apply::kJournalDirName
                << ": the apply was interrupted before its journal was written or after it was "
                   "removed: every file holds its old contents or its new ones, none mixed; the "
                   "directory is removed\n";
      return 0;
    }
    for (const auto& f : r.restored) std::cerr << "gridlock: rewrite: " << f << ": restored\n";
    for (const auto& f : r.kept)
      std::cerr << "gridlock: rewrite: " << f << ": changed since; left as it is, its old "
                << "contents saved as " << f << ".gridlock-old\n";
    std::cerr << "gridlock: rewrite: recovered: " << r.restored.size() << " file(s) restored, "
              << r.unchanged.size() << " already as they were, " << r.kept.size()
              << " left as they are; the journal is removed\n";
    return 0;
  } catch (const apply::WriteRefused& e) {
    return refused(e);
  }
}

// Exports, shows or writes a verified rewrite. The status: 0, or 1 for --diff --check when
// there is a diff.
int emit(const RewriteFlags& f, const apply::Prepared& prepared, const std::string& root) {
  std::string files = std::to_string(prepared.changes.size()) + " file(s)";
  if (!f.exportFixes.empty()) {
    std::string main = prepared.changes.empty() ? std::string() : prepared.changes[0].path;
    std::string yaml;
    try {
      yaml = apply::exportYaml(prepared, main);
    } catch (const apply::WriteRefused& e) {
      return refused(e);
    }
    writeOutput(f.exportFixes, yaml);
    std::cerr << "gridlock: rewrite: edits of " << files << " written to " << f.exportFixes << "\n";
  } else if (f.diff) {
    std::string diff = apply::unifiedDiff(prepared);
    std::cout << diff << std::flush;
    if (f.check && !diff.empty()) return 1;
  } else if (prepared.changes.empty()) {
    std::cerr << "gridlock: rewrite: nothing to do\n";
  } else {
    apply::WriteOptions wo;
    wo.force = f.force;
    try {
      apply::writeAll(prepared, root, wo);
    } catch (const apply::WriteRefused& e) {
      return refused(e);
    }
    std::cerr << "gridlock: rewrite: " << files << " rewritten\n";
  }
  return 0;
}

}  // namespace

Runner addRewriteCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("rewrite", "Thread groups explicitly: rewrite global reads");
  auto o = std::make_shared<ScanOptions>();
  auto f = std::make_shared<RewriteFlags>();
  addScanOptions(*cmd, *o);
  auto* exp = cmd->add_option("--export-fixes", f->exportFixes,
                              "Write the edits as clang-apply-replacements YAML");
  auto* apply = cmd->add_flag("--apply", f->apply, "Edit the files in place (all or none)");
  auto* diff = cmd->add_flag("--diff", f->diff, "Print the edits as a unified diff");
  cmd->add_flag("--check", f->check,
                "With --diff: exit 1 when there are edits to make, 0 when there are none (a CI "
                "step that fails until the rewrite is applied)")
      ->needs(diff);
  auto* rec = cmd->add_flag("--recover", f->recover,
                            "Put back the tree an interrupted --apply left (needs only --root)");
  exp->excludes(apply)->excludes(diff)->excludes(rec);
  apply->excludes(diff)->excludes(rec);
  diff->excludes(rec);
  cmd->add_flag("--force", f->force,
                "--apply: rewrite read-only files too; --recover: leave files changed since as "
                "they are");
  cmd->add_option("--extra-db", o->extraDbs,
                  "Another build directory (or compile_commands.json) whose units are scanned "
                  "and rewritten too: tests, examples (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--allow-outside-db", f->allowOutsideDb,
                "Rewrite even when files no database lists call a function whose parameter "
                "list changes (they are listed as warnings)");
  cmd->add_option("--python-checker", f->pythonChecker,
                  "When pyright cannot check a Python change: require (refuse the rewrite, the "
                  "default) or warn (go on with the compile check alone, saying so)")
      ->check(CLI::IsMember({"require", "warn"}));
  cmd->add_option("--pyright-timeout", f->pyrightTimeout,
                  "Stop a pyright run that takes longer (seconds; 0: no limit; default " +
                      std::to_string(rewrite::py::checks::kDefaultPyrightTimeoutSeconds) +
                      "): a failed run, as --python-checker says")
      ->check(CLI::NonNegativeNumber);
  return [=]() {
    if (f->recover) return recover(configuredRoot(*cmd, *o), f->force);
    if (f->exportFixes.empty() && !f->apply && !f->diff) {
      std::cerr << "gridlock: error: rewrite needs one of --export-fixes FILE, --apply, --diff, "
                   "--recover\n";
      return 2;
    }
    ScanOptions first = *o;
    applyConfig(*cmd, first);  // -p and --rules, from the command line or .gridlock.json
    if (!first.downstream.empty()) {
      // Their callers decide the plan (scan --plan shows it), but the verification would check
      // their files, which lie outside the root: refused before anything is planned.
      std::cerr << "gridlock: error: rewrite does not take downstream checkouts yet "
                   "(--downstream, or the config's \"downstream\"): its verification would "
                   "check their files, outside the root; `gridlock scan --plan` with them shows "
                   "what their callers decide; nothing written\n";
      return 2;
    }
    checkOutputPath("--export-fixes", f->exportFixes);
    first.rewriteFacts = true;
    pipeline::ScanRun run = pipeline::scan(first);
    if (!run.inventory.parseErrors.empty()) {
      parseErrorStatus(run, first);
      std::cerr << "gridlock: error: rewrite refuses to edit a codebase that does not parse\n";
      return 2;
    }
    // What a Python change needs to be verified is looked for before any planning: a rewrite
    // that would be refused for want of pyright says so now, not after planning and preparing.
    if (rewrite::py::hasPythonReads(run.inventory)) {
      std::string missing = rewrite::py::checkerMissing(f->pythonChecker == "warn");
      if (!missing.empty()) {
        std::cerr << "gridlock: error: " << missing << "\n";
        return 2;
      }
    }
    auto rescan = [&](const std::map<std::string, std::string>& overlay) {
      ScanOptions again = first;
      again.overlay = overlay;
      return pipeline::scan(again).inventory;
    };
    rewrite::RewriteOptions options;
    options.allowOutsideDb = f->allowOutsideDb;
    options.checkerMayBeMissing = f->pythonChecker == "warn";
    rewrite::Rewriters backends = rewrite::rewritersFor(options);
    rewrite::Verified v =
        rewrite::planAndVerify(run.inventory, run.rules, run.root, rescan, backends);
    for (const auto& w : v.warnings) std::cerr << "gridlock: " << w << "\n";
    if (v.error.empty() && rewrite::py::hasPythonReads(run.inventory)) {
      rewrite::py::Options po;
      po.warnWithoutChecker = f->pythonChecker == "warn";
      po.pyrightTimeoutSeconds = f->pyrightTimeout;
      rewrite::py::Verified py =
          rewrite::py::planAndVerify(run.inventory, run.rules, run.root, rescan, po);
      for (const auto& w : py.warnings) std::cerr << "gridlock: " << w << "\n";
      rewrite::py::mergeInto(run.inventory, py, v);
    }
    for (const auto& line : v.log)
      std::cerr << (line.rfind("  ", 0) == 0 ? "" : "gridlock: note: ") << line << "\n";
    if (!v.error.empty()) {
      std::cerr << "gridlock: error: " << v.error << "\n";
      return 2;
    }
    report(v.plan, run.inventory, backends, first.quiet);  // -q: the summary line alone
    if (!v.prepared.ok()) return refused(v.prepared);
    if (!confirmed(backends, v.plan, run)) return 2;
    for (const auto& [file, why] : v.held)
      std::cerr << "gridlock: rewrite: edits in " << file << " rolled back: " << why << "\n";
    return emit(*f, v.prepared, run.root);
  };
}

}  // namespace gridlock::cli
