// GoogleTest JSON and JUnit XML readers: outcomes, messages, crashes, truncation, bad input.
#include "helpers.h"
#include "pair/gtest_json_reader.h"
#include "pair/junit_reader.h"

#include <gtest/gtest.h>

namespace gridlock::pair {
namespace {

using testing::dataDir;
using testing::readFile;

ResultFile read(const std::string& name) {
  ResultFile f;
  f.path = dataDir() + "/readers/" + name;
  std::string text = readFile(f.path);
  if (name.ends_with(".json"))
    readGTestJson(text, f);
  else
    readJUnitXml(text, f);
  return f;
}

std::string outcomes(const ResultFile& f) {
  std::string s;
  for (const Observation& o : f.tests) {
    const char* names[] = {"pass", "fail", "skip", "crash"};
    s += o.id.display() + "=" + names[static_cast<int>(o.outcome)] + " ";
  }
  return s;
}

TEST(GTestJson, ReadsEveryOutcomeAndTheFirstFailure) {
  ResultFile f = read("gtest.json");
  EXPECT_FALSE(f.truncated);
  EXPECT_EQ(outcomes(f),
            "S.Pass=pass S.Fail=fail S.Throw=fail S.Skip=skip S.DISABLED_Off=skip "
            "I/P.Param/0=pass I/P.Param/1=fail ");
  EXPECT_EQ(
      f.tests[1].message,
      "t.cpp:4\nExpected equality of these values:\n  a\n    Which is: 3\n  4\nextra 0xdeadbeef");
  EXPECT_EQ(f.tests[2].message,
            "unknown file\nC++ exception with description \"Attention requires an explicit "
            "pg_collection\" thrown in the test body.");
}

TEST(GTestJson, TruncatedOrEmptyFileIsACrashNotAnError) {
  ResultFile t = read("truncated.json");
  EXPECT_TRUE(t.truncated);
  EXPECT_TRUE(t.tests.empty());
  EXPECT_EQ(t.problem, "truncated JSON (700 bytes)");
  ResultFile e = read("empty.json");
  EXPECT_TRUE(e.truncated);
  EXPECT_EQ(e.problem, "truncated JSON (0 bytes)");
}

TEST(GTestJson, MalformedFileNamesFileAndProblem) {
  try {
    read("malformed.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    std::string m = e.what();
    EXPECT_EQ(m.find(dataDir() + "/readers/malformed.json: malformed JSON at byte 53: "
                                 "[json.exception.parse_error.101] parse error at line 1, column "
                                 "53: syntax error while parsing object key"),
              0u)
        << m;
  }
  try {
    read("not_gtest.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dataDir() +
                                         "/readers/not_gtest.json: not a GoogleTest JSON "
                                         "report: no \"testsuites\" array");
  }
}

TEST(JUnit, ReadsGoogleTestXml) {
  ResultFile f = read("gtest.xml");
  EXPECT_EQ(outcomes(f),
            "S.Pass=pass S.Fail=fail S.Throw=fail S.Skip=skip S.DISABLED_Off=skip "
            "I/P.Param/0=pass I/P.Param/1=fail ");
  EXPECT_EQ(f.tests[6].message, "t.cpp:9\nExpected: (GetParam()) > (0), actual: 0 vs 0");
}

TEST(JUnit, ReadsCTestAndSeesCrashesInCapturedOutput) {
  ResultFile f = read("ctest.xml");
  EXPECT_EQ(outcomes(f),
            "Model.Passes=pass Model.Fails=fail Model.Segfaults=crash Model.MpiAbort=crash "
            "plain_script=fail Model.Disabled=skip Model.NoGpu=skip Model.NotBuilt=crash ");
  EXPECT_EQ(f.tests[1].message,
            "/work/tree/tests/model_test.cpp:42: Failure\nExpected equality of these values:\n"
            "  shard\n    Which is: 7\n  8");
  EXPECT_EQ(f.tests[2].message, "died while running Model.Segfaults");
  EXPECT_EQ(f.tests[3].message,
            "mpirun noticed that process rank 1 with PID 0 on node host exited on signal 6 "
            "(Aborted).");
  EXPECT_EQ(f.tests[4].message, "layout mismatch: tp=2 pp=4");
  EXPECT_EQ(f.tests[6].message, "SKIP_RETURN_CODE=77");
  EXPECT_EQ(f.tests[7].message, "Unable to find executable");
}

TEST(JUnit, ErrorElementIsACrash) {
  ResultFile f;
  f.path = "x.xml";
  readJUnitXml(
      "<testsuites><testsuite name=\"S\"><testcase classname=\"S\" name=\"a\">"
      "<error message=\"killed\"/></testcase><testcase classname=\"S\" name=\"S.b\"/>"
      "</testsuite></testsuites>",
      f);
  EXPECT_EQ(outcomes(f), "S.a=crash S.b=pass ");
  EXPECT_EQ(f.tests[0].message, "killed");
  EXPECT_EQ(f.tests[1].id, (TestId{"S", "b"}));  // the class prefix of the name is the suite
}

TEST(JUnit, SuiteAndNameStayApart) {
  ResultFile f;
  f.path = "x.xml";
  readJUnitXml(
      "<testsuite><testcase classname=\"pkg.Class\" name=\"test\"/>"
      "<testcase classname=\"pkg\" name=\"Class.test\"/>"
      "<testcase classname=\"Suite.Name\" name=\"Suite.Name\"/>"
      "<testcase classname=\"plain\" name=\"plain\"/>"
      "<testcase name=\"A.b.c\"/></testsuite>",
      f);
  std::vector<TestId> ids;
  for (const Observation& o : f.tests) ids.push_back(o.id);
  std::vector<TestId> expected = {
      {"pkg.Class", "test"}, {"pkg", "Class.test"}, {"Suite", "Name"}, {"", "plain"}, {"A", "b.c"}};
  EXPECT_EQ(ids, expected);
}

TEST(JUnit, TruncatedAndMalformed) {
  ResultFile t = read("truncated.xml");
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.problem, "truncated XML (900 bytes)");
  try {
    read("not_junit.xml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              dataDir() + "/readers/not_junit.xml: not a JUnit XML report: root element <html>");
  }
  try {
    read("malformed.xml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(
        std::string(e.what()).find(dataDir() + "/readers/malformed.xml: malformed XML at byte"), 0u)
        << e.what();
  }
}

TEST(CrashEvidence, FindsMarkersAndUnfinishedTests) {
  EXPECT_EQ(crashEvidence("[ RUN      ] A.b\n[       OK ] A.b (0 ms)\n"), "");
  EXPECT_EQ(crashEvidence("[ RUN      ] A.b\n[       OK ] A.b (0 ms)\n[ RUN      ] A.c\n"),
            "died while running A.c");
  EXPECT_EQ(crashEvidence("x\n  Segmentation fault (core dumped)\n"),
            "Segmentation fault (core dumped)");
  EXPECT_EQ(crashEvidence("Expected equality"), "");
}

}  // namespace
}  // namespace gridlock::pair
