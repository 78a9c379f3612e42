// Per-file extraction (tool/python/extract.h): exact module bindings, references, functions,
// classes and calls of small sources, written by reasoning about Python's scoping rules.
#include "python/extract.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gridlock::python {
namespace {

using Lines = std::vector<std::string>;

// "g:ps.get_x" for a module-level root, "i2:x.y" for an import of level 2.
std::string spell(const Path& p) {
  std::string s = p.global ? "g:" : "i" + std::to_string(p.level) + ":";
  for (size_t i = 0; i < p.names.size(); ++i) s += (i ? "." : "") + p.names[i];
  return s;
}

// One reference as a line: where its last written name is, what it may name, and how.
std::string spell(const ModuleFacts& m, const Ref& r) {
  std::string s = std::to_string(r.parts.back().line) + ":" + std::to_string(r.parts.back().column);
  for (const auto& t : r.targets) s += " " + spell(t);
  if (r.access == Access::Write) s += " write";
  if (r.called) s += " called";
  if (r.aliasDefinition) s += " alias-def";
  if (r.function >= 0) s += " in=" + m.functions[r.function].qualname;
  if (r.classIndex >= 0) s += " class=" + m.classes[r.classIndex].qualname;
  if (r.inLambda) s += " lambda";
  for (const Ref::Guard& g : r.guards) {
    s += " guard=" + g.holder + (g.holderParam >= 0 ? "#" + std::to_string(g.holderParam) : "");
    if (!g.presence) s += " truth";
    if (g.flows) s += " flows";
    for (size_t i = 0; i < g.others.size(); ++i) s += (i ? "," : " or=") + g.others[i];
  }
  for (const Ref::Test& t : r.tests)
    s += " test=#" + std::to_string(t.param) + ":" + std::string(facts::spell(t.expect));
  return s;
}

Lines refs(const ModuleFacts& m) {
  Lines out;
  for (const auto& r : m.refs) out.push_back(spell(m, r));
  return out;
}

Lines bindings(const ModuleFacts& m) {
  Lines out;
  const char* kinds[] = {"alias", "def", "class", "value"};
  for (const auto& b : m.bindings)
    out.push_back(b.name + " " + kinds[static_cast<int>(b.kind)] +
                  (b.kind == Binding::Kind::Alias ? " " + spell(b.target) : "") +
                  (b.setByFunction ? " set-by-function" : "") + " @" + std::to_string(b.line));
  return out;
}

TEST(PythonExtract, ModuleBindings) {
  ModuleFacts m = extractModule("pkg/m.py",
                                "import a.b\n"
                                "import a.b as ab\n"
                                "from ..x import y as z, w\n"
                                "from . import parallel_state\n"
                                "from m import *\n"
                                "ps = parallel_state\n"
                                "get_tp = parallel_state.get_tensor_model_parallel_group\n"
                                "_STATE = None\n"
                                "def set_state(v):\n"
                                "    global _STATE\n"
                                "    _STATE = v\n"
                                "class C:\n"
                                "    pass\n"
                                "n = 1 + 2\n");
  EXPECT_EQ(m.errors, Lines{});
  EXPECT_FALSE(m.isPackage);
  EXPECT_EQ(bindings(m), (Lines{"a alias i0:a @1", "ab alias i0:a.b @2", "z alias i2:x.y @3",
                                "w alias i2:x.w @3", "parallel_state alias i1:parallel_state @4",
                                "ps alias g:parallel_state @6",
                                "get_tp alias g:parallel_state.get_tensor_model_parallel_group @7",
                                "_STATE value @8", "set_state def @9",
                                "_STATE value set-by-function @11", "C class @12", "n value @14"}));
  ASSERT_EQ(m.starImports.size(), 1u);
  EXPECT_EQ(spell(m.starImports[0]), "i0:m");
  // What each import may load: `import a.b` loads a.b (its binding names only a); a from-import
  // its module and each name (a submodule where it is one).
  Lines loads;
  for (const Path& p : m.loads) loads.push_back(spell(p));
  EXPECT_EQ(loads, (Lines{"i0:a.b", "i0:a.b", "i2:x", "i2:x.y", "i2:x.w",
                          "i1:", "i1:parallel_state", "i0:m"}));
  // `_STATE = v` under `global` is a write; the module's own `_STATE = None` is not. An
  // alias's value is a reference of its own, marked.
  EXPECT_EQ(refs(m), (Lines{"6:6 g:parallel_state alias-def",
                            "7:25 g:parallel_state.get_tensor_model_parallel_group alias-def",
                            "11:5 g:_STATE write in=set_state"}));
}

TEST(PythonExtract, CallsAttributesAndCallbacks) {
  ModuleFacts m = extractModule("m.py",
                                "from megatron.core import parallel_state as ps\n"
                                "def f(x):\n"
                                "    g = ps.get_tp(x, 2)\n"
                                "    register(ps.get_pp)\n"
                                "    return ps.get_dp().size()\n");
  // `register` is a builtin here (unbound, no star import): no reference.
  EXPECT_EQ(refs(m), (Lines{"3:12 g:ps.get_tp called in=f", "4:17 g:ps.get_pp in=f",
                            "5:15 g:ps.get_dp called in=f"}));
  const Ref& call = m.refs[0];
  EXPECT_EQ(call.arguments, (Lines{"x", "2"}));
  EXPECT_EQ(call.line, 3u);
  EXPECT_EQ(call.column, 9u);  // the whole call: `ps.get_tp(x, 2)`
  EXPECT_EQ(call.endColumn, 24u);
  EXPECT_EQ(call.length, 15u);
  EXPECT_EQ(call.parts[0].column, 9u);  // `ps`
}

TEST(PythonExtract, CommentsDocstringsAndStringsAreNoReferences) {
  ModuleFacts m = extractModule("m.py",
                                "'''ps.get_tp() in a docstring'''\n"
                                "import ps\n"
                                "# ps.get_tp() in a comment\n"
                                "def f():\n"
                                "    \"\"\"ps.get_tp()\"\"\"\n"
                                "    s = 'ps.get_tp()'\n"
                                "    t = f'{ps.get_dp()} and ps.get_tp()'\n");
  // Only the f-string's interpolation is code.
  EXPECT_EQ(refs(m), (Lines{"7:15 g:ps.get_dp called in=f"}));
}

TEST(PythonExtract, ShadowingNamesAreNotTheImport) {
  ModuleFacts m = extractModule("m.py",
                                "import parallel_state\n"
                                "def param(parallel_state):\n"
                                "    parallel_state.get_tp()\n"
                                "def local():\n"
                                "    parallel_state = make()\n"
                                "    parallel_state.get_tp()\n"
                                "def late():\n"
                                "    parallel_state.get_tp()\n"
                                "    parallel_state = 3\n"
                                "def comp(xs):\n"
                                "    return [parallel_state.get_tp() for parallel_state in xs]\n"
                                "def lam():\n"
                                "    return lambda parallel_state: parallel_state.get_tp()\n"
                                "def outer():\n"
                                "    parallel_state = 1\n"
                                "    def inner():\n"
                                "        return parallel_state.get_tp()\n"
                                "def not_shadowed():\n"
                                "    return parallel_state.get_tp()\n");
  EXPECT_EQ(refs(m), (Lines{"19:27 g:parallel_state.get_tp called in=not_shadowed"}));
}

TEST(PythonExtract, ImportsInsideFunctionsCountOnlyThere) {
  ModuleFacts m = extractModule("a/b/m.py",
                                "def f():\n"
                                "    from megatron.core import parallel_state\n"
                                "    from ..core import mpu as m\n"
                                "    import megatron.core.parallel_state as ps\n"
                                "    parallel_state.get_tp()\n"
                                "    m.get_pp()\n"
                                "    ps.get_dp()\n"
                                "def g():\n"
                                "    parallel_state.get_tp()\n");
  // In g, parallel_state is no import: unbound, a builtin as far as the file says.
  EXPECT_EQ(refs(m), (Lines{"5:20 i0:megatron.core.parallel_state.get_tp called in=f",
                            "6:7 i2:core.mpu.get_pp called in=f",
                            "7:8 i0:megatron.core.parallel_state.get_dp called in=f"}));
  EXPECT_EQ(bindings(m), (Lines{"f def @1", "g def @8"}));
}

TEST(PythonExtract, LocalAliasesAreFollowed) {
  ModuleFacts m = extractModule("m.py",
                                "from megatron.core import parallel_state\n"
                                "def f(flag):\n"
                                "    ps = parallel_state\n"
                                "    get = ps.get_tensor_model_parallel_group\n"
                                "    get()\n"
                                "    h = getattr(ps, 'get_data_parallel_group')\n"
                                "    h()\n");
  EXPECT_EQ(refs(m), (Lines{"3:10 g:parallel_state alias-def in=f",
                            "4:14 g:parallel_state.get_tensor_model_parallel_group alias-def in=f",
                            "5:5 g:parallel_state.get_tensor_model_parallel_group called in=f",
                            "6:21 g:parallel_state.get_data_parallel_group alias-def in=f",
                            "7:5 g:parallel_state.get_data_parallel_group called in=f"}));
}

TEST(PythonExtract, GetattrAndGlobalsWithLiteralNames) {
  ModuleFacts m = extractModule("m.py",
                                "import ps\n"
                                "_X = None\n"
                                "def f(name):\n"
                                "    getattr(ps, 'get_tp')()\n"
                                "    getattr(ps, name)\n"
                                "    getattr(ps, f'get_{name}')\n"
                                "    getattr(ps, 'get_dp', None)\n"
                                "    v = globals()['_X']\n"
                                "    globals()['_X'] = 3\n"
                                "def g(getattr):\n"
                                "    getattr(ps, 'get_pp')\n");
  EXPECT_EQ(refs(m), (Lines{"4:17 g:ps.get_tp called in=f", "5:13 g:ps in=f", "6:13 g:ps in=f",
                            "7:17 g:ps.get_dp in=f", "8:19 g:_X in=f", "9:15 g:_X write in=f",
                            "11:13 g:ps in=g"}));
}

TEST(PythonExtract, ScopesOfClassBodies) {
  ModuleFacts m = extractModule("m.py",
                                "import ps\n"
                                "class A(ps.Base):\n"
                                "    get = ps.get_tp\n"
                                "    x = get()\n"
                                "    def m(self):\n"
                                "        return get()\n");
  // In a method, `get` is not the class body's: it is the module's, unbound (a builtin). A
  // class attribute is reached through `self`, which is not followed: its value is a read.
  EXPECT_EQ(refs(m), (Lines{"2:12 g:ps.Base", "3:14 g:ps.get_tp class=A",
                            "4:9 g:ps.get_tp called class=A"}));
  ASSERT_EQ(m.classes.size(), 1u);
  ASSERT_EQ(m.classes[0].bases.size(), 1u);
  ASSERT_EQ(m.classes[0].bases[0].size(), 1u);
  EXPECT_EQ(spell(m.classes[0].bases[0][0]), "g:ps.Base");
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].qualname, "A.m");
  EXPECT_EQ(m.functions[0].classIndex, 0);
}

