// Step two's reads (tool/python/frontend.h resolveModules): what a pack's Python rules make of
// resolved references, with the pack's counting, scope, edges and exempt files; exact lists.
#include "python/extract.h"
#include "python/frontend.h"
#include "python/group_holders.h"

#include "rules/rule_pack.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::python {
namespace {

using Lines = std::vector<std::string>;

const char* kModule =
    "_GROUP = None\n"
    "_LIMIT = 3\n"
    "def init(g):\n"
    "    global _GROUP\n"
    "    _GROUP = g\n"
    "def get_tp_group():\n"
    "    return _GROUP\n"
    "def get_tp_group_if_none(g=None):\n"
    "    return g or get_tp_group()\n";

const char* kUser =
    "from pkg import ps\n"
    "from pkg.ps import get_tp_group_if_none\n"
    "alias = ps.get_tp_group\n"
    "def f(g=None):\n"
    "    a = ps.get_tp_group(), ps.get_tp_group()\n"
    "    register(ps.get_tp_group)\n"
    "    b = alias()\n"
    "    c = get_tp_group_if_none()\n"
    "    d = ps._GROUP, ps._LIMIT\n"
    "    ps._GROUP = g\n";

std::string pack(const std::string& python) {
  return R"({"name": "p", )" + python + R"(
    "scope": {"include": ["**"], "exclude": ["pkg/ps.py"], "edges": ["train/**"]},
    "accessors": [{"python_family": {"module": "pkg.ps", "prefix": "get_",
                                     "suffixes": {"_group": "group"}}, "kind": "accessor"}],
    "globals": [{"python_module": "pkg.ps"}]})";
}

// Every read of every module, as "file:line:col kind name [called] [fallback] [edge]".
Lines reads(const std::string& packText,
            const std::vector<std::pair<std::string, std::string>>& files) {
  rules::RuleSet rules({rules::parseRulePack(packText, "p.json")});
  std::vector<ModuleFacts> modules;
  for (const auto& [file, text] : files) modules.push_back(extractModule(file, text));
  Lines out;
  for (const auto& unit : resolveModules(modules, rules, PythonOptions{}))
    for (const auto& r : unit.tu.reads)
      out.push_back(r.file + ":" + std::to_string(r.line) + ":" + std::to_string(r.column) + " " +
                    facts::str(r.kind) + " " + r.name + (r.called ? " called" : "") +
                    (r.guardParam >= 0 ? " guards#" + std::to_string(r.guardParam) : "") +
                    (r.edge ? " edge" : "") + " fix=" + facts::str(r.hint.fix));
  return out;
}

TEST(PythonReads, ReferencesAreReadsAndAliasesReadWhereUsed) {
  EXPECT_EQ(reads(pack(""), {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"user.py", kUser}}),
            (Lines{"user.py:5:12 accessor pkg.ps.get_tp_group called fix=thread",
                   "user.py:5:31 accessor pkg.ps.get_tp_group called fix=thread",
                   "user.py:6:17 accessor pkg.ps.get_tp_group fix=thread",
                   "user.py:7:9 accessor pkg.ps.get_tp_group called fix=thread",
                   "user.py:9:12 global_state pkg.ps._GROUP fix=thread",
                   "user.py:10:8 global_write pkg.ps._GROUP fix="}));
}

TEST(PythonReads, CountingCallsOnceAPerLine) {
  EXPECT_EQ(reads(pack(R"("python": {"count": "calls", "once_per_line": true},)"),
                  {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"user.py", kUser}}),
            (Lines{"user.py:5:12 accessor pkg.ps.get_tp_group called fix=thread",
                   "user.py:7:9 accessor pkg.ps.get_tp_group called fix=thread",
                   "user.py:9:12 global_state pkg.ps._GROUP fix=thread",
                   "user.py:10:8 global_write pkg.ps._GROUP fix="}));
}

