#include "pyrewrite/lineage.h"

#include "pyrewrite/ts_node.h"

namespace gridlock::pyrewrite {
namespace {

std::string_view lastName(std::string_view dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

}  // namespace

Lineage::Lineage(const index::Program& program, Sources& sources)
    : program_(program), sources_(sources) {
  for (const auto& [usr, c] : program.classes) byPlace_[{c.file, c.line}] = usr;
}

std::optional<PyClass> Lineage::base(const PyClass& c) const {
  std::vector<TSNode> written = PySource::superclasses(c.node);
  const std::string* file = sources_.fileOf(c.src);
  if (written.empty() || !file) return std::nullopt;
  auto usr = byPlace_.find({*file, ts::lineOf(c.node)});
  if (usr == byPlace_.end()) return std::nullopt;
  const facts::ClassFact& fact = program_.classes.at(usr->second);
  // The scan keeps the bases it resolved, in order: the first is the first written only when
  // their names agree (an unresolved `te.pytorch.Linear` before it would come first).
  if (fact.bases.empty()) return std::nullopt;
  auto b = program_.classes.find(fact.bases.front());
  if (b == program_.classes.end() ||
      lastName(b->second.name) != lastName(c.src->text(written.front())))
    return std::nullopt;
  const PySource* src = sources_.get(b->second.file);
  TSNode node = src ? src->classAt(b->second.line) : TSNode{};
  if (ts_node_is_null(node)) return std::nullopt;
  return PyClass{src, node};
}

}  // namespace gridlock::pyrewrite