TEST(PythonExtract, Fallbacks) {
  ModuleFacts m = extractModule("m.py",
                                "import ps\n"
                                "def a(g=None):\n"
                                "    if g is None:\n"
                                "        g = ps.get_tp()\n"
                                "    return g\n"
                                "def b(g=None):\n"
                                "    return g or ps.get_tp()\n"
                                "def c(g=None):\n"
                                "    return g if g is not None else ps.get_tp()\n"
                                "def d(self, g=None):\n"
                                "    return ps.get_tp() if self.g is None else self.g\n"
                                "def e(g=None):\n"
                                "    if g is not None:\n"
                                "        return g\n"
                                "    return ps.get_tp()\n"
                                "def f(flag, g=None):\n"
                                "    if not flag:\n"
                                "        return ps.get_tp()\n"
                                "    if not g:\n"
                                "        g = ps.get_tp()\n"
                                "    if g is None:\n"
                                "        h = lambda: ps.get_tp()\n"
                                "    return g\n"
                                "def w(self):\n"
                                "    if (g := self.g) is None:\n"
                                "        g = ps.get_tp()\n");
  // A parameter the def assigns (`g = ...` in a) is no test: its value is no longer the call's.
  EXPECT_EQ(refs(m), (Lines{"4:16 g:ps.get_tp called in=a guard=g#0 flows",
                            "7:20 g:ps.get_tp called in=b guard=g#0 truth flows test=#0:false",
                            "9:39 g:ps.get_tp called in=c guard=g#0 flows test=#0:none",
                            "11:15 g:ps.get_tp called in=d guard=self.g flows",
                            "15:15 g:ps.get_tp called in=e guard=g#0 flows test=#0:none",
                            "18:19 g:ps.get_tp called in=f guard=flag#0 truth test=#0:false",
                            "20:16 g:ps.get_tp called in=f guard=g#1 truth flows test=#0:true",
                            "22:24 g:ps.get_tp called in=f lambda",
                            "26:16 g:ps.get_tp called in=w guard=g flows"}));
}

