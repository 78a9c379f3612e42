// Renderings of an inventory: clang-style diagnostics with a summary table, the JSON of the
// DESIGN.md contract, and SARIF 2.1.0 for code scanning. `verdicts`, when given, holds a
// rewrite plan's verdict for each read (same order as inv.reads): `scan --plan`. File names
// are written in JSON with index::jsonPath and in SARIF as URIs (index::uriPath), whatever
// their bytes.
#pragma once

#include "analysis/baseline.h"
#include "analysis/callers.h"
#include "analysis/summary.h"
#include "facts/verdict.h"
#include "index/inventory.h"

#include <string>
#include <vector>

namespace gridlock::report {

using Verdicts = std::vector<facts::Verdict>;

std::string diagnosticsText(const index::Inventory& inv, const Verdicts* verdicts = nullptr);
std::string summaryTable(const analysis::Summary& s);  // by kind, group, fix, file
std::string json(const index::Inventory& inv, const analysis::Summary& s,
                 const Verdicts* verdicts = nullptr);
// The gate's comparison as SARIF sees it: each read's `baselineState` (inv.reads order), and
// the baseline keys that fell, written as one `absent` result each.
struct SarifBaseline {
  std::vector<std::string> states;
  std::vector<analysis::Change> absent;
};

// `rootUri`: the root as a file URI ending in '/' (sarifRootUri).
std::string sarif(const index::Inventory& inv, const std::string& rootUri,
                  const Verdicts* verdicts = nullptr, const SarifBaseline* baseline = nullptr);
// "file://" and the root's path percent-encoded (index::uriPath), with a final '/'.
std::string sarifRootUri(const std::string& root);

// The one-line message of a read, shared by text and SARIF.
std::string message(const facts::Read& r, const facts::Verdict* verdict = nullptr);

// `gridlock callers`: the DESIGN.md JSON, and a table for people.
std::string callersJson(const analysis::CallersResult& r);
std::string callersText(const analysis::CallersResult& r);

}  // namespace gridlock::report
