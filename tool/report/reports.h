// Renderings of an inventory: clang-style diagnostics with a summary table, the JSON of the
// DESIGN.md contract, and SARIF 2.1.0 for code scanning.
#pragma once

#include "analysis/summary.h"
#include "index/inventory.h"

#include <string>

namespace gridlock::report {

std::string diagnosticsText(const index::Inventory& inv);  // one line per read (+ notes)
std::string summaryTable(const analysis::Summary& s);      // by kind, group, file
std::string json(const index::Inventory& inv, const analysis::Summary& s);
std::string sarif(const index::Inventory& inv, const std::string& rootUri);

// The one-line message of a read, shared by text and SARIF.
std::string message(const facts::Read& r);

}  // namespace gridlock::report
