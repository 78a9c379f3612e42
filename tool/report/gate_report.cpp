#include "report/gate_report.h"

#include "analysis/summary.h"
#include "index/path_text.h"
#include "report/reports.h"
#include "report/text_style.h"
#include "support/source_files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <tuple>

namespace gridlock::report {
namespace {

using ojson = nlohmann::ordered_json;

const char* verdictName(GateVerdict v) {
  switch (v) {
    case GateVerdict::Passed:
      return "passed";
    case GateVerdict::Failed:
      return "failed";
    case GateVerdict::Created:
      return "created";
    case GateVerdict::Shrunk:
      return "shrunk";
    case GateVerdict::Recorded:
      return "recorded";
  }
  return "passed";
}

// Each read (or write) of a new or risen key, with why it fails the gate, in file and line
// order (as a compiler prints its errors), whichever key each belongs to.
std::vector<std::pair<size_t, std::string>> gateErrors(const index::Inventory& inv,
                                                       const analysis::GateResult& g) {
  std::vector<std::pair<size_t, std::string>> errors;  // read index, why
  for (const auto& c : g.added) {
    const char* what = c.key.write ? "write" : "read";
    for (size_t i : readsOfKey(inv, c.key))
      errors.emplace_back(i, std::string("new global ") + what + ": ");
  }
  for (const auto& c : g.rose) {
    const char* what = c.key.write ? "write" : "read";
    for (size_t i : readsOfKey(inv, c.key))
      errors.emplace_back(i, std::string("global ") + what + "s rose from " +
                                 std::to_string(c.before) + " to " + std::to_string(c.after) +
                                 " here: ");
  }
  auto place = [&](size_t i) {
    const facts::Read& r = inv.reads[i];
    return std::tuple<const std::string&, unsigned, unsigned, size_t>(r.file, r.line, r.column, i);
  };
  std::sort(errors.begin(), errors.end(),
            [&](const auto& a, const auto& b) { return place(a.first) < place(b.first); });
  return errors;
}

// One clang-style error per read (or write) of a new or risen key.
void keyErrors(std::ostringstream& out, const index::Inventory& inv, const analysis::GateResult& g,
               const TextStyle& style) {
  for (const auto& [i, why] : gateErrors(inv, g)) {
    const facts::Read& r = inv.reads[i];
    std::string at = facts::where(index::textPath(r.file), r.line, r.column);
    out << diagnostic(at, Severity::Error, why + message(r), "gridlock-gate", style.color);
    if (r.macro)
      out << diagnostic(at, Severity::Note,
                        "expanded from macro '" + *r.macro + "'" +
                            (r.spelling.empty() ? "" : " (spelled at " + r.spelling + ")"),
                        "", style.color);
  }
}

ojson changeJson(const index::Inventory& inv, const analysis::Change& c, const char* change) {
  ojson j = {{"change", change},
             {"access", c.key.write ? "write" : "read"},
             {"file", index::jsonPath(c.key.file)},
             {"enclosing", c.key.enclosing},
             {"name", c.key.name},
             {"before", c.before},
             {"after", c.after}};
  ojson reads = ojson::array();
  for (size_t i : readsOfKey(inv, c.key)) {
    const facts::Read& r = inv.reads[i];
    ojson rj = {{"file", index::jsonPath(r.file)},
                {"line", r.line},
                {"column", r.column},
                {"kind", facts::str(r.kind)},
                {"group", r.group},
                {"fix", facts::str(r.hint.fix)},
                {"message", message(r)}};
    if (!r.hint.source.empty()) rj["fix_source"] = r.hint.source;
    reads.push_back(rj);
  }
  j["reads"] = reads;
  return j;
}

}  // namespace

int exitStatus(const GateOutcome& g) { return g.verdict == GateVerdict::Failed ? 1 : 0; }

std::vector<size_t> readsOfKey(const index::Inventory& inv, const analysis::BaselineKey& key) {
  std::vector<size_t> out;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    if ((key.write ? analysis::countsWrite(r) : analysis::counts(r)) && r.file == key.file &&
        r.enclosing == key.enclosing && r.name == key.name)
      out.push_back(i);
  }
  return out;
}

namespace {

// Whether a new or risen key of reads (or, `writes`, of writes) failed the gate.
bool rose(const GateOutcome& g, bool writes) {
  for (const auto* changes : {&g.result.added, &g.result.rose})
    for (const auto& c : *changes)
      if (c.key.write == writes) return true;
  return false;
}

// "from 5 to 4" for the reads, "from 2 to 1 writes" for the writes, joined; a count that did
// not change is left out.
std::string fromTo(const GateOutcome& g) {
  std::string out;
  bool reads = g.baselineTotal != g.nextTotal, writes = g.baselineWrites != g.nextWrites;
  if (reads || !writes)
    out += " from " + std::to_string(g.baselineTotal) + " to " + std::to_string(g.nextTotal) +
           (writes ? " reads" : "");
  if (writes)
    out += std::string(reads ? " and" : "") + " from " + std::to_string(g.baselineWrites) + " to " +
           std::to_string(g.nextWrites) + " writes";
  return out;
}

}  // namespace

