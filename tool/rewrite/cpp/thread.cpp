#include "rewrite/cpp/thread.h"

#include "rewrite/cpp/conditional_reads.h"
#include "rewrite/cpp/edge_hoist.h"
#include "rewrite/cpp/type_spelling.h"
#include "rules/source_pick.h"

namespace gridlock::rewrite::cpp {

using facts::Left;
constexpr facts::Strategy kThread = facts::Strategy::Thread;

bool Thread::spellsAny(CppState& s, const std::vector<size_t>& reads,
                       const rules::ThreadRule& rule) const {
  for (size_t i : reads)
    if (!valueOf(s, s.read(i), rule, rule.name).text.empty()) return true;
  return false;
}

const rules::ThreadRule* Thread::ruleFor(CppState& s, const facts::Read& r) {
  if (r.kind == facts::ReadKind::GlobalState) {
    const rules::GlobalRule* g = s.rules.global(r.name);
    return g && !g->thread.type.empty() ? &g->thread : nullptr;
  }
  const rules::RewriteRules* pack = s.packRules(r);
  return pack && !pack->thread.type.empty() ? &pack->thread : nullptr;
}

std::optional<std::string> Thread::writesState(CppState& s, const facts::Read& r,
                                               const rules::ThreadRule& rule) {
  if (rule.pointer || rule.type.find("const") == std::string::npos) return std::nullopt;
  // A write, or a read that may change it (`f(&cfg)`, `cfg.reset()`).
  for (const auto& w : s.inv.reads)
    if (w.mutated && w.name == r.name && w.enclosingUsr == r.enclosingUsr)
      return r.enclosing + (w.kind == facts::ReadKind::GlobalWrite ? " writes " : " may change ") +
             r.name + " (" + at(w) + "): a " + rule.type + " parameter cannot replace it";
  return std::nullopt;
}

bool Thread::storable(CppState& s, const facts::Read& r) {
  const rules::ThreadRule* rule = ruleFor(s, r);
  auto fn = s.inv.program.functions.find(r.enclosingUsr);
  return rule && fn != s.inv.program.functions.end() && storePoint(fn->second, *rule);
}

std::vector<size_t> Thread::candidates(CppState& s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (!s.open(i) || r.kind == facts::ReadKind::Laundered) continue;  // Supply's
    if (s.blocked(i)) continue;
    if (r.inLambda) {
      s.leave(i, Left::Lambda, "inside a lambda with no group in scope");
      continue;
    }
    if (s.noEnclosingFunction(i)) continue;
    // A virtual method or an operator may keep the value in a member (the closure decides).
    if (!storable(s, r) && s.functionLimits(i)) continue;
    s.leave(i, Left::Thread,
            "no group in scope: a group parameter would have to be threaded into " + r.enclosing +
                " and its callers (not done by this version)");
    out.push_back(i);
  }
  return out;
}

