// Reports of a crafted inventory: exact text, JSON contract fields, SARIF shape.
#include "analysis/summary.h"
#include "report/gate_report.h"
#include "report/reports.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::report {
namespace {

index::Inventory inventory() {
  index::Inventory inv;
  inv.filesScanned = 2;
  facts::Read a;
  a.file = "core/a.cpp";
  a.line = 12;
  a.column = 9;
  a.name = "ps::get_tp_group";
  a.kind = facts::ReadKind::Accessor;
  a.group = "tp";
  a.yields = facts::Yields::Group;
  a.enclosing = "m::A::forward";
  a.enclosingClass = "m::A";
  a.hint.fix = facts::Hint::Substitute;
  a.hint.source = "this->pgc_->tp";
  facts::Read b = a;
  b.line = 20;
  b.guard = facts::Guard::Fallback;
  b.hint.fix = facts::Hint::Require;
  b.hint.source.clear();
  b.macro = "TP";
  b.spelling = "core/m.h:3:5";
  facts::Read w;
  w.file = "core/s.cpp";
  w.line = 4;
  w.column = 3;
  w.name = "ps::num_kv_heads";
  w.kind = facts::ReadKind::GlobalWrite;
  w.yields = facts::Yields::State;
  w.enclosing = "m::configure";
  facts::Read s = a;
  s.line = 30;
  s.suppressed = "logging";
  s.hint.fix = facts::Hint::None;
  inv.reads = {a, b, s, w};
  inv.parseErrors.push_back({"core/bad.cpp", {"core/bad.cpp:1:1: error: x"}});
  return inv;
}

TEST(Report, DiagnosticsText) {
  EXPECT_EQ(diagnosticsText(inventory()),
            "core/a.cpp:12:9: warning: global tp group from ps::get_tp_group in m::A::forward; "
            "fix: use this->pgc_->tp [gridlock-global-read]\n"
            "core/a.cpp:20:9: warning: global tp group from ps::get_tp_group in m::A::forward "
            "(fallback: runs only when no explicit group is passed); fix: require the explicit "
            "argument [gridlock-global-read]\n"
            "core/a.cpp:20:9: note: expanded from macro 'TP' (spelled at core/m.h:3:5)\n"
            "core/s.cpp:4:3: warning: write to global state ps::num_kv_heads in m::configure "
            "[gridlock-global-write]\n"
            "core/bad.cpp: error: failed to parse; its reads may be incomplete "
            "[gridlock-parse-error]\n"
            "  core/bad.cpp:1:1: error: x\n");
}

TEST(Report, JsonSummaryAndReads) {
  index::Inventory inv = inventory();
  std::string text = json(inv, analysis::summarize(inv));
  // First, so a reader sees it before the rest.
  EXPECT_EQ(nlohmann::ordered_json::parse(text).begin().key(), "version");
  auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["summary"]["total"], 2);
  EXPECT_EQ(j["summary"]["by_kind"],
            nlohmann::json({{"accessor", 2}, {"global_state", 0}, {"laundered", 0}, {"shim", 0}}));
  EXPECT_EQ(j["summary"]["files_scanned"], 2);
  EXPECT_EQ(j["summary"]["parse_errors"], 1);
  EXPECT_EQ(j["summary"]["writes"], 1);
  EXPECT_EQ(j["summary"]["suppressed"], 1);
  EXPECT_EQ(j["summary"]["fallbacks"], 1);
  ASSERT_EQ(j["reads"].size(), 4u);
  EXPECT_EQ(j["reads"][1]["macro"], "TP");
  EXPECT_EQ(j["reads"][1]["guard"], "fallback");
  EXPECT_EQ(j["reads"][0]["fix_source"], "this->pgc_->tp");
  EXPECT_EQ(j["reads"][2]["suppressed"], "logging");
  EXPECT_EQ(j["parse_errors"][0]["file"], "core/bad.cpp");
}

