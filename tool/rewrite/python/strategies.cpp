#include "rewrite/python/collapse.h"
#include "rewrite/python/edge_global.h"
#include "rewrite/python/laundered_calls.h"
#include "rewrite/python/local_aliases.h"
#include "rewrite/python/require.h"
#include "rewrite/python/rewriter.h"
#include "rewrite/python/store.h"
#include "rewrite/python/substitute.h"
#include "rewrite/python/thread.h"
#include "rewrite/python/thread_supply.h"

namespace gridlock::rewrite::py {
namespace {

Strategies make() {
  Strategies out;
  // Laundered calls first (Require's proof that a fallback is dead reads what they were
  // given); fallbacks (Require), then the other reads decided in place (Substitute); Store and
  // Thread for what has no source; the calls of what Thread threaded; Collapse over what Thread
  // could not change; the edge calls of fallbacks now errors; last, the locals that copy a read
  // take its verdict.
  out.push_back(std::make_unique<LaunderedCalls>());
  out.push_back(std::make_unique<Require>());
  out.push_back(std::make_unique<Substitute>());
  out.push_back(std::make_unique<Store>());
  out.push_back(std::make_unique<Thread>());
  out.push_back(std::make_unique<ThreadCalls>());
  out.push_back(std::make_unique<Collapse>());
  out.push_back(std::make_unique<EdgeCalls>());
  out.push_back(std::make_unique<LocalAliases>());
  return out;
}

}  // namespace

const Strategies& PyRewriter::strategies() const {
  static const Strategies all = make();
  return all;
}

}  // namespace gridlock::rewrite::py