// What a read runs under: every construct between it and its def, as facts; the values it
// says are missing are candidates (innermost first), the facts on parameters tests.
TEST(PythonExtract, TheConditionsAReadRunsUnder) {
  ModuleFacts m = extractModule("m.py",
                                "import ps\n"
                                "def h(x, num_heads=None, num_kv_heads=None):\n"
                                "    if num_heads is not None:\n"
                                "        if num_kv_heads is None:\n"
                                "            num_kv_heads = ps.get_kv()\n"
                                "def i(tp=None, other=False):\n"
                                "    if tp is not None and other:\n"
                                "        return tp\n"
                                "    else:\n"
                                "        return ps.get_tp()\n"
                                "def j(tp=None, dp=None):\n"
                                "    if tp is not None and dp is not None:\n"
                                "        return tp\n"
                                "    elif dp is None:\n"
                                "        return ps.get_dp()\n"
                                "    else:\n"
                                "        return ps.get_tp()\n"
                                "def k(packed=None):\n"
                                "    if packed is None or packed.fmt:\n"
                                "        return ps.get_cp()\n"
                                "def l(x, flag=False, tp=None):\n"
                                "    if x is None:\n"
                                "        raise ValueError()\n"
                                "    if tp is None:\n"
                                "        if flag:\n"
                                "            tp = ps.get_a()\n"
                                "        else:\n"
                                "            tp = ps.get_b()\n"
                                "def m(a=None, b=None):\n"
                                "    if a is None or b is None:\n"
                                "        t = ps.get_tp()\n"
                                "    else:\n"
                                "        t = a.size()\n"
                                "def n(self):\n"
                                "    if hasattr(self, 'a_group'):\n"
                                "        return self.a_group\n"
                                "    if hasattr(self, 'b_group'):\n"
                                "        return self.b_group\n"
                                "    return ps.get_tp()\n");
  EXPECT_EQ(refs(m),
            (Lines{"5:31 g:ps.get_kv called in=h guard=num_kv_heads#2 flows test=#1:not_none",
                   // the else of `tp is not None and other` runs with tp given
                   "10:19 g:ps.get_tp called in=i",
                   "15:19 g:ps.get_dp called in=j guard=dp#1 guard=tp#0 or=dp test=#1:none",
                   "17:19 g:ps.get_tp called in=j guard=tp#0 or=dp test=#1:not_none",
                   // `or` of a test of something else: it runs with packed given
                   "20:19 g:ps.get_cp called in=k",
                   "26:21 g:ps.get_a called in=l guard=tp#2 flows test=#1:true test=#0:not_none",
                   "28:21 g:ps.get_b called in=l guard=flag#1 truth guard=tp#2 flows "
                   "test=#1:false test=#0:not_none",
                   // the other branch assigns t from a
                   "31:16 g:ps.get_tp called in=m guard=a#0 flows or=b",
                   // the nearest `if` that returns first
                   "39:15 g:ps.get_tp called in=n guard=self.b_group flows guard=self.a_group "
                   "flows"}));
}

