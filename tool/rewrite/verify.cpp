#include "rewrite/verify.h"

#include "rewrite/rewriter.h"

namespace gridlock::rewrite {

Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const Rescan& rescan) {
  Rewriters cpp;
  cpp.push_back(std::make_unique<CppRewriter>());
  return planAndVerify(inv, rules, root, rescan, cpp);
}

}  // namespace gridlock::rewrite