TEST(PythonReads, AFallbackInScopeIsListedWithItsParameter) {
  // ps.py in scope: its own reads are listed, the helper's fallback with the parameter it tests.
  std::string all = pack("");
  all.replace(all.find(R"("exclude": ["pkg/ps.py"], )"), 26, "");
  EXPECT_EQ(reads(all, {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}}),
            (Lines{"pkg/ps.py:5:5 global_write pkg.ps._GROUP fix=",
                   "pkg/ps.py:7:12 global_state pkg.ps._GROUP fix=thread",
                   "pkg/ps.py:9:17 accessor pkg.ps.get_tp_group called guards#0 fix=require"}));
}

TEST(PythonReads, ExemptFallbacksLaunderUnlessThePackSaysNot) {
  auto exempt = [](const std::string& packText) {
    rules::RuleSet rules({rules::parseRulePack(packText, "p.json")});
    std::vector<ModuleFacts> modules{extractModule("pkg/__init__.py", ""),
                                     extractModule("pkg/ps.py", kModule)};
    Lines out;
    for (const auto& unit : resolveModules(modules, rules, PythonOptions{}))
      for (const auto& r : unit.tu.exemptReads)
        out.push_back(r.file + ":" + std::to_string(r.line) + " " + r.guardFunction + "#" +
                      std::to_string(r.guardParam));
    return out;
  };
  EXPECT_EQ(exempt(pack("")), (Lines{"pkg/ps.py:9 py:pkg.ps.get_tp_group_if_none#0"}));
  EXPECT_EQ(exempt(pack(R"("python": {"laundering": false},)")), Lines{});
}

// A carriage return alone ends a line, as it does for CPython (old Mac files): a `#` comment
// ends there, and the reads after it are found on their own lines, at their own columns; a
// CRLF file reads as an LF one.
TEST(PythonReads, CarriageReturnsAloneEndLines) {
  std::string user =
      "from pkg import ps\r"
      "def f(g=None):\r"
      "    # a comment, ended by CR\r"
      "    a = ps.get_tp_group()  # gridlock: allow(a test of CR)\r"
      "    b = ps.get_tp_group()\r"
      "    return ps._GROUP\r";
  // Each read at the rule's name: `get_tp_group` at column 12, `_GROUP` at 15.
  const Lines expected{"user.py:4:12 accessor pkg.ps.get_tp_group called fix=none",
                       "user.py:5:12 accessor pkg.ps.get_tp_group called fix=thread",
                       "user.py:6:15 global_state pkg.ps._GROUP fix=thread"};
  EXPECT_EQ(reads(pack(""), {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"user.py", user}}),
            expected);
  std::string crlf = user;
  for (size_t i = crlf.find('\r'); i != std::string::npos; i = crlf.find('\r', i + 2))
    crlf.insert(i + 1, "\n");
  EXPECT_EQ(reads(pack(""), {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"user.py", crlf}}),
            expected);
}

// A line tree-sitter cannot read but CPython parses (a starred product in a return list): a
// read of a rule there would be missed, so it is a parse error at the read; a line that reads
// none stays a note, and the file's other reads are found.
// user.py beside pkg/ps.py (kModule), through both steps as a scan runs them: its unit.
facts::TuFacts unitOfUser(const std::string& user) {
  rules::RuleSet rules({rules::parseRulePack(pack(""), "p.json")});
  PythonOptions o;
  o.overlay = {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"user.py", user}};
  std::vector<ModuleFacts> modules = extractModules({"pkg/__init__.py", "pkg/ps.py", "user.py"}, o);
  std::vector<facts::UnitFacts> units = resolveModules(modules, rules, o);
  if (units.size() != 3) throw std::runtime_error("expected a unit per module");
  return units[2].tu;
}