std::string gateVerdictLine(const GateOutcome& g) {
  std::ostringstream out;
  std::string files = " in the " + std::to_string(g.filesSeen) + " file(s) scanned";
  std::string writes =
      g.writes && g.writesChecked ? " and " + std::to_string(g.writes) + " writes" : std::string();
  switch (g.verdict) {
    case GateVerdict::Created:
      out << "gate: created baseline " << g.baselinePath << " with " << g.total << " reads"
          << writes << " in " << g.keys << " keys";
      break;
    case GateVerdict::Failed: {
      out << "gate: FAILED: ";
      if (rose(g, false))
        out << "global reads rose (" << g.baselineTotal << " in the baseline, " << g.nextTotal
            << " now)" << (rose(g, true) ? " and " : "");
      if (rose(g, true))
        out << "global writes rose (" << g.baselineWrites << " in the baseline, " << g.nextWrites
            << " now)";
      out << (g.update ? "; refusing to grow the baseline" : "");
      if (g.slackFailed && !g.result.fell.empty())
        out << (g.result.failed() ? "; and " : "") << "counts fell" << fromTo(g)
            << " but the baseline was not tightened (--strict): run `gridlock gate --update` and "
               "commit the baseline";
      if (g.slackFailed && g.unusedAllows)
        out << (g.result.failed() || !g.result.fell.empty() ? "; and " : "") << g.unusedAllows
            << " allow(s) cover no read (--strict): remove them";
      break;
    }
    case GateVerdict::Shrunk:
      if (g.writesRecorded)
        out << "gate: baseline shrunk from " << g.baselineTotal << " to " << g.nextTotal
            << " reads; " << g.nextWrites << " write(s) recorded";
      else
        out << "gate: baseline shrunk" << fromTo(g)
            << (g.baselineWrites == g.nextWrites ? " reads" : "");
      break;
    case GateVerdict::Recorded:
      out << "gate: recorded " << g.nextWrites << " write(s) in baseline " << g.baselinePath
          << ", which counted reads only";
      break;
    case GateVerdict::Passed:
      if (!g.result.fell.empty())
        out << "gate: passed: counts fell" << fromTo(g)
            << "; run with --update to shrink the baseline";
      else
        out << "gate: passed: " << g.total << " global reads" << writes
            << (g.subset || !g.result.kept.empty() ? files : std::string())
            << ", as in the baseline";
      break;
  }
  return out.str() + "\n";
}

namespace {

// The comment that allows a read, in the syntax of the files whose reads failed the gate.
std::string allowComment(const GateOutcome& g) {
  bool python = false, other = false;
  for (const auto* changes : {&g.result.added, &g.result.rose})
    for (const auto& c : *changes) (support::isPythonSource(c.key.file) ? python : other) = true;
  if (python && !other) return "`# gridlock: allow(reason)`";
  if (python) return "`// gridlock: allow(reason)` (`# gridlock: allow(reason)` in Python)";
  return "`// gridlock: allow(reason)`";
}

}  // namespace

std::string gateText(const index::Inventory& inv, const GateOutcome& g, const TextStyle& style) {
  std::ostringstream out;
  if (!style.quiet) {
    for (const auto& r : inv.reads)
      if (r.suppressed)
        out << "allowed: " << index::textPath(r.file) << ":" << r.line << ": " << r.name << " ("
            << *r.suppressed << ")\n";
    for (const auto& b : inv.badSuppressions) out << badSuppressionText(b, style.color);
    if (!g.slackFailed)
      for (const auto& a : inv.unusedAllows) out << unusedAllowText(a, style.color);
    if (!g.changedSince.empty())
      out << "gate: " << g.changedFiles << " file(s) changed since " << g.changedSince << "; "
          << g.filesScanned << " translation unit(s) to check\n";
  }
  // Under --strict they fail the gate: errors, shown with -q too.
  if (g.slackFailed)
    for (const auto& a : inv.unusedAllows) out << unusedAllowText(a, style.color, true);
  keyErrors(out, inv, g.result, style);
  for (const auto& c : g.result.added)
    out << "new:  " << c.key.str() << ": " << c.after << (c.key.write ? " write" : " read")
        << "(s) not in the baseline\n";
  for (const auto& c : g.result.rose)
    out << "rose: " << c.key.str() << ": " << c.before << " -> " << c.after << "\n";
  if (!style.quiet || g.slackFailed)
    for (const auto& c : g.result.fell)
      out << "fell: " << c.key.str() << ": " << c.before << " -> " << c.after << "\n";
  if (!style.quiet) {
    for (size_t i = 0; i < g.result.kept.size(); ++i)
      if (!g.keptWhy[i].empty())
        out << "kept: " << g.result.kept[i].key.str() << ": " << g.result.kept[i].before << " ("
            << g.keptWhy[i] << ")\n";
    if (g.outside)
      out << "gate: " << g.outside << " key(s) of files this run did not scan left as they are\n";
  }
  if (!g.writesChecked && !g.writesRecorded)
    out << "gate: note: the baseline " << g.baselinePath
        << " records no writes (it was made before writes were gated): " << g.writes
        << " write(s) not checked; a full `gridlock gate --update` records them\n";
  out << gateVerdictLine(g);
  if (g.verdict == GateVerdict::Failed && !style.quiet && g.result.failed())
    out << "gate: remove each " << (rose(g, true) ? "read or write" : "read")
        << " above (its fix says how), or allow a deliberate one with " << allowComment(g)
        << " (docs/suppressions.md)\n";
  return out.str();
}

