// Which files the Python frontend reads (findPythonFiles), and step one on several threads
// with an overlay and an unreadable file (extractModules).
#include "python/frontend.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gridlock::python
