// Whole-program name resolution (tool/python/module_index.h): exact dotted names for every
// way a module reaches another's name, written by reasoning about Python's import system.
#include "python/extract.h"
#include "python/module_index.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace gridlock::python {
namespace {

using Names = std::vector<std::string>;

std::vector<ModuleFacts> program(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<ModuleFacts> out;
  for (const auto& [file, text] : files) out.push_back(extractModule(file, text));
  return out;
}

// What the last reference of `module` (by file) resolves to.
Names lastRef(const std::vector<ModuleFacts>& modules, const ModuleIndex& index,
              const std::string& file) {
  for (size_t m = 0; m < modules.size(); ++m) {
    if (modules[m].file != file) continue;
    Names out;
    for (const Path& p : modules[m].refs.back().targets)
      for (const auto& n : index.resolve(m, p)) out.push_back(n);
    return out;
  }
  return {"(no such file)"};
}

TEST(PythonModuleNames, FromThePackageLayout) {
  EXPECT_EQ(moduleName("megatron/core/parallel_state.py", ""), "megatron.core.parallel_state");
  EXPECT_EQ(moduleName("megatron/core/__init__.py", ""), "megatron.core");
  EXPECT_EQ(moduleName("src/pkg/mod.py", "src"), "pkg.mod");
  EXPECT_EQ(moduleName("src/pkg/__init__.py", "src/"), "pkg");
  EXPECT_EQ(moduleName("tests/test_x.py", "src"), "tests.test_x");  // outside the package root
  EXPECT_EQ(moduleName("srcx/pkg.py", "src"), "srcx.pkg");
  EXPECT_EQ(moduleName("__init__.py", ""), "");
}

TEST(PythonResolve, ReExportsThroughAPackage) {
  auto modules = program({
      {"megatron/core/__init__.py",
       "from megatron.core import parallel_state\n"
       "from .parallel_state import get_dp as dp_alias\n"
       "mpu = parallel_state\n"},
      {"megatron/core/parallel_state.py", "def get_tp(): pass\ndef get_dp(): pass\n"},
      {"megatron/core/x/user.py",
       "from megatron.core import mpu\n"
       "def f():\n    mpu.get_tp()\n"},
      {"megatron/core/x/user2.py",
       "from .. import dp_alias\n"
       "def f():\n    dp_alias()\n"},
      {"megatron/core/x/user3.py",
       "import megatron.core as mc\n"
       "def f():\n    mc.mpu.get_dp()\n"},
  });
  ModuleIndex index(modules, "");
  EXPECT_EQ(lastRef(modules, index, "megatron/core/x/user.py"),
            Names{"megatron.core.parallel_state.get_tp"});
  EXPECT_EQ(lastRef(modules, index, "megatron/core/x/user2.py"),
            Names{"megatron.core.parallel_state.get_dp"});
  EXPECT_EQ(lastRef(modules, index, "megatron/core/x/user3.py"),
            Names{"megatron.core.parallel_state.get_dp"});
  ASSERT_NE(index.definition("megatron.core.parallel_state.get_tp"), nullptr);
  EXPECT_EQ(index.definition("megatron.core.parallel_state.get_tp")->kind, Binding::Kind::Def);
  EXPECT_EQ(index.definition("megatron.core.mpu"), nullptr);  // an alias, no definition
}

TEST(PythonResolve, SubmodulesStarImportsAndOutsideNames) {
  auto modules = program({
      {"a/__init__.py", ""},
      {"a/b.py", "def f(): pass\nSTATE = 1\n_HIDDEN = 2\n"},
      {"a/star.py", "from a.b import *\n"},
      {"u1.py", "import a\ndef g():\n    a.b.f()\n"},
      {"u2.py", "from a.star import f\ndef g():\n    f()\n"},
      {"u3.py", "import torch\ndef g():\n    torch.distributed.get_rank()\n"},
      {"u4.py", "from a.b import *\ndef g():\n    return STATE\n"},
      {"u6.py", "from a.b import *\ndef g():\n    return _HIDDEN\n"},
      {"u5.py", "from a import missing\ndef g():\n    missing.x()\n"},
  });
  ModuleIndex index(modules, "");
  EXPECT_EQ(lastRef(modules, index, "u1.py"), Names{"a.b.f"});
  EXPECT_EQ(lastRef(modules, index, "u2.py"), Names{"a.b.f"});
  EXPECT_EQ(lastRef(modules, index, "u3.py"), Names{"torch.distributed.get_rank"});
  EXPECT_EQ(lastRef(modules, index, "u4.py"), Names{"a.b.STATE"});
  EXPECT_EQ(lastRef(modules, index, "u6.py"), Names{});  // no underscore name through `*`
  EXPECT_EQ(lastRef(modules, index, "u5.py"), Names{"a.missing.x"});
}

TEST(PythonResolve, EveryBindingOfANameIsACandidate) {
  auto modules = program({
      {"m.py",
       "try:\n"
       "    from fast import kernel\n"
       "except ImportError:\n"
       "    kernel = None\n"
       "def g():\n    kernel()\n"},
  });
  ModuleIndex index(modules, "");
  // The import, and the value None that names nothing: one candidate besides it, m.kernel.
  EXPECT_EQ(lastRef(modules, index, "m.py"), (Names{"fast.kernel", "m.kernel"}));
}

TEST(PythonResolve, ACycleOfAliasesEnds) {
  auto modules = program({
      {"a.py", "from b import y as x\n"},
      {"b.py", "from a import x as y\n"},
      {"c.py", "from a import x\ndef g():\n    x()\n"},
  });
  ModuleIndex index(modules, "");
  Names names = lastRef(modules, index, "c.py");
  EXPECT_EQ(names.size(), 1u);  // whatever the cut-off reached, once, and no hang
}

TEST(PythonResolve, RelativeImportsAboveTheTopAreNothing) {
  auto modules = program({{"m.py", "from .. import x\ndef g():\n    x()\n"}});
  ModuleIndex index(modules, "");
  EXPECT_EQ(lastRef(modules, index, "m.py"), Names{});
}

}  // namespace
}  // namespace gridlock::python
