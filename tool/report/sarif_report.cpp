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

// `help` in text and Markdown: what the rule finds, how to fix it, how to allow it. `docs`: the
// base URL of the docs pages, ending in '/'.
ojson rule(const char* id, const char* name, const char* text, const char* level,
           const std::string& docs, const std::string& page, const std::string& fix) {
  std::string markdown = std::string("**") + text + "**\n\n" + fix +
                         "\n\nA deliberate read is allowed with a reason: `// gridlock: "
                         "allow(why)` on its line, `allow-next-line`, `allow-begin`/`allow-end`, "
                         "`allow-file`, or `allow(tp: why)` for one group ([suppressions](" +
                         docs + "suppressions.md" + ")). Details: [" + page + "](" + docs + page +
                         ").";
  ojson r = {{"id", id},
             {"name", name},
             {"shortDescription", {{"text", text}}},
             {"fullDescription", {{"text", text}}},
             {"defaultConfiguration", {{"level", level}}},
             {"help",
              {{"text", std::string(text) + " " + fix + " See " + docs + page + "."},
               {"markdown", markdown}}},
             {"helpUri", docs + page}};
  return r;
}

// The read's region: from line:column (the accessor's name) to the end of the read
// expression, when the frontend knows it.
ojson region(const facts::Read& r) {
  ojson region = {{"startLine", r.line}};
  if (r.column) region["startColumn"] = r.column;
  if (r.endLine > r.line || (r.endLine == r.line && r.endColumn > r.column)) {
    region["endLine"] = r.endLine;
    region["endColumn"] = r.endColumn;
  }
  return region;
}

// A location in `file`; without a region when `region` is null.
ojson location(const std::string& file, const ojson& region) {
  ojson physical = {
      {"artifactLocation", {{"uri", index::uriPath(file)}, {"uriBaseId", "%SRCROOT%"}}}};
  if (!region.is_null()) physical["region"] = region;
  return {{"physicalLocation", physical}};
}

// The fix that replaces the whole read expression (offset..offset+length).
ojson fixJson(const facts::Read& r, const SarifFix& f) {
  ojson deleted = {{"startLine", r.rangeLine},
                   {"startColumn", r.rangeColumn},
                   {"endLine", r.endLine},
                   {"endColumn", r.endColumn}};
  ojson change = {
      {"artifactLocation", {{"uri", index::uriPath(r.file)}, {"uriBaseId", "%SRCROOT%"}}},
      {"replacements",
       ojson::array({{{"deletedRegion", deleted}, {"insertedContent", {{"text", f.text}}}}})}};
  return {{"description", {{"text", f.description}}}, {"artifactChanges", ojson::array({change})}};
}

// The rules a run's results name: the gate's fallen keys only with a baseline, unused allows
// only when there are some.
ojson rulesJson(const std::string& docs, bool baseline, bool unusedAllows) {
  ojson rules = ojson::array({
      rule("gridlock-global-read", "GlobalGroupRead",
           "A read of process-wide parallel state; pass the group explicitly.", "warning", docs,
           "scan.md#what-counts-as-a-read",
           "Use the group the code already holds (the message names it), make the explicit "
           "argument required, or thread a group parameter; `gridlock rewrite` does it and "
           "checks that the result compiles."),
      rule("gridlock-global-write", "GlobalStateWrite", "A write to process-wide sharding state.",
           "note", docs, "scan.md#what-counts-as-a-read",
           "Keep per-model state in a value that is passed, not in a global."),
      rule("gridlock-edge-read", "EdgeRead",
           "A global read in an edge file (an entry point allowed to read globals).", "note", docs,
           "scan.md#rule-packs", "Edge files are listed and not counted."),
  });
  if (baseline)
    rules.push_back(rule("gridlock-gate-fell", "BaselineKeyFell",
                         "Global reads the baseline counts that this run no longer sees.", "note",
                         docs, "scan.md#gate",
                         "Run `gridlock gate --update` to shrink the baseline."));
  if (unusedAllows)
    rules.push_back(rule(kUnusedAllowCheck, "UnusedSuppression",
                         "An allow comment that covers no read.", "warning", docs,
                         "suppressions.md#what-is-reported",
                         "Remove it, or fix what it names: a read it was written for is gone."));
  return rules;
}

// A read's key as the baseline's (writes apart), so a fingerprint survives edits above it.
std::string keyOf(const facts::Read& r) {
  return r.file + "|" + r.enclosing + "|" + r.name +
         (r.kind == facts::ReadKind::GlobalWrite ? "|write" : "");
}

