#include "rewrite/python/verify.h"

#include "rewrite/python/checker.h"
#include "rewrite/python/checks/compile_check.h"
#include "rewrite/python/checks/tools.h"
#include "rewrite/python/prepare.h"
#include "rewrite/python/py_state.h"

#include <algorithm>
#include <map>
#include <set>

namespace gridlock::rewrite::py {
namespace {

// Holds back each changed file CPython does not compile (rewrite/python/checks: py_compile's
// check). False when no python3 ran.
bool compileCheck(const apply::Prepared& p, Verified& v) {
  std::vector<std::string> sources;
  for (const auto& c : p.changes) sources.push_back(c.after);
  rewrite::py::checks::CompileOutcome o =
      rewrite::py::checks::compileSources(rewrite::py::checks::findTools().python, sources);
  if (!o.ran) return false;
  for (size_t i = 0; i < p.changes.size() && i < o.failures.size(); ++i)
    if (o.failures[i]) {
      const std::string& file = p.changes[i].file;
      v.held[file] = file + ":" + *o.failures[i];
      v.log.push_back("the rewritten " + file + " does not compile: " + v.held[file]);
    }
  return true;
}

// Reads by name in `file`: `left` counts those the plan leaves (in the scan before).
std::map<std::string, int> readsIn(const index::Inventory& inv, const std::string& file,
                                   const Plan* plan, const PyExtras* extras) {
  std::map<std::string, int> out;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    // An edge file's reads are allowed: a call there may now pass the global itself.
    if (r.file != file || r.kind == facts::ReadKind::GlobalWrite || r.edge) continue;
    if (plan && plan->verdicts[i].applied) continue;
    ++out[r.name];
  }
  // A Collapse lookup, a keyword's fallback on the global written out: reads the plan writes.
  if (extras)
    if (auto a = extras->added.find(file); a != extras->added.end())
      for (const auto& [name, n] : a->second) out[name] += n;
  return out;
}

// Holds back each changed file the re-scan finds a new parse error or a new read in.
void rescanCheck(const index::Inventory& before, const index::Inventory& after,
                 const apply::Prepared& p, const Verified& planned, Verified& v) {
  std::set<std::string> broken;
  for (const auto& e : before.parseErrors) broken.insert(e.file);
  for (const auto& e : after.parseErrors)
    if (!broken.count(e.file) && !v.held.count(e.file))
      for (const auto& c : p.changes)
        if (c.file == e.file) {
          v.held[e.file] = e.messages.empty() ? "a parse error" : e.messages[0];
          v.log.push_back("the rewritten " + e.file + " does not parse: " + v.held[e.file]);
        }
  for (const auto& c : p.changes) {
    if (v.held.count(c.file)) continue;
    std::map<std::string, int> left = readsIn(before, c.file, &planned.plan, &planned.extras);
    for (const auto& [name, n] : readsIn(after, c.file, nullptr, nullptr))
      if (n > left[name]) {
        v.held[c.file] = "the rewrite would add a read of " + name;
        v.log.push_back("the rewritten " + c.file + " reads " + name + " " +
                        std::to_string(n - left[name]) + " more time(s) than the plan leaves");
        break;
      }
  }
}

// Holds back each changed file pyright finds something new in (checker.h), but one whose edits
// wrote a type hint is planned again without hints first (`unhinted`): the hint's type may be
// one the checker knows less of than the code did (Debian's torch 1.13 declares
// torch.distributed.ProcessGroup as a stub without size()). False when the rewrite is refused
// (v.error).
bool checkerCheck(const index::Inventory& inv, const std::string& root, const Options& options,
                  std::set<std::string>& unhinted, Verified& v) {
  CheckerOutcome c = checkWithPyright(inv, v.prepared, root, options, v.extras.groupHints);
  if (!c.error.empty()) {
    v.error = c.error;
    return false;
  }
  v.log.insert(v.log.end(), c.log.begin(), c.log.end());
  for (const auto& w : c.warnings)
    if (std::find(v.warnings.begin(), v.warnings.end(), w) == v.warnings.end())
      v.warnings.push_back(w);
  for (const auto& [file, why] : c.held) {
    if (v.extras.hinted.count(file) && unhinted.insert(file).second) {
      v.log.push_back("pyright finds something new in the rewritten " + file + " (" + why +
                      "): planned again without type hints");
      continue;
    }
    v.held[file] = why;
    v.log.push_back("pyright finds something new in the rewritten " + file + ": " + why);
  }
  return true;
}

}  // namespace

void mergeInto(const index::Inventory& inv, const Verified& py, rewrite::Verified& into) {
  mergeInto(inv, py.plan, into.plan);
  auto& changes = into.prepared.changes;
  for (const auto& c : py.prepared.changes) changes.push_back(c);
  std::sort(changes.begin(), changes.end(),
            [](const apply::FileChange& a, const apply::FileChange& b) { return a.file < b.file; });
  auto append = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
    to.insert(to.end(), from.begin(), from.end());
  };
  append(into.prepared.conflicts, py.prepared.conflicts);
  append(into.prepared.changedFiles, py.prepared.changedFiles);
  append(into.prepared.errors, py.prepared.errors);
  append(into.log, py.log);
  for (const auto& [f, why] : py.held) into.held[f] = why;
  if (into.error.empty()) into.error = py.error;
}

bool hasPythonReads(const index::Inventory& inv) {
  for (const auto& r : inv.reads)
    if (r.language == facts::Language::Python) return true;
  return false;
}

Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const rewrite::Rescan& rescan,
                       const Options& options) {
  Verified v;
  std::set<std::string> unhinted;
  for (int round = 1;; ++round) {
    std::unique_ptr<PyState> planned = plan(inv, rules, root, {}, &v.held, &unhinted);
    v.plan = std::move(planned->plan);
    v.extras = std::move(planned->extras);
    v.prepared = prepare(v.plan.edits, inv, root);
    if (!v.prepared.ok() || v.prepared.changes.empty()) return v;
    const size_t held = v.held.size(), plain = unhinted.size();
    if (!compileCheck(v.prepared, v)) {
      v.error = "no python3 runs to compile the rewritten files (py_compile); nothing written";
      return v;
    }
    if (v.held.size() > held) continue;
    index::Inventory after = rescan(apply::overlayOf(v.prepared));
    rescanCheck(inv, after, v.prepared, v, v);
    // pyright last: it is the slowest, and it need not see what the checks above hold back.
    if (v.held.size() == held && !checkerCheck(inv, root, options, unhinted, v)) return v;
    if (v.held.size() > held || unhinted.size() > plain) {
      if (round > rewrite::kMaxVerifyRounds) {
        v.error = "the rewrite still fails verification after holding files back; nothing written";
        return v;
      }
      continue;
    }
    std::map<std::string, std::string> overlay;
    for (const auto& c : v.prepared.changes) overlay[c.file] = c.after;
    const Plan second = plan(after, rules, root, overlay, &v.held, &unhinted)->plan;
    if (!second.edits.empty())
      v.error = "internal: a second pass would still edit " + std::to_string(second.edits.size()) +
                " place(s) of Python, first " + second.edits[0].why + "; nothing written";
    return v;
  }
}

}  // namespace gridlock::rewrite::py