// getattr with a literal name tests the attribute it names, hasattr too: `getattr(pg, "dp",
// None) is None` as `pg.dp is None` does; hasattr as a comparison with None, getattr alone as a
// truth test.
TEST(PythonExtract, FallbacksThroughGetattrAndHasattr) {
  ModuleFacts m = extractModule("m.py",
                                "import ps\n"
                                "def a(pg=None):\n"
                                "    if getattr(pg, 'dp', None) is None:\n"
                                "        pg.dp = ps.get_dp()\n"
                                "def b(self):\n"
                                "    return getattr(self, 'tp', None) or ps.get_tp()\n"
                                "def c(self):\n"
                                "    if not hasattr(self, 'tp'):\n"
                                "        return ps.get_tp()\n"
                                "def d(self):\n"
                                "    if not getattr(self.cfg, 'ready', False):\n"
                                "        return ps.get_tp()\n"
                                "def e(g=None):\n"
                                "    return getattr(g, 'x') if getattr(g, 'x', None) is not None "
                                "else ps.get_tp()\n");
  EXPECT_EQ(refs(m), (Lines{"4:20 g:ps.get_dp called in=a guard=pg.dp flows",
                            "6:44 g:ps.get_tp called in=b guard=self.tp truth flows",
                            "9:19 g:ps.get_tp called in=c guard=self.tp",
                            "12:19 g:ps.get_tp called in=d guard=self.cfg.ready truth",
                            "14:73 g:ps.get_tp called in=e guard=g.x flows"}));
}

