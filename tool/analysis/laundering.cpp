#include "analysis/laundering.h"

#include "analysis/callers.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace gridlock::analysis {
namespace {

// What a literal argument or default is, as far as a test of it goes.
struct Known {
  bool null = false, notNull = false, truthy = false, falsy = false;
};

Known literal(const std::string& text) {
  if (text == "None" || text == "nullptr" || text == "NULL") return {true, false, false, true};
  if (text == "False" || text == "false") return {false, true, false, true};
  if (text == "True" || text == "true") return {false, true, true, false};
  if (text == "0") return {false, false, false, true};  // C++'s 0 may be a null pointer
  bool number = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (number) return {false, true, true, false};
  return {};
}

// Whether the site's argument for `t.param` may pass test `t`: not when it is left to a
// default, or written as None, that fails it. Only a direct call of the guard's function is
// judged: through a forwarding call the test's parameter is bound where the scan does not say.
bool mayPass(const facts::ParamTest& t, const facts::SiteFact& site,
             const facts::FunctionFact* callee) {
  if (t.param < 0 || static_cast<size_t>(t.param) >= site.args.size()) return true;
  const facts::ArgFact& a = site.args[t.param];
  Known k;
  if (a.supplied == facts::Supplied::Null)
    k = literal("None");
  else if (a.supplied == facts::Supplied::Default && callee &&
           static_cast<size_t>(t.param) < callee->params.size() &&
           callee->params[t.param].hasDefault)
    k = literal(callee->params[t.param].defaultText);
  switch (t.expect) {
    case facts::Expect::None:
      return !k.notNull;
    case facts::Expect::NotNone:
      return !k.null;
    case facts::Expect::True:
      return !k.falsy;
    case facts::Expect::False:
      return !k.truthy;
  }
  return true;
}

// Whether line:column lies in the read's range (its start and exclusive end), or is the read's
// own position when the range is unknown.
bool within(const facts::Read& r, unsigned line, unsigned column) {
  if (r.rangeLine == 0 || r.endLine == 0) return r.line == line && r.column == column;
  auto at = std::make_pair(line, column);
  return std::make_pair(r.rangeLine, r.rangeColumn) <= at &&
         at < std::make_pair(r.endLine, r.endColumn);
}

// One read per call: an accessor read of a call that also launders a read of the function it
// calls (a helper a pack names as an accessor, which falls back to a global when an argument
// is left out) is that laundered read, counted once; the laundered read keeps the accessor
// read's allow. An accessor read that is itself a fallback (`sizes or helper(...)`) stays
// instead, with what it tells of its guard, and the laundered read at its call goes.
void oneReadPerCall(std::vector<facts::Read>& reads, std::vector<facts::Read>& laundered) {
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> byCallee;
  for (size_t i = 0; i < laundered.size(); ++i)
    byCallee[{laundered[i].file, laundered[i].name}].push_back(i);
  std::vector<bool> dropLaundered(laundered.size(), false);
  std::erase_if(reads, [&](const facts::Read& r) {
    if (r.kind != facts::ReadKind::Accessor && r.kind != facts::ReadKind::Shim) return false;
    auto it = byCallee.find({r.file, r.name});
    if (it == byCallee.end()) return false;
    for (size_t i : it->second) {
      facts::Read& l = laundered[i];
      if (!within(r, l.line, l.column)) continue;
      if (r.guardParam >= 0) {
        dropLaundered[i] = true;
        return false;
      }
      if (r.suppressed && !l.suppressed) {
        l.suppressed = r.suppressed;
        l.hint.fix = facts::Hint::None;
      }
      return true;
    }
    return false;
  });
  size_t kept = 0;
  for (size_t i = 0; i < laundered.size(); ++i)
    if (!dropLaundered[i]) {
      if (kept != i) laundered[kept] = std::move(laundered[i]);
      ++kept;
    }
  laundered.resize(kept);
}

// The calls of Python accessors with a `state_parameter` that bind it (positionally,
// by keyword, forwarded: anything but a literal None or the default): they hand the state over
// and read nothing. As "file|name|line|column" of each site.
std::set<std::string> stateHandedOver(const index::Inventory& inv, const rules::RuleSet& rules) {
  std::set<std::string> out;
  for (const facts::Read& r : inv.reads) {
    if (r.kind != facts::ReadKind::Accessor || r.language != facts::Language::Python) continue;
    std::optional<rules::PythonAccessorMatch> m = rules.pythonAccessor(r.name);
    if (!m || !m->rule || m->rule->stateParameter.empty()) continue;
    std::string usr = "py:" + r.name;
    auto fn = inv.program.functions.find(usr);
    if (fn == inv.program.functions.end()) continue;
    const auto& params = fn->second.params;
    size_t index = 0;
    while (index < params.size() && params[index].name != m->rule->stateParameter) ++index;
    if (index == params.size()) continue;  // no such parameter yet: no call binds it
    auto [lo, hi] = inv.program.sitesByCallee.equal_range(usr);
    for (auto it = lo; it != hi; ++it) {
      const facts::SiteFact& site = inv.program.sites[it->second];
      if (site.file != r.file || !within(r, site.line, site.column) || index >= site.args.size())
        continue;
      facts::Supplied supplied = site.args[index].supplied;
      if (supplied == facts::Supplied::Explicit || supplied == facts::Supplied::Forwarded)
        out.insert(r.file + "|" + r.name + "|" + std::to_string(r.line) + "|" +
                   std::to_string(r.column));
    }
  }
  return out;
}

}  // namespace

void launder(index::Inventory& inv, const rules::RuleSet& rules) {
  std::set<std::string> handedOver = stateHandedOver(inv, rules);
  std::erase_if(inv.reads, [&](const facts::Read& r) {
    return r.kind == facts::ReadKind::Accessor &&
           handedOver.count(r.file + "|" + r.name + "|" + std::to_string(r.line) + "|" +
                            std::to_string(r.column));
  });
  std::vector<facts::Read> laundered;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seen;
  auto visit = [&](facts::Read& source) {
    if (source.guardParam < 0 || source.kind == facts::ReadKind::GlobalWrite ||
        source.kind == facts::ReadKind::Laundered)
      return;
    std::vector<CallerSite> sites = reach(inv.program, {{source.guardFunction, source.guardParam}});
    auto fn = inv.program.functions.find(source.guardFunction);
    const facts::FunctionFact* callee = fn == inv.program.functions.end() ? nullptr : &fn->second;
    std::vector<const CallerSite*> breaking;
    for (const auto& s : sites) {
      // A default argument runs only when the argument is left out; a fallback also runs
      // when null is passed, and when the call may pass the tests it runs under.
      if (s.supplied != facts::Supplied::Default &&
          (s.supplied != facts::Supplied::Null || source.inDefaultArgument))
        continue;
      const facts::SiteFact& site = inv.program.sites[s.siteIndex];
      if (site.calleeUsr == source.guardFunction &&
          !std::all_of(source.guardTests.begin(), source.guardTests.end(),
                       [&](const facts::ParamTest& t) { return mayPass(t, site, callee); }))
        continue;
      breaking.push_back(&s);
    }
    if (source.guard == facts::Guard::Fallback) {
      // Handed on as a value, the function (or its class) is called where no site shows: those
      // calls may leave the argument out.
      source.analysis.fallbackDead =
          breaking.empty() &&
          fallbackEscapes(inv.program, source.guardFunction, source.guardParam, sites).empty();
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
  oneReadPerCall(inv.reads, laundered);
  for (auto& r : laundered) inv.reads.push_back(std::move(r));
  index::sortReads(inv.reads);
}

}  // namespace gridlock::analysis
