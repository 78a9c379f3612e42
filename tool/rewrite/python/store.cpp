#include "rewrite/python/store.h"

#include "rewrite/python/scope_values.h"
#include "rewrite/python/ts_node.h"

#include <set>

namespace gridlock::rewrite::py {
namespace {

using facts::Strategy;
using ts::field;

// Whether the class, or a base of its lineage, already spells `self.<name>`: a store would
// clash with it.
bool storeClashes(PyState& s, const PySource& src, TSNode cls, const std::string& name) {
  PyClass c{&src, cls};
  for (int depth = 0; depth < 16; ++depth) {
    if (spellsSelf(*c.src, c.node, name)) return true;
    std::optional<PyClass> base = s.lineage.base(c);
    if (!base) return false;
    c = *base;
  }
  return true;
}

}  // namespace

void storeReads(PyState& s) {
  std::set<std::string> storedNames;  // "file:class offset:name" kept by __init__
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    const facts::Verdict* v = s.decided(i);
    if (r.language != facts::Language::Python || !v || v->applied || v->left != facts::Left::Thread)
      continue;
    const rules::PythonRewriteRule* rule = s.rule(r);
    auto p = s.place(r);
    if (!rule || !rule->store || !p || ts_node_is_null(p->def) ||
        !isInstanceMethod(*p->src, p->def))
      continue;
    TSNode cls = PySource::classOf(p->def);
    TSNode init = p->src->method(cls, "__init__");
    std::vector<TSNode> body = PySource::body(init);
    if (ts_node_is_null(init) || ts::same(init, p->def) || body.empty()) continue;
    // __init__ that names the method runs it before the store at its end.
    if (spellsSelf(*p->src, init, std::string(p->src->text(field<"name">(p->def))))) continue;
    bool collection = r.yields == facts::Yields::Collection;
    std::string name = collection ? rule->collection.at(0) : groupName(*rule, r.group);
    std::string key = r.file + ":" + std::to_string(ts_node_start_byte(cls)) + ":" + name;
    if (!storedNames.count(key)) {
      TSNode last = body.back();
      auto value = groupAt(*p->src, init, last, collection ? "" : r.group, *rule);
      if (!value || storeClashes(s, *p->src, cls, name)) continue;
      unsigned after = p->src->lineEnd(ts_node_end_byte(last)) + 1;
      std::string line =
          p->src->indentAt(ts_node_start_byte(last)) + "self." + name + " = " + *value + "\n";
      s.edit(r.file, after, 0, line, Strategy::Store, at(r) + " store");
      storedNames.insert(key);
      ++s.tally(Strategy::Store).places;
    }
    std::string text = spelled(*rule, r.yields, "self." + name);
    s.edit(r.file, r.offset, r.length, text, Strategy::Store, at(r) + " store");
    s.spelledIn(r.file, *rule, r.yields);
    s.apply(i, Strategy::Store, "__init__ keeps self." + name);
    ++s.tally(Strategy::Store).reads;
  }
}

}  // namespace gridlock::rewrite::py