TEST(PythonReads, AReadOnALineOnlyCPythonReadsIsAnError) {
  const facts::TuFacts user = unitOfUser(
      "from pkg import ps\n"
      "def f(a, b, n):\n"
      "    return a, *(b,) * n, ps.get_tp_group()\n"
      "def g(a, n):\n"
      "    return a, *(None,) * n, len(a)\n"
      "def h():\n"
      "    return ps.get_tp_group()\n");
  ASSERT_TRUE(user.parseError);
  EXPECT_EQ(user.parseError->messages,
            (Lines{"user.py:3:29: error: tree-sitter-python cannot read this, which CPython "
                   "parses, and it reads pkg.ps.get_tp_group: the scan would miss it (write the "
                   "statement in a form the grammar reads, e.g. `*((b,) * n)` for a starred "
                   "product)"}));
  ASSERT_EQ(user.reads.size(), 1u);
  EXPECT_EQ(user.reads[0].line, 7u);
  ASSERT_EQ(user.notes.size(), 2u);  // each line tree-sitter could not read
  EXPECT_TRUE(
      user.notes[1].starts_with("tree-sitter-python could not read this, which CPython "
                                "parses; CPython's parse finds no read of the packs' "
                                "rules there: user.py:5:"))
      << user.notes[1];
}

// The same line through a name a def imports itself, or calling a helper that may launder a
// read (a scanned function with a parameter a call may leave out): CPython's parse finds both,
// and each is a parse error at its name, never a read or a laundered call dropped.
TEST(PythonReads, ALocalImportOrAHelperCallOnALineOnlyCPythonReadsIsAnError) {
  const facts::TuFacts user = unitOfUser(
      "from pkg import ps\n"
      "def f(a, b, n):\n"
      "    from pkg import ps as local\n"
      "    return a, *(b,) * n, local.get_tp_group()\n"
      "def g(a, b, n):\n"
      "    return a, *(b,) * n, ps.get_tp_group_if_none()\n");
  ASSERT_TRUE(user.parseError);
  const std::string how =
      ": the scan would miss it (write the statement in a form the grammar reads, e.g. "
      "`*((b,) * n)` for a starred product)";
  EXPECT_EQ(user.parseError->messages,
            (Lines{"user.py:4:32: error: tree-sitter-python cannot read this, which CPython "
                   "parses, and it reads pkg.ps.get_tp_group" +
                       how,
                   "user.py:6:29: error: tree-sitter-python cannot read this, which CPython "
                   "parses, and it calls pkg.ps.get_tp_group_if_none, which a call may give "
                   "less than every argument, so the call may launder a read" +
                       how}));
}

TEST(PythonReads, EdgesAreListedApart) {
  EXPECT_EQ(
      reads(pack(""), {{"pkg/__init__.py", ""},
                       {"pkg/ps.py", kModule},
                       {"train/main.py", "from pkg.ps import get_tp_group\nget_tp_group()\n"}}),
      (Lines{"train/main.py:2:1 accessor pkg.ps.get_tp_group called edge fix=none"}));
}

// `from pkg.ps import _GROUP` copies the value when the import runs, as `x = ps._GROUP` does:
// the import is the read (line 2, at module level, once; h's at line 6, each time h runs), and
// the imported name's uses read the copy, nothing (lines 4 and 8). Writing into the copy
// (line 5) still changes the object the module's name holds. An accessor imported by name is
// still read where it is called (ReferencesAreReadsAndAliasesReadWhereUsed, kUser's line 2).
TEST(PythonReads, AnImportedStateNameIsReadAtTheImportOnce) {
  const char* user =
      "from pkg import ps\n"
      "from pkg.ps import _GROUP\n"
      "def f():\n"
      "    a = _GROUP\n"
      "    _GROUP.y = 1\n"
      "def h():\n"
      "    from pkg.ps import _GROUP as grp, _LIMIT\n"
      "    return grp, grp\n"
      "def k():\n"
      "    x = ps._GROUP\n"
      "    return x, x\n";
  EXPECT_EQ(reads(pack(""), {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"user.py", user}}),
            (Lines{"user.py:2:20 global_state pkg.ps._GROUP fix=thread",
                   "user.py:5:5 global_write pkg.ps._GROUP fix=",
                   "user.py:7:24 global_state pkg.ps._GROUP fix=thread",
                   "user.py:10:12 global_state pkg.ps._GROUP fix=thread"}));
}

