#include "analysis/callers.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

namespace gridlock::analysis {
namespace {

std::string nameOf(const index::Program& p, const std::string& usr) {
  auto it = p.functions.find(usr);
  return it == p.functions.end() ? usr : it->second.name;
}

std::string classNameOf(const index::Program& p, const std::string& usr) {
  auto it = p.classes.find(usr);
  return it == p.classes.end() ? std::string() : it->second.name;
}

// What calls the target if handed on as a value: each root function (a constructor: each
// class of `r.classes`, whose construction runs it), and each function that forwards the
// parameter to it (a site `forwarded`: its own calls decide what arrives).
std::set<std::string> valuesOf(const index::Program& p,
                               const std::vector<std::pair<std::string, int>>& roots,
                               const std::vector<std::string>& classNames,
                               const std::vector<CallerSite>& sites) {
  std::set<std::string> out;
  std::set<std::string> classes(classNames.begin(), classNames.end());
  for (const auto& [usr, c] : p.classes)
    if (classes.count(c.name)) out.insert(usr);
  auto function = [&](const std::string& usr) {
    auto f = p.functions.find(usr);
    if (f == p.functions.end()) return;
    if (f->second.isConstructor)
      out.insert(f->second.classUsr);
    else
      out.insert(usr);
  };
  for (const auto& [usr, index] : roots) function(usr);
  for (const auto& s : sites)
    if (s.supplied == facts::Supplied::Forwarded) function(s.callerUsr);
  return out;
}

}  // namespace

std::vector<Escape> escapesReaching(const index::Program& program,
                                    const std::vector<std::pair<std::string, int>>& roots,
                                    const std::vector<std::string>& classes,
                                    const std::vector<CallerSite>& sites) {
  if (program.values.empty()) return {};  // C++: nothing is recorded as handed on
  return escapesOf(program, valuesOf(program, roots, classes, sites));
}

std::vector<Escape> fallbackEscapes(const index::Program& program, const std::string& usr,
                                    int param, const std::vector<CallerSite>& sites) {
  if (program.values.empty()) return {};
  std::vector<std::string> classes;
  auto f = program.functions.find(usr);
  if (f != program.functions.end() && f->second.isConstructor)
    classes = hierarchyBelow(program, f->second.classUsr);
  return escapesReaching(program, {{usr, param}}, classes, sites);
}

std::vector<std::string> hierarchyBelow(const index::Program& program,
                                        const std::string& classUsr) {
  std::multimap<std::string, std::string> derived;  // base -> derived
  for (const auto& [usr, c] : program.classes)
    for (const auto& b : c.bases) derived.emplace(b, usr);
  std::set<std::string> seen{classUsr};
  std::deque<std::string> work{classUsr};
  while (!work.empty()) {
    std::string u = work.front();
    work.pop_front();
    auto [lo, hi] = derived.equal_range(u);
    for (auto it = lo; it != hi; ++it)
      if (seen.insert(it->second).second) work.push_back(it->second);
  }
  std::vector<std::string> names;
  for (const auto& u : seen)
    if (auto n = classNameOf(program, u); !n.empty()) names.push_back(n);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<CallerSite> reach(const index::Program& program,
                              const std::vector<std::pair<std::string, int>>& roots) {
  // Overrides of a virtual target are reached by calls too: same parameter position.
  std::multimap<std::string, std::string> overriders;
  for (const auto& [usr, f] : program.functions)
    for (const auto& o : f.overrides) overriders.emplace(o, usr);

  // (function, parameter, a second parameter that may carry the same argument or -1).
  std::set<std::tuple<std::string, int, int>> seen;
  std::deque<std::tuple<std::string, int, int>> work;
  auto push = [&](const std::string& usr, int index, int also) {
    if (seen.emplace(usr, index, also).second) work.emplace_back(usr, index, also);
  };
  for (const auto& r : roots) push(r.first, r.second, -1);

  std::vector<CallerSite> out;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> listed;
  while (!work.empty()) {
    auto [usr, index, also] = work.front();
    work.pop_front();
    auto [olo, ohi] = overriders.equal_range(usr);
    for (auto it = olo; it != ohi; ++it) push(it->second, index, also);
    auto [lo, hi] = program.sitesByCallee.equal_range(usr);
    for (auto it = lo; it != hi; ++it) {
      const facts::SiteFact& s = program.sites[it->second];
      if (index < 0 || static_cast<size_t>(index) >= s.args.size()) continue;
      if (!listed.emplace(s.file, s.line, s.column, usr).second) continue;
      const facts::ArgFact* arg = &s.args[index];
      // Left out through one, it may come through the other (Python's *args and **kwargs).
      if (arg->supplied == facts::Supplied::Default && also >= 0 &&
          static_cast<size_t>(also) < s.args.size())
        arg = &s.args[also];
      const facts::ArgFact& a = *arg;
      CallerSite c;
      c.file = s.file;
      c.line = s.line;
      c.column = s.column;
      c.className = classNameOf(program, s.classUsr);
      c.via = s.via;
      c.supplied = a.supplied;
      c.passed = a.passed;
      c.function = nameOf(program, usr);
      c.callerUsr = s.callerUsr;
      c.siteIndex = it->second;
      c.param = index;
      c.caller = s.callerUsr.empty() ? std::string() : nameOf(program, s.callerUsr);
      if (a.supplied == facts::Supplied::Forwarded) {
        auto caller = program.functions.find(s.callerUsr);
        std::string pname =
            caller != program.functions.end() &&
                    static_cast<size_t>(a.forwardedFrom) < caller->second.params.size()
                ? caller->second.params[a.forwardedFrom].name
                : std::to_string(a.forwardedFrom);
        c.forwardedFrom = c.caller + "(" + pname + ")";
        // The forwarding function's own callers decide whether the argument arrives.
        push(s.callerUsr, a.forwardedFrom, a.forwardedAlso);
      }
      out.push_back(std::move(c));
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tie(a.file, a.line, a.column, a.function) <
           std::tie(b.file, b.line, b.column, b.function);
  });
  return out;
}

CallersResult callers(const index::Program& program, const std::string& function,
                      const std::string& param) {
  CallersResult r;
  r.target = function;
  r.param = param;
  std::vector<std::pair<std::string, int>> roots;
  std::set<std::string> classUsrs;
  bool named = false;
  std::string paramsSeen;
  // A class names its constructors (Python: `pkg.mod.C` for `pkg.mod.C.__init__`).
  auto names = [&](const facts::FunctionFact& f) {
    return f.name == function || (f.isConstructor && classNameOf(program, f.classUsr) == function);
  };
  for (const auto& [usr, f] : program.functions) {
    if (!names(f)) continue;
    named = true;
    for (size_t i = 0; i < f.params.size(); ++i) {
      if (f.params[i].name != param) continue;
      roots.emplace_back(usr, static_cast<int>(i));
      if (r.paramIndex < 0) r.paramIndex = static_cast<int>(i);
      if (f.isConstructor) classUsrs.insert(f.classUsr);
      r.publicApi = r.publicApi || f.isPublicApi;
    }
    for (const auto& p : f.params) paramsSeen += (paramsSeen.empty() ? "" : ", ") + p.name;
  }
  if (!named) {
    for (const auto& [usr, c] : program.classes)
      if (c.name == function)
        throw CallersError(function +
                           " is a class with no constructor of its own in the scanned code: name "
                           "the constructor it inherits");
    throw CallersError("no function or constructor named " + function + " in the scanned code");
  }
  if (roots.empty())
    throw CallersError(function + " has no parameter named " + param +
                       " (its parameters: " + paramsSeen + ")");
  for (const auto& c : classUsrs)
    for (auto& n : hierarchyBelow(program, c)) r.classes.push_back(n);
  std::sort(r.classes.begin(), r.classes.end());
  r.classes.erase(std::unique(r.classes.begin(), r.classes.end()), r.classes.end());
  r.sites = reach(program, roots);
  r.escapes = escapesReaching(program, roots, r.classes, r.sites);
  for (const auto& [value, text] : facts::Spellings<facts::Supplied>::table)
    r.bySupplied[value] = 0;
  for (const auto& s : r.sites) {
    ++r.bySupplied[s.supplied];
    if (s.passed != facts::Passed::Unknown) ++r.byPassed[s.passed];
  }
  return r;
}

}  // namespace gridlock::analysis
