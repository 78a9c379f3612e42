// The gate's baseline: counted reads keyed by file, enclosing symbol and accessor, so moving
// code or adding lines above a read changes nothing, and counted writes keyed the same way,
// apart from the reads. Stored byte-stable: sorted keys, no timestamps, two-space JSON,
// trailing newline.
#pragma once

#include "index/inventory.h"

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace gridlock::analysis {

struct BaselineKey {
  std::string file, enclosing, name;
  bool write = false;  // a key of writes (global_write), counted apart from the reads
  auto operator<=>(const BaselineKey&) const = default;
  std::string str() const;  // "file | enclosing | name", then " (write)" for a write's key
};

using Baseline = std::map<BaselineKey, size_t>;

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The counted reads (analysis::counts) and the counted writes (analysis::countsWrite) by key.
Baseline baselineOf(const index::Inventory& inv);
// File names are written with index::jsonPath (reversible whatever their bytes) and read back
// with index::fromJsonPath; a baseline written by hand with raw bytes that are not UTF-8 in
// a name is read as that name.
// `root`, when given, is written as "root": the root the counts were taken against, relative
// to the baseline's own directory ("." when it is that directory), so the file still names the
// same root from any checkout.
// The read keys are "entries" (and their sum "total"); with `writes`, the write keys are
// "write_entries" (and "write_total"), written even when there are none: a baseline without
// them was made before writes were gated (baselineRecordsWrites). Without `writes`, `b` must
// hold no write key.
std::string serializeBaseline(const Baseline& b,
                              const std::optional<std::string>& root = std::nullopt,
                              bool writes = true);
Baseline parseBaseline(const std::string& text, const std::string& path);
// Whether the baseline has "write_entries": only then are its writes gated.
bool baselineRecordsWrites(const std::string& text, const std::string& path);
// The "root" a baseline records; nothing when it has none (written by hand or by a gridlock
// that did not record it). Throws BaselineError when it is not a non-empty string.
std::optional<std::string> parseBaselineRoot(const std::string& text, const std::string& path);

// Whether a run's counts speak for a baseline key: only then may its count fall. An empty
// Covers covers every key.
using Covers = std::function<bool(const BaselineKey&)>;

struct Change {
  BaselineKey key;
  size_t before = 0, after = 0;
};

struct GateResult {
  std::vector<Change> rose;   // after > before, before > 0
  std::vector<Change> added;  // a key the baseline lacks
  std::vector<Change> fell;   // after < before (after may be 0), for a covered key
  std::vector<Change> kept;   // after < before for a key not covered: it keeps `before`
  bool failed() const { return !rose.empty() || !added.empty(); }
};

GateResult compare(const Baseline& baseline, const Baseline& current, const Covers& covers = {});
// The counts this run has evidence for, which `--update` writes: the current count of a
// covered key; for another, the baseline's count unless the current one is higher.
Baseline updated(const Baseline& baseline, const Baseline& current, const Covers& covers = {});
// The sum of the read keys' counts (with `writes`: of the write keys').
size_t totalOf(const Baseline& b, bool writes = false);
// `b` without its write keys.
Baseline readsOf(const Baseline& b);

}  // namespace gridlock::analysis