// Each read says which frontend found it: `cpp` or `python`, after the fields every read has
// and before those that apply to some. The whole read, field order included.
TEST(Report, JsonReadsSayTheirLanguage) {
  index::Inventory inv;
  facts::Read c;
  c.file = "core/a.cpp";
  c.line = 3;
  c.column = 7;
  c.name = "ps::get_tp_group";
  c.group = "tp";
  c.enclosing = "m::f";
  c.hint.fix = facts::Hint::Thread;
  facts::Read p = c;
  p.file = "megatron/core/m.py";
  p.line = 5;
  p.column = 12;
  p.name = "megatron.core.parallel_state.get_tp_group";
  p.enclosing = "megatron.core.m.f";
  p.language = facts::Language::Python;
  p.offset = 40;
  p.length = 28;
  p.endLine = 5;
  p.endColumn = 40;
  inv.reads = {c, p};
  auto j = nlohmann::ordered_json::parse(json(inv, analysis::summarize(inv)));
  ASSERT_EQ(j["reads"].size(), 2u);
  EXPECT_EQ(j["reads"][0].dump(),
            R"({"file":"core/a.cpp","line":3,"column":7,"name":"ps::get_tp_group",)"
            R"("kind":"accessor","group":"tp","yields":"group","enclosing":"m::f",)"
            R"("enclosing_class":"","guard":"none","macro":null,"fix":"thread","edge":false,)"
            R"("mutates":false,"suppressed":null,"language":"cpp"})");
  EXPECT_EQ(j["reads"][1].dump(),
            R"({"file":"megatron/core/m.py","line":5,"column":12,)"
            R"("name":"megatron.core.parallel_state.get_tp_group","kind":"accessor",)"
            R"("group":"tp","yields":"group","enclosing":"megatron.core.m.f",)"
            R"("enclosing_class":"","guard":"none","macro":null,"fix":"thread","edge":false,)"
            R"("mutates":false,"suppressed":null,"language":"python","offset":40,"length":28,)"
            R"("end_line":5,"end_column":40})");
}

TEST(Report, SarifResultsSuppressionsAndNotifications) {
  auto j = nlohmann::json::parse(sarif(inventory(), "file:///src/"));
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///src/");
  ASSERT_EQ(run["results"].size(), 4u);
  EXPECT_EQ(run["results"][0]["ruleId"], "gridlock-global-read");
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"], 9);
  EXPECT_EQ(run["results"][2]["suppressions"][0]["justification"], "logging");
  EXPECT_EQ(run["results"][3]["ruleId"], "gridlock-global-write");
  EXPECT_EQ(run["results"][3]["level"], "note");
  // Same key, next occurrence: a different, stable fingerprint.
  EXPECT_NE(run["results"][0]["partialFingerprints"]["gridlockKey/v1"],
            run["results"][1]["partialFingerprints"]["gridlockKey/v1"]);
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], false);
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"].size(), 1u);
}

// Every file name in JSON and SARIF is written reversibly; free text that is not UTF-8
// (a compiler message quoting such a name) is written with U+FFFD instead of failing.
TEST(Report, FileNamesThatAreNotUtf8) {
  index::Inventory inv = inventory();
  for (auto& r : inv.reads) r.file = "caf\xE9.cpp";
  inv.reads[1].spelling = "m\xE9.h:3:5";
  inv.reads[0].analysis.fallbackDead = false;
  inv.reads[0].analysis.breakingSites = {"caf\xE9.cpp:40:3"};
  inv.parseErrors[0] = {
      "b\xE9"
      "d.cpp",
      {"b\xE9"
       "d.cpp:1:1: error: x"},
      {"b\xE9"
       "d.cpp"}};
  inv.badSuppressions.push_back({"s\xE9.cpp", 3, 1, "// gridlock: allow \xE9"});
  inv.notes["n\xE9.cu"] = {"nvcc command translated"};
  auto j = nlohmann::json::parse(json(inv, analysis::summarize(inv)));
  EXPECT_EQ(j["reads"][0]["file"], "caf%E9.cpp");
  EXPECT_EQ(j["reads"][0]["breaking_sites"][0], "caf%E9.cpp:40:3");
  EXPECT_EQ(j["reads"][1]["spelling"], "m%E9.h:3:5");
  EXPECT_EQ(j["summary"]["by_file"]["caf%E9.cpp"], 2);
  EXPECT_EQ(j["parse_errors"][0]["file"], "b%E9d.cpp");
  EXPECT_EQ(j["parse_errors"][0]["messages"][0], "b\uFFFDd.cpp:1:1: error: x");
  EXPECT_EQ(j["bad_suppressions"][0]["file"], "s%E9.cpp");
  EXPECT_TRUE(j["notes"].contains("n%E9.cu"));

  auto s = nlohmann::json::parse(sarif(inv, "file:///src/"));
  const auto& run = s["runs"][0];
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "caf%E9.cpp");
  const auto& note = run["invocations"][0]["toolExecutionNotifications"][0];
  EXPECT_EQ(note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "b%E9d.cpp");
  EXPECT_EQ(note["message"]["text"], "failed to parse b%E9d.cpp: b\uFFFDd.cpp:1:1: error: x");
}