std::string gateJson(const index::Inventory& inv, const GateOutcome& g) {
  ojson gate = {{"verdict", verdictName(g.verdict)},
                {"exit", exitStatus(g)},
                {"baseline", index::jsonPath(g.baselinePath)},
                {"baseline_total", g.baselineTotal},
                {"total", g.total},
                {"next_total", g.nextTotal},
                {"baseline_writes", g.baselineWrites},
                {"writes", g.writes},
                {"next_writes", g.nextWrites},
                {"writes_checked", g.writesChecked},
                {"files_scanned", g.filesScanned},
                {"subset", g.subset},
                {"changed_since", g.changedSince.empty() ? ojson(nullptr) : ojson(g.changedSince)},
                {"new", g.result.added.size()},
                {"rose", g.result.rose.size()},
                {"fell", g.result.fell.size()},
                {"kept", g.result.kept.size()},
                {"outside", g.outside},
                {"strict", g.strict}};
  ojson changes = ojson::array();
  for (const auto& c : g.result.added) changes.push_back(changeJson(inv, c, "new"));
  for (const auto& c : g.result.rose) changes.push_back(changeJson(inv, c, "rose"));
  for (const auto& c : g.result.fell) changes.push_back(changeJson(inv, c, "fell"));
  for (size_t i = 0; i < g.result.kept.size(); ++i) {
    ojson k = changeJson(inv, g.result.kept[i], "kept");
    k["why"] = g.keptWhy[i].empty() ? "not scanned by this run" : g.keptWhy[i];
    changes.push_back(k);
  }
  ojson allowed = ojson::array();
  for (const auto& r : inv.reads)
    if (r.suppressed)
      allowed.push_back({{"file", index::jsonPath(r.file)},
                         {"line", r.line},
                         {"column", r.column},
                         {"name", r.name},
                         {"reason", *r.suppressed}});
  ojson doc = {{"version", kGateJsonVersion},
               {"gate", gate},
               {"changes", changes},
               {"allowed", allowed},
               {"unused_suppressions", unusedAllowsJson(inv)}};
  return doc.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

std::string gateGithub(const index::Inventory& inv, const GateOutcome& g) {
  std::ostringstream out;
  for (const auto& b : inv.badSuppressions) out << githubCommand(badSuppressionAnnotation(b));
  for (const auto& a : inv.unusedAllows)
    out << githubCommand(unusedAllowAnnotation(a, g.slackFailed));
  for (const auto& [i, why] : gateErrors(inv, g.result))
    out << githubCommand(
        readAnnotation(inv.reads[i], "error", "gridlock-gate", why + message(inv.reads[i])));
  for (const auto& c : g.result.fell)
    out << githubCommand(
        {g.slackFailed ? "error" : "notice", c.key.file, 0, 0, 0, 0, "gridlock-gate-fell",
         std::string(c.key.write ? "global writes" : "global reads") + " fell: " + c.key.str() +
             ": " + std::to_string(c.before) + " -> " + std::to_string(c.after) +
             "; `gridlock gate --update` shrinks the baseline"});
  return out.str();
}

std::string gateSarif(const index::Inventory& inv, const GateOutcome& g, const std::string& rootUri,
                      const std::map<size_t, SarifFix>& fixes, const std::string& docsUrl,
                      bool omitEdges) {
  SarifExtras b;
  b.fixes = fixes;
  b.docsUrl = docsUrl;
  b.omitEdges = omitEdges;
  if (g.verdict == GateVerdict::Created) return sarif(inv, rootUri, nullptr, &b);
  b.states.assign(inv.reads.size(), "unchanged");
  for (const auto* changes : {&g.result.added, &g.result.rose})
    for (const auto& c : *changes)
      for (size_t i : readsOfKey(inv, c.key)) b.states[i] = "new";
  b.absent = g.result.fell;
  b.absentFails = g.slackFailed;
  b.unusedAllowsFail = g.slackFailed;
  return sarif(inv, rootUri, nullptr, &b);
}

}  // namespace gridlock::report