TEST(PythonExtract, WritesToModuleState) {
  ModuleFacts m = extractModule("m.py",
                                "import ps\n"
                                "_G = {}\n"
                                "def f():\n"
                                "    global _G\n"
                                "    _G += 1\n"
                                "    _G['k'] = 2\n"
                                "    ps._STATE = 3\n"
                                "    ps._STATE.x = 4\n"
                                "    del _G\n"
                                "    return _G\n");
  EXPECT_EQ(refs(m),
            (Lines{"5:5 g:_G write in=f", "6:5 g:_G write in=f", "7:8 g:ps._STATE write in=f",
                   "8:15 g:ps._STATE.x write in=f", "9:9 g:_G write in=f", "10:12 g:_G in=f"}));
}

TEST(PythonExtract, FunctionsAndParameters) {
  ModuleFacts m = extractModule("m.py",
                                "class C:\n"
                                "    def __init__(self, a, b: int = 1, *args, k=None, **kw):\n"
                                "        pass\n"
                                "    @staticmethod\n"
                                "    def s(x, /, y, *, z):\n"
                                "        def inner(q=3):\n"
                                "            pass\n");
  ASSERT_EQ(m.functions.size(), 3u);
  const Function& init = m.functions[0];
  EXPECT_EQ(init.qualname, "C.__init__");
  EXPECT_EQ(init.classIndex, 0);
  Lines params;
  for (const auto& p : init.params)
    params.push_back(p.name + ":" + p.annotation + "=" + p.defaultText + "/" +
                     std::to_string(static_cast<int>(p.kind)));
  EXPECT_EQ(params,
            (Lines{"self:=/0", "a:=/0", "b:int=1/0", "*args:=/3", "k:=None/2", "**kw:=/4"}));
  const Function& s = m.functions[1];
  EXPECT_TRUE(s.isStatic);
  ASSERT_EQ(s.params.size(), 3u);
  EXPECT_EQ(s.params[0].kind, Param::Kind::PositionalOnly);
  EXPECT_EQ(s.params[1].kind, Param::Kind::Positional);
  EXPECT_EQ(s.params[2].kind, Param::Kind::KeywordOnly);
  EXPECT_EQ(m.functions[2].qualname, "C.s.inner");
  EXPECT_EQ(m.functions[2].classIndex, -1);
}

