#include "rewrite/cpp/supply_plan.h"

#include "analysis/callers.h"
#include "rewrite/core/plan_state.h"
#include "rules/source_pick.h"

#include <regex>
#include <set>

namespace gridlock::rewrite::cpp {
namespace {

using facts::where;

class SupplyPlanner {
 public:
  SupplyPlanner(const index::Inventory& inv, const rules::RuleSet& rules, const HeldFiles* held)
      : inv_(inv), rules_(rules), held_(held) {
    for (const auto& r : inv.reads) readsIn_.emplace(r.file, r.name);
  }

  Supplies run() {
    // Every guarded read's breaking sites, each given what its scope holds.
    std::map<std::string, std::vector<std::pair<size_t, int>>> guards;
    auto visit = [&](const facts::Read& r, bool listed) {
      if (r.guardParam < 0 || r.kind == facts::ReadKind::GlobalWrite ||
          r.kind == facts::ReadKind::Laundered)
        return;
      for (const auto& s : analysis::reach(inv_.program, {{r.guardFunction, r.guardParam}})) {
        if (!(s.supplied == facts::Supplied::Default ||
              (s.supplied == facts::Supplied::Null && !r.inDefaultArgument)))
          continue;
        std::pair<size_t, int> key{s.siteIndex, s.param};
        if (!out_.bySite.count(key)) out_.bySite[key] = decide(s, r);
        out_.byLaundered[where(s.file, s.line, s.column) + "|" + s.function] = key;
        if (listed) guards[guardKey(r)].push_back(key);
      }
    };
    for (const auto& r : inv_.reads) visit(r, true);
    for (const auto& r : inv_.exemptReads) visit(r, false);
    emit();
    for (const auto& [g, keys] : guards) {
      GuardSupply& gs = out_.byGuard[g];
      gs.sites = keys.size();
      for (const auto& k : keys) {
        const SiteSupply& s = out_.bySite.at(k);
        if (!s.ok) gs.failures.push_back(s.site + ": " + s.why);
      }
      gs.allSupplied = gs.failures.empty();
    }
    return std::move(out_);
  }

 private:
  SiteSupply decide(const analysis::CallerSite& cs, const facts::Read& read) {
    const std::string& group = read.group;
    SiteSupply out;
    out.site = where(cs.file, cs.line, cs.column);
    const facts::SiteFact& site = inv_.program.sites[cs.siteIndex];
    const facts::ArgFact& arg = site.args[cs.param];
    auto fail = [&](std::string why) {
      out.why = std::move(why);
      return out;
    };
    rules::Placement place = rules_.placeAny(site.file, site.file.empty() || site.file[0] != '/');
    if (place == rules::Placement::Out) return fail("in a file outside the scanned scope");
    if (std::string why = outsidePaths(inv_, site.file); !why.empty()) return fail(why);
    if (held_ && held_->count(site.file))
      return fail("the rewritten " + site.file + " did not compile (" + held_->at(site.file) + ")");
    if (site.inMacro) return fail("the arguments are written in a macro");
    if (!arg.yields)
      return fail("the parameter's type is not one the pack lists as holding a group");
    if (arg.supplied == facts::Supplied::Default && site.rparen == 0)
      return fail("an implicit construction: no argument list to add to");
    if (arg.supplied == facts::Supplied::Null && arg.length == 0)
      return fail("the null argument has no range");
    bool field = false;
    const facts::SourceFact* src = rules::pickSource(site.sources, group, *arg.yields, &field);
    if (!src && place == rules::Placement::Edge) {
      // An edge may read globals: it passes what the fallback would have read, explicitly.
      std::string global = globalExpression(read);
      if (global.empty())
        return fail("an edge holding no group, and the fallback's read cannot be written there");
      // Declared there: the file reads it already (its header is in), or it is the pack's
      // own edge expression, whose header the pack names.
      const rules::RewriteRules* pack = rules_.rewriteFor(read.name);
      bool known = readsIn_.count({site.file, read.name}) > 0;
      if (!known && pack && pack->thread.edge == global && !pack->thread.include.empty()) {
        known = true;
        out.include = pack->thread.include;
      }
      if (!known) return fail("an edge holding no group, and nothing there declares " + global);
      std::string text = rules::adaptShape(global, rules::shapeOfTypeName(read.type), arg.shape);
      if (text.empty() || text[0] == '&')  // never the address of a temporary
        return fail("an edge holding no group, and " + global +
                    " does not convert to the "
                    "parameter (" +
                    facts::str(arg.shape) + ")");
      out.ok = true;
      out.text = text;
      out.edge = true;
      return out;
    }
    if (!src)
      return fail("nothing in scope holds " + (arg.yields == facts::Yields::Collection
                                                   ? std::string("a collection")
                                                   : "the " + group + " group"));
    facts::Shape shape;
    std::string spelling;
    if (src->env && field) {
      // An env object: the group is its method, of the type the fallback's read has.
      const rules::RewriteRules* pack = rules_.rewriteFor(read.name);
      const std::string* method = nullptr;
      if (pack)
        if (auto m = pack->env.methods.find(group); m != pack->env.methods.end())
          if (auto g = m->second.find(facts::Yields::Group); g != m->second.end())
            method = &g->second;
      if (!method)
        return fail(src->spelling + " (an env) has no method for the " + group +
                    " group (rewrite.env.methods." + group + ".group)");
      spelling = rules::spellEnv(*method, src->spelling, src->shape != facts::Shape{});
      shape = rules::shapeOfTypeName(read.type);
    } else {
      spelling = rules::spellPicked(*src, field, group, &shape);
    }
    std::string text = rules::adaptShape(spelling, shape, arg.shape);
    if (text.empty())
      return fail(spelling + " (" + facts::str(shape) + ") does not convert to the parameter (" +
                  facts::str(arg.shape) + ")");
    out.ok = true;
    out.text = text;
    return out;
  }

