#include "rewrite/python/lineage.h"

#include "rewrite/python/ts_node.h"
#include "support/strings.h"

#include <algorithm>

namespace gridlock::rewrite::py {
namespace {

using support::lastName;

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

std::optional<std::vector<std::string>> Lineage::linearise(const std::string& usr,
                                                           int depth) const {
  auto fact = program_.classes.find(usr);
  if (depth > 32 || fact == program_.classes.end()) return std::nullopt;
  const PySource* src = sources_.get(fact->second.file);
  TSNode node = src ? src->classAt(fact->second.line) : TSNode{};
  if (ts_node_is_null(node)) return std::nullopt;
  // The written bases, each matched in order with the scan's next base when their last names
  // agree; one that matches none, or that the scan names but does not define (an import from
  // outside the tree), is opaque, and so is a class whose own order cannot be read.
  std::vector<std::vector<std::string>> lists;
  std::vector<std::string> bases;
  const std::vector<std::string>& scanned = fact->second.bases;
  size_t next = 0;
  std::vector<TSNode> written = PySource::superclasses(node);
  for (size_t k = 0; k < written.size(); ++k) {
    std::optional<std::vector<std::string>> l;
    if (next < scanned.size()) {
      auto b = program_.classes.find(scanned[next]);
      std::string_view name = b == program_.classes.end() ? scanned[next] : b->second.name;
      if (lastName(name) == lastName(src->text(written[k]))) {
        if (b != program_.classes.end()) l = linearise(scanned[next], depth + 1);
        ++next;
      }
    }
    if (!l) l = std::vector<std::string>{"?" + usr + "#" + std::to_string(k)};
    bases.push_back(l->front());
    lists.push_back(std::move(*l));
  }
  if (next != scanned.size()) return std::nullopt;
  lists.push_back(bases);
  // C3: take the first head that is in no list's tail, until every list is empty.
  std::vector<std::string> out{usr};
  for (;;) {
    std::erase_if(lists, [](const auto& l) { return l.empty(); });
    if (lists.empty()) return out;
    const std::string* head = nullptr;
    for (const auto& l : lists) {
      bool inTail = std::any_of(lists.begin(), lists.end(), [&](const auto& m) {
        return std::find(m.begin() + 1, m.end(), l.front()) != m.end();
      });
      if (!inTail) {
        head = &l.front();
        break;
      }
    }
    if (!head) return std::nullopt;
    std::string h = *head;
    out.push_back(h);
    for (auto& l : lists)
      if (l.front() == h) l.erase(l.begin());
  }
}

std::vector<std::optional<PyClass>> Lineage::mro(const PyClass& c) const {
  const std::string* file = sources_.fileOf(c.src);
  if (!file) return {};
  auto usr = byPlace_.find({*file, ts::lineOf(c.node)});
  if (usr == byPlace_.end()) return {};
  auto order = linearise(usr->second, 0);
  if (!order) return {};
  std::vector<std::optional<PyClass>> out;
  for (const std::string& u : *order) {
    auto fact = program_.classes.find(u);
    const PySource* src =
        fact == program_.classes.end() ? nullptr : sources_.get(fact->second.file);
    TSNode node = src ? src->classAt(fact->second.line) : TSNode{};
    if (ts_node_is_null(node))
      out.emplace_back(std::nullopt);
    else
      out.push_back(PyClass{src, node});
  }
  return out;
}

}  // namespace gridlock::rewrite::py
