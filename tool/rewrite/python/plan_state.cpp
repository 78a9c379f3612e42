#include "rewrite/python/plan_state.h"

#include "rewrite/core/plan_state.h"
#include "rewrite/python/scope_values.h"
#include "support/strings.h"

#include <algorithm>

namespace gridlock::rewrite::py {

State::State(const index::Inventory& inv, const rules::RuleSet& rules, Sources& sources,
             const rewrite::HeldFiles* held)
    : inv(inv), rules(rules), sources(sources), lineage(inv.program, sources), held_(held) {
  plan.verdicts.resize(inv.reads.size());
}

void State::leave(size_t i, facts::Left why, std::string detail) {
  plan.verdicts[i] = facts::Verdict{std::nullopt, why, std::move(detail)};
}

void State::apply(size_t i, facts::Strategy strategy, std::string detail) {
  plan.verdicts[i] = facts::Verdict{strategy, facts::Left::Unset, std::move(detail)};
}

void State::edit(const std::string& file, unsigned offset, unsigned length, std::string text,
                 facts::Strategy strategy, const std::string& why) {
  plan.edits.push_back({file, offset, length, std::move(text), strategy, why});
}

void State::spelledIn(const std::string& file, const rules::PythonRewriteRule& rule,
                      facts::Yields yields) {
  const PySource* src = sources.get(file);
  if (!src) return;
  std::string module = spellingImport(*src, rule, yields);
  if (module.empty()) return;
  edgeImports[file].insert({module, ""});
  if (module == "torch.distributed") importedGroups(file, rule);
}

void State::importedGroups(const std::string& file, const rules::PythonRewriteRule& rule) {
  std::vector<GroupHint>& hints = plan.groupHints[file];
  if (std::none_of(hints.begin(), hints.end(), [](const GroupHint& h) { return h.param.empty(); }))
    hints.push_back({"", "ProcessGroup", groupMethods(rule)});
}

const std::string* State::held(const std::string& file) const {
  if (!held_) return nullptr;
  auto it = held_->find(file);
  return it == held_->end() ? nullptr : &it->second;
}

std::string State::closed(const std::string& file) const {
  return rewrite::outsidePaths(inv, file);
}

const rules::PythonRewriteRule* State::rule(const facts::Read& r) const {
  const std::string& name = r.kind == facts::ReadKind::Laundered ? r.analysis.launders : r.name;
  std::optional<size_t> pack;
  if (auto a = rules.pythonAccessor(name))
    pack = a->pack;
  else if (const rules::PythonGlobalRule* g = rules.pythonGlobal(name, true))
    pack = g->pack;
  if (!pack || rules.packs()[*pack].rewrite.python.empty()) return nullptr;
  return &rules.packs()[*pack].rewrite.python;
}

std::optional<State::Place> State::place(const std::string& file, unsigned offset,
                                         unsigned length) {
  const PySource* src = sources.get(file);
  if (!src || offset + length > src->text().size()) return std::nullopt;
  Place p{src, src->covering(offset, length), {}};
  if (ts_node_is_null(p.node)) return std::nullopt;
  p.def = PySource::enclosingDef(p.node);
  return p;
}

std::optional<unsigned> State::offsetOf(const std::string& file, unsigned line, unsigned column) {
  const PySource* src = sources.get(file);
  if (!src || line == 0 || column == 0) return std::nullopt;
  const std::string& t = src->text();
  size_t at = 0;
  for (unsigned l = 1; l < line; ++l) {
    at = t.find('\n', at);
    if (at == std::string::npos) return std::nullopt;
    ++at;
  }
  at += column - 1;
  if (at > t.size()) return std::nullopt;
  return static_cast<unsigned>(at);
}

std::string at(const facts::Read& r) { return facts::where(r.file, r.line, r.column); }

std::string messageName(const facts::Read& r) {
  std::string fn(support::lastName(r.enclosing));
  if (r.enclosingClass.empty()) return fn;
  std::string cls(support::lastName(r.enclosingClass));
  return fn == "__init__" ? cls : cls + "." + fn;
}

}  // namespace gridlock::rewrite::py