  // The global a fallback reads, written out in full: `ns::accessor()`, the rule macro.
  std::string globalExpression(const facts::Read& r) const {
    if (!r.called || r.type.empty() || (r.macro && *r.macro != r.name)) return "";
    if (rules_.macro(r.name)) return r.name;
    if (rules_.function(r.name)) return r.name + "()";
    return "";
  }

  // One edit per site: a null argument is replaced; left-out ones are appended, with the
  // defaults of the parameters in between spelled out, never an argument twice.
  void emit() {
    std::map<size_t, std::map<int, SiteSupply*>> bySite;
    for (auto& [key, s] : out_.bySite)
      if (s.ok) bySite[key.first][key.second] = &s;
    for (auto& [index, params] : bySite) {
      const facts::SiteFact& site = inv_.program.sites[index];
      const facts::FunctionFact* callee = nullptr;
      if (auto it = inv_.program.functions.find(site.calleeUsr); it != inv_.program.functions.end())
        callee = &it->second;
      std::string appended;
      int last = -1;
      for (const auto& [param, s] : params)
        if (site.args[param].supplied == facts::Supplied::Default) last = std::max(last, param);
      std::string failure;
      for (int j = static_cast<int>(site.written); j <= last && failure.empty(); ++j) {
        std::string text;
        if (auto it = params.find(j);
            it != params.end() && site.args[j].supplied == facts::Supplied::Default) {
          text = it->second->text;
        } else if (callee && static_cast<size_t>(j) < callee->params.size() &&
                   callee->params[j].hasDefault && portableDefault(callee->params[j].defaultText)) {
          text = callee->params[j].defaultText;
        } else {
          failure =
              "the argument would follow " +
              (callee && static_cast<size_t>(j) < callee->params.size()
                   ? callee->params[j].name + " (default " + callee->params[j].defaultText + ")"
                   : "a parameter") +
              ", whose default cannot be spelled out at the call";
        }
        appended += (appended.empty() && site.written == 0 ? "" : ", ") + text;
      }
      for (auto& [param, s] : params) {
        if (site.args[param].supplied == facts::Supplied::Null) {
          const facts::ArgFact& a = site.args[param];
          out_.edits.push_back({site.file, a.offset, a.length, s->text, facts::Strategy::Supply,
                                s->site + " argument"});
        } else if (!failure.empty()) {
          s->ok = false;
          s->why = failure;
        }
      }
      for (auto& [param, s] : params)
        if (s->ok && !s->include.empty()) out_.includes.push_back({site.file, s->include});
      if (last >= 0 && failure.empty())
        out_.edits.push_back({site.file, site.rparen, 0, appended, facts::Strategy::Supply,
                              where(site.file, site.line, site.column) + " argument"});
    }
  }

  const index::Inventory& inv_;
  const rules::RuleSet& rules_;
  const HeldFiles* held_;
  std::set<std::pair<std::string, std::string>> readsIn_;  // (file, accessor) read there
  Supplies out_;
};

}  // namespace

bool portableDefault(const std::string& text) {
  static const std::regex literal(
      R"(^\s*([-+]?[0-9][0-9a-zA-Z.'_+-]*|true|false|nullptr|NULL|std::nullopt|\{\s*\})"
      R"(|"[^"]*"|'[^']*')\s*$)");
  return std::regex_match(text, literal);
}

std::string guardKey(const facts::Read& r) { return r.file + ":" + std::to_string(r.offset); }

std::string launderedKey(const facts::Read& r) {
  return where(r.file, r.line, r.column) + "|" + r.name;
}

Supplies planSupplies(const index::Inventory& inv, const rules::RuleSet& rules,
                      const HeldFiles* held) {
  return SupplyPlanner(inv, rules, held).run();
}

}  // namespace gridlock::rewrite::cpp
