#include "rewrite/cpp/conditional_reads.h"

#include <algorithm>

namespace gridlock::rewrite::cpp {

namespace {

// The branches of `file` around `offset`, outermost first. Conditions are compared as written:
// a header's `#ifdef USE_MPI` and a source's are the same condition.
std::vector<const facts::ConditionalFact*> around(const CppState& s, const std::string& file,
                                                  unsigned offset) {
  std::vector<const facts::ConditionalFact*> out;
  auto it = s.inv.rewrite.conditionals.find(file);
  if (it == s.inv.rewrite.conditionals.end()) return out;
  for (const auto& b : it->second)
    if (b.begin <= offset && offset < b.end) out.push_back(&b);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
  return out;
}

bool holds(const std::vector<const facts::ConditionalFact*>& in, const std::string& condition) {
  return std::any_of(in.begin(), in.end(), [&](auto* b) { return b->condition == condition; });
}

}  // namespace

std::optional<std::string> compiledOnlyUnder(CppState& s, const std::string& usr,
                                             const std::vector<size_t>& reads) {
  auto lists = s.inv.rewrite.lists.find(usr);
  if (lists == s.inv.rewrite.lists.end() || reads.empty()) return std::nullopt;
  // Each declaration's branches, once for all the reads.
  std::vector<std::vector<const facts::ConditionalFact*>> declared;
  for (const auto& l : lists->second) declared.push_back(around(s, l.file, l.lparen));
  std::optional<std::string> why;
  for (size_t i : reads) {
    const facts::Read& r = s.read(i);
    // The first branch of the read that some declaration is outside.
    const facts::ConditionalFact* alone = nullptr;
    const facts::ParamListFact* outside = nullptr;
    for (const auto* b : around(s, r.file, r.offset)) {
      for (size_t d = 0; d < declared.size() && !outside; ++d)
        if (!holds(declared[d], b->condition)) outside = &lists->second[d];
      if (outside) {
        alone = b;
        break;
      }
    }
    if (!alone) return std::nullopt;  // this read is compiled wherever the function is
    if (!why)
      why = "every read of " + s.inv.program.functions.at(usr).name + " is compiled only under `" +
            alone->condition + "` (" + alone->file + ":" + std::to_string(alone->line) +
            "), and its declaration in " + outside->file +
            " is not: a build without it would declare the parameter and compile none of its "
            "uses";
  }
  return why;
}

}  // namespace gridlock::rewrite::cpp
