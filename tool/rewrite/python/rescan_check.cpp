#include "rewrite/python/rescan_check.h"

#include "rewrite/python/py_state.h"

#include <map>
#include <set>

namespace gridlock::rewrite::py {
namespace {

// Reads by name in `file`: `planned` set, those the plan leaves (in the scan before).
std::map<std::string, int> readsIn(const index::Inventory& inv, const std::string& file,
                                   const PyState* planned) {
  std::map<std::string, int> out;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    // An edge file's reads are allowed: a call there may now pass the global itself.
    if (r.file != file || r.kind == facts::ReadKind::GlobalWrite || r.edge) continue;
    if (planned && planned->plan.verdicts[i].applied) continue;
    ++out[r.name];
  }
  // A Collapse lookup, a keyword's fallback on the global written out: reads the plan writes.
  if (planned)
    if (auto a = planned->extras.added.find(file); a != planned->extras.added.end())
      for (const auto& [name, n] : a->second) out[name] += n;
  return out;
}

}  // namespace

Check::Outcome RescanCheck::run(Round& round) {
  const auto& planned = static_cast<const PyState&>(round.planned);
  const index::Inventory& after = round.after();
  const apply::Prepared& p = round.prepared;
  std::set<std::string> broken;
  for (const auto& e : round.before.parseErrors) broken.insert(e.file);
  for (const auto& e : after.parseErrors)
    if (!broken.count(e.file) && !round.held.count(e.file))
      for (const auto& c : p.changes)
        if (c.file == e.file) {
          round.held[e.file] = e.messages.empty() ? "a parse error" : e.messages[0];
          round.log.push_back("the rewritten " + e.file + " does not parse: " + round.held[e.file]);
        }
  for (const auto& c : p.changes) {
    if (round.held.count(c.file)) continue;
    std::map<std::string, int> left = readsIn(round.before, c.file, &planned);
    for (const auto& [name, n] : readsIn(after, c.file, nullptr))
      if (n > left[name]) {
        round.held[c.file] = "the rewrite would add a read of " + name;
        round.log.push_back("the rewritten " + c.file + " reads " + name + " " +
                            std::to_string(n - left[name]) + " more time(s) than the plan leaves");
        break;
      }
  }
  return Outcome::Pass;
}

}  // namespace gridlock::rewrite::py