TEST(PythonReads, UnitsCarryParseErrorsAndRulesSeen) {
  rules::RuleSet rules({rules::parseRulePack(pack(""), "p.json")});
  std::vector<ModuleFacts> modules{extractModule("pkg/ps.py", kModule),
                                   extractModule("bad.py", "def f(:\n")};
  auto units = resolveModules(modules, rules, PythonOptions{});
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].tu.mainFile, "pkg/ps.py");
  EXPECT_FALSE(units[0].tu.parseError);
  EXPECT_EQ(units[0].tu.rulesSeen, (Lines{"python_family pkg.ps.get_*", "python_module pkg.ps"}));
  ASSERT_TRUE(units[1].tu.parseError);
  EXPECT_EQ(units[1].tu.parseError->file, "bad.py");
  EXPECT_EQ(units[1].tu.parseError->files, Lines{"bad.py"});
  EXPECT_EQ(units[1].tu.parseError->messages.at(0).rfind("bad.py:1:", 0), 0u);
}

TEST(PythonReads, FunctionsOfPublicModulesArePublicApi) {
  std::string text = pack("");
  text.replace(text.find(R"("accessors")"), 11, R"("public_headers": ["pkg/**"], "accessors")");
  rules::RuleSet rules({rules::parseRulePack(text, "p.json")});
  std::vector<ModuleFacts> modules{extractModule("pkg/ps.py", kModule),
                                   extractModule("user.py", "def f():\n    pass\n")};
  Lines out;
  for (const auto& unit : resolveModules(modules, rules, PythonOptions{}))
    for (const auto& f : unit.tu.functions)
      out.push_back(f.name + (f.isPublicApi ? " public" : ""));
  EXPECT_EQ(out, (Lines{"pkg.ps.init public", "pkg.ps.get_tp_group public",
                        "pkg.ps.get_tp_group_if_none public", "user.f"}));
}

TEST(PythonReads, RulesThatMatchedNothingAreNamed) {
  std::string text = pack("");
  text.replace(text.find(R"("globals": [)"), 12, R"("globals": [{"python": "pkg.ps._GONE"}, )");
  rules::RuleSet rules({rules::parseRulePack(text, "p.json")});
  std::vector<ModuleFacts> modules{extractModule("pkg/ps.py", kModule)};
  std::set<std::string> seen;
  for (const auto& unit : resolveModules(modules, rules, PythonOptions{}))
    seen.insert(unit.tu.rulesSeen.begin(), unit.tu.rulesSeen.end());
  EXPECT_EQ(unmatchedPythonRules(rules, seen, 1),
            Lines{"rule 'python pkg.ps._GONE' (pack p) matched no definition in 1 Python module"});
  EXPECT_EQ(unmatchedPythonRules(rules, {}, 2).size(), 3u);
}

// A setter named in `setters` writes the state wherever it is referenced: each call, and the
// function handed on; an assignment to it (a test's monkeypatch) and the import that names it
// write nothing. A pack counting calls only drops the reference that is no call. The setter
// itself is a rule seen where it is defined; one defined nowhere is named.
const char* kSetterUser =
    "from pkg import ps\n"
    "from pkg.ps import init\n"
    "def f(g):\n"
    "    ps.init(g)\n"
    "    init(g)\n"
    "    hooks = [ps.init]\n"
    "    ps.init = None\n";

TEST(PythonReads, ASetterCallIsAWrite) {
  const std::vector<std::pair<std::string, std::string>> files{
      {"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"user.py", kSetterUser}};
  EXPECT_EQ(
      reads(pack(R"("setters": [{"python": "pkg.ps.init", "writes": "pkg.ps._GROUP"}],)"), files),
      (Lines{"user.py:4:8 global_write pkg.ps.init called fix=",
             "user.py:5:5 global_write pkg.ps.init called fix=",
             "user.py:6:17 global_write pkg.ps.init fix="}));
  EXPECT_EQ(reads(pack(R"("python": {"count": "calls"}, "setters": [{"python": "pkg.ps.init"}],)"),
                  files),
            (Lines{"user.py:4:8 global_write pkg.ps.init called fix=",
                   "user.py:5:5 global_write pkg.ps.init called fix="}));
  rules::RuleSet rules({rules::parseRulePack(
      pack(R"("setters": [{"python": "pkg.ps.init"}, {"python": "pkg.ps.gone"}],)"), "p.json")});
  std::vector<ModuleFacts> modules{extractModule("pkg/ps.py", kModule)};
  std::set<std::string> seen;
  for (const auto& unit : resolveModules(modules, rules, PythonOptions{}))
    seen.insert(unit.tu.rulesSeen.begin(), unit.tu.rulesSeen.end());
  EXPECT_EQ(
      unmatchedPythonRules(rules, seen, 1),
      Lines{"rule 'setter python pkg.ps.gone' (pack p) matched no definition in 1 Python module"});
}

// A fallback tests a group holder: by its name or its parameter's annotation when compared with
// None, by what flows into it (the other branch's value here) otherwise; a file name built from
// the read, a flag, or a group's truth test with nothing flowing are none (docs/scan.md).
TEST(PythonReads, FallbacksAreTestsOfGroupHolders) {
  const char* text =
      "from pkg import ps\n"
      "from typing import Optional\n"
      "def by_name(tp_group=None):\n"
      "    if tp_group is None:\n"
      "        return ps.get_tp_group()\n"
      "def by_annotation(g: Optional[\"dist.ProcessGroup\"] = None):\n"
      "    if g is None:\n"
      "        return ps.get_tp_group()\n"
      "def by_flow(sz=None):\n"
      "    sz = sz if sz is not None else ps.get_tp_group()\n"
      "def none_of_them(name: Optional[str] = None, cfg=None):\n"
      "    if name is None:\n"
      "        return \"x%s\" % ps.get_tp_group()\n"
      "    if not cfg:\n"
      "        return ps.get_tp_group()\n"
      "def truth_needs_flow(tp_group=None):\n"
      "    if not tp_group:\n"
      "        return ps.get_tp_group()\n";
  EXPECT_EQ(reads(pack(""), {{"pkg/__init__.py", ""}, {"pkg/ps.py", kModule}, {"m.py", text}}),
            (Lines{"m.py:5:19 accessor pkg.ps.get_tp_group called guards#0 fix=require",
                   "m.py:8:19 accessor pkg.ps.get_tp_group called guards#0 fix=require",
                   "m.py:10:39 accessor pkg.ps.get_tp_group called guards#0 fix=require",
                   "m.py:13:27 accessor pkg.ps.get_tp_group called fix=thread",
                   "m.py:15:19 accessor pkg.ps.get_tp_group called fix=thread",
                   "m.py:18:19 accessor pkg.ps.get_tp_group called fix=thread"}));
}

TEST(PythonGroupHolders, NamesAGroupHolderByItsLastWord) {
  for (const char* yes : {"tp_group", "self.pg_collection", "p2p_communicator", "PG", "comm",
                          "model.dp_groups", "Optional[torch.distributed.ProcessGroup]",
                          "ProcessGroupCollection", "\"P2PCommunicator\""})
    EXPECT_TRUE(namesGroupHolder(yes)) << yes;
  for (const char* no : {"name", "tp_comm_overlap", "group_name", "self", "packed_seq_params",
                         "Optional[str]", "groupby", "replica_id", ""})
    EXPECT_FALSE(namesGroupHolder(no)) << no;
}

}  // namespace
}  // namespace gridlock::python
