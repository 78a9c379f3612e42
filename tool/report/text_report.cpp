#include "report/reports.h"

#include "report/text_style.h"

#include "facts/suppression_text.h"
#include "index/path_text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

namespace gridlock::report {
namespace {

using facts::Hint;

// What a verdict says in the text, as a hint would say it: a substitution (Supply's too), a
// required argument, a thread (done or not), nothing (a write, an edge). Any other verdict,
// Collapse's and Store's included, is said as `left: <its spelling>`: nothing.
std::optional<Hint> saidAs(const facts::Verdict& v) {
  using facts::Strategy;
  if (v.applied) {
    switch (*v.applied) {
      case Strategy::Substitute:
      case Strategy::Supply:
        return Hint::Substitute;
      case Strategy::Require:
        return Hint::Require;
      case Strategy::Thread:
        return Hint::Thread;
      default:
        return std::nullopt;
    }
  }
  switch (v.left) {
    case facts::Left::Unset:
      return Hint::Unset;
    case facts::Left::None:
      return Hint::None;
    case facts::Left::Thread:
      return Hint::Thread;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::string message(const facts::Read& r, const facts::Verdict* verdict) {
  using facts::ReadKind;
  std::ostringstream m;
  if (r.kind == ReadKind::GlobalWrite) {
    m << "write to global state " << r.name;
  } else if (r.kind == ReadKind::GlobalState) {
    m << "read of global state " << r.name;
  } else if (r.kind == ReadKind::Laundered) {
    m << "laundered global "
      << (r.group.empty() ? "collection" : r.group + " " + facts::str(r.yields))
      << ": this call of " << r.name << " leaves the group out, so it reads "
      << r.analysis.launders;
  } else if (r.kind == ReadKind::Shim) {
    m << "global collection from " << r.name;
  } else {
    m << "global " << r.group << " " << facts::spell(r.yields) << " from " << r.name;
  }
  if (!r.enclosing.empty()) m << " in " << r.enclosing;
  if (r.mutated && r.kind != ReadKind::GlobalWrite) m << ", which may also change it";
  if (r.guard == facts::Guard::Fallback) {
    m << " (fallback: runs only when no explicit group is passed";
    if (r.analysis.fallbackDead && *r.analysis.fallbackDead)
      m << "; dead: every call passes one";
    else if (r.analysis.fallbackDead && r.analysis.breakingSites.empty())
      m << "; alive: handed on as a value, called where no site shows";  // analysis/callers.h
    else if (r.analysis.fallbackDead)
      m << "; " << r.analysis.breakingSites.size() << " call site(s) leave it out";
    m << ")";
  }
  const std::optional<Hint> said = verdict ? saidAs(*verdict) : r.hint.fix;
  if (r.edge) {
    m << "; edge file, not counted";
  } else if (!said) {
    // A rewrite plan's reason for leaving the read alone (docs/rewrite.md).
    m << "; left: " << facts::spell(*verdict);
  } else if (*said == Hint::Substitute) {
    m << "; fix: use " << r.hint.source;
  } else if (*said == Hint::Require) {
    m << "; fix: require the explicit argument";
  } else if (*said == Hint::Thread) {
    m << "; fix: thread a group parameter";
  }
  if (verdict && !verdict->detail.empty()) m << " (" << verdict->detail << ")";
  return m.str();
}

const char* readCheck(const facts::Read& r) {
  return r.kind == facts::ReadKind::GlobalWrite ? "gridlock-global-write"
         : r.edge                               ? "gridlock-edge-read"
                                                : "gridlock-global-read";
}

std::string badSuppressionProblem(const facts::BadSuppression& b) {
  return b.problem.empty() ? facts::kSuppressionWithoutReason : b.problem;
}

std::string badSuppressionText(const facts::BadSuppression& b, bool color) {
  return diagnostic(facts::where(index::textPath(b.file), b.line, b.column), Severity::Warning,
                    badSuppressionProblem(b), "gridlock-suppression", color);
}

std::string unusedAllowText(const facts::AllowFact& a, bool color, bool error) {
  return diagnostic(facts::where(a.file, a.line, a.column),
                    error ? Severity::Error : Severity::Warning, kUnusedAllow, kUnusedAllowCheck,
                    color);
}

std::string diagnosticsText(const index::Inventory& inv, const Verdicts* verdicts, bool color,
                            bool omitEdges) {
  std::ostringstream out;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    if (r.suppressed || (omitEdges && r.edge)) continue;
    const char* check = readCheck(r);
    std::string at = facts::where(index::textPath(r.file), r.line, r.column);
    out << diagnostic(at, r.edge ? Severity::Remark : Severity::Warning,
                      message(r, verdicts ? &(*verdicts)[i] : nullptr), check, color);
    if (r.macro)
      out << diagnostic(at, Severity::Note,
                        "expanded from macro '" + *r.macro + "'" +
                            (r.spelling.empty() ? "" : " (spelled at " + r.spelling + ")"),
                        "", color);
  }
  for (const auto& b : inv.badSuppressions) out << badSuppressionText(b, color);
  for (const auto& a : inv.unusedAllows) out << unusedAllowText(a, color);
  for (const auto& e : inv.parseErrors) {
    out << diagnostic(index::textPath(e.file), Severity::Error,
                      "failed to parse; its reads may be incomplete", "gridlock-parse-error",
                      color);
    // Each message starts with the file's name, which is written as above.
    for (const auto& m : e.messages)
      out << "  "
          << (m.starts_with(e.file + ":") ? index::textPath(e.file) + m.substr(e.file.size()) : m)
          << "\n";
  }
  return out.str();
}

namespace {

void table(std::ostringstream& out, const std::string& title,
           const std::map<std::string, size_t>& rows, size_t total) {
  const std::string last = "total";  // the last row's name: the column is at least as wide
  size_t width = std::max(title.size(), last.size());
  for (const auto& [k, n] : rows) width = std::max(width, k.size());
  out << "  " << title << std::string(width - title.size() + 2, ' ') << "reads\n";
  std::vector<std::pair<std::string, size_t>> sorted(rows.begin(), rows.end());
  // Largest first: what to fix first is what a user reads first; ties by name.
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  for (const auto& [k, n] : sorted)
    out << "  " << k << std::string(width - k.size() + 2, ' ') << n << "\n";
  out << "  " << std::string(width + 2, '-') << "-----\n";
  out << "  " << last << std::string(width - last.size() + 2, ' ') << total << "\n\n";
}

// Enum-keyed counts under their spellings (the table's tie order is alphabetical).
template <typename E>
std::map<std::string, size_t> spelled(const std::map<E, size_t>& counts) {
  std::map<std::string, size_t> out;
  for (const auto& [k, n] : counts) out[facts::str(k)] = n;
  return out;
}

}  // namespace

std::string summaryTable(const analysis::Summary& s) {
  std::ostringstream out;
  out << "gridlock: " << s.total << " global reads in " << s.byFile.size() << " files ("
      << s.filesScanned << " translation units scanned, " << s.parseErrors << " parse errors)\n";
  out << "  fallback-only: " << s.fallbacks << ", edge reads: " << s.edges
      << ", suppressed: " << s.suppressed << ", writes to global state: " << s.writes << "\n\n";
  table(out, "kind", spelled(s.byKind), s.total);
  table(out, "group", s.byGroup, s.total);
  table(out, "fix", s.byFix, s.total);
  std::map<std::string, size_t> byFile;
  for (const auto& [file, n] : s.byFile) byFile[index::textPath(file)] = n;
  table(out, "file", byFile, s.total);
  return out.str();
}

}  // namespace gridlock::report
