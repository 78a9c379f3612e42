// "Did you mean ...?" for a name the user mistyped: a command, a rule pack, a key of
// .gridlock.json or of a pack.
#pragma once

#include <string>
#include <vector>

namespace gridlock::support {

// Edits between `a` and `b`: insertions, deletions, substitutions, and swaps of two neighbours
// (the optimal string alignment distance), so "scna" is one edit from "scan".
size_t editDistance(const std::string& a, const std::string& b);

// The candidate fewest edits from `word` when that is few enough to be a slip (at most a third
// of the word's length, at least 1, at most 3); the first such one on a tie; "" when none is.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

// `nearest` as a sentence tail: "; did you mean 'scan'?" with `quote` around it, or "".
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates,
                       char quote = '\'');

}  // namespace gridlock::support
