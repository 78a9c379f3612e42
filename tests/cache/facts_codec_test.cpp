// The facts codec: a translation unit's facts with every field set come back field for field
// from CBOR (shard files) and from the binary form (cache entries), whose layout names every
// field in order; a field added to a struct without the codec learning it fails here.
#include "facts/facts_codec.h"
#include "cache/deep_compare.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

using namespace gridlock::facts;

SourceFact sampleSource(const std::string& spelling) {
  SourceFact s;
  s.spelling = spelling;
  s.yields = Yields::Collection;
  s.group = "tp";
  s.name = "groups";
  s.shape = {Holder::Smart, true};
  s.fields = {"tp", "pp"};
  s.env = true;
  return s;
}

Read sampleRead(const std::string& file, unsigned line) {
  Read r;
  r.file = file;
  r.line = line;
  r.column = 9;
  r.name = "gridlock::parallel_state::get_tensor_model_parallel_group";
  r.kind = ReadKind::Laundered;
  r.group = "tp";
  r.yields = Yields::SrcRank;
  r.enclosing = "minitron::SelfAttention::forward";
  r.enclosingClass = "minitron::SelfAttention";
  r.enclosingUsr = "c:@N@minitron@S@SelfAttention@F@forward#";
  r.guard = Guard::Fallback;
  r.macro = "TP_RANK";
  r.edge = true;
  r.suppressed = "only logs once";
  r.hint = {Hint::Require, "this->pg_collection_->tp", false, true};
  r.spelling = "core/macros.h:6:45";
  r.offset = 120;
  r.length = 44;
  r.rangeLine = 3;
  r.rangeColumn = 5;
  r.endLine = 4;
  r.endColumn = 2;
  r.holder = "pg";
  r.guardFunction = "c:@F@helper#";
  r.guardParam = 2;
  r.inDefaultArgument = true;
  r.guardTests = {{3, Expect::None}, {4, Expect::False}};
  r.called = false;
  r.parentQualified = true;
  r.inLambda = true;
  r.inInitializer = true;
  r.eagerFallback = true;
  r.mutated = true;
  r.language = Language::Python;
  r.type = "std::shared_ptr<gridlock::ProcessGroup>";
  r.arguments = {"group", "/*rank=*/0"};
  r.analysis.fallbackDead = false;
  r.analysis.breakingSites = {"core/a.cpp:3:4"};
  r.analysis.launders = "gridlock::parallel_state::get_world_group";
  return r;
}

// Every field of every struct set to something other than its default.
TuFacts sampleFacts() {
  TuFacts tu;
  tu.mainFile = "core/attention.cpp";
  tu.reads = {sampleRead("core/attention.cpp", 12), sampleRead("core/attention.h", 3)};
  tu.badSuppressions = {{"core/attention.cpp", 7, 12, "// gridlock: allow", "no reason"}};
  tu.allows = {{"core/attention.cpp", 9, 3, "// gridlock: allow(logs)", true, true}};
  tu.parseError = ParseError{"core/attention.cpp",
                             {"core/attention.cpp:1:2: error: expected ';'"},
                             {"core/attention.cpp", "core/attention.h"}};
  tu.notes = {"nvcc command translated to Clang CUDA (host side)"};
  tu.exemptReads = {sampleRead("helpers/h.h", 4)};
  tu.digests = {{"core/attention.cpp", "0123456789abcdef0123456789abcdef"}};

  FunctionFact f;
  f.usr = "c:@N@minitron@S@Attention@F@Attention#";
  f.name = "minitron::Attention::Attention";
  f.classUsr = "c:@N@minitron@S@Attention";
  f.isConstructor = true;
  f.isVirtual = true;
  f.isStatic = true;
  f.isPublicApi = true;
  f.params = {{"pg_collection", "const Collection*", true, "nullptr"}};
  f.overrides = {"c:@N@minitron@S@Base@F@f#"};
  f.file = "core/attention.h";
  f.line = 30;
  tu.functions = {f};

  ClassFact k;
  k.usr = "c:@N@minitron@S@Attention";
  k.name = "minitron::Attention";
  k.bases = {"c:@S@Base"};
  k.file = "a.h";
  k.line = 4;
  tu.classes = {k};

  ClassBodyFact b;
  b.usr = k.usr;
  b.file = "a.h";
  b.memberAt = 210;
  b.memberOwnLine = true;
  b.memberIndent = "    ";
  b.accessIndent = " ";
  b.endAccess = Access::Public;
  b.isTemplate = true;
  b.userCopy = true;
  b.constructors = {f.usr};
  b.memberNames = {"Forward"};

  SiteFact s;
  s.calleeUsr = f.usr;
  s.callerUsr = "c:@F@main#";
  s.file = "train/main.cpp";
  s.line = 40;
  s.column = 15;
  s.via = Via::MakeUnique;
  s.classUsr = "c:@N@minitron@S@SelfAttention";
  ArgFact a;
  a.supplied = Supplied::Forwarded;
  a.forwardedFrom = 1;
  a.passed = Passed::StarKwargs;
  a.forwardedAlso = 2;
  a.offset = 500;
  a.length = 6;
  a.insertAt = 490;
  a.yields = Yields::Group;
  a.shape = {Holder::Pointer, true};
  s.args = {a};
  s.rparen = 520;
  s.written = 2;
  s.inMacro = true;
  s.sources = {sampleSource("groups")};
  s.alternative = true;
  tu.sites = {s};

  ValueFact v;
  v.usr = "py:pkg.layers.Col";
  v.file = "pkg/model.py";
  v.line = 12;
  v.column = 9;
  v.how = "passed as an argument";
  v.returnedBy = "py:pkg.layers.get_linear";
  v.result = true;
  tu.values = {v};

  ParamListFact p;
  p.usr = f.usr;
  p.file = "core/attention.h";
  p.lparen = 100;
  p.rparen = 140;
  p.written = 2;
  p.paramBegins = {101, 120};
  p.defaults = {{130, 10}};
  p.bodyFirst = 160;
  p.bodyIndent = "  ";
  p.bodyIndented = true;
  p.bodyNames = {"x"};
  p.definition = true;
  p.initAt = 150;
  p.initAfter = true;
  p.delegating = true;
  p.isTemplate = true;
  p.inMacro = true;
  p.aliases = {{"nn", "minitron::nn"}};
  tu.paramLists = {p};

  CallFact c;
  c.calleeUsr = f.usr;
  c.callerUsr = "c:@F@run#";
  c.file = "core/run.cpp";
  c.line = 8;
  c.column = 3;
  c.rparen = 90;
  c.written = 1;
  c.inMacro = true;
  c.inLambda = true;
  c.argBegins = {80};
  c.sources = {sampleSource("this->tp_group_")};
  tu.calls = {c};

  tu.addressTaken = {"c:@F@callback#"};
  tu.dependentCalls = {{"apply", "core/templates.h", 12, 300}};
  tu.skipped = {{"omp_get_thread_num", "core/a.cpp", 5, 77}};
  tu.conditionals = {{"core/a.cpp", 40, 120, 3, "#ifdef USE_MPI"}};
  tu.classBodies = {b};
  tu.includes = {"core/attention.h", "core/macros.h"};
  tu.rulesSeen = {"function gridlock::parallel_state::get_tensor_model_parallel_group",
                  "macro TP_RANK"};
  return tu;
}

