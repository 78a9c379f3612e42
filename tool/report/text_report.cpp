#include "report/reports.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace gridlock::report {

std::string message(const facts::Read& r) {
  std::ostringstream m;
  if (r.kind == "global_write") {
    m << "write to global state " << r.name;
  } else if (r.kind == "global_state") {
    m << "read of global state " << r.name;
  } else if (r.kind == "laundered") {
    m << "laundered global " << (r.group.empty() ? "collection" : r.group + " " + r.yields)
      << ": this call of " << r.name << " leaves the group out, so it reads " << r.launders;
  } else if (r.kind == "shim") {
    m << "global collection from " << r.name;
  } else {
    m << "global " << r.group << " " << (r.yields == "group" ? "group" : r.yields) << " from "
      << r.name;
  }
  if (!r.enclosing.empty()) m << " in " << r.enclosing;
  if (r.guard == "fallback") {
    m << " (fallback: runs only when no explicit group is passed";
    if (r.fallbackDead && *r.fallbackDead)
      m << "; dead: every call passes one";
    else if (r.fallbackDead)
      m << "; " << r.breakingSites.size() << " call site(s) leave it out";
    m << ")";
  }
  if (r.edge) {
    m << "; edge file, not counted";
  } else if (r.fix == "substitute") {
    m << "; fix: use " << r.fixSource;
  } else if (r.fix == "require") {
    m << "; fix: require the explicit argument";
  } else if (r.fix == "thread") {
    m << "; fix: thread a group parameter";
  } else if (!r.fix.empty() && r.fix != "none") {
    // A rewrite plan's reason for leaving the read alone (docs/rewrite.md).
    m << "; left: " << r.fix;
  }
  if (!r.fixDetail.empty()) m << " (" << r.fixDetail << ")";
  return m.str();
}

std::string diagnosticsText(const index::Inventory& inv) {
  std::ostringstream out;
  for (const auto& r : inv.reads) {
    if (r.suppressed) continue;
    const char* check = r.kind == "global_write" ? "gridlock-global-write"
                        : r.edge                 ? "gridlock-edge-read"
                                                 : "gridlock-global-read";
    out << r.file << ":" << r.line << ":" << r.column << ": "
        << (r.edge ? "remark" : "warning") << ": " << message(r) << " [" << check << "]\n";
    if (r.macro)
      out << r.file << ":" << r.line << ":" << r.column << ": note: expanded from macro '"
          << *r.macro << "'" << (r.spelling.empty() ? "" : " (spelled at " + r.spelling + ")")
          << "\n";
  }
  for (const auto& b : inv.badSuppressions)
    out << b.file << ":" << b.line << ":1: warning: suppression without a reason is ignored: "
        << "write // gridlock: allow(why this read is deliberate) [gridlock-suppression]\n";
  for (const auto& e : inv.parseErrors) {
    out << e.file << ": error: failed to parse; its reads may be incomplete [gridlock-parse-error]\n";
    for (const auto& m : e.messages) out << "  " << m << "\n";
  }
  return out.str();
}

namespace {

void table(std::ostringstream& out, const std::string& title,
           const std::map<std::string, size_t>& rows, size_t total) {
  size_t width = title.size();
  for (const auto& [k, n] : rows) width = std::max(width, k.size());
  out << "  " << title << std::string(width - title.size() + 2, ' ') << "reads\n";
  std::vector<std::pair<std::string, size_t>> sorted(rows.begin(), rows.end());
  // Largest first: what to fix first is what a user reads first.
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [k, n] : sorted)
    out << "  " << k << std::string(width - k.size() + 2, ' ') << n << "\n";
  out << "  " << std::string(width + 2, '-') << "-----\n";
  out << "  total" << std::string(width - 3, ' ') << total << "\n\n";
}

}  // namespace

std::string summaryTable(const analysis::Summary& s) {
  std::ostringstream out;
  out << "gridlock: " << s.total << " global reads in " << s.byFile.size() << " files ("
      << s.filesScanned << " translation units scanned, " << s.parseErrors << " parse errors)\n";
  out << "  fallback-only: " << s.fallbacks << ", edge reads: " << s.edges
      << ", suppressed: " << s.suppressed << ", writes to global state: " << s.writes << "\n\n";
  table(out, "kind", s.byKind, s.total);
  table(out, "group", s.byGroup, s.total);
  table(out, "fix", s.byFix, s.total);
  table(out, "file", s.byFile, s.total);
  return out.str();
}

}  // namespace gridlock::report
