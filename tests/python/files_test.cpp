// Which files the Python frontend reads (findPythonFiles), and step one on several threads
// with an overlay and an unreadable file (extractModules).
#include "python/cpython_check.h"
#include "python/frontend.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace gridlock::python {
namespace {

namespace fs = std::filesystem;
using Lines = std::vector<std::string>;

struct Tree {
  fs::path root = fs::temp_directory_path() / ("gridlock-py-files-" + std::to_string(::getpid()));
  Tree() {
    for (const char* f : {"a.py", "pkg/__init__.py", "pkg/m.py", "pkg/notes.txt", ".hidden/h.py",
                          "pkg/__pycache__/m.cpython-311.py", "pkg/.git/x.py", "src/s.py"}) {
      fs::create_directories((root / f).parent_path());
      std::ofstream(root / f) << "import os\n";
    }
  }
  ~Tree() { fs::remove_all(root); }
};

TEST(PythonFiles, EveryPyFileUnderThePathsOnce) {
  Tree t;
  PythonOptions o;
  o.root = t.root.string();
  EXPECT_EQ(findPythonFiles(o), (Lines{"a.py", "pkg/__init__.py", "pkg/m.py", "src/s.py"}));
  EXPECT_EQ(findPythonFiles(o, {"pkg", "pkg/m.py", "a.py"}),
            (Lines{"a.py", "pkg/__init__.py", "pkg/m.py"}));
  EXPECT_THROW(findPythonFiles(o, {"nowhere"}), InputError);
  EXPECT_THROW(findPythonFiles(o, {"../elsewhere"}), InputError);
}

TEST(PythonFiles, ExtractionKeepsTheOrderAndNamesWhatCannotBeRead) {
  Tree t;
  PythonOptions o;
  o.root = t.root.string();
  o.jobs = 3;
  o.overlay["pkg/m.py"] = "def f(:\n";
  std::vector<ModuleFacts> m =
      extractModules({"a.py", "pkg/m.py", "gone.py", "pkg/__init__.py"}, o);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].file, "a.py");
  EXPECT_EQ(m[0].errors, Lines{});
  EXPECT_EQ(m[1].file, "pkg/m.py");
  EXPECT_FALSE(m[1].errors.empty());  // the overlay, not the file on disk
  EXPECT_EQ(m[2].file, "gone.py");
  EXPECT_EQ(m[2].errors, Lines{"gone.py:1:1: error: cannot read the file"});
  EXPECT_TRUE(m[3].isPackage);
}

// tree-sitter-python 0.23.6 rejects a starred product in an expression list (valid Python since
// 3.8, in Megatron-LM's cuda_graphs.py); CPython's parser settles it: no parse error, the lines
// kept as unread. A file CPython rejects too stays a parse error.
TEST(PythonFiles, CPythonSettlesWhatTheGrammarRejects) {
  Tree t;
  PythonOptions o;
  o.root = t.root.string();
  o.overlay["a.py"] = "def f(a, n):\n    return None, *(None,) * n\n";
  o.overlay["pkg/m.py"] = "def f(:\n";
  std::vector<ModuleFacts> m = extractModules({"a.py", "pkg/m.py"}, o);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].errors, Lines{});
  ASSERT_EQ(m[0].unread.size(), 1u);
  EXPECT_EQ(m[0].unread[0].rfind("a.py:2:", 0), 0u) << m[0].unread[0];
  EXPECT_FALSE(m[1].errors.empty());
  EXPECT_EQ(m[1].unread, Lines{});
}

// Whether CPython accepted each source.
std::vector<bool> accepted(const std::vector<CPythonAnswer>& answers) {
  std::vector<bool> out;
  for (const auto& a : answers) out.push_back(a.accepted);
  return out;
}

// The dotted names CPython lists, "function line:col a.b.c [called] [write]": those whose root
// the scope sees from outside; a parameter's, a local's, a comprehension's or a lambda's own
// name are not.
TEST(PythonFiles, CPythonListsTheNamesItsScopeSeesFromOutside) {
  CPythonCheck check;
  check.add(
      "from pkg import ps\n"                                     // 1
      "def f(a, b, n):\n"                                        // 2
      "    return a, *(b,) * n, ps.get_tp()\n"                   // 3
      "class C:\n"                                               // 4
      "    def m(self, ps2):\n"                                  // 5
      "        ps.x = ps2.y\n"                                   // 6
      "        return [ps.e for ps in ys], lambda ps: ps.z\n");  // 7
  std::vector<CPythonAnswer> answers = check.answers();
  ASSERT_EQ(answers.size(), 1u);
  ASSERT_TRUE(answers[0].accepted);
  Lines got;
  for (const CPythonRef& r : answers[0].refs) {
    std::string dotted;
    for (const auto& n : r.names) dotted += (dotted.empty() ? "" : ".") + n;
    got.push_back(r.function + " " + std::to_string(r.at[0].first) + ":" +
                  std::to_string(r.at[0].second) + " " + dotted + (r.called ? " called" : "") +
                  (r.write ? " write" : ""));
  }
  EXPECT_EQ(got, (Lines{"f 3:26 ps.get_tp called", "C.m 6:9 ps.x write", "C.m 7:32 ys"}));
  EXPECT_EQ(answers[0].refs[0].at, (std::vector<std::pair<unsigned, unsigned>>{{3, 26}, {3, 29}}));
}

// The check takes sources one at a time from several threads and answers in the order they
// came; sources bigger than a socket's buffer do not stall it (python3 reads each as it comes).
TEST(PythonFiles, CPythonAnswersEachSourceInTheOrderItCame) {
  CPythonCheck check;
  std::string big = "x = [\n" + std::string(3'000'000, ' ') + "1]\n";  // valid, 3 MB
  EXPECT_EQ(check.add("def f(a, n):\n    return None, *(None,) * n\n"), 0u);
  EXPECT_EQ(check.add("def f(:\n"), 1u);
  EXPECT_EQ(check.add(big), 2u);
  EXPECT_EQ(check.add(big + "def (\n"), 3u);
  EXPECT_EQ(accepted(check.answers()), (std::vector<bool>{true, false, true, false}));
}

TEST(PythonFiles, WithoutPython3EveryAnswerIsNo) {
  const char* saved = std::getenv("PATH");
  std::string path = saved ? saved : "";
  ::setenv("PATH", "/nonexistent-gridlock-test", 1);
  CPythonCheck check;
  check.add("x = 1\n");
  check.add("y = 2\n");
  std::vector<CPythonAnswer> answers = check.answers();
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(accepted(answers), (std::vector<bool>{false, false}));
}

TEST(PythonFiles, NothingHandedOverStartsNothing) {
  CPythonCheck check;
  EXPECT_EQ(accepted(check.answers()), std::vector<bool>{});
}

}  // namespace
}  // namespace gridlock::python
