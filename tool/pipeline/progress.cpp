#include "pipeline/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace gridlock::pipeline {

Progress::Progress(std::ostream& out, bool terminal, double interval)
    : out_(out),
      terminal_(terminal),
      interval_(interval),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress Progress::forStderr() {
  double interval = 5;
  if (const char* env = std::getenv("GRIDLOCK_PROGRESS_INTERVAL")) {
    char* end = nullptr;
    double v = std::strtod(env, &end);
    if (end != env && *end == '\0' && v >= 0) interval = v;
  }
  return Progress(std::cerr, isatty(STDERR_FILENO), interval);
}

void Progress::unitDone(size_t done, size_t total, const facts::UnitFacts& unit) {
  if (terminal_) {
    out_ << "\r\033[K[" << done << "/" << total << "] " << unit.tu.mainFile << std::flush;
    return;
  }
  auto count = [&](const std::vector<facts::Read>& reads) {
    for (const auto& r : reads)
      if (!r.edge && !r.suppressed && r.kind != facts::ReadKind::GlobalWrite)
        reads_.emplace(r.file, r.line, r.column, r.name);
  };
  count(unit.tu.reads);
  if (unit.byFile)
    for (const auto& f : unit.byFile->files) count(f.facts->reads);
  auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_).count() < interval_) return;
  last_ = now;
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f",
                std::chrono::duration<double>(now - start_).count());
  out_ << "gridlock: " << done << "/" << total << " translation units, " << reads_.size()
       << " reads, " << elapsed << " s\n"
       << std::flush;
}

void Progress::finish() {
  if (terminal_) out_ << "\r\033[K" << std::flush;
}

}  // namespace gridlock::pipeline
