#include "rewrite/python/py_state.h"

#include "rewrite/python/edge_global.h"
#include "rewrite/python/scope_values.h"
#include "support/strings.h"

#include <algorithm>

namespace gridlock::rewrite::py {

namespace {
const HeldFiles kNoneHeld;
}  // namespace

PyState::~PyState() = default;

PyState::PyState(const index::Inventory& inv, const rules::RuleSet& rules,
                 std::unique_ptr<Sources> sources, const HeldFiles* held)
    : PlanState(inv, rules, held ? *held : kNoneHeld, facts::Language::Python),
      owned_(std::move(sources)),
      sources(*owned_),
      lineage(inv.program, *owned_) {}

void PyState::edit(const std::string& file, unsigned offset, unsigned length, std::string text,
                   facts::Strategy strategy, const std::string& why) {
  PlanState::edit({file, offset, length, std::move(text), strategy, why});
}

void PyState::spelledIn(const std::string& file, const rules::PythonRewriteRule& rule,
                        facts::Yields yields) {
  const PySource* src = sources.get(file);
  if (!src) return;
  std::string module = spellingImport(*src, rule, yields);
  if (module.empty()) return;
  edgeImports[file].insert({module, ""});
  if (module == "torch.distributed") importedGroups(file, rule);
}

void PyState::importedGroups(const std::string& file, const rules::PythonRewriteRule& rule) {
  std::vector<GroupHint>& hints = extras.groupHints[file];
  if (std::none_of(hints.begin(), hints.end(), [](const GroupHint& h) { return h.param.empty(); }))
    hints.push_back({"", "ProcessGroup", groupMethods(rule)});
}

std::string PyState::closed(const std::string& file) const {
  return rewrite::outsidePaths(inv, file);
}

const rules::PythonRewriteRule* PyState::rule(const facts::Read& r) const {
  const std::string& name = r.kind == facts::ReadKind::Laundered ? r.analysis.launders : r.name;
  std::optional<size_t> pack;
  if (auto a = rules.pythonAccessor(name))
    pack = a->pack;
  else if (const rules::PythonGlobalRule* g = rules.pythonGlobal(name, true))
    pack = g->pack;
  if (!pack || rules.packs()[*pack].rewrite.python.empty()) return nullptr;
  return &rules.packs()[*pack].rewrite.python;
}

std::optional<PyState::Place> PyState::place(const std::string& file, unsigned offset,
                                             unsigned length) {
  const PySource* src = sources.get(file);
  if (!src || offset + length > src->text().size()) return std::nullopt;
  Place p{src, src->covering(offset, length), {}};
  if (ts_node_is_null(p.node)) return std::nullopt;
  p.def = PySource::enclosingDef(p.node);
  return p;
}

std::optional<unsigned> PyState::offsetOf(const std::string& file, unsigned line, unsigned column) {
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