std::map<std::string, std::vector<size_t>> Thread::byFunction(CppState& s,
                                                              const std::vector<size_t>& reads) {
  std::map<std::string, std::vector<size_t>> out;
  for (size_t i : reads) {
    const facts::Read& r = s.read(i);
    const rules::ThreadRule* ruleP = ruleFor(s, r);
    if (!ruleP) {
      s.verdict(i).detail += r.kind == facts::ReadKind::GlobalState
                                 ? "; the rule pack has no globals[].thread for " + r.name
                                 : "; the rule pack has no rewrite.thread";
      continue;
    }
    const rules::ThreadRule& rule = *ruleP;
    // What the read needs, for the reasons below: "the tp group", "a collection".
    const std::string needs =
        r.group.empty() ? std::string("a collection") : "the " + r.group + " group";
    if (rule.yields == facts::Yields::State) {
      // A function that writes the global is refused with its closure (closureWrites).
    } else if (rule.env && r.yields == facts::Yields::Value) {
      // Which group it is filed under does not matter: only its own method spells it.
      if (CppState::Spelled v = s.valueFromEnv(r, rule.name, rule.pointer); v.text.empty()) {
        s.leave(i, Left::NoSpelling, v.why);
        continue;
      }
    } else if (rule.yields == facts::Yields::Collection && r.yields != facts::Yields::Collection &&
               !s.rules.collectionHolds(rule.type, r.group)) {
      s.leave(i, Left::NoSource,
              "nothing in scope holds " + needs +
                  ", and the collection the "
                  "pack threads (" +
                  rule.type + ") holds no " + r.group + " group");
      continue;
    }
    if (rule.yields == facts::Yields::Group &&
        !(r.group == rule.group && r.yields != facts::Yields::Collection)) {
      s.leave(i, Left::NoSource,
              "nothing in scope holds " + needs + ", and the pack threads only the " + rule.group +
                  " group");
      s.markFunctionLevel(i);
      continue;
    }
    std::string usr = r.enclosingUsr;
    if (usr.empty() || !s.inv.program.functions.count(usr)) {
      const auto* named = s.functionsNamed(r.enclosing);
      if (!named || named->size() != 1) {
        s.leave(i, Left::OpenCallGraph, r.enclosing + " is overloaded or not indexed");
        s.markFunctionLevel(i);
        continue;
      }
      usr = (*named)[0]->usr;
    }
    out[usr].push_back(i);
  }
  return out;
}

void Thread::runOn(CppState& s) {
  std::vector<size_t> reads = candidates(s);
  if (!s.inv.rewrite.collected) return;
  Closure all;
  std::map<std::string, const rules::ThreadRule*> ruleOf;
  EdgeArgs edges;
  std::map<std::string, const rules::ThreadRule*>& storeRule = s.storeClasses;
  ClosureBuilder builder(s);
  std::map<std::string, std::vector<size_t>> groups = byFunction(s, reads);
  builder.keeping(keepingClasses(s, builder, groups));
  for (auto& [usr, group] : groups) {
    const rules::ThreadRule& rule = *ruleFor(s, s.read(group[0]));
    // A parameter that would replace none of the function's reads would only make every
    // caller pass the global: leave the function as it is.
    if (!spellsAny(s, group, rule)) {
      for (size_t i : group)
        s.leave(
            i, Left::NoSpelling,
            valueOf(s, s.read(i), rule, rule.name).why + ", so " + rule.name + " is not threaded");
      continue;
    }
    Closure c;
    // The function keeps its reads, each saying why it cannot be threaded.
    auto refuse = [&](Left left, const std::string& why) {
      for (size_t i : group) {
        s.leave(i, left, "cannot thread " + rule.name + ": " + why);
        s.markFunctionLevel(i);
      }
    };
    if (std::optional<Refusal> no = builder.close(usr, rule, c)) {
      refuse(no->left, no->why);
      continue;
    }
    if (std::optional<std::string> why = closureWrites(s, c, s.read(group[0]), rule)) {
      refuse(Left::NoSource, *why);
      continue;
    }
    // Checked once the closure holds: its own refusals (`main`, a write) say more.
    if (std::optional<std::string> why = compiledOnlyUnder(s, usr, group)) {
      refuse(Left::OpenCallGraph, *why);
      continue;
    }
    bool clash = false;
    for (const auto& f : c.functions)
      if (auto it = ruleOf.find(f); it != ruleOf.end() && it->second != &rule) clash = true;
    for (const auto& k : c.storeClasses)
      if (auto it = storeRule.find(k); it != storeRule.end() && it->second != &rule) clash = true;
    if (clash) {
      for (size_t i : group) {
        s.leave(i, Left::OpenCallGraph, "another pack threads a parameter through the same calls");
        s.markFunctionLevel(i);
      }
      continue;
    }
    for (const auto& f : c.functions) ruleOf[f] = &rule;
    for (const auto& k : c.storeClasses) storeRule[k] = &rule;
    all.functions.insert(c.functions.begin(), c.functions.end());
    all.position.insert(c.position.begin(), c.position.end());
    for (auto& [k, v] : c.args) all.args[k] = v;
    for (auto& [k, v] : c.argNames) all.argNames[k] = v;
    for (const auto& f : c.edgeFiles) s.include({f, rule.include});
    for (const auto& [caller, keys] : c.edgeArgs)
      edges[caller][&rule].insert(keys.begin(), keys.end());
    if (auto stored = c.stores.find(usr); stored != c.stores.end())
      s.stored.push_back({group, &rule, c.functions.size(), stored->second});
    else
      replaceReads(s, group, rule, c.functions.size());
  }
  hoistEdges(s, edges, all.args);
  editSignatures(s, all, ruleOf);
}

