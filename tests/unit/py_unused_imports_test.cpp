// Imports a Python rewrite leaves unused (rewrite/python/imports.h, unusedImports): a def's own
// import goes too, with the blank line that would open its block, but not one inside a `try`
// (an ImportError there may be what the code tests) nor one of a block of imports alone.
#include "rewrite/python/imports.h"

#include <gtest/gtest.h>

#include <string>

namespace gridlock::rewrite::py {
namespace {

std::string removed(const std::string& before, const std::string& after) {
  PySource b(before), a(after);
  std::string out;
  for (const apply::Edit& e : unusedImports("pkg/a.py", b, a))
    out += "[" + before.substr(e.offset, e.length) + "->" + e.text + "]";
  return out;
}

TEST(PyUnusedImports, ADefsImportGoesWithTheBlankLineOpeningItsBlock) {
  EXPECT_EQ(removed("def f(x):\n    from pkg import ps\n\n    return ps.size(x)\n",
                    "def f(x):\n    from pkg import ps\n\n    return x.size()\n"),
            "[    from pkg import ps\n\n->]");
}

TEST(PyUnusedImports, ADefsImportUnderAnIfGoesAlone) {
  EXPECT_EQ(removed("def f(x):\n    if x:\n        y = 1\n        from pkg import ps\n"
                    "        return ps.size(x)\n",
                    "def f(x):\n    if x:\n        y = 1\n        from pkg import ps\n"
                    "        return x.size()\n"),
            "[        from pkg import ps\n->]");
}

TEST(PyUnusedImports, InATryOrInABlockOfImportsAloneItStays) {
  EXPECT_EQ(removed("def f(x):\n    try:\n        from pkg import ps\n        y = 1\n"
                    "    except ImportError:\n        y = 0\n    return ps.size(x)\n",
                    "def f(x):\n    try:\n        from pkg import ps\n        y = 1\n"
                    "    except ImportError:\n        y = 0\n    return x.size()\n"),
            "");
  EXPECT_EQ(removed("def f(x):\n    if x:\n        from pkg import ps\n    return ps.size(x)\n",
                    "def f(x):\n    if x:\n        from pkg import ps\n    return x.size()\n"),
            "");
}

// `locals()` in another def cannot see this def's import; in this def it can.
TEST(PyUnusedImports, ReflectionKeepsADefsImportOnlyFromInsideThatDef) {
  const std::string other = "def g():\n    return locals()\n\n\n";
  EXPECT_EQ(removed(other + "def f(x):\n    from pkg import ps\n    return ps.size(x)\n",
                    other + "def f(x):\n    from pkg import ps\n    return x.size()\n"),
            "[    from pkg import ps\n->]");
  EXPECT_EQ(removed("def f(x):\n    from pkg import ps\n    log(locals())\n    return ps.size(x)\n",
                    "def f(x):\n    from pkg import ps\n    log(locals())\n    return x.size()\n"),
            "");
  EXPECT_EQ(removed(other + "from pkg import ps\n\n\ndef f(x):\n    return ps.size(x)\n",
                    other + "from pkg import ps\n\n\ndef f(x):\n    return x.size()\n"),
            "");
}

TEST(PyUnusedImports, AModulesImportStillGoes) {
  EXPECT_EQ(removed("import os\nfrom pkg import ps\n\n\ndef f(x):\n    return ps.size(x)\n",
                    "import os\nfrom pkg import ps\n\n\ndef f(x):\n    return x.size()\n"),
            "[from pkg import ps\n->]");
}

}  // namespace
}  // namespace gridlock::rewrite::py
