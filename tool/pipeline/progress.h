// The progress of a long scan on stderr. On a terminal: one line rewritten in place,
// `[n/N] file`. Otherwise (a CI log, a pipe): a line every few seconds,
// `gridlock: 12/40 translation units, 37 reads, 6.2 s`; GRIDLOCK_PROGRESS_INTERVAL sets the
// seconds (0: after every unit). -q turns both off.
#pragma once

#include "facts/by_file.h"
#include "facts/facts.h"

#include <chrono>
#include <ostream>
#include <set>
#include <string>
#include <tuple>

namespace gridlock::pipeline {

class Progress {
 public:
  // `interval`: seconds between lines when `terminal` is false.
  Progress(std::ostream& out, bool terminal, double interval);
  // For stderr: a terminal or not, the interval from GRIDLOCK_PROGRESS_INTERVAL (default 5).
  static Progress forStderr();

  // One unit done (called one at a time).
  void unitDone(size_t done, size_t total, const facts::UnitFacts& unit);
  // Clears the terminal line.
  void finish();

 private:
  std::ostream& out_;
  bool terminal_;
  double interval_;
  std::chrono::steady_clock::time_point start_, last_;
  // Counted reads seen so far, once each (a header's reads arrive with every unit).
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> reads_;
};

}  // namespace gridlock::pipeline
