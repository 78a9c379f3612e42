// Autograd Functions in Thread (docs/rewrite.md, "Python", "Autograd Functions"): forward takes
// the threaded group as one more input of `apply`, so torch asks backward for one more gradient
// (it raises "returned an incorrect number of gradients" at the first backward otherwise) and
// ONNX export calls symbolic with one more input. What each def's shape allows, and the edits
// that give backward its gradients. Internal to tool/rewrite/python.
#pragma once

#include "rewrite/python/py_state.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// Why `def` (an autograd Function's forward or symbolic) cannot take one more input last, or
// "": every parameter after the first (ctx, or symbolic's graph) must be a plain positional one,
// since apply passes its arguments by position only (a default may be left out there, so where
// the new input lands is not known; `*args` takes it; a keyword-only one is never passed).
std::string inputsProblem(const PySource& src, TSNode def, const std::string& role);

// Why a Function's class, whose forward is `forward`, cannot have it take one more input, or "":
// `setup_context` (forward then takes no ctx), `jvp` (forward-mode AD takes one tangent per
// input too).
std::string functionProblem(const PySource& src, TSNode forward);

// An insertion backward's returns take.
struct GradientEdit {
  unsigned offset = 0;
  std::string text;
};

// The insertions that make every return of `backward` give `added` more gradients, None each,
// after the gradients of forward's `inputs` inputs; or why its returns cannot be edited so (and
// no insertion). A tuple written out gets the Nones as elements; one value, with one input,
// becomes a tuple with them, unless it may be a tuple itself (a call of a function of the tree
// that returns one); any other value, with several inputs, is the tuple torch requires there
// and is unpacked into one with them (`(*grads, None)`). A return of nothing, or a backward that
// can end without a return, is refused.
std::string moreGradients(PyState& s, const std::string& file, const PySource& src, TSNode backward,
                          size_t inputs, size_t added, std::vector<GradientEdit>* out);

}  // namespace gridlock::rewrite::py
