// Step one's facts as bytes (tool/python/module_codec.h): a file's facts come back field for
// field, and a field added to one of the structs without the codec learning it fails here.
#include "python/module_codec.h"
#include "cache/deep_compare.h"
#include "python/extract.h"

#include "facts/struct_codec.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gridlock::python {
namespace {

using test::fieldCount;

TEST(PythonModuleCodec, FieldCountsMatchTheCodec) {
  // Update a count here only with module_codec.cpp's field list for that struct.
  EXPECT_EQ(fieldCount<Path>(), 4u);
  EXPECT_EQ(fieldCount<Binding>(), 9u);
  EXPECT_EQ(fieldCount<HandedOn>(), 3u);
  EXPECT_EQ(fieldCount<Ref::Part>(), 2u);
  EXPECT_EQ(fieldCount<Ref::Guard>(), 6u);
  EXPECT_EQ(fieldCount<Ref::Test>(), 2u);
  EXPECT_EQ(fieldCount<Ref>(), 23u);
  EXPECT_EQ(fieldCount<Param>(), 6u);
  EXPECT_EQ(fieldCount<Function>(), 6u);
  EXPECT_EQ(fieldCount<Class::Field>(), 3u);
  EXPECT_EQ(fieldCount<Class>(), 5u);
  EXPECT_EQ(fieldCount<Call::DictKey>(), 3u);
  EXPECT_EQ(fieldCount<Call::Arg>(), 8u);
  EXPECT_EQ(fieldCount<Call::Result>(), 2u);
  EXPECT_EQ(fieldCount<Call>(), 15u);
  EXPECT_EQ(fieldCount<ModuleFacts>(), 15u);
}

TEST(PythonModuleCodec, AFilesFactsComeBack) {
  ModuleFacts in = extractModule("pkg/__init__.py",
                                 "from ..x import *\n"
                                 "from . import ps\n"
                                 "import functools\n"
                                 "_S = None\n"
                                 "@ps.register\n"  // a class given to a decorator
                                 "class C(ps.Base):\n"
                                 "    @classmethod\n"
                                 "    def m(cls, g=None, *a, k=1, **kw):\n"
                                 "        global _S\n"
                                 "        _S = g or ps.get_tp(g)\n"
                                 "        super().m(None, *a, **kw)\n"
                                 "        cls(g)\n"  // the class or one below it, built
                                 "        ps.f(**{'tp_group': g, 'x': None})\n"
                                 "        functools.partial(ps.f, g)\n"
                                 "    x: Optional[ps.L] = None\n"        // a field and its type
                                 "    def n(self, c: 'ps.C'):\n"         // a parameter's
                                 "        return self.x.y.m(c.x.f())\n"  // typed receivers
                                 "LAYERS = {'c': C}\n"  // a display the file follows
                                 "R, S = ps.pair()\n"   // a call's result unpacked
                                 "def g(k):\n"
                                 "    cls = LAYERS[k]\n"
                                 "    ps.f(LAYERS)\n"  // handed on: its element escapes
                                 "    return cls(), C, ps.get_tp(C)\n"  // returned, passed
                                 "_C = ps._S\n"  // an assigned alias, whose loads are a copy's
                                 "def h():\n"
                                 "    s = ps._S\n"
                                 "    return s\n"
                                 "def broken(:\n");
  ASSERT_FALSE(in.errors.empty());
  ASSERT_FALSE(in.refs.empty());
  ASSERT_FALSE(in.imports.empty());  // `from . import ps`
  ASSERT_FALSE(in.loads.empty());    // `from . import ps` loads .ps
  ASSERT_FALSE(in.calls.empty());
  ASSERT_EQ(in.classes.at(0).fields.at(0).types.size(), 1u);
  ASSERT_EQ(in.functions.at(1).params.at(1).types.size(), 1u);
  ASSERT_TRUE(std::any_of(in.calls.begin(), in.calls.end(), [](const Call& c) {
    return c.receiverParam == 1;  // `c.x.f()`: the fields set come back
  }));
  ASSERT_EQ(in.classes.at(0).decorated.size(), 1u);
  ASSERT_TRUE(
      std::any_of(in.calls.begin(), in.calls.end(), [](const Call& c) { return c.ownClass; }));
  ASSERT_TRUE(in.refs.back().targets.at(0).copy);  // `return s`: the fields set come back
  bool guarded = false;  // `g or ps.get_tp(g)`: a guard and its test come back
  for (const Ref& r : in.refs) guarded = guarded || (!r.guards.empty() && !r.tests.empty());
  ASSERT_TRUE(guarded);
  bool returned = false, handed = false;
  for (const Ref& r : in.refs) {
    returned = returned || (r.use == ValueUse::Returned && r.element == 1);
    handed = handed || (r.use == ValueUse::Element && r.container == "LAYERS" &&
                        r.handedOn.size() == 1 && r.handedOn[0].how == Handed::Argument);
  }
  ASSERT_TRUE(returned);
  ASSERT_TRUE(handed);
  bool holds = false;
  for (const Binding& b : in.bindings)
    holds = holds || (b.name == "S" && b.holds == Binding::Holds::Result && b.element == 1 &&
                      !b.resultOf.empty());
  ASSERT_TRUE(holds);
  in.unread = {"pkg/__init__.py:2:1: error: invalid syntax at 'return'"};
  in.allows = {{3, 5, true, "# gridlock: allow(why)"}};
  ModuleFacts out = decodeModuleFacts(encodeModuleFacts(in));
  EXPECT_EQ(test::differences(in, out), std::vector<std::string>{});
}

TEST(PythonModuleCodec, DamagedBytesAreAnError) {
  std::string bytes = encodeModuleFacts(extractModule("m.py", "import a\na.b()\n"));
  EXPECT_THROW(decodeModuleFacts(bytes.substr(0, bytes.size() / 2)), codec::Error);
  EXPECT_THROW(decodeModuleFacts("\xa1\x61x\x01"), codec::Error);  // CBOR of {"x": 1}: not these
}

}  // namespace
}  // namespace gridlock::python
