// Every nvcc option that takes a value, in every spelling and form nvcc accepts: the real nvcc
// (--dryrun: it parses and checks every option, and runs only `gcc -E` once) accepts the line,
// and the translation gives exactly the Clang flags that option means, one input, no leftovers.
#include "frontend/nvcc_options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "frontend/nvcc_host_meaning.h"
#include "frontend/nvcc_translate.h"
#include "nvcc_test_support.h"

namespace gridlock::frontend {
namespace {

using test::Args;
using test::join;

struct Case {
  std::string value;  // a value nvcc accepts
  Args clang;         // the Clang flags it means
  std::string note;   // the note it gets, "{}" standing for "SPELLING VALUE"; empty: none
  Args context = {};  // what nvcc wants beside it (-MF: one of -M, -MD, ...)
};

const std::string kDropped = "dropped nvcc-only {}";

// One case per option of nvcc_options_table.cpp that takes a value.
const std::map<std::string_view, Case>& cases() {
  static const std::map<std::string_view, Case> m = {
      {"output-file", {"k.o", {}, ""}},
      {"pre-include", {"pre.h,pre2.h", {"-include", "pre.h", "-include", "pre2.h"}, ""}},
      {"library", {"m", {}, kDropped}},
      {"define-macro", {"A=1,B", {"-DA=1", "-DB"}, ""}},
      {"undefine-macro", {"A,B", {"-UA", "-UB"}, ""}},
      {"include-path", {"inc,inc2", {"-Iinc", "-Iinc2"}, ""}},
      {"system-include", {"inc,inc2", {"-isystem", "inc", "-isystem", "inc2"}, ""}},
      {"library-path", {"inc", {}, kDropped}},
      {"output-directory", {".", {}, kDropped}},
      {"compiler-bindir", {"gcc", {}, kDropped}},
      {"archiver-binary", {"ar", {}, kDropped}},
      {"cudart", {"static", {}, kDropped}},
      {"cudadevrt", {"static", {}, kDropped}},
      {"libdevice-directory", {".", {}, kDropped}},
      {"target-directory", {"x86_64-linux", {}, kDropped}},
      {"optimization-info", {"inline", {}, kDropped}},
      {"optimize", {"2", {"-O2"}, ""}},
      {"Ofast-compile", {"max", {}, kDropped}},
      {"dopt", {"on", {}, kDropped}},
      {"ftemplate-backtrace-limit", {"5", {"-ftemplate-backtrace-limit=5"}, ""}},
      {"ftemplate-depth", {"100", {"-ftemplate-depth=100"}, ""}},
      {"x", {"cu", {}, ""}},  // the translation always names the language: -x cuda
      {"std", {"c++17", {"-std=c++17"}, ""}},
      {"machine", {"64", {"-m64"}, ""}},
      {"compiler-options",
       {"-Wall,-include,pre.h", {"-Wall", "-include", "pre.h"}, "mapped {} to host flags"}},
      {"linker-options", {"--as-needed", {}, kDropped}},
      {"archive-options", {"x", {}, kDropped}},
      {"ptxas-options", {"-v", {}, kDropped}},
      {"nvlink-options", {"-v", {}, kDropped}},
      {"static-global-template-stub", {"true", {}, kDropped}},
      {"device-entity-has-hidden-visibility", {"true", {}, kDropped}},
      {"threads", {"2", {}, kDropped}},
      {"split-compile", {"2", {}, kDropped}},
      {"split-compile-extended", {"2", {}, kDropped}},
      {"fdevice-time-trace", {"trace.json", {}, kDropped}},
      {"keep-dir", {".", {}, kDropped}},
      {"time", {"time.csv", {}, kDropped}},
      {"run-args", {"x", {}, kDropped}},
      {"input-drive-prefix", {"/cygwin/", {}, kDropped}},
      {"dependency-drive-prefix", {"/cygwin/", {}, kDropped}},
      {"drive-prefix", {"/cygwin/", {}, kDropped}},
      {"dependency-target-name", {"k.o", {}, ""}},
      {"gpu-architecture", {"sm_90", {}, kDropped}},
      {"gpu-code", {"sm_90", {}, kDropped, {"-arch=compute_90"}}},
      {"generate-code", {"arch=compute_90,code=sm_90", {}, kDropped}},
      {"relocatable-device-code", {"true", {"-D__CUDACC_RDC__"}, "mapped {} to -D__CUDACC_RDC__"}},
      {"entries", {"k", {}, kDropped}},
      {"maxrregcount", {"32", {}, kDropped}},
      {"ftz", {"true", {}, kDropped}},
      {"prec-div", {"true", {}, kDropped}},
      {"prec-sqrt", {"true", {}, kDropped}},
      {"fmad", {"true", {}, kDropped}},
      {"default-stream",
       {"per-thread",
        {"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"},
        "mapped {} to -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"}},
      {"Werror", {"reorder", {}, kDropped}},
      {"diag-error", {"20", {}, kDropped}},
      {"diag-suppress", {"20", {}, kDropped}},
      {"diag-warn", {"20", {}, kDropped}},
      {"host-linker-script", {"use-lcs", {}, kDropped}},
      {"brief-diagnostics", {"true", {}, kDropped}},
      {"jump-table-density", {"50", {}, kDropped}},
      {"device-stack-protector", {"true", {}, kDropped}},
      {"compress-mode", {"size", {}, kDropped}},
      {"frandom-seed", {"1", {"-frandom-seed=1"}, ""}},
      {"sanitize", {"memcheck", {}, kDropped}},
      {"options-file", {"opts.rsp", {"-DFROM_FILE", "-Iinc"}, "expanded {}"}},
      {"dependency-output", {"k.d", {}, "", {"-MD"}}},
      {"qpp-config", {"8.3.0,gcc_ntox86_64", {}, kDropped, {"-ccbin", test::kHostCc}}},
  };
  return m;
}

const NvccOption* option(std::string_view longName) {
  for (const NvccOption& o : nvccOptions())
    if (o.longName == longName) return &o;
  return nullptr;
}

// A form of an option on a command line, and how the translation should name it in a note.
struct Form {
  Args args;
  std::string said;  // "SPELLING VALUE" or "SPELLING"
};

// Every form nvcc takes: --long=v, --long v, -short=v, -short v, -Sv where the option has it,
// and the option alone where its value is optional.
std::vector<Form> forms(const NvccOption& o, const std::string& v) {
  std::vector<Form> out;
  std::vector<std::string> names = {"--" + std::string(o.longName)};
  if (!o.shortName.empty()) names.push_back("-" + std::string(o.shortName));
  for (const auto& n : names) {
    out.push_back({{n + "=" + v}, n + " " + v});
    out.push_back({{n, v}, n + " " + v});
    if (o.value == NvccValue::Optional) out.push_back({{n}, n});
  }
  if (o.attached)
    out.push_back({{"-" + std::string(o.shortName) + v}, "-" + std::string(o.shortName) + " " + v});
  return out;
}

std::string replaceSaid(std::string note, const std::string& said) {
  size_t at = note.find("{}");
  if (at != std::string::npos) note.replace(at, 2, said);
  return note;
}

class NvccValueOption : public testing::TestWithParam<std::string_view> {};

TEST_P(NvccValueOption, EverySpellingIsTranslatedAndNvccTakesIt) {
  const NvccOption* o = option(GetParam());
  ASSERT_NE(o, nullptr);
  const Case& c = cases().at(o->longName);
  test::NvccWorkdir work;
  const std::string& dir = work.path();
  CudaSettings cuda;

  Args contextLine = {"nvcc"};
  contextLine.insert(contextLine.end(), c.context.begin(), c.context.end());
  contextLine.insert(contextLine.end(), {"-c", "k.cu"});
  NvccTranslation context = translateNvcc(contextLine, dir, cuda, test::readFile);

  std::vector<Args> lines;
  for (const Form& f : forms(*o, c.value)) {
    Args line = {"nvcc"};
    line.insert(line.end(), c.context.begin(), c.context.end());
    line.insert(line.end(), f.args.begin(), f.args.end());
    line.insert(line.end(), {"-c", "k.cu"});
    lines.push_back(line);
    SCOPED_TRACE(join(line));

    // The context's flags, then the option's, then the language and the one input.
    Args want = context.args;
    auto at = std::find(want.begin(), want.end(), "k.cu") - 2;  // at "-x" "cuda" "k.cu"
    want.insert(at, c.clang.begin(), c.clang.end());
    std::vector<std::string> wantNotes = context.notes;
    if (!c.note.empty()) wantNotes.push_back(replaceSaid(c.note, f.said));

    NvccTranslation t = translateNvcc(line, dir, cuda, test::readFile);
    EXPECT_EQ(join(t.args), join(want));
    EXPECT_EQ(t.notes, wantNotes);
  }

  std::string whyNot;
  std::string nvcc = test::usableNvcc(whyNot);
  if (nvcc.empty()) GTEST_SKIP() << whyNot;
  for (const Args& line : lines) {
    std::string log;
    EXPECT_EQ(test::runNvcc(nvcc, dir, line, log), 0) << join(line) << "\n" << log;
  }
  // `-long` and `--short` are no spelling of this option: nvcc calls them unknown, or reads them
  // as another option with an attached value (`-library` is `-l ibrary`); so does the reader.
  std::vector<std::string> wrong;
  if (o->shortName != o->longName) {
    wrong.push_back("-" + std::string(o->longName));
    if (!o->shortName.empty()) wrong.push_back("--" + std::string(o->shortName));
  }
  for (const auto& w : wrong) {
    Args line = {"nvcc", w, "-c", "k.cu"};
    std::string log;
    test::runNvcc(nvcc, dir, line, log);
    bool nvccUnknown = log.find("Unknown option '" + w + "'") != std::string::npos;
    size_t i = 1;
    NvccArg a = readNvccArg(line, i);
    EXPECT_EQ(a.kind == NvccArg::Kind::Unknown, nvccUnknown) << join(line) << "\n" << log;
    // `-library` is still -l, but read as `-l ibrary`, not as a spelling of --library.
    if (a.option == o) EXPECT_EQ(a.spelling, "-" + std::string(o->shortName)) << w;
  }
}

std::vector<std::string_view> valueOptions() {
  std::vector<std::string_view> out;
  for (const NvccOption& o : nvccOptions())
    if (o.value != NvccValue::None) out.push_back(o.longName);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Nvcc, NvccValueOption, testing::ValuesIn(valueOptions()),
                         [](const testing::TestParamInfo<std::string_view>& info) {
                           std::string name(info.param);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(NvccOptionTable, EveryValueOptionHasACaseAndEveryMeaningAnOption) {
  for (std::string_view name : valueOptions()) EXPECT_TRUE(cases().count(name)) << name;
  for (const auto& [name, c] : cases()) {
    const NvccOption* o = option(name);
    ASSERT_NE(o, nullptr) << name;
    EXPECT_NE(o->value, NvccValue::None) << name;
  }
  for (std::string_view name : hostMeaningNames()) EXPECT_NE(option(name), nullptr) << name;
  EXPECT_EQ(nvccOptions().size(), 143u);  // nvcc 13.0's --help
  EXPECT_EQ(valueOptions().size(), 67u);
}

}  // namespace
}  // namespace gridlock::frontend