TEST(FactsCodec, FieldCountsMatchTheCodec) {
  // A field added to one of these structs must be written and read by facts_codec.cpp and
  // set in sampleFacts() above; then update its count here.
  EXPECT_EQ(fieldCount<TuFacts>(), 21u);
  EXPECT_EQ(fieldCount<ValueFact>(), 7u);
  EXPECT_EQ(fieldCount<Read>(), 37u);
  EXPECT_EQ(fieldCount<ParamTest>(), 2u);
  EXPECT_EQ(fieldCount<FixHint>(), 4u);
  EXPECT_EQ(fieldCount<ReadAnalysis>(), 3u);
  EXPECT_EQ(fieldCount<BadSuppression>(), 5u);
  EXPECT_EQ(fieldCount<AllowFact>(), 6u);
  EXPECT_EQ(fieldCount<ParseError>(), 3u);
  EXPECT_EQ(fieldCount<FunctionFact>(), 11u);
  EXPECT_EQ(fieldCount<ParamFact>(), 4u);
  EXPECT_EQ(fieldCount<ClassFact>(), 5u);
  EXPECT_EQ(fieldCount<ClassBodyFact>(), 11u);
  EXPECT_EQ(fieldCount<SiteFact>(), 13u);
  EXPECT_EQ(fieldCount<ArgFact>(), 9u);
  EXPECT_EQ(fieldCount<SourceFact>(), 7u);
  EXPECT_EQ(fieldCount<Shape>(), 2u);
  EXPECT_EQ(fieldCount<ParamListFact>(), 18u);
  EXPECT_EQ(fieldCount<CallFact>(), 11u);
  EXPECT_EQ(fieldCount<DependentCallFact>(), 4u);
  EXPECT_EQ(fieldCount<SkippedName>(), 4u);
  EXPECT_EQ(fieldCount<ConditionalFact>(), 5u);
}

TEST(FactsCodec, SampleSetsEveryField) {
  // Otherwise the round trip below could not notice a field the codec drops.
  EXPECT_EQ(defaultsLeft(sampleFacts()), std::vector<std::string>{});
}

TEST(FactsCodec, EveryFieldSurvivesARoundTrip) {
  TuFacts in = sampleFacts();
  std::string bytes = encodeTuFacts(in);
  ASSERT_FALSE(bytes.empty());
  TuFacts out = decodeTuFacts(bytes);
  EXPECT_EQ(differences(in, out), std::vector<std::string>{});
}

