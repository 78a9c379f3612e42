// The gate's verdict for people (clang-style errors at every read of a new or risen key, with
// the fix hint), as JSON for scripts, and as SARIF whose results carry `baselineState` so code
// scanning shows what a change introduced. docs/scan.md, "Gate".
#pragma once

#include "analysis/baseline.h"
#include "index/inventory.h"
#include "report/reports.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::report {

// Recorded: --update gave a baseline made before writes were gated its writes.
enum class GateVerdict { Passed, Failed, Created, Shrunk, Recorded };

struct GateOutcome {
  GateVerdict verdict = GateVerdict::Passed;
  std::string baselinePath;  // as given
  analysis::GateResult result;
  std::vector<std::string> keptWhy;  // one per result.kept: why it keeps its count
  size_t outside = 0;                // keys of files a run over some files did not reach
  size_t baselineTotal = 0;          // reads in the baseline before this run
  size_t nextTotal = 0;              // reads in what --update writes (or would write)
  size_t total = 0;                  // counted reads this run saw
  size_t baselineWrites = 0;         // writes in the baseline before this run
  size_t nextWrites = 0;             // writes in what --update writes (or would write)
  size_t writes = 0;                 // counted writes this run saw
  bool writesChecked = true;         // false: the baseline records no writes (an older one)
  bool writesRecorded = false;       // --update gave such a baseline its writes
  size_t keys = 0;                   // keys this run saw (a created baseline's size)
  size_t filesScanned = 0;           // translation units
  size_t filesSeen = 0;              // files whose reads this run saw (main files and headers)
  bool subset = false;               // positional files or --changed-since
  bool update = false;               // --update
  std::string changedSince;          // the REV of --changed-since, or ""
  size_t changedFiles = 0;           // files the diff touches
  // --strict: slack fails the gate too (verdict Failed): counts that fell while the baseline was
  // not tightened (no --update), as Megatron-LM's ratchet (PR #6258) fails, and allows that
  // cover no read (inv.unusedAllows).
  bool strict = false;
  bool slackFailed = false;  // strict, and this run failed for slack alone or besides a rise
  size_t unusedAllows = 0;   // allows that cover no read (warnings; errors under --strict)
};

int exitStatus(const GateOutcome& g);  // 0, or 1 when counts rose

struct TextStyle {
  bool color = false;  // ANSI colours, as clang prints them on a terminal
  bool quiet = false;  // -q: the errors and the verdict line only
};

// Text: `allowed:` lines and the ignored allows (warnings at file:line:col), then one
// clang-style error per read of a new or risen key, in file and line order
// (`file:line:col: error: new global read: ...; fix: ... [gridlock-gate]`), then the
// `new:`/`rose:`/`fell:`/`kept:` lines and the verdict.
std::string gateText(const index::Inventory& inv, const GateOutcome& g, const TextStyle& style);
// The verdict line alone ("gate: FAILED: ..."), for stderr when stdout holds JSON or SARIF.
std::string gateVerdictLine(const GateOutcome& g);
std::string gateJson(const index::Inventory& inv, const GateOutcome& g);
// The scan's SARIF (report::sarif) with each result's baselineState: `new` for the reads of a
// new or risen key, `unchanged` for every other result, and one `absent` result per key that
// fell. A created baseline has nothing to compare with: no baselineState.
// `fixes`, `docsUrl`, `omitEdges`: as SarifExtras's.
std::string gateSarif(const index::Inventory& inv, const GateOutcome& g, const std::string& rootUri,
                      const std::map<size_t, SarifFix>& fixes = {}, const std::string& docsUrl = "",
                      bool omitEdges = false);
// The verdict as GitHub annotations (`--format github`): a warning at each ignored allow, an
// error at each read of a new or risen key (what the text's errors say), a notice at each
// file whose key fell. The verdict line is the text's (gateVerdictLine).
std::string gateGithub(const index::Inventory& inv, const GateOutcome& g);

// The reads (indices into inv.reads) that count toward `key`.
std::vector<size_t> readsOfKey(const index::Inventory& inv, const analysis::BaselineKey& key);

}  // namespace gridlock::report
