// gridlock rewrite: remove the global reads a plan can remove (Substitute, Require), prove the
// result still compiles by re-parsing it, then export, show or write the edits. Reads left
// alone are listed with their reasons. See docs/rewrite.md.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "rewrite/edits.h"
#include "rewrite/plan.h"

#include <iostream>
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace gridlock::cli {
namespace {

struct RewriteFlags {
  std::string exportFixes;
  bool apply = false;
  bool diff = false;
  bool quiet = false;
};

std::string where(const facts::Read& r) { return facts::where(r.file, r.line, r.column); }

// What the plan did and left, on stderr (stdout carries the diff).
void report(const rewrite::Plan& plan, bool quiet) {
  std::map<std::string, size_t> left;
  for (const auto& r : plan.reads) {
    if (r.kind == "global_write" || r.fix == "substitute" || r.fix == "require" ||
        r.fix == "collapse")
      continue;
    if (r.fix == "thread" && r.fixDetail.rfind("replaced with ", 0) == 0) continue;
    ++left[r.fix];
    if (!quiet)
      std::cerr << where(r) << ": note: left " << r.name << ": " << r.fix
                << (r.fixDetail.empty() ? "" : " (" + r.fixDetail + ")") << "\n";
  }
  size_t total = 0;
  for (const auto& [k, n] : left) total += n;
  std::cerr << "gridlock: rewrite: " << plan.substituted << " substituted, " << plan.required
            << " required, " << plan.threaded << " threaded (through " << plan.threadedFunctions
            << " function(s)), ";
  if (plan.supplied) std::cerr << plan.supplied << " call site(s) given the group they hold, ";
  if (plan.collapsed)
    std::cerr << plan.collapsed << " collapsed (into " << plan.collapsedFunctions
              << " lookup(s)), ";
  std::cerr << total << " left";
  if (!left.empty()) {
    std::cerr << " (";
    bool first = true;
    for (const auto& [k, n] : left) {
      std::cerr << (first ? "" : ", ") << k << " " << n;
      first = false;
    }
    std::cerr << ")";
  }
  std::cerr << "\n";
}

std::set<std::string> errorFiles(const index::Inventory& inv) {
  std::set<std::string> out;
  for (const auto& e : inv.parseErrors) out.insert(e.file);
  return out;
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
  exp->excludes(apply)->excludes(diff);
  apply->excludes(diff);
  cmd->add_flag("--quiet,-q", f->quiet, "Only the summary line, not every read left alone");
  return [=]() {
    if (f->exportFixes.empty() && !f->apply && !f->diff) {
      std::cerr << "gridlock: error: rewrite needs one of --export-fixes FILE, --apply, --diff\n";
      return 2;
    }
    auto threadFacts = std::make_shared<rewrite::ThreadFacts>();
    ScanOptions first = *o;
    first.onFacts = [threadFacts](const std::vector<facts::TuFacts>& tus) { threadFacts->add(tus); };
    ScanRun run = runScan(first);
    if (!run.inventory.parseErrors.empty()) {
      parseErrorStatus(run, *o);
      std::cerr << "gridlock: error: rewrite refuses to edit a codebase that does not parse\n";
      return 2;
    }
    // Plan, lay the result over the files in memory and re-parse every TU. A TU that did not
    // fail before and fails now holds its files back (no edit may land there, and the Thread
    // closures and checks that need them are dropped), and the rewrite is planned again; when
    // the failure cannot be pinned on a file that changed, everything is rolled back.
    const std::set<std::string> before = errorFiles(run.inventory);
    rewrite::HeldFiles held;
    rewrite::Plan plan;
    rewrite::Prepared prepared;
    for (int round = 0;; ++round) {
      plan = rewrite::plan(run.inventory, run.rules, threadFacts.get(), &held);
      prepared = rewrite::prepare(plan, run.inventory, run.root);
      if (!prepared.ok() || prepared.changes.empty()) break;
      ScanOptions again = *o;
      again.overlay = rewrite::overlayOf(prepared);
      auto againFacts = std::make_shared<rewrite::ThreadFacts>();
      again.onFacts = [againFacts](const std::vector<facts::TuFacts>& tus) { againFacts->add(tus); };
      ScanRun after = runScan(again);
      std::set<std::string> changed;
      for (const auto& c : prepared.changes) changed.insert(c.file);
      bool broken = false, pinned = true;
      for (const auto& e : after.inventory.parseErrors) {
        if (before.count(e.file)) continue;
        broken = true;
        std::cerr << "gridlock: note: the rewritten " << e.file << " does not compile:\n";
        for (const auto& m : e.messages) std::cerr << "  " << m << "\n";
        // The TU's own file, and every changed file its errors name.
        std::string why = e.messages.empty() ? std::string("a compile error") : e.messages[0];
        bool found = false;
        for (const auto& c : changed) {
          bool named = c == e.file ||
                       std::find(e.files.begin(), e.files.end(), c) != e.files.end();
          if (named && !held.count(c)) {
            held[c] = why;
            found = true;
          }
        }
        pinned = pinned && found;
      }
      if (broken && (!pinned || round >= 8)) {
        std::cerr << "gridlock: error: the failure is not in a file the rewrite changed alone; "
                     "rewrite rolled back; nothing written\n";
        return 2;
      }
      if (broken) continue;
      // The same scan proves the result idempotent: nothing is left to do.
      rewrite::Plan second =
          rewrite::plan(after.inventory, after.rules, againFacts.get(), &held);
      if (!second.edits.empty()) {
        std::cerr << "gridlock: error: internal: a second pass would still edit "
                  << second.edits.size() << " place(s), first " << second.edits[0].why
                  << "; nothing written\n";
        return 2;
      }
      break;
    }
    report(plan, f->quiet);
    if (!prepared.ok()) {
      for (const auto& c : prepared.changedFiles)
        std::cerr << "gridlock: error: " << c << "; scan again (nothing written)\n";
      for (const auto& c : prepared.conflicts)
        std::cerr << "gridlock: error: conflicting edits: " << c << "\n";
      for (const auto& e : prepared.errors) std::cerr << "gridlock: error: " << e << "\n";
      std::cerr << "gridlock: error: rewrite refused; nothing written\n";
      return 2;
    }
    for (const auto& [file, why] : held)
      std::cerr << "gridlock: rewrite: edits in " << file << " rolled back: " << why << "\n";

    std::ostringstream summary;
    summary << prepared.changes.size() << " file(s)";
    if (!f->exportFixes.empty()) {
      std::string main = prepared.changes.empty() ? std::string() : prepared.changes[0].path;
      writeOutput(f->exportFixes, rewrite::exportYaml(prepared, main));
      std::cerr << "gridlock: rewrite: edits of " << summary.str() << " written to "
                << f->exportFixes << "\n";
    } else if (f->diff) {
      std::cout << rewrite::unifiedDiff(prepared) << std::flush;
    } else if (prepared.changes.empty()) {
      std::cerr << "gridlock: rewrite: nothing to do\n";
    } else {
      rewrite::writeAll(prepared);
      std::cerr << "gridlock: rewrite: " << summary.str() << " rewritten\n";
    }
    return 0;
  };
}

}  // namespace gridlock::cli
