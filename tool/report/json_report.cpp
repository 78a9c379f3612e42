#include "report/reports.h"

#include "index/path_text.h"

#include <nlohmann/json.hpp>

namespace gridlock::report {
namespace {

using ojson = nlohmann::ordered_json;
using facts::str;

ojson readJson(const facts::Read& r, const facts::Verdict* v) {
  ojson j;
  j["file"] = index::jsonPath(r.file);
  j["line"] = r.line;
  j["column"] = r.column;
  j["name"] = r.name;
  j["kind"] = str(r.kind);
  j["group"] = r.group;
  j["yields"] = str(r.yields);
  j["enclosing"] = r.enclosing;
  j["enclosing_class"] = r.enclosingClass;
  j["guard"] = str(r.guard);
  j["macro"] = r.macro ? ojson(*r.macro) : ojson(nullptr);
  j["fix"] = std::string(v ? spell(*v) : spell(r.hint.fix));
  if (!r.hint.source.empty()) j["fix_source"] = r.hint.source;
  if (v && !v->detail.empty()) j["fix_detail"] = v->detail;
  j["edge"] = r.edge;
  // Reads too may change what they read (`f(&cfg)`); a write always does.
  j["mutates"] = r.mutated || r.kind == facts::ReadKind::GlobalWrite;
  j["suppressed"] = r.suppressed ? ojson(*r.suppressed) : ojson(nullptr);
  j["language"] = str(r.language);
  if (r.macro) j["spelling"] = index::jsonPath(r.spelling);
  if (r.length) {
    j["offset"] = r.offset;
    j["length"] = r.length;
  }
  if (r.endLine) {
    j["end_line"] = r.endLine;
    j["end_column"] = r.endColumn;
  }
  if (!r.holder.empty()) j["holder"] = r.holder;
  if (r.analysis.fallbackDead) {
    j["fallback_dead"] = *r.analysis.fallbackDead;
    ojson sites = ojson::array();
    for (const auto& site : r.analysis.breakingSites) sites.push_back(index::jsonPath(site));
    j["breaking_sites"] = sites;
  }
  if (!r.analysis.launders.empty()) j["launders"] = r.analysis.launders;
  return j;
}

// Enum-keyed counts under their spellings, in the spellings' alphabetical order.
template <typename E>
std::map<std::string, size_t> spelled(const std::map<E, size_t>& counts) {
  std::map<std::string, size_t> out;
  for (const auto& [k, n] : counts) out[str(k)] = n;
  return out;
}

}  // namespace

ojson unusedAllowsJson(const index::Inventory& inv) {
  ojson out = ojson::array();
  for (const auto& a : inv.unusedAllows)
    out.push_back({{"file", index::jsonPath(a.file)},
                   {"line", a.line},
                   {"column", a.column},
                   {"text", a.text}});
  return out;
}

std::string json(const index::Inventory& inv, const analysis::Summary& s,
                 const Verdicts* verdicts) {
  ojson doc;
  doc["version"] = kScanJsonVersion;
  ojson sum;
  sum["total"] = s.total;
  sum["by_kind"] = spelled(s.byKind);
  sum["files_scanned"] = s.filesScanned;
  sum["parse_errors"] = s.parseErrors;
  sum["writes"] = s.writes;
  sum["edges"] = s.edges;
  sum["suppressed"] = s.suppressed;
  sum["fallbacks"] = s.fallbacks;
  sum["bad_suppressions"] = s.badSuppressions;
  sum["unused_suppressions"] = s.unusedSuppressions;
  sum["by_group"] = s.byGroup;
  sum["by_fix"] = s.byFix;
  ojson byFile = ojson::object();
  for (const auto& [file, n] : s.byFile) byFile[index::jsonPath(file)] = n;
  sum["by_file"] = byFile;
  sum["cache"] = {{"hits", s.cache.hits}, {"misses", s.cache.misses}};
  doc["summary"] = sum;
  ojson reads = ojson::array();
  for (size_t i = 0; i < inv.reads.size(); ++i)
    reads.push_back(readJson(inv.reads[i], verdicts ? &(*verdicts)[i] : nullptr));
  doc["reads"] = reads;
  ojson errors = ojson::array();
  for (const auto& e : inv.parseErrors)
    errors.push_back({{"file", index::jsonPath(e.file)}, {"messages", e.messages}});
  doc["parse_errors"] = errors;
  ojson bad = ojson::array();
  for (const auto& b : inv.badSuppressions)
    bad.push_back({{"file", index::jsonPath(b.file)},
                   {"line", b.line},
                   {"text", b.text},
                   {"problem", b.problem}});
  doc["bad_suppressions"] = bad;
  doc["unused_suppressions"] = unusedAllowsJson(inv);
  ojson notes = ojson::object();
  for (const auto& [file, lines] : inv.notes) notes[index::jsonPath(file)] = lines;
  doc["notes"] = notes;
  // File names are encoded above; free text (a compiler message quoting such a name) that is
  // not UTF-8 is written with U+FFFD rather than failing the whole report.
  return doc.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace gridlock::report
