#include "report/reports.h"

#include <nlohmann/json.hpp>

namespace gridlock::report {

namespace {
using ojson = nlohmann::ordered_json;

ojson readJson(const facts::Read& r) {
  ojson j;
  j["file"] = r.file;
  j["line"] = r.line;
  j["column"] = r.column;
  j["name"] = r.name;
  j["kind"] = r.kind;
  j["group"] = r.group;
  j["yields"] = r.yields;
  j["enclosing"] = r.enclosing;
  j["enclosing_class"] = r.enclosingClass;
  j["guard"] = r.guard;
  j["macro"] = r.macro ? ojson(*r.macro) : ojson(nullptr);
  j["fix"] = r.fix;
  if (!r.fixSource.empty()) j["fix_source"] = r.fixSource;
  if (!r.fixDetail.empty()) j["fix_detail"] = r.fixDetail;
  j["edge"] = r.edge;
  j["suppressed"] = r.suppressed ? ojson(*r.suppressed) : ojson(nullptr);
  if (r.macro) j["spelling"] = r.spelling;
  if (r.length) {
    j["offset"] = r.offset;
    j["length"] = r.length;
  }
  if (!r.holder.empty()) j["holder"] = r.holder;
  if (r.fallbackDead) {
    j["fallback_dead"] = *r.fallbackDead;
    j["breaking_sites"] = r.breakingSites;
  }
  if (!r.launders.empty()) j["launders"] = r.launders;
  return j;
}
}  // namespace

std::string json(const index::Inventory& inv, const analysis::Summary& s) {
  ojson doc;
  ojson sum;
  sum["total"] = s.total;
  sum["by_kind"] = s.byKind;
  sum["files_scanned"] = s.filesScanned;
  sum["parse_errors"] = s.parseErrors;
  sum["writes"] = s.writes;
  sum["edges"] = s.edges;
  sum["suppressed"] = s.suppressed;
  sum["fallbacks"] = s.fallbacks;
  sum["bad_suppressions"] = s.badSuppressions;
  sum["by_group"] = s.byGroup;
  sum["by_fix"] = s.byFix;
  sum["by_file"] = s.byFile;
  doc["summary"] = sum;
  ojson reads = ojson::array();
  for (const auto& r : inv.reads) reads.push_back(readJson(r));
  doc["reads"] = reads;
  ojson errors = ojson::array();
  for (const auto& e : inv.parseErrors) errors.push_back({{"file", e.file}, {"messages", e.messages}});
  doc["parse_errors"] = errors;
  ojson bad = ojson::array();
  for (const auto& b : inv.badSuppressions)
    bad.push_back({{"file", b.file}, {"line", b.line}, {"text", b.text}});
  doc["bad_suppressions"] = bad;
  doc["notes"] = inv.notes;
  return doc.dump(2) + "\n";
}

}  // namespace gridlock::report
