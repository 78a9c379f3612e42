// The gate's baseline: counted reads keyed by file, enclosing symbol and accessor, so moving
// code or adding lines above a read changes nothing. Stored byte-stable: sorted keys, no
// timestamps, two-space JSON, trailing newline.
#pragma once

#include "index/inventory.h"

#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace gridlock::analysis {

struct BaselineKey {
  std::string file, enclosing, name;
  auto operator<=>(const BaselineKey&) const = default;
  std::string str() const;  // "file | enclosing | name"
};

using Baseline = std::map<BaselineKey, size_t>;

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Baseline baselineOf(const index::Inventory& inv);
std::string serializeBaseline(const Baseline& b);
Baseline parseBaseline(const std::string& text, const std::string& path);

struct Change {
  BaselineKey key;
  size_t before = 0, after = 0;
};

struct GateResult {
  std::vector<Change> rose;    // after > before, before > 0
  std::vector<Change> added;   // a key the baseline lacks
  std::vector<Change> fell;    // after < before (after may be 0)
  bool failed() const { return !rose.empty() || !added.empty(); }
};

GateResult compare(const Baseline& baseline, const Baseline& current);

}  // namespace gridlock::analysis