TEST(FactsCodec, EveryFieldSurvivesABinaryRoundTrip) {
  TuFacts in = sampleFacts();
  std::string bytes = encodeTuFactsBinary(in);
  ASSERT_FALSE(bytes.empty());
  TuFacts out = decodeTuFactsBinary(bytes);
  EXPECT_EQ(differences(in, out), std::vector<std::string>{});
  TuFacts empty;
  EXPECT_EQ(differences(empty, decodeTuFactsBinary(encodeTuFactsBinary(empty))),
            std::vector<std::string>{});
}

TEST(FactsCodec, DamagedBinaryIsACodecError) {
  std::string bytes = encodeTuFactsBinary(sampleFacts());
  // Every proper prefix is too short for the facts it starts.
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_THROW(decodeTuFactsBinary(bytes.substr(0, n)), CodecError) << n << " bytes";
  EXPECT_THROW(decodeTuFactsBinary(bytes + "x"), CodecError);  // trailing bytes
  // A count far past the end is refused before anything is allocated for it.
  EXPECT_THROW(decodeTuFactsBinary(std::string("\x01a\xff\xff\xff\xff\x0f", 7)), CodecError);
  try {
    decodeTuFactsBinary(bytes.substr(0, 5));
    ADD_FAILURE() << "a truncated input was accepted";
  } catch (const CodecError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("facts: byte ", 0), 0u) << e.what();
  }
}

TEST(FactsCodec, BinaryLayoutNamesEveryFieldInOrder) {
  // What two gridlocks must agree on to read each other's binary facts: the fields in order
  // with their kinds, enums with their spellings.
  std::string layout = binaryLayout();
  EXPECT_EQ(layout.rfind("{main_file:s,reads:[{file:s,line:u,column:u,name:s,kind:e(accessor|shim|"
                         "global_state|global_write|laundered|),group:s,yields:e(group|size|rank|"
                         "src_rank|collection|state|value|),",
                         0),
            0u)
      << layout;
  EXPECT_NE(layout.find("parse_error:?{file:s,messages:[s],files:[s],}"), std::string::npos);
  EXPECT_NE(layout.find("definition:b,init_at:u,init_after:b,delegating:b,is_template:b,in_macro:b,"
                        "aliases:[(s,s)],}"),
            std::string::npos)
      << layout;
  EXPECT_NE(layout.find("classes:[{usr:s,name:s,bases:[s],file:s,line:u,}],sites:"),
            std::string::npos)
      << layout;
  EXPECT_NE(layout.find("skipped:[{name:s,file:s,line:u,offset:u,}],conditionals:[{file:s,begin:u,"
                        "end:u,line:u,condition:s,}],class_bodies:[{usr:s,file:s,member_at:u,"
                        "member_own_line:b,member_indent:s,access_indent:s,end_access:e(|public|"
                        "protected|private|),is_template:b,user_copy:b,constructors:[s],member_"
                        "names:[s],}],includes:[s],rules_seen:[s],}"),
            std::string::npos)
      << layout;
  EXPECT_EQ(layout, binaryLayout());
}

TEST(FactsCodec, EmptyFactsSurviveARoundTrip) {
  TuFacts in;
  in.mainFile = "a.cpp";
  TuFacts out = decodeTuFacts(encodeTuFacts(in));
  EXPECT_EQ(differences(in, out), std::vector<std::string>{});
  EXPECT_FALSE(out.parseError.has_value());
  EXPECT_TRUE(out.reads.empty());
}

TEST(FactsCodec, EnumsAreSpelled) {
  nlohmann::json j = toJson(sampleFacts());
  EXPECT_EQ(j["reads"][0]["kind"], "laundered");
  EXPECT_EQ(j["reads"][0]["hint"]["fix"], "require");
  EXPECT_EQ(j["class_bodies"][0]["end_access"], "public");
  EXPECT_EQ(j["sites"][0]["via"], "make_unique");
  EXPECT_EQ(j["sites"][0]["args"][0]["shape"], "optional:pointer");
}

TEST(FactsCodec, MalformedInputIsACodecError) {
  std::string bytes = encodeTuFacts(sampleFacts());
  EXPECT_THROW(decodeTuFacts(bytes.substr(0, bytes.size() / 2)), CodecError);
  EXPECT_THROW(decodeTuFacts("not cbor at all"), CodecError);

  nlohmann::json j = toJson(sampleFacts());
  j["reads"][0]["kind"] = "acessor";
  try {
    tuFactsFromJson(j);
    ADD_FAILURE() << "an unknown spelling was accepted";
  } catch (const CodecError& e) {
    EXPECT_STREQ(e.what(), "facts: /reads/0/kind: unknown value \"acessor\"");
  }
  j = toJson(sampleFacts());
  j["sites"][0].erase("rparen");
  try {
    tuFactsFromJson(j);
    ADD_FAILURE() << "a missing key was accepted";
  } catch (const CodecError& e) {
    EXPECT_STREQ(e.what(), "facts: /sites/0: missing \"rparen\"");
  }
}

}  // namespace
}  // namespace gridlock::test
