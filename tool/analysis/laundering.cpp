#include "analysis/laundering.h"

#include "analysis/callers.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace gridlock::analysis {

void launder(index::Inventory& inv, const rules::RuleSet& rules) {
  std::vector<facts::Read> laundered;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seen;
  auto visit = [&](facts::Read& source) {
    if (source.guardParam < 0 || source.kind == facts::ReadKind::GlobalWrite ||
        source.kind == facts::ReadKind::Laundered)
      return;
    std::vector<CallerSite> sites = reach(inv.program, {{source.guardFunction, source.guardParam}});
    std::vector<const CallerSite*> breaking;
    for (const auto& s : sites) {
      // A default argument runs only when the argument is left out; a fallback also runs
      // when null is passed.
      if (s.supplied == facts::Supplied::Default ||
          (s.supplied == facts::Supplied::Null && !source.inDefaultArgument))
        breaking.push_back(&s);
    }
    if (source.guard == facts::Guard::Fallback) {
      source.analysis.fallbackDead = breaking.empty();
      source.analysis.breakingSites.clear();
      for (const auto* s : breaking) {
        std::string at = facts::where(s->file, s->line, s->column);
        auto& sites = source.analysis.breakingSites;
        // A call that may reach either of several functions is one place.
        if (inv.program.sites[s->siteIndex].alternative &&
            std::find(sites.begin(), sites.end(), at) != sites.end())
          continue;
        sites.push_back(std::move(at));
      }
    }
    for (const auto* s : breaking) {
      rules::Placement place = rules.placeAny(s->file, s->file.empty() || s->file[0] != '/');
      if (place == rules::Placement::Out) continue;
      // A subset run reports the calls in its files, and those that launder a fallback of its
      // files wherever they are: a changed helper judges its unchanged callers again.
      if (inv.subset && !inv.filesSeen.count(s->file) && !inv.filesSeen.count(source.file))
        continue;
      // A call that may reach either of several functions reads the global once.
      bool alternative = inv.program.sites[s->siteIndex].alternative;
      if (!seen.emplace(s->file, s->line, s->column, alternative ? "" : s->function).second)
        continue;
      facts::Read r;
      r.file = s->file;
      r.line = s->line;
      r.column = s->column;
      r.name = s->function;
      r.kind = facts::ReadKind::Laundered;
      r.group = source.group;
      r.yields = source.yields;
      r.enclosing = s->caller;
      if (auto caller = inv.program.functions.find(s->callerUsr);
          caller != inv.program.functions.end())
        if (auto cls = inv.program.classes.find(caller->second.classUsr);
            cls != inv.program.classes.end())
          r.enclosingClass = cls->second.name;
      r.edge = place == rules::Placement::Edge;
      r.hint.fix = r.edge ? facts::Hint::None : facts::Hint::Thread;
      r.analysis.launders = source.name;
      r.spelling = facts::where(s->file, s->line, s->column);
      r.language = source.language;  // no call crosses frontends: the caller is in its language
      laundered.push_back(std::move(r));
    }
  };
  for (auto& r : inv.reads) visit(r);
  for (auto& r : inv.exemptReads) visit(r);
  for (auto& r : laundered) inv.reads.push_back(std::move(r));
  index::sortReads(inv.reads);
}

}  // namespace gridlock::analysis
