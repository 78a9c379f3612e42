#include "pair/report.h"

#include "pair/escape.h"
#include "pair/normalise.h"

namespace gridlock::pair {

namespace {

// A table cell: one line, escaped (see markdownText).
std::string cell(std::string_view text) { return markdownText(oneLine(text, 200)); }

}  // namespace

void writeMarkdown(const Comparison& c, std::ostream& out) {
  out << "## gridlock pair: " << wording::verdict(c) << "\n\n"
      << wording::counts(c) << " of " << c.tests.size() << " tests"
      << (c.ranks > 1 ? " on " + std::to_string(c.ranks) + " ranks" : "") << ".\n\n"
      << "| category | tests |\n|---|---:|\n";
  for (Category k : kAllCategories) out << "| " << name(k) << " | " << c.summary.at(k) << " |\n";

  if (!c.incidents.empty()) {
    // Not cell(): a list of test names may run past a cell's 200 characters.
    out << "\n**Incidents**\n\n";
    for (const Incident& i : c.incidents)
      out << "- " << markdownText(wording::incidentLine(i)) << "\n";
  }

  bool header = false;
  for (Category k : wording::listedCategories())
    for (const TestRow& t : c.tests) {
      if (t.category != k) continue;
      if (!header)
        out << "\n| test | category | baseline | change | message |\n|---|---|---|---|---|\n";
      header = true;
      out << "| " << markdownCode(t.id) << " | " << name(t.category) << " | " << name(t.baseline)
          << " | " << cell(wording::changeCell(t)) << " | "
          << cell(readableMessage(t.message) +
                  wording::rankNote(t.identicalOnAllRanks, t.failedRanks, t.ranks, t.runs))
          << " |\n";
    }

  if (!c.signatures.empty()) {
    out << "\n**Failure signatures**\n\n| count | message |\n|---:|---|\n";
    for (const Signature& s : c.signatures)
      out << "| " << s.count << " | "
          << cell(s.message +
                  (s.identicalOnAllRanks && c.ranks > 1 ? " (identical on all ranks)" : ""))
          << " |\n";
  }
  if (!c.notes.empty()) {
    out << "\n";
    for (const std::string& n : c.notes) out << "- " << cell(n) << "\n";
  }
}

}  // namespace gridlock::pair
