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
    if (modules[m].refs.empty()) return out;  // nothing referenced: a builtin at most
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

// Importing a submodule sets it as an attribute of its package (CPython's import system), so
// in the package's own `__init__` its name is bound without any statement binding it:
// `import megatron.core.parallel_state` then `mpu = parallel_state`, as Megatron-DeepSpeed's
// megatron/core/__init__.py writes it. Every form of import that loads the submodule binds it
// there (`import p.sub as other` too), and another module's import of it does as well, in any
// order the program runs them: a name the package does not bind that names one of its
// submodules some import loads is that submodule, wherever the package's own code uses it. A
// submodule nothing imports is not set on the package: its name stays unbound.
TEST(PythonResolve, APackageNamesTheSubmodulesImportsLoadIntoIt) {
  auto modules = program({
      {"megatron/core/__init__.py",
       "import megatron.core.parallel_state\n"
       "import megatron.core.utils\n"
       "mpu = parallel_state\n"},
      {"megatron/core/parallel_state.py", "def get_tp(): pass\n"},
      {"megatron/core/utils.py", "def helper(): pass\n"},
      {"megatron/core/x/user.py", "from megatron.core import mpu\ndef f():\n    mpu.get_tp()\n"},
      {"megatron/core/x/user2.py", "import megatron.core as mc\ndef f():\n    mc.mpu.get_tp()\n"},
      // `from .sub import x` loads p1.sub: `sub` is bound too.
      {"p1/__init__.py", "from .sub import get\nalias = sub\n"},
      {"p1/sub.py", "def get(): pass\n"},
      {"u1.py", "from p1 import alias\ndef f():\n    alias.get()\n"},
      // `import p2.sub as other` binds `other`, and loads p2.sub, which binds `sub`.
      {"p2/__init__.py", "import p2.sub as other\nalias = sub\n"},
      {"p2/sub.py", "def get(): pass\n"},
      {"u2.py", "from p2 import alias\ndef f():\n    alias.get()\n"},
      // `from . import sub as s`: the same.
      {"p3/__init__.py", "from . import sub as s\nalias = sub\n"},
      {"p3/sub.py", "def get(): pass\n"},
      {"u3.py", "from p3 import alias\ndef f():\n    alias.get()\n"},
      // A use in the package's own code, and a submodule only another module imports: once
      // any import of p4.late has run, the function finds it.
      {"p4/__init__.py", "import p4.sub\ndef f():\n    return late.get()\n"},
      {"p4/sub.py", "def get(): pass\n"},
      {"p4/late.py", "def get(): pass\n"},
      {"p4/loader.py", "import p4.late\n"},
      {"p5/__init__.py", "import p5.sub\ndef f():\n    return sub.get()\n"},
      {"p5/sub.py", "def get(): pass\n"},
      // A name that names no submodule stays a builtin; a module that is not the package
      // gets no attribute from importing one.
      {"p6/__init__.py", "import p6.sub\ndef f():\n    return open()\n"},
      {"p6/sub.py", "def get(): pass\n"},
      {"m7.py", "import p6.sub\ndef f():\n    return sub.get()\n"},
      // A submodule no import of the program loads is never set on the package: the name
      // stays unbound (a builtin: `filter` is the builtin though p8/filter.py exists).
      {"p8/__init__.py", "import p8.sub\ndef f():\n    return never.get()\n"},
      {"p8/sub.py", "def get(): pass\n"},
      {"p8/never.py", "def get(): pass\n"},
      {"p9/__init__.py", "def f():\n    return filter.get()\n"},
      {"p9/filter.py", "def get(): pass\n"},
      // An import in a function loads it too, when the function runs.
      {"p10/__init__.py", "def f():\n    return sub.get()\n"},
      {"p10/sub.py", "def get(): pass\n"},
      {"m11.py", "def load():\n    from p10.sub import get\n"},
  });
  ModuleIndex index(modules, "");
  EXPECT_EQ(lastRef(modules, index, "megatron/core/x/user.py"),
            Names{"megatron.core.parallel_state.get_tp"});
  EXPECT_EQ(lastRef(modules, index, "megatron/core/x/user2.py"),
            Names{"megatron.core.parallel_state.get_tp"});
  EXPECT_EQ(lastRef(modules, index, "u1.py"), Names{"p1.sub.get"});
  EXPECT_EQ(lastRef(modules, index, "u2.py"), Names{"p2.sub.get"});
  EXPECT_EQ(lastRef(modules, index, "u3.py"), Names{"p3.sub.get"});
  EXPECT_EQ(lastRef(modules, index, "p4/__init__.py"), Names{"p4.late.get"});
  EXPECT_EQ(lastRef(modules, index, "p5/__init__.py"), Names{"p5.sub.get"});
  EXPECT_EQ(lastRef(modules, index, "p6/__init__.py"), Names{});
  EXPECT_EQ(lastRef(modules, index, "m7.py"), Names{});
  EXPECT_EQ(lastRef(modules, index, "p8/__init__.py"), Names{});
  EXPECT_EQ(lastRef(modules, index, "p9/__init__.py"), Names{});
  EXPECT_EQ(lastRef(modules, index, "p10/__init__.py"), Names{"p10.sub.get"});
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
