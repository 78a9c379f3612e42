// Whether a parameter added to a function would be declared in builds that compile none of
// its reads: every read sits in a preprocessor branch (`#ifdef USE_MPI`) that a declaration of
// the function is outside, so another configuration would see the parameter's type
// (`MPI_Comm`, from a header only that branch includes) and nothing that needs it.
#pragma once

#include "rewrite/cpp/cpp_state.h"

#include <optional>
#include <string>
#include <vector>

namespace gridlock::rewrite::cpp {

// Why `usr` must not take a parameter for `reads` (all in that function), or nothing when at
// least one read is compiled wherever every declaration of it is.
std::optional<std::string> compiledOnlyUnder(CppState& s, const std::string& usr,
                                             const std::vector<size_t>& reads);

}  // namespace gridlock::rewrite::cpp
