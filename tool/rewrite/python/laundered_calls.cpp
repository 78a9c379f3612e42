#include "rewrite/python/laundered_calls.h"

#include "rewrite/python/edge_global.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/supply.h"

namespace gridlock::rewrite::py {

void LaunderedCalls::runOn(PyState& s) {
  s.edgeSupply = std::make_unique<EdgeSupply>(s);
  EdgeSupply& edges = *s.edgeSupply;
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (r.language != facts::Language::Python || r.kind != facts::ReadKind::Laundered) continue;
    if (r.edge) s.supplied[at(r)] = "in an edge file, whose calls keep leaving it out";
    if (edges.covers(i)) edges.plan(i, s.supplied);
    if (!s.open(i)) continue;
    std::string why = supplyCall(s, i);
    s.supplied[at(r)] = why;
    if (!why.empty())
      s.leave(i, facts::Left::OpenFallback,
              "this call leaves out " + heldValue(r) + ", so " + r.name + " reads " +
                  r.analysis.launders + "; cannot pass it here: " + why);
  }
}

}  // namespace gridlock::rewrite::py
