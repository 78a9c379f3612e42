#include "pair/report.h"

#include "pair/command_end.h"

#include <nlohmann/json.hpp>

namespace gridlock::pair {

// ordered_json keeps the documented field order, so the output reads like the contract.
void writeJson(const Comparison& c, std::ostream& out) {
  using nlohmann::ordered_json;
  ordered_json summary = ordered_json::object();
  for (Category k : kAllCategories) summary[std::string(name(k))] = c.summary.at(k);
  summary["tests"] = c.tests.size();
  summary["skipped_both"] = c.skippedBoth;
  summary["incidents"] = c.incidents.size();

  ordered_json tests = ordered_json::array();
  for (const TestRow& t : c.tests) {
    tests.push_back({{"id", t.id},
                     {"suite", t.suite},
                     {"name", t.name},
                     {"baseline", name(t.baseline)},
                     {"change", name(t.change)},
                     {"category", name(t.category)},
                     {"message", t.message},
                     {"signature", t.signature},
                     {"ranks", t.ranks},
                     {"failed_ranks", t.failedRanks},
                     {"identical_on_all_ranks", t.identicalOnAllRanks},
                     {"reruns", t.reruns},
                     {"passed_on_rerun", t.passedOnRerun}});
  }

  ordered_json signatures = ordered_json::array();
  for (const Signature& s : c.signatures) {
    ordered_json categories = ordered_json::object();
    for (auto& [k, n] : s.categories) categories[std::string(name(k))] = n;
    signatures.push_back({{"message", s.message},
                          {"count", s.count},
                          {"categories", categories},
                          {"identical_on_all_ranks", s.identicalOnAllRanks},
                          {"tests", s.tests}});
  }

  ordered_json incidents = ordered_json::array();
  for (const Incident& i : c.incidents) {
    int signal = endSignal(i.end);
    incidents.push_back({{"tree", i.tree},
                         {"run", i.run},
                         {"kind", i.end.timedOut ? "timeout" : "signal"},
                         {"signal", signal},
                         {"signal_name", signalName(signal)},
                         {"description", describe(i.end)},
                         {"shared", i.shared},
                         {"unreported", i.unreported}});
  }

  ordered_json doc = {{"version", kPairJsonVersion},
                      {"summary", summary},
                      {"tests", tests},
                      {"signatures", signatures},
                      {"incidents", incidents},
                      {"ranks", c.ranks},
                      {"notes", c.notes},
                      {"result", wording::verdict(c) == "PASS" ? "pass" : "fail"}};
  out << doc.dump(2) << "\n";
}

}  // namespace gridlock::pair
