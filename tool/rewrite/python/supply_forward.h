// Supply through a forwarded fallback (docs/rewrite.md, "Python"): a callee with no fallback of
// its own that hands the parameter a call leaves out, unchanged, to a helper whose fallback
// reads the global (Megatron-LM's `group = get_tensor_model_parallel_group_if_none(group)`).
// Where the helper has several fallback reads under conditions on its other parameters
// (`if is_expert:`), the one this call reaches is settled from what the call and the callee
// write for them, or their defaults.
#pragma once

#include "rewrite/python/py_state.h"

#include <string>

namespace gridlock::rewrite::py {

struct ForwardedFallback {
  const facts::Read* read = nullptr;  // the helper's fallback read the call reaches
  int param = -1;                     // the callee's parameter the call leaves out
  std::string name;                   // its name
  std::string why;                    // not empty: a fallback is reached, but which is not settled
};

// The fallback read a call (`site`) reaches through its callee's forwarded parameter; a null
// read and no `why` when the callee forwards none to a fallback.
ForwardedFallback forwardedFallback(PyState& s, const facts::SiteFact& site);

}  // namespace gridlock::rewrite::py