std::set<std::string> Thread::keepingClasses(
    CppState& s, ClosureBuilder& builder,
    const std::map<std::string, std::vector<size_t>>& groups) const {
  std::set<std::string> out;
  for (const auto& [usr, group] : groups) {
    const rules::ThreadRule& rule = *ruleFor(s, s.read(group[0]));
    if (!rule.store || !spellsAny(s, group, rule)) continue;
    Closure c;
    if (builder.close(usr, rule, c) || closureWrites(s, c, s.read(group[0]), rule)) continue;
    out.insert(c.storeClasses.begin(), c.storeClasses.end());
  }
  return out;
}

// A reference to variable `r.name` exactly as long as `text`, its unqualified name, is
// spelled `text` (a qualified `::x` or `ns::x` is longer; macros never reach here).
bool Thread::spelledAs(const facts::Read& r, const std::string& text) {
  size_t colon = r.name.rfind("::");
  std::string simple = colon == std::string::npos ? r.name : r.name.substr(colon + 2);
  return simple == text && r.length == text.size();
}

void Thread::replaceReads(CppState& s, const std::vector<size_t>& reads,
                          const rules::ThreadRule& rule, size_t functions) {
  const std::string through = threadedThrough(functions);
  for (size_t i : reads) {
    const facts::Read& r = s.read(i);
    CppState::Spelled value = valueOf(s, r, rule, rule.name);
    if (value.text.empty()) {
      s.leave(i, Left::NoSpelling, value.why);
      continue;
    }
    const std::string& text = value.text;
    ++s.tally(facts::Strategy::Thread).reads;
    if (rule.yields == facts::Yields::State && spelledAs(r, text)) {
      // Written as the parameter's name already: the parameter now shadows the global.
      s.apply(i, facts::Strategy::Thread, "now names the parameter " + rule.name + ", " + through);
      continue;
    }
    s.replaceRead(i, text, value.derived, facts::Strategy::Thread);
    s.apply(i, facts::Strategy::Thread, "replaced with " + text + ", " + rule.name + " " + through);
  }
}

void Thread::editSignatures(CppState& s, const Closure& all,
                            const std::map<std::string, const rules::ThreadRule*>& ruleOf) {
  for (const auto& usr : all.functions) {
    const rules::ThreadRule& rule = *ruleOf.at(usr);
    const bool last = rule.position == facts::ThreadPosition::Last;
    const facts::FunctionFact& fn = s.inv.program.functions.at(usr);
    const std::string& name = fn.name;
    // As a maintainer writes it in that namespace, through the aliases each declaration's
    // file has there.
    const std::string scope = s.namespaceOf(fn);
    unsigned k = all.position.at(usr);
    s.plan.signatures[usr] = name;
    std::string what = " parameter list of " + name;
    for (const auto& l : s.inv.rewrite.lists.at(usr)) {
      const std::string decl = declaration(typeSpellingIn(rule.type, scope, l.aliases), rule.name);
      s.includeType(l.file, rule, l.definition);
      // Last: defaults cannot precede a parameter without one.
      bool atEnd = k >= l.paramBegins.size() && l.written > 0;
      bool merged = false;
      for (size_t j = 0; last && j < l.defaults.size(); ++j) {
        auto [b, e] = l.defaults[j];
        if (b == 0 && e == 0) continue;
        // The last default runs into `)`: one edit with the new parameter.
        if (atEnd && j + 1 == l.defaults.size()) {
          s.plan.edits.push_back({l.file, b, l.rparen - b, ", " + decl, kThread, l.file + what});
          merged = true;
        } else {
          s.plan.edits.push_back({l.file, b, e - b, "", kThread, l.file + what + " (default)"});
        }
      }
      if (merged) continue;
      if (l.written == 0)
        s.plan.edits.push_back(
            {l.file, l.lparen + 1, l.rparen - l.lparen - 1, decl, kThread, l.file + what});
      else if (k < l.paramBegins.size())
        s.plan.edits.push_back({l.file, l.paramBegins[k], 0, decl + ", ", kThread, l.file + what});
      else
        s.plan.edits.push_back({l.file, l.rparen, 0, ", " + decl, kThread, l.file + what});
    }
    ++s.tally(facts::Strategy::Thread).places;
  }
  for (const auto& [key, arg] : all.args) {
    auto name = all.argNames.find(key);
    s.plan.edits.push_back({key.first, key.second, 0, arg.first, kThread, arg.second + " argument",
                            name == all.argNames.end() ? std::string() : name->second});
  }
}

