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

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gridlock::report {

// What a report is written as (`--format`).
enum class Format { Text, Json, Sarif, Github };

using Verdicts = std::vector<facts::Verdict>;

// The `version` of each JSON report, the `const` of its schema in schema/: raised only when a
// field changes meaning or goes away (adding one keeps it).
inline constexpr int kScanJsonVersion = 1;
inline constexpr int kGateJsonVersion = 1;
inline constexpr int kCallersJsonVersion = 1;

// `color`: clang's colours (report/text_style.h). `omitEdges`: no remark for the reads and
// writes of edge files (the summary still counts them).
std::string diagnosticsText(const index::Inventory& inv, const Verdicts* verdicts = nullptr,
                            bool color = false, bool omitEdges = false);
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
// `omitEdges`: no result for the reads and writes of edge files (notes: counted apart, never
// gated); the run's properties say how many were left out.
struct SarifExtras {
  std::vector<std::string> states;
  std::vector<analysis::Change> absent;
  std::map<size_t, SarifFix> fixes;
  std::string docsUrl;
  bool omitEdges = false;
  bool absentFails = false;       // gate --strict failed on them: the absent results are errors
  bool unusedAllowsFail = false;  // likewise the unused allows' results
};

// `rootUri`: the root as a file URI ending in '/' (sarifRootUri). A result of the gate's
// (`baselineState: new`: what the gate fails on) has level `error`, another counted read
// `warning`, an edge read, a write or a fallen key `note`.
std::string sarif(const index::Inventory& inv, const std::string& rootUri,
                  const Verdicts* verdicts = nullptr, const SarifExtras* extras = nullptr);
// "file://" and the root's path percent-encoded (index::uriPath), with a final '/'.
std::string sarifRootUri(const std::string& root);

// One GitHub Actions workflow command: `::LEVEL file=F,line=L,col=C,endLine=E,endColumn=K,
// title=T::MESSAGE` (a position that is 0 is left out), with GitHub's escaping: `%`, CR and LF in
// the message, and `:` and `,` too in the properties. GitHub shows it as an annotation.
struct Annotation {
  std::string level;  // error, warning, notice
  std::string file;   // relative to the root: the repository's root in a workflow
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
  std::string title;  // the check, as the text's brackets name it
  std::string message;
};
std::string githubCommand(const Annotation& a);
// A read as an annotation at its place (its range when known): the message and the macro it
// is spelled in, as the text says them.
Annotation readAnnotation(const facts::Read& r, const std::string& level, const std::string& title,
                          const std::string& message);
// An allow comment that is ignored, as a warning annotation at the comment.
Annotation badSuppressionAnnotation(const facts::BadSuppression& b);

// The scan as annotations (`--format github`, as ruff's `--output-format github`): a warning
// at each counted read, each write and each ignored allow, a notice at each read of an edge
// file (none with `omitEdges`), an error at each file that did not parse. Allowed reads have
// none.
std::string githubAnnotations(const index::Inventory& inv, const Verdicts* verdicts = nullptr,
                              bool omitEdges = false);

// The one-line message of a read, shared by text and SARIF.
std::string message(const facts::Read& r, const facts::Verdict* verdict = nullptr);
// The check a read is reported under in every format: a write, an edge read or a counted read.
const char* readCheck(const facts::Read& r);
// Why an allow comment is ignored, in every format: its problem, or that it gives no reason.
std::string badSuppressionProblem(const facts::BadSuppression& b);
// An allow comment that is ignored, as a clang-style warning at the comment's file:line:col
// (scan's text and the gate's).
std::string badSuppressionText(const facts::BadSuppression& b, bool color);

// An allow that covers no read (as ruff's RUF100 reports an unused noqa): what every format
// says of it. A warning, an error where gate --strict fails on it.
inline constexpr const char* kUnusedAllow = "unused allow: it covers no read; remove it";
inline constexpr const char* kUnusedAllowCheck = "gridlock-unused-suppression";
std::string unusedAllowText(const facts::AllowFact& a, bool color, bool error = false);
Annotation unusedAllowAnnotation(const facts::AllowFact& a, bool error = false);
// The JSON report's `unused_suppressions`: file, line, column, text of each (scan and gate).
nlohmann::ordered_json unusedAllowsJson(const index::Inventory& inv);

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
      {report::Format::Sarif, "sarif"},
      {report::Format::Github, "github"}};
};

}  // namespace gridlock::facts