// A file name holding a newline or an escape would break a text line in two, or forge one (a
// fake `gate: PASSED`): text, the gate's text and callers' text write it as JSON writes it.
TEST(Report, ControlCharactersInFileNamesAreEscapedAsInJson) {
  index::Inventory inv = inventory();
  const std::string name = "core/a\ngate: PASSED\x1b[0m.cpp";
  const std::string shown = "\"core/a\\ngate: PASSED\\u001b[0m.cpp\"";
  inv.reads = {inv.reads[0], inv.reads[2]};  // a read and an allowed one
  for (auto& r : inv.reads) r.file = name;
  inv.parseErrors[0] = {"b\tad.cpp", {"b\tad.cpp:1:1: error: x"}, {"b\tad.cpp"}};
  inv.badSuppressions.push_back({"s\r.cpp", 3, 1, "// gridlock: allow"});
  EXPECT_EQ(diagnosticsText(inv),
            shown +
                ":12:9: warning: global tp group from ps::get_tp_group in m::A::forward; fix: "
                "use this->pgc_->tp [gridlock-global-read]\n"
                "\"s\\r.cpp\":3:1: warning: suppression without a reason is ignored: write // "
                "gridlock: allow(why this read is deliberate) [gridlock-suppression]\n"
                "\"b\\tad.cpp\": error: failed to parse; its reads may be incomplete "
                "[gridlock-parse-error]\n"
                "  \"b\\tad.cpp\":1:1: error: x\n");
  std::string table = summaryTable(analysis::summarize(inv));
  EXPECT_NE(table.find("\n  " + shown + "  1\n"), std::string::npos) << table;
  // JSON as ever: the name itself, which the JSON string escapes.
  auto j = nlohmann::json::parse(json(inv, analysis::summarize(inv)));
  EXPECT_EQ(j["reads"][0]["file"], name);

  GateOutcome g;
  g.verdict = GateVerdict::Failed;
  g.result.added.push_back({{name, "m::A::forward", "ps::get_tp_group"}, 0, 1});
  std::string text = gateText(inv, g, {});
  EXPECT_NE(text.find("allowed: " + shown + ":30: ps::get_tp_group (logging)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n" + shown + ":12:9: error: new global read: "), std::string::npos) << text;
  EXPECT_NE(text.find("\nnew:  " + shown +
                      " | m::A::forward | ps::get_tp_group: 1 read(s) not "
                      "in the baseline\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;

  analysis::CallersResult r;
  r.target = "m::f";
  r.param = "pg";
  for (auto supplied : {facts::Supplied::Explicit, facts::Supplied::Default, facts::Supplied::Null,
                        facts::Supplied::Forwarded})
    r.bySupplied[supplied] = 0;
  analysis::CallerSite site;
  site.file = name;
  site.line = 3;
  site.column = 4;
  r.sites.push_back(site);
  std::string callers = callersText(r);
  EXPECT_NE(callers.find("\n  " + shown + ":3:4  "), std::string::npos) << callers;
}

TEST(Report, CallersJsonFileNamesThatAreNotUtf8) {
  analysis::CallersResult r;
  r.target = "m::f";
  r.param = "pg";
  analysis::CallerSite site;
  site.file = "caf\xE9.cpp";
  site.line = 3;
  r.sites.push_back(site);
  auto j = nlohmann::json::parse(callersJson(r));
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["sites"][0]["file"], "caf%E9.cpp");
}

TEST(Report, CallersSaysHowAPythonSiteWritesTheArgument) {
  analysis::CallersResult r;
  r.target = "pkg.m.Linear";
  r.param = "tp_group";
  r.paramIndex = 2;
  for (auto s : {facts::Supplied::Explicit, facts::Supplied::Default, facts::Supplied::Null,
                 facts::Supplied::Forwarded})
    r.bySupplied[s] = 0;
  analysis::CallerSite site;
  site.file = "pkg/a.py";
  site.line = 7;
  site.column = 5;
  site.via = facts::Via::Partial;
  site.passed = facts::Passed::StarKwargs;
  site.function = "pkg.m.Linear.__init__";
  r.sites.push_back(site);
  analysis::CallerSite cpp = site;  // a C++ site: how it is written is not said
  cpp.file = "a.cpp";
  cpp.via = facts::Via::Direct;
  cpp.passed = facts::Passed::Unknown;
  r.sites.push_back(cpp);
  r.bySupplied[facts::Supplied::Explicit] = 2;
  r.byPassed[facts::Passed::StarKwargs] = 1;
  auto j = nlohmann::json::parse(callersJson(r));
  EXPECT_EQ(j["sites"][0]["via"], "partial");
  EXPECT_EQ(j["sites"][0]["passed"], "**kwargs");
  EXPECT_FALSE(j["sites"][1].contains("passed"));
  EXPECT_EQ(j["summary"]["passed"], nlohmann::json({{"**kwargs", 1}}));
  EXPECT_EQ(callersText(r),
            "pkg.m.Linear, parameter tp_group (#2)\n"
            "  pkg/a.py:7:5  explicit  via partial  passed **kwargs  calls pkg.m.Linear.__init__\n"
            "  a.cpp:7:5  explicit  via direct  calls pkg.m.Linear.__init__\n"
            "2 sites: 2 explicit, 0 default, 0 null, 0 forwarded; passed 1 **kwargs\n");
}

// A table with no rows, or rows narrower than `total`, is as wide as `total` is: its count
// stands apart in the column of counts (never `total0`).
TEST(Report, SummaryTableOfNoReads) {
  EXPECT_EQ(summaryTable(analysis::summarize(index::Inventory{})),
            "gridlock: 0 global reads in 0 files (0 translation units scanned, 0 parse errors)\n"
            "  fallback-only: 0, edge reads: 0, suppressed: 0, writes to global state: 0\n\n"
            "  kind          reads\n"
            "  accessor      0\n"
            "  global_state  0\n"
            "  laundered     0\n"
            "  shim          0\n"
            "  -------------------\n"
            "  total         0\n\n"
            "  group  reads\n"
            "  ------------\n"
            "  total  0\n\n"
            "  fix    reads\n"
            "  ------------\n"
            "  total  0\n\n"
            "  file   reads\n"
            "  ------------\n"
            "  total  0\n\n");
}

TEST(Report, SummaryTable) {
  index::Inventory inv = inventory();
  std::string t = summaryTable(analysis::summarize(inv));
  EXPECT_EQ(t.substr(0, t.find("\n\n") + 2),
            "gridlock: 2 global reads in 1 files (2 translation units scanned, 1 parse errors)\n"
            "  fallback-only: 1, edge reads: 0, suppressed: 1, writes to global state: 1\n\n");
  EXPECT_NE(t.find("  core/a.cpp  2\n"), std::string::npos) << t;
}

// --format github: GitHub's workflow commands, one per finding, with GitHub's escaping (`%`, CR
// and LF in the message; `:` and `,` too in a property), as ruff's --output-format github.
TEST(Report, GithubCommandEscapesAsGithubDoes) {
  EXPECT_EQ(githubCommand({"error", "a:b,c%.py", 1, 2, 0, 0, "t:1,2", "50% done\r\nnext: a, b"}),
            "::error file=a%3Ab%2Cc%25.py,line=1,col=2,title=t%3A1%2C2::50%25 done%0D%0Anext: a, "
            "b\n");
  EXPECT_EQ(githubCommand({"notice", "", 0, 0, 0, 0, "", "m"}), "::notice::m\n");
}

// The scan's annotations: a warning at each counted read (its range when known, its macro on a
// second line) and write, none for an allowed read, a notice at an edge file's read (none with
// omitEdges), a warning at an ignored allow, an error at a file that did not parse.
TEST(Report, GithubAnnotationsOfAScan) {
  index::Inventory inv = inventory();
  inv.reads[0].endLine = 12;
  inv.reads[0].endColumn = 25;
  facts::Read e = inv.reads[0];
  e.file = "train/main.cpp";
  e.line = 7;
  e.column = 5;
  e.endLine = e.endColumn = 0;
  e.enclosing = "main";
  e.edge = true;
  inv.reads.push_back(e);
  inv.badSuppressions.push_back({"core/a,b.cpp", 3, 5, "// gridlock: allow()", ""});
  const std::string before =
      "::warning file=core/a.cpp,line=12,col=9,endLine=12,endColumn=25,title=gridlock-global-"
      "read::global tp group from ps::get_tp_group in m::A::forward; fix: use this->pgc_->tp\n"
      "::warning file=core/a.cpp,line=20,col=9,title=gridlock-global-read::global tp group from "
      "ps::get_tp_group in m::A::forward (fallback: runs only when no explicit group is "
      "passed); fix: require the explicit argument%0Aexpanded from macro 'TP' (spelled at "
      "core/m.h:3:5)\n"
      "::warning file=core/s.cpp,line=4,col=3,title=gridlock-global-write::write to global state "
      "ps::num_kv_heads in m::configure\n";
  const std::string edge =
      "::notice file=train/main.cpp,line=7,col=5,title=gridlock-edge-read::global tp group from "
      "ps::get_tp_group in main; edge file, not counted\n";
  const std::string after =
      "::warning file=core/a%2Cb.cpp,line=3,col=5,title=gridlock-suppression::suppression "
      "without a reason is ignored: write // gridlock: allow(why this read is deliberate)\n"
      "::error file=core/bad.cpp,title=gridlock-parse-error::failed to parse; its reads may be "
      "incomplete%0Acore/bad.cpp:1:1: error: x\n";
  EXPECT_EQ(githubAnnotations(inv), before + edge + after);
  EXPECT_EQ(githubAnnotations(inv, nullptr, /*omitEdges=*/true), before + after);
}

// --omit-edges: the text has no remark for an edge file's read, and SARIF no note, its run
// saying how many it left out; without it, both are there.
TEST(Report, OmitEdgesLeavesEdgeFindingsOutOfTextAndSarif) {
  index::Inventory inv = inventory();
  facts::Read e = inv.reads[0];
  e.file = "train/main.cpp";
  e.line = 7;
  e.column = 5;
  e.enclosing = "main";
  e.edge = true;
  inv.reads.push_back(e);
  const std::string remark =
      "train/main.cpp:7:5: remark: global tp group from ps::get_tp_group in main; edge file, not "
      "counted [gridlock-edge-read]\n";
  std::string all = diagnosticsText(inv), omitted = diagnosticsText(inv, nullptr, false, true);
  EXPECT_NE(all.find(remark), std::string::npos) << all;
  EXPECT_EQ(omitted.find("train/main.cpp"), std::string::npos) << omitted;
  EXPECT_EQ(all.size() - omitted.size(), remark.size());

  SarifExtras extras;
  auto full = nlohmann::json::parse(sarif(inv, "file:///src/", nullptr, &extras));
  EXPECT_EQ(full["runs"][0]["results"].size(), 5u);
  EXPECT_FALSE(full["runs"][0].contains("properties"));
  extras.omitEdges = true;
  auto cut = nlohmann::json::parse(sarif(inv, "file:///src/", nullptr, &extras));
  ASSERT_EQ(cut["runs"][0]["results"].size(), 4u);
  for (const auto& r : cut["runs"][0]["results"]) EXPECT_NE(r["ruleId"], "gridlock-edge-read");
  EXPECT_EQ(cut["runs"][0]["properties"], nlohmann::json({{"omittedEdgeResults", 1}}));
}

// The gate's annotations: an error at each read of a risen key, with the text's words, and a
// notice at the file of a key that fell.
TEST(Report, GithubAnnotationsOfAGate) {
  index::Inventory inv = inventory();
  inv.badSuppressions.push_back({"core/a.cpp", 3, 5, "// gridlock: allow-nextline(x)",
                                 "unknown suppression 'allow-nextline': write allow"});
  GateOutcome g;
  g.verdict = GateVerdict::Failed;
  g.result.rose = {{{"core/a.cpp", "m::A::forward", "ps::get_tp_group", false}, 1, 2}};
  g.result.fell = {{{"core/old.cpp", "m::old", "ps::get_dp_group", false}, 3, 1}};
  EXPECT_EQ(gateGithub(inv, g),
            "::warning file=core/a.cpp,line=3,col=5,title=gridlock-suppression::unknown "
            "suppression 'allow-nextline': write allow\n"
            "::error file=core/a.cpp,line=12,col=9,title=gridlock-gate::global reads rose from 1 "
            "to 2 here: global tp group from ps::get_tp_group in m::A::forward; fix: use "
            "this->pgc_->tp\n"
            "::error file=core/a.cpp,line=20,col=9,title=gridlock-gate::global reads rose from 1 "
            "to 2 here: global tp group from ps::get_tp_group in m::A::forward (fallback: runs "
            "only when no explicit group is passed); fix: require the explicit argument%0A"
            "expanded from macro 'TP' (spelled at core/m.h:3:5)\n"
            "::notice file=core/old.cpp,title=gridlock-gate-fell::global reads fell: core/old.cpp "
            "| m::old | ps::get_dp_group: 3 -> 1; `gridlock gate --update` shrinks the baseline\n");
}

}  // namespace
}  // namespace gridlock::report