// Whether the parameter's object is const (`const T &`, `const T *`; not `T *const`).
static bool constObject(const std::string& type) {
  size_t c = type.find("const");
  size_t last = type.find_last_of("*&");
  return c != std::string::npos && (last == std::string::npos || c < last);
}

std::optional<std::string> Thread::closureWrites(CppState& s, const Closure& c,
                                                 const facts::Read& r,
                                                 const rules::ThreadRule& rule) {
  if (rule.yields == facts::Yields::Collection && constObject(rule.type)) {
    // The collection (an env) itself is replaced by the parameter: a function that changes
    // it (`Env::Instance().Init(...)`) cannot be given a const one.
    for (const auto& w : s.inv.reads)
      if (w.mutated && w.yields == facts::Yields::Collection &&
          (c.functions.count(w.enclosingUsr) || c.stores.count(w.enclosingUsr)) &&
          ruleFor(s, w) == &rule)
        return w.enclosing + " changes what " + w.name + " returns (" + at(w) + "): a " +
               rule.type + " parameter cannot replace it";
    return std::nullopt;
  }
  if (rule.yields != facts::Yields::State) return std::nullopt;
  for (const auto& usr : c.functions) {
    facts::Read probe = r;
    probe.enclosingUsr = usr;
    probe.enclosing = s.inv.program.functions.at(usr).name;
    if (auto why = writesState(s, probe, rule)) return why;
  }
  return std::nullopt;
}

CppState::Spelled Thread::valueOf(CppState& s, const facts::Read& r, const rules::ThreadRule& rule,
                                  const std::string& name) {
  if (rule.yields == facts::Yields::State) {
    // The variable itself: the parameter (of its name, by default) stands for it.
    CppState::Spelled v;
    v.text = rule.pointer ? "(*" + name + ")" : name;
    return v;
  }
  if (rule.env) return s.valueFromEnv(r, name, rule.pointer);
  if (r.yields == facts::Yields::Collection) {
    // The whole collection: nothing of the group's type is called.
    CppState::Spelled whole = s.spellRead(r, rule.pointer ? "(*{g})" : "{g}", name, false);
    whole.derived = false;
    return whole;
  }
  std::string g = name;
  // A pointer or smart pointer parameter reaches the group with `->`, whatever the pack says.
  bool pointer = rule.pointer || rules::shapeOfTypeName(rule.type) != facts::Shape{};
  if (rule.yields == facts::Yields::Collection) {
    g = name + (rule.pointer ? "->" : ".") + r.group;
    pointer = true;
  }
  return s.valueFrom(r, g, pointer);
}

std::string Thread::threadedThrough(size_t functions) {
  return "threaded through " + std::to_string(functions) + " function(s)";
}

}  // namespace gridlock::rewrite::cpp
