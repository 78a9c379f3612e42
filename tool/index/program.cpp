#include "index/program.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace gridlock::index {
namespace {

// A site's identity: where it is and what it calls, how.
size_t siteHash(const facts::SiteFact& s) {
  size_t h = std::hash<std::string>()(s.file);
  for (size_t v :
       {size_t(s.line), size_t(s.column), std::hash<std::string>()(s.calleeUsr), size_t(s.via)})
    h = h * 1000003 ^ v;
  return h;
}

bool sameSite(const facts::SiteFact& x, const facts::SiteFact& y) {
  return std::tie(x.file, x.line, x.column, x.calleeUsr, x.via) ==
         std::tie(y.file, y.line, y.column, y.calleeUsr, y.via);
}

// The places of `batch` in USR order (of equal USRs, the first first). Put in that order, each
// after the one before it, a unit's functions and classes (a module's, in Python; a file's,
// mostly) go where the hint says, without a search down the tree for each.
template <typename T>
std::vector<size_t> byUsr(const std::vector<T>& batch) {
  std::vector<size_t> order(batch.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    int c = batch[a].usr.compare(batch[b].usr);
    return c < 0 || (c == 0 && a < b);
  });
  return order;
}

}  // namespace

void Program::add(std::vector<facts::FunctionFact> fns, std::vector<facts::ClassFact> cls,
                  std::vector<facts::SiteFact> newSites) {
  auto hint = functions.end();
  for (size_t k : byUsr(fns)) {
    facts::FunctionFact& f = fns[k];
    size_t before = functions.size();
    auto it = functions.try_emplace(hint, f.usr, std::move(f));  // f stays when not moved
    hint = std::next(it);
    if (functions.size() != before) continue;
    // Redeclarations: a default may be given on any of them (usually the header's).
    facts::FunctionFact& have = it->second;
    have.isPublicApi = have.isPublicApi || f.isPublicApi;
    for (size_t i = 0; i < have.params.size() && i < f.params.size(); ++i) {
      if (f.params[i].hasDefault && !have.params[i].hasDefault) {
        have.params[i].hasDefault = true;
        have.params[i].defaultText = f.params[i].defaultText;
      }
      if (have.params[i].name.empty()) have.params[i].name = f.params[i].name;
    }
  }
  auto classHint = classes.end();
  for (size_t k : byUsr(cls))
    classHint = std::next(classes.try_emplace(classHint, cls[k].usr, std::move(cls[k])));
  for (auto& s : newSites) {
    size_t h = siteHash(s);
    auto [from, to] = seen_.equal_range(h);
    if (std::any_of(from, to, [&](const auto& hi) { return sameSite(sites[hi.second], s); }))
      continue;  // seen: the first stays
    seen_.emplace(h, sites.size());
    sites.push_back(std::move(s));
  }
}

void Program::reserveSites(size_t count) {
  sites.reserve(count);
  seen_.reserve(count);
}

void Program::addValues(std::vector<facts::ValueFact> more) {
  for (auto& v : more) values.push_back(std::move(v));
}

void Program::finish() {
  auto valueKey = [](const facts::ValueFact& v) {
    return std::tie(v.file, v.line, v.column, v.usr, v.returnedBy, v.result, v.how);
  };
  std::sort(values.begin(), values.end(),
            [&](const auto& a, const auto& b) { return valueKey(a) < valueKey(b); });
  values.erase(
      std::unique(values.begin(), values.end(),
                  [&](const auto& a, const auto& b) { return valueKey(a) == valueKey(b); }),
      values.end());
  std::sort(sites.begin(), sites.end(), [](const auto& a, const auto& b) {
    // `via` by its spelling, the order the reports have always had.
    return std::make_tuple(std::cref(a.file), a.line, a.column, std::cref(a.calleeUsr),
                           facts::spell(a.via)) < std::make_tuple(std::cref(b.file), b.line,
                                                                  b.column, std::cref(b.calleeUsr),
                                                                  facts::spell(b.via));
  });
  // The index built in callee order, each site put at the end: the same multimap as inserting
  // the sites in their order (equal callees keep it), without a search
  // down the tree for each of some ten thousand sites.
  std::vector<size_t> byCallee(sites.size());
  std::iota(byCallee.begin(), byCallee.end(), size_t{0});
  std::sort(byCallee.begin(), byCallee.end(), [&](size_t a, size_t b) {
    int c = sites[a].calleeUsr.compare(sites[b].calleeUsr);
    return c < 0 || (c == 0 && a < b);
  });
  sitesByCallee.clear();
  for (size_t i : byCallee) sitesByCallee.emplace_hint(sitesByCallee.end(), sites[i].calleeUsr, i);
  seen_.clear();
}

std::set<std::string> Program::ancestors(const std::string& usr) const {
  std::set<std::string> out;
  std::vector<std::string> work{usr};
  while (!work.empty()) {
    std::string c = work.back();
    work.pop_back();
    if (!out.insert(c).second) continue;
    if (auto it = classes.find(c); it != classes.end())
      work.insert(work.end(), it->second.bases.begin(), it->second.bases.end());
  }
  return out;
}

}  // namespace gridlock::index
