#include "rewrite/cpp/collapse.h"
#include "rewrite/cpp/per_model_state.h"
#include "rewrite/cpp/require.h"
#include "rewrite/cpp/rewriter.h"
#include "rewrite/cpp/store.h"
#include "rewrite/cpp/substitute.h"
#include "rewrite/cpp/supply.h"
#include "rewrite/cpp/thread.h"

namespace gridlock::rewrite::cpp {
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

const Strategies& CppRewriter::strategies() const {
  static const Strategies all = make();
  return all;
}

}  // namespace gridlock::rewrite::cpp
