// Renderings of an inventory: clang-style diagnostics with a summary table, the JSON report
// (docs/contracts.md, schema/scan-report.schema.json), and SARIF 2.1.0 for code scanning.
// `verdicts`, when given, holds a rewrite plan's verdict for each read (same order as inv.reads):
// `scan --plan`. File names are written in JSON with index::jsonPath and in SARIF as URIs
// (index::uriPath), whatever their bytes.
#pragma once

#include "analysis/baseline.h"
#include "analysis/callers.h"
#include "analysis/summary.h"
#include "facts/verdict.h"
#include "index/inventory.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gridlock::report {

// What a report is written as (`--format`).
enum class Format { Text, Json, Sarif };

using Verdicts = std::vector<facts::Verdict>;

// The `version` of each JSON report, the `const` of its schema in schema/: raised only when a
// field changes meaning or goes away (adding one keeps it).
inline constexpr int kScanJsonVersion = 1;
inline constexpr int kGateJsonVersion = 1;
inline constexpr int kCallersJsonVersion = 1;

// `color`: clang's colours (report/text_style.h).
std::string diagnosticsText(const index::Inventory& inv, const Verdicts* verdicts = nullptr,
                            bool color = false);
std::string summaryTable(const analysis::Summary& s);  // by kind, group, fix, file
std::string json(const index::Inventory& inv, const analysis::Summary& s,
                 const Verdicts* verdicts = nullptr);
// A suggested edit for one read (a substitution), as a SARIF `fix` (facts/verdict.h).
using SarifFix = facts::SuggestedFix;

// What SARIF carries beyond the scan. The gate's comparison: each read's `baselineState`
// (inv.reads order; empty: none), and the baseline keys that fell, one `absent` result each.
// And `fixes`: by read index, the edit that removes it. `docsUrl`: where the docs pages are
// (ending in '/'), for each rule's `helpUri` and help links; "" for the URL this build was
// configured with (GRIDLOCK_DOCS_URL, the docs of this version online).
struct SarifExtras {
  std::vector<std::string> states;
  std::vector<analysis::Change> absent;
  std::map<size_t, SarifFix> fixes;
  std::string docsUrl;
};

// `rootUri`: the root as a file URI ending in '/' (sarifRootUri). A result of the gate's
// (`baselineState: new`: what the gate fails on) has level `error`, another counted read
// `warning`, an edge read, a write or a fallen key `note`.
std::string sarif(const index::Inventory& inv, const std::string& rootUri,
                  const Verdicts* verdicts = nullptr, const SarifExtras* extras = nullptr);
// "file://" and the root's path percent-encoded (index::uriPath), with a final '/'.
std::string sarifRootUri(const std::string& root);

// The one-line message of a read, shared by text and SARIF.
std::string message(const facts::Read& r, const facts::Verdict* verdict = nullptr);
// An allow comment that is ignored, as a clang-style warning at the comment's file:line:col
// (scan's text and the gate's).
std::string badSuppressionText(const facts::BadSuppression& b, bool color);

// `gridlock callers`: the JSON report (schema/callers-report.schema.json), and a table for
// people.
std::string callersJson(const analysis::CallersResult& r);
std::string callersText(const analysis::CallersResult& r);

}  // namespace gridlock::report

namespace gridlock::facts {

// report::Format's spellings, as `--format` takes them (facts::spell, facts::parse).
template <>
struct Spellings<report::Format> {
  static constexpr std::pair<report::Format, std::string_view> table[] = {
      {report::Format::Text, "text"},
      {report::Format::Json, "json"},
      {report::Format::Sarif, "sarif"}};
};

}  // namespace gridlock::facts