// The result of the i-th read, the n-th of its key (file, enclosing function, name); `baseline`
// is `extras` when it holds the gate's states.
ojson readResult(const index::Inventory& inv, size_t i, const facts::Verdict* v, int n,
                 const SarifExtras* extras, const SarifExtras* baseline) {
  const facts::Read& r = inv.reads[i];
  const bool write = r.kind == facts::ReadKind::GlobalWrite;
  const char* id = readCheck(r);
  const std::string key = keyOf(r);
  // What the gate fails on is an error; a counted read the baseline holds stays a warning
  // (code to migrate), an edge read or a write a note.
  const bool failsGate = baseline && i < baseline->states.size() && baseline->states[i] == "new";
  ojson res = {
      {"ruleId", id},
      {"level", failsGate         ? "error"
                : write || r.edge ? "note"
                                  : "warning"},
      {"message", {{"text", message(r, v)}}},
      {"locations", ojson::array({location(r.file, region(r))})},
      {"partialFingerprints", {{"gridlockKey/v1", fingerprint(key + "|" + std::to_string(n))}}},
      {"properties",
       {{"kind", facts::str(r.kind)},
        {"group", r.group},
        {"guard", facts::str(r.guard)},
        {"fix", std::string(v ? facts::spell(*v) : facts::spell(r.hint.fix))},
        {"mutates", r.mutated || write}}}};
  if (r.macro) res["properties"]["macro"] = *r.macro;
  if (r.suppressed)
    res["suppressions"] = ojson::array({{{"kind", "inSource"}, {"justification", *r.suppressed}}});
  if (baseline && i < baseline->states.size()) res["baselineState"] = baseline->states[i];
  if (extras && r.endLine && r.rangeLine)
    if (auto fix = extras->fixes.find(i); fix != extras->fixes.end())
      res["fixes"] = ojson::array({fixJson(r, fix->second)});
  return res;
}

// A key the baseline counts that this run no longer sees: the file, and no line to point at.
ojson fellResult(const analysis::Change& c, bool fails) {
  return {{"ruleId", "gridlock-gate-fell"},
          {"level", fails ? "error" : "note"},
          {"message",
           {{"text", std::string(c.key.write ? "global writes" : "global reads") +
                         " fell: " + c.key.str() + ": " + std::to_string(c.before) + " -> " +
                         std::to_string(c.after)}}},
          {"locations", ojson::array({location(c.key.file, nullptr)})},
          {"partialFingerprints",
           {{"gridlockKey/v1", fingerprint(c.key.file + "|" + c.key.enclosing + "|" + c.key.name +
                                           (c.key.write ? "|write" : "") + "|absent")}}},
          {"baselineState", "absent"}};
}

// An allow that covers no read, at the comment; an error where gate --strict fails on it.
ojson unusedAllowResult(const facts::AllowFact& a, bool fails) {
  return {{"ruleId", kUnusedAllowCheck},
          {"level", fails ? "error" : "warning"},
          {"message", {{"text", kUnusedAllow}}},
          {"locations",
           ojson::array({location(a.file, {{"startLine", a.line}, {"startColumn", a.column}})})},
          {"partialFingerprints",
           {{"gridlockKey/v1", fingerprint(a.file + "|" + a.text + "|unused-allow")}}}};
}

// One error per file that failed to parse.
ojson notificationsJson(const index::Inventory& inv) {
  ojson notifications = ojson::array();
  for (const auto& e : inv.parseErrors)
    notifications.push_back({{"level", "error"},
                             {"message",
                              {{"text", "failed to parse " + index::jsonPath(e.file) + ": " +
                                            (e.messages.empty() ? "" : e.messages[0])}}},
                             {"locations", ojson::array({location(e.file, {{"startLine", 1}})})}});
  return notifications;
}

}  // namespace

std::string sarifRootUri(const std::string& root) { return "file://" + index::uriPath(root) + "/"; }

std::string sarif(const index::Inventory& inv, const std::string& rootUri, const Verdicts* verdicts,
                  const SarifExtras* extras) {
  const SarifExtras* baseline = extras && !extras->states.empty() ? extras : nullptr;
  const std::string docs =
      extras && !extras->docsUrl.empty() ? extras->docsUrl : std::string(GRIDLOCK_DOCS_URL);
  ojson results = ojson::array();
  std::map<std::string, int> occurrences;
  size_t omitted = 0;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    int n = occurrences[keyOf(r)]++;
    if (extras && extras->omitEdges && r.edge) {
      ++omitted;
      continue;
    }
    results.push_back(
        readResult(inv, i, verdicts ? &(*verdicts)[i] : nullptr, n, extras, baseline));
  }
  if (baseline)
    for (const auto& c : baseline->absent) results.push_back(fellResult(c, baseline->absentFails));
  for (const auto& a : inv.unusedAllows)
    results.push_back(unusedAllowResult(a, extras && extras->unusedAllowsFail));
  ojson run = {
      {"tool",
       {{"driver",
         {{"name", "gridlock"},
          {"version", GRIDLOCK_VERSION},
          {"semanticVersion", GRIDLOCK_VERSION},
          {"informationUri", docs},
          {"rules", rulesJson(docs, baseline != nullptr, !inv.unusedAllows.empty())}}}}},
      {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", rootUri}}}}},
      {"invocations", ojson::array({{{"executionSuccessful", inv.parseErrors.empty()},
                                     {"toolExecutionNotifications", notificationsJson(inv)}}})},
      {"results", results}};
  // What --omit-edges left out, so that no reader takes the run for all there was.
  if (extras && extras->omitEdges) run["properties"] = {{"omittedEdgeResults", omitted}};
  ojson doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
               {"version", "2.1.0"},
               {"runs", ojson::array({run})}};
  // Locations are URIs (percent-encoded); free text that is not UTF-8 gets U+FFFD.
  return doc.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace gridlock::report
