#include "pair/report.h"

#include "pair/escape.h"
#include "pair/normalise.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace gridlock::pair {

namespace {
constexpr size_t kMessageWidth = 100;
}

void writeText(const Comparison& c, std::ostream& out) {
  out << "gridlock pair: " << wording::verdict(c) << ": " << wording::counts(c) << " ("
      << c.tests.size() << " tests"
      << (c.ranks > 1 ? ", " + std::to_string(c.ranks) + " ranks" : "") << ")\n\n";
  for (Category k : kAllCategories)
    out << "  " << std::left << std::setw(14) << name(k) << std::right << std::setw(6)
        << c.summary.at(k) << "\n";

  if (!c.incidents.empty()) {
    out << "\nIncidents:\n";
    for (const Incident& i : c.incidents)
      out << "  " << printable(wording::incidentLine(i)) << "\n";
  }

  std::vector<const TestRow*> listed;
  for (Category k : wording::listedCategories())
    for (const TestRow& t : c.tests)
      if (t.category == k) listed.push_back(&t);
  if (!listed.empty()) {
    size_t wCat = 8, wId = 4, wBase = 8, wChange = 6;
    for (const TestRow* t : listed) {
      wCat = std::max(wCat, name(t->category).size());
      wId = std::max(wId, printable(t->id).size());
      wBase = std::max(wBase, name(t->baseline).size());
      wChange = std::max(wChange, wording::changeCell(*t).size());
    }
    auto row = [&](std::string_view a, std::string_view b, std::string_view d, std::string_view e,
                   std::string_view f) {
      std::ostringstream line;
      line << "  " << std::left << std::setw(wCat + 2) << a << std::setw(wId + 2) << b
           << std::setw(wBase + 2) << d << std::setw(wChange + 2) << e << f;
      std::string s = line.str();
      out << s.substr(0, s.find_last_not_of(' ') + 1) << "\n";  // no padding after the last cell
    };
    out << "\n";
    row("CATEGORY", "TEST", "BASELINE", "CHANGE", "MESSAGE");
    for (const TestRow* t : listed)
      row(name(t->category), printable(t->id), name(t->baseline), wording::changeCell(*t),
          printable(readableMessage(t->message, kMessageWidth)) +
              wording::rankNote(t->identicalOnAllRanks, t->failedRanks, t->ranks, t->runs));
  }

  if (!c.signatures.empty()) {
    out << "\nFailure signatures:\n";
    for (const Signature& s : c.signatures)
      out << "  " << s.count << "x " << printable(oneLine(s.message, kMessageWidth))
          << (s.identicalOnAllRanks && c.ranks > 1 ? " (identical on all ranks)" : "") << "\n";
  }
  if (!c.notes.empty()) {
    out << "\nNotes:\n";
    for (const std::string& n : c.notes) out << "  " << printable(n) << "\n";
  }
}

}  // namespace gridlock::pair
