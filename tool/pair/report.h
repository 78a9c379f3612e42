// The three renderings of a Comparison: terminal table, JSON (docs/contracts.md,
// schema/pair-report.schema.json), Markdown.
#pragma once

#include "pair/comparison.h"

#include <ostream>
#include <string>

namespace gridlock::pair {

// The JSON report's `version`, the `const` of its schema: raised only when a field changes
// meaning or goes away.
inline constexpr int kPairJsonVersion = 1;

void writeText(const Comparison& c, std::ostream& out);
void writeJson(const Comparison& c, std::ostream& out);
void writeMarkdown(const Comparison& c, std::ostream& out);

// Shared wording, so the text and Markdown reports say the same thing.
namespace wording {
// "PASS" or "FAIL", as exitCode() decides.
std::string verdict(const Comparison& c);
// "1 new_failure, 2 fixed" over the non-zero categories other than passed_both, or "no changes";
// led by "1 incident" and "2 shared incidents" when there are any.
std::string counts(const Comparison& c);
// One incident on one line, ids verbatim (escape for the report): "change, rerun 1: test command
// killed by signal 11 (SIGSEGV); 2 tests had not reported: A.a, A.b", at most `listed` ids named.
std::string incidentLine(const Incident& incident, size_t listed = 10);
// The change column: "fail", "fail, pass on rerun 2", "fail, 3 reruns".
std::string changeCell(const TestRow& row);
// " (identical on all ranks)" / " (ranks 1, 3 of 4)" / "" for single-rank runs.
// " (ranks 0, 2 of 4)"; with results from several runs (mpirun at 2 and 4 ranks) the ranks
// repeat, so: " (3 of 6 rank results in 2 runs: ranks 0, 1)".
std::string rankNote(bool identical, const std::vector<int>& failedRanks, int ranks, int runs = 1);
// The order rows are listed in: what needs attention first; passed_both is left out.
const std::vector<Category>& listedCategories();
}  // namespace wording

}  // namespace gridlock::pair