TEST(PythonExtract, CallsWithTheirArguments) {
  ModuleFacts m = extractModule("m.py",
                                "import functools\n"
                                "from ps import helper\n"
                                "class C(Base):\n"
                                "    def __init__(self, tp_group=None, *args, **kwargs):\n"
                                "        super().__init__(tp_group, *args, **kwargs)\n"
                                "        self.m(None, k=tp_group)\n"
                                "        helper(1, g=None)\n"
                                "        functools.partial(helper, tp_group)\n");
  ASSERT_EQ(m.calls.size(), 4u);
  const Call& sup = m.calls[0];
  EXPECT_TRUE(sup.viaSuper);
  EXPECT_EQ(sup.member, "__init__");
  ASSERT_EQ(sup.args.size(), 3u);
  EXPECT_EQ(sup.args[0].forwardedName, "tp_group");
  EXPECT_EQ(sup.args[1].kind, Call::Arg::Kind::Star);
  EXPECT_EQ(sup.args[1].forwardedName, "args");
  EXPECT_EQ(sup.args[2].kind, Call::Arg::Kind::DoubleStar);
  EXPECT_EQ(sup.line, 5u);
  EXPECT_EQ(sup.column, 17u);
  const Call& self = m.calls[1];
  EXPECT_FALSE(self.viaSuper);
  EXPECT_EQ(self.member, "m");
  ASSERT_EQ(self.args.size(), 2u);
  EXPECT_TRUE(self.args[0].isNone);
  EXPECT_EQ(self.args[1].keyword, "k");
  EXPECT_EQ(self.args[1].forwardedName, "tp_group");
  const Call& helper = m.calls[2];
  ASSERT_EQ(helper.callee.size(), 1u);
  EXPECT_EQ(spell(helper.callee[0]), "g:helper");
  EXPECT_TRUE(helper.args[1].isNone);
  EXPECT_EQ(helper.function, 0);
  const Call& partial = m.calls[3];
  EXPECT_EQ(spell(partial.callee[0]), "g:functools.partial");
  ASSERT_EQ(partial.firstArg.size(), 1u);
  EXPECT_EQ(spell(partial.firstArg[0]), "g:helper");
}

// `**d`: the keys d is seen to hold, each with its value (None, a parameter), and whether it
// can hold no other (python/dict_keys.h).
TEST(PythonExtract, ADictBuiltInSightIsFollowedKeyByKey) {
  ModuleFacts m = extractModule("m.py",
                                "from m import f\n"
                                "def g(p, **kwargs):\n"
                                "    f(**{'a': None, 'b': p})\n"
                                "    f(**{'a': 1, **kwargs})\n"
                                "    f(**dict(a=p), **dict(p))\n"
                                "    d = {'a': 1}\n"
                                "    d['b'] = None\n"
                                "    if 'a' in d and d.get('a'):\n"
                                "        f(**d)\n"
                                "    e = {}\n"
                                "    e['a'] = 1\n"
                                "    del e['a']\n"
                                "    f(**e)\n"
                                "    kwargs['tp'] = p\n"
                                "    f(**kwargs)\n"
                                "    h = make()\n"
                                "    f(**h)\n"
                                "def s(p):\n"
                                "    dict = make\n"
                                "    f(**dict(a=p))\n");
  Lines seen;
  for (const Call& c : m.calls)
    for (const Call::Arg& a : c.args) {
      if (a.kind != Call::Arg::Kind::DoubleStar) continue;
      std::string line = std::to_string(c.line) + ":";
      for (const Call::DictKey& k : a.keys)
        line += " " + k.name + (k.isNone ? "=None" : "") +
                (k.forwardedName.empty() ? "" : "=>" + k.forwardedName);
      seen.push_back(line + (a.keysComplete ? " complete" : ""));
    }
  EXPECT_EQ(seen, (Lines{"3: a=None b=>p complete", "4: a", "5: a=>p complete",
                         "5:", "9: a b=None complete", "13: a", "15: tp=>p", "17:", "20:"}));
}

TEST(PythonExtract, AFileThatDoesNotParseKeepsWhatItShows) {
  ModuleFacts m = extractModule("pkg/__init__.py",
                                "import ps\n"
                                "def f(:\n"
                                "    pass\n"
                                "def g():\n"
                                "    return ps.get_tp()\n");
  EXPECT_TRUE(m.isPackage);
  ASSERT_FALSE(m.errors.empty());
  EXPECT_EQ(m.errors[0].rfind("pkg/__init__.py:2:", 0), 0u) << m.errors[0];
  EXPECT_EQ(refs(m), (Lines{"5:15 g:ps.get_tp called in=g"}));
}

}  // namespace
}  // namespace gridlock::python
