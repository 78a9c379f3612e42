#include "rewrite/cpp/rewriter.h"

#include "rewrite/cpp/cpp_state.h"
#include "rewrite/cpp/finish.h"
#include "rewrite/cpp/outside_db.h"

namespace gridlock::rewrite::cpp {

using facts::Left;

bool CppRewriter::triageFirst(PlanState& s, size_t i) const {
  const facts::Read& r = s.read(i);
  if (r.enclosing.empty() || !s.rules.function(r.enclosing)) return false;
  // The legacy API itself: its calls are what the rewrite replaces, its body stays.
  s.leave(
      i, Left::None,
      "in the definition of accessor " + r.enclosing + ", which the rewrite replaces at its calls");
  return true;
}

bool CppRewriter::triageLast(PlanState& s, size_t i) const {
  const facts::Read& r = s.read(i);
  if (std::string outside = outsidePaths(s.inv, r.file); !outside.empty()) {
    // A call that launders a fallback of the paths given, in a file they do not name.
    s.leave(i, r.kind == facts::ReadKind::Laundered ? Left::OpenFallback : Left::NoSource,
            outside + ": it is not edited");
    return true;
  }
  if (r.kind != facts::ReadKind::GlobalState || !r.mutated) return false;
  // `f(&cfg)`, `cfg.reset()`: a read that may also write, which a state field or a const
  // parameter cannot stand for; it stays as a write does.
  s.leave(i, Left::NoSource,
          (r.enclosing.empty() ? std::string("it") : r.enclosing) + " may change " + r.name +
              " here (a non-const method, or its address handed on): it stays");
  return true;
}

std::string CppRewriter::heldDetail(const std::string& file, const std::string& why) const {
  return "the rewritten " + file + " did not compile (" + why + "): its edits are rolled back";
}

std::unique_ptr<PlanState> CppRewriter::start(const PlanInputs& in) {
  return std::make_unique<CppState>(in.inv, in.rules, &in.held);
}

apply::Prepared CppRewriter::finish(const PlanState& planned, const std::string& root) {
  return prepare(static_cast<const CppState&>(planned), root);
}

std::string CppRewriter::notIdempotent(const Plan& second) const {
  return "internal: a second pass would still edit " + std::to_string(second.edits.size()) +
         " place(s), first " + second.edits[0].why + "; nothing written";
}

Confirmation CppRewriter::confirm(const Plan& plan, const index::Inventory& inv,
                                  const std::string& root) const {
  OutsideSearch found = findOutsideUses(root, inv.programFiles, plan.signatures);
  const bool allow = options_.allowOutsideDb;
  const std::string level = allow ? ": warning: " : ": error: ";
  Confirmation out;
  for (const auto& u : found.uses)
    out.lines.push_back(facts::where(u.file, u.line, u.column) + level + "names " + u.function +
                        ", whose parameter list this rewrite changes, in a file no compile "
                        "database lists");
  for (const auto& f : found.unreadable)
    out.lines.push_back("gridlock" + level + f +
                        ": cannot be read to look for callers of the functions whose parameter "
                        "lists change");
  if (allow || (found.uses.empty() && found.unreadable.empty())) return out;
  out.lines.push_back(
      "gridlock: error: rewrite refused; nothing written: the files above would not compile "
      "after it (pass --extra-db with a compile database that lists them, or "
      "--allow-outside-db to fix them by hand)");
  out.refused = true;
  return out;
}

}  // namespace gridlock::rewrite::cpp
