#include "analysis/value_escapes.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace gridlock::analysis {
namespace {

class Escapes {
 public:
  explicit Escapes(const index::Program& program) : program_(program) {
    for (const auto& v : program.values)
      (v.result ? results_ : !v.returnedBy.empty() ? returned_ : direct_).emplace(v.usr, &v);
  }

  void of(const std::string& usr) {
    std::set<std::string> seen;
    visit(usr, nameOf(usr), "", seen);
  }

  std::vector<Escape> take() {
    auto key = [](const Escape& e) { return std::tie(e.file, e.line, e.column, e.value, e.how); };
    std::sort(out_.begin(), out_.end(),
              [&](const auto& a, const auto& b) { return key(a) < key(b); });
    out_.erase(std::unique(out_.begin(), out_.end(),
                           [&](const auto& a, const auto& b) { return key(a) == key(b); }),
               out_.end());
    return std::move(out_);
  }

 private:
  std::string nameOf(const std::string& usr) const {
    if (auto f = program_.functions.find(usr); f != program_.functions.end()) return f->second.name;
    if (auto c = program_.classes.find(usr); c != program_.classes.end()) return c->second.name;
    return usr;
  }

  void add(const facts::ValueFact& at, const std::string& value, std::string how) {
    out_.push_back({at.file, at.line, at.column, value, std::move(how), {}});
  }

  // `usr` (through `prefix`: what returns `value`) handed on: `value` goes where it goes.
  void visit(const std::string& usr, const std::string& value, const std::string& prefix,
             std::set<std::string>& seen) {
    if (!seen.insert(usr).second) return;
    auto [lo, hi] = direct_.equal_range(usr);
    for (auto it = lo; it != hi; ++it) add(*it->second, value, prefix + it->second->how);
    auto [rlo, rhi] = returned_.equal_range(usr);
    for (auto it = rlo; it != rhi; ++it) {
      const std::string& by = it->second->returnedBy;
      std::string through = prefix + "returned by " + nameOf(by) + ", ";
      auto [glo, ghi] = results_.equal_range(by);
      for (auto g = glo; g != ghi; ++g)
        add(*g->second, value, through + "whose result is " + g->second->how + " here");
      // The function itself handed on: its calls, and so their results, are not all seen.
      visit(by, value, through + "which is ", seen);
    }
  }

  const index::Program& program_;
  std::multimap<std::string, const facts::ValueFact*> direct_, returned_, results_;
  std::vector<Escape> out_;
};

}  // namespace

std::vector<Escape> escapesOf(const index::Program& program, const std::set<std::string>& usrs) {
  Escapes e(program);
  for (const std::string& usr : usrs) e.of(usr);
  return e.take();
}

}  // namespace gridlock::analysis
