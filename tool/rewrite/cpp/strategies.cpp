#include "rewrite/collapse.h"
#include "rewrite/per_model_state.h"
#include "rewrite/require.h"
#include "rewrite/store.h"
#include "rewrite/strategy.h"
#include "rewrite/substitute.h"
#include "rewrite/supply.h"
#include "rewrite/thread.h"

namespace gridlock::rewrite {
namespace {

Strategies make() {
  Strategies out;
  // In place first; Require after them (its proof that a fallback is dead uses Supply's plan
  // of call sites, computed on first use); Thread for what has no source, and Store for the
  // methods its closures reach through a member; Supply's edits and laundered reads; Collapse
  // last, over what Thread could not change.
  out.push_back(std::make_unique<Substitute>());
  out.push_back(std::make_unique<PerModelState>());
  out.push_back(std::make_unique<Require>());
  out.push_back(std::make_unique<Thread>());
  out.push_back(std::make_unique<Store>());
  out.push_back(std::make_unique<Supply>());
  out.push_back(std::make_unique<Collapse>());
  return out;
}

}  // namespace

const Strategies& strategies() {
  static const Strategies all = make();
  return all;
}

}  // namespace gridlock::rewrite
