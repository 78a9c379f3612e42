#include "report/reports.h"

#include "index/path_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>

namespace gridlock::report {
namespace {

using ojson = nlohmann::ordered_json;

// FNV-1a: a fingerprint that is the same on every machine and run.
std::string fingerprint(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

ojson rule(const char* id, const char* name, const char* text, const char* level) {
  return {
      {"id", id},
      {"name", name},
      {"shortDescription", {{"text", text}}},
      {"fullDescription", {{"text", text}}},
      {"defaultConfiguration", {{"level", level}}},
      {"help", {{"text", std::string(text) + " See docs/scan.md in the gridlock repository."}}}};
}

ojson location(const std::string& file, unsigned line, unsigned column) {
  ojson region = {{"startLine", line}};
  if (column) region["startColumn"] = column;
  return {{"physicalLocation",
           {{"artifactLocation", {{"uri", index::uriPath(file)}, {"uriBaseId", "%SRCROOT%"}}},
            {"region", region}}}};
}

}  // namespace

std::string sarifRootUri(const std::string& root) { return "file://" + index::uriPath(root) + "/"; }

std::string sarif(const index::Inventory& inv, const std::string& rootUri, const Verdicts* verdicts,
                  const SarifBaseline* baseline) {
  ojson rules = ojson::array({
      rule("gridlock-global-read", "GlobalGroupRead",
           "A read of process-wide parallel state; pass the group explicitly.", "warning"),
      rule("gridlock-global-write", "GlobalStateWrite", "A write to process-wide sharding state.",
           "note"),
      rule("gridlock-edge-read", "EdgeRead",
           "A global read in an edge file (an entry point allowed to read globals).", "note"),
  });
  if (baseline)
    rules.push_back(rule("gridlock-gate-fell", "BaselineKeyFell",
                         "Global reads the baseline counts that this run no longer sees.", "note"));
  ojson results = ojson::array();
  std::map<std::string, int> occurrences;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    const facts::Verdict* v = verdicts ? &(*verdicts)[i] : nullptr;
    const bool write = r.kind == facts::ReadKind::GlobalWrite;
    const char* id = write    ? "gridlock-global-write"
                     : r.edge ? "gridlock-edge-read"
                              : "gridlock-global-read";
    // Keyed like the baseline, so a fingerprint survives edits above the read.
    std::string key = r.file + "|" + r.enclosing + "|" + r.name;
    int n = occurrences[key]++;
    ojson res = {
        {"ruleId", id},
        {"level", write || r.edge ? "note" : "warning"},
        {"message", {{"text", message(r, v)}}},
        {"locations", ojson::array({location(r.file, r.line, r.column)})},
        {"partialFingerprints", {{"gridlockKey/v1", fingerprint(key + "|" + std::to_string(n))}}},
        {"properties",
         {{"kind", facts::str(r.kind)},
          {"group", r.group},
          {"guard", facts::str(r.guard)},
          {"fix", facts::str(v ? v->fix : r.hint.fix)}}}};
    if (r.macro) res["properties"]["macro"] = *r.macro;
    if (r.suppressed)
      res["suppressions"] =
          ojson::array({{{"kind", "inSource"}, {"justification", *r.suppressed}}});
    if (baseline && i < baseline->states.size()) res["baselineState"] = baseline->states[i];
    results.push_back(res);
  }
  if (baseline)
    for (const auto& c : baseline->absent) {
      ojson where = location(c.key.file, 0, 0);
      where["physicalLocation"].erase("region");  // the reads are gone: no line to point at
      results.push_back(
          {{"ruleId", "gridlock-gate-fell"},
           {"level", "note"},
           {"message",
            {{"text", "global reads fell: " + c.key.str() + ": " + std::to_string(c.before) +
                          " -> " + std::to_string(c.after)}}},
           {"locations", ojson::array({where})},
           {"partialFingerprints",
            {{"gridlockKey/v1",
              fingerprint(c.key.file + "|" + c.key.enclosing + "|" + c.key.name + "|absent")}}},
           {"baselineState", "absent"}});
    }
  ojson notifications = ojson::array();
  for (const auto& e : inv.parseErrors)
    notifications.push_back({{"level", "error"},
                             {"message",
                              {{"text", "failed to parse " + index::jsonPath(e.file) + ": " +
                                            (e.messages.empty() ? "" : e.messages[0])}}},
                             {"locations", ojson::array({location(e.file, 1, 0)})}});
  ojson run = {{"tool", {{"driver", {{"name", "gridlock"}, {"version", "0.1"}, {"rules", rules}}}}},
               {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", rootUri}}}}},
               {"invocations", ojson::array({{{"executionSuccessful", inv.parseErrors.empty()},
                                              {"toolExecutionNotifications", notifications}}})},
               {"results", results}};
  ojson doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
               {"version", "2.1.0"},
               {"runs", ojson::array({run})}};
  // Locations are URIs (percent-encoded); free text that is not UTF-8 gets U+FFFD.
  return doc.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace gridlock::report
