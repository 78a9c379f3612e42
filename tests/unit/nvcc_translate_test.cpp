// nvcc commands as CMake writes them, turned into Clang CUDA host commands.
#include "frontend/nvcc_translate.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>

#include "nvcc_test_support.h"

namespace gridlock::frontend {
namespace {

std::optional<std::string> fakeRead(const std::string& path) {
  if (path == "/build/CMakeFiles/includes_CUDA.rsp")
    return std::string("-I/src -isystem=/dep \"-I/with space\"");
  return std::nullopt;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

TEST(Nvcc, TranslatesCMakeCommand) {
  CudaSettings cuda;
  cuda.clang = "/usr/lib/llvm-19/bin/clang++";
  NvccTranslation t = translateNvcc({"/usr/local/cuda/bin/nvcc",
                                     "-forward-unknown-to-host-compiler",
                                     "-DFOO=1",
                                     "--options-file",
                                     "CMakeFiles/includes_CUDA.rsp",
                                     "-O3",
                                     "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                                     "-Xcompiler=-fPIC,-Wall",
                                     "--expt-relaxed-constexpr",
                                     "-std=c++17",
                                     "-x",
                                     "cu",
                                     "-c",
                                     "/src/k.cu",
                                     "-o",
                                     "k.o",
                                     "-MD",
                                     "-MT",
                                     "k.o",
                                     "-MF",
                                     "k.o.d",
                                     "--unknown-nvcc-thing"},
                                    "/build", cuda, fakeRead);
  EXPECT_EQ(join(t.args),
            "/usr/lib/llvm-19/bin/clang++ -DFOO=1 -I/src -isystem /dep -I/with space -O3 -fPIC "
            "-Wall -D__CUDACC_RELAXED_CONSTEXPR__ -std=c++17 -x cuda /src/k.cu --cuda-host-only "
            "--cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -idirafter "
            "/gridlock-virtual/cuda13 -isystem /usr/local/cuda/include/cccl");
  // nvcc defines __CUDACC_RELAXED_CONSTEXPR__ for its host passes; it used to be dropped.
  EXPECT_EQ(join(t.notes),
            "dropped nvcc-only -forward-unknown-to-host-compiler expanded --options-file "
            "CMakeFiles/includes_CUDA.rsp dropped nvcc-only --generate-code "
            "arch=compute_90,code=[compute_90,sm_90] mapped -Xcompiler -fPIC,-Wall to host flags "
            "mapped --expt-relaxed-constexpr to -D__CUDACC_RELAXED_CONSTEXPR__ dropped unknown "
            "nvcc option --unknown-nvcc-thing");
}

TEST(Nvcc, MissingOptionsFileIsSaidAndLanguageAdded) {
  NvccTranslation t = translateNvcc({"nvcc", "--options-file=missing.rsp", "-c", "k.cu"}, "/b",
                                    CudaSettings{}, fakeRead);
  EXPECT_EQ(t.args[1], "-x");
  EXPECT_EQ(t.args[2], "cuda");
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_EQ(t.notes[0],
            "could not read --options-file /b/missing.rsp: its flags are missing from the parse");
  EXPECT_TRUE(isNvcc("/usr/local/cuda/bin/nvcc"));
  EXPECT_FALSE(isNvcc("/usr/bin/clang++-19"));
}

// Lines that broke the way `--pre-include FILE` did, or near it. Each is proven with nvcc
// (--dryrun) after its translation is checked.
class NvccLine : public testing::Test {
 protected:
  // Translates the line in the work directory; the line is kept to prove with nvcc at the end.
  NvccTranslation translate(const test::Args& line, const std::string& file = "") {
    lines_.push_back(line);
    return translateNvcc(line, dir(), CudaSettings{}, test::readFile, file);
  }
  void TearDown() override {
    if (HasFailure()) return;
    std::string whyNot, nvcc = test::usableNvcc(whyNot);
    if (nvcc.empty()) GTEST_SKIP() << whyNot;
    for (const auto& line : lines_) {
      std::string log;
      EXPECT_EQ(test::runNvcc(nvcc, dir(), line, log), 0) << test::join(line) << "\n" << log;
    }
  }
  const std::string& dir() const { return work_.path(); }
  // `clang++ FLAGS -x cuda k.cu` and the CUDA host flags.
  static std::string want(const std::string& flags, const std::string& input = "k.cu") {
    std::string s = "clang++ " + (flags.empty() ? "" : flags + " ") + "-x cuda " + input;
    for (const auto& f : cudaHostFlags(CudaSettings{})) s += " " + f;
    return s;
  }

 private:
  test::NvccWorkdir work_;
  std::vector<test::Args> lines_;
};

TEST_F(NvccLine, PreIncludeValueIsNoSecondInput) {
  NvccTranslation t =
      translate({"nvcc", "--pre-include", "pre.h", "-include=pre2.h", "-x", "cu", "-c", "k.cu"});
  EXPECT_EQ(join(t.args), want("-include pre.h -include pre2.h"));
  EXPECT_EQ(t.notes, std::vector<std::string>{});
}

TEST_F(NvccLine, CompilerOptionsSplitAsNvccSplitsThem) {
  NvccTranslation t =
      translate({"nvcc", "-Xcompiler=-fopenmp,-Wall", "-Xcompiler", "-include,pre.h",
                 "--compiler-options", "-DX=\"a,b\"", "-Xcompiler", "-DY=1\\,2", "-c", "k.cu"});
  EXPECT_EQ(join(t.args), want("-fopenmp -Wall -include pre.h -DX=a,b -DY=1,2"));
  EXPECT_EQ(t.notes,
            (std::vector<std::string>{"mapped -Xcompiler -fopenmp,-Wall to host flags",
                                      "mapped -Xcompiler -include,pre.h to host flags",
                                      "mapped --compiler-options -DX=\"a,b\" to host flags",
                                      "mapped -Xcompiler -DY=1\\,2 to host flags"}));
}

TEST_F(NvccLine, HostFlagsClangDoesNotKnowAreLeftOutAndSaid) {
  NvccTranslation t = translate({"nvcc", "-forward-unknown-to-host-compiler", "-fPIC",
                                 "-fconcepts-diagnostics-depth=2", "-pthread",
                                 "-Xcompiler=-fconserve-stack,-Wall", "-c", "k.cu"});
  EXPECT_EQ(join(t.args), want("-fPIC -pthread -Wall"));
  EXPECT_EQ(t.notes, (std::vector<std::string>{
                         "dropped nvcc-only -forward-unknown-to-host-compiler",
                         "dropped unknown nvcc option -fconcepts-diagnostics-depth=2",
                         "mapped -Xcompiler -fconserve-stack,-Wall to host flags",
                         "dropped -fconserve-stack from -Xcompiler: Clang does not know it",
                         "passed options nvcc does not know to Clang, as nvcc passes them to the "
                         "host compiler: -fPIC -pthread"}));
}

TEST_F(NvccLine, DefinesSplitOnCommasOutsideQuotes) {
  NvccTranslation t = translate({"nvcc", "-DA=1,B", "-DF(x)=f(x\\,1)", "-DS=\"a,b\"",
                                 "--define-macro=C", "-U", "D,E", "-c", "k.cu"});
  EXPECT_EQ(join(t.args), want("-DA=1 -DB -DF(x)=f(x,1) -DS=\"a,b\" -DC -UD -UE"));
  EXPECT_EQ(t.notes, std::vector<std::string>{});
}

TEST_F(NvccLine, IncludePathsAttachedSeparateAndListed) {
  NvccTranslation t =
      translate({"nvcc", "-Iinc", "-I", "inc2", "-I=inc", "-isystem=inc2", "-isystem", "inc",
                 "--include-path", "inc,inc2", "--system-include=\"inc,2\"", "-c", "k.cu"});
  EXPECT_EQ(join(t.args), want("-Iinc -Iinc2 -Iinc -isystem inc2 -isystem inc -Iinc -Iinc2 "
                               "-isystem inc,2"));
}

TEST_F(NvccLine, OptionsFilesNestQuoteAndList) {
  llvm::sys::fs::create_directory(dir() + "/sub");
  // nvcc reads a nested options file relative to where it runs, not to the file naming it.
  test::writeFile(dir() + "/sub/outer.rsp",
                  "-optf sub/inner.rsp \"-I/with space\" -DQ=\\\"s\\\"\n");
  test::writeFile(dir() + "/sub/inner.rsp", "-DINNER\n");
  test::writeFile(dir() + "/a.rsp", "--pre-include\npre.h\n");
  test::writeFile(dir() + "/b.rsp", "-DB");
  NvccTranslation t =
      translate({"nvcc", "--options-file", "sub/outer.rsp", "-optf", "a.rsp,b.rsp", "-c", "k.cu"});
  EXPECT_EQ(join(t.args), want("-DINNER -I/with space -DQ=\"s\" -include pre.h -DB"));
  EXPECT_EQ(t.notes, (std::vector<std::string>{"expanded --options-file sub/outer.rsp",
                                               "expanded -optf sub/inner.rsp",
                                               "expanded -optf a.rsp", "expanded -optf b.rsp"}));
}

TEST_F(NvccLine, SwitchesNvccTurnsIntoHostMacros) {
  NvccTranslation t =
      translate({"nvcc", "--extended-lambda", "--expt-relaxed-constexpr", "-G", "-rdc=true",
                 "--default-stream=legacy", "-lineinfo", "-c", "k.cu"});
  EXPECT_EQ(join(t.args), want("-D__CUDACC_EXTENDED_LAMBDA__ -D__CUDACC_RELAXED_CONSTEXPR__ "
                               "-D__CUDACC_DEBUG__ -D__CUDACC_RDC__"));
  EXPECT_EQ(t.notes,
            (std::vector<std::string>{
                "mapped --extended-lambda to -D__CUDACC_EXTENDED_LAMBDA__",
                "mapped --expt-relaxed-constexpr to -D__CUDACC_RELAXED_CONSTEXPR__",
                "mapped -G to -D__CUDACC_DEBUG__", "mapped -rdc true to -D__CUDACC_RDC__",
                "dropped nvcc-only --default-stream legacy", "dropped nvcc-only -lineinfo"}));
}

TEST_F(NvccLine, OneInputRemains) {
  test::writeFile(dir() + "/other.cu", "");
  NvccTranslation t =
      translate({"nvcc", "-c", "k.cu", "other.cu", "-Xcompiler=extra.c"}, dir() + "/k.cu");
  EXPECT_EQ(join(t.args), want(""));
  EXPECT_EQ(t.notes,
            (std::vector<std::string>{
                "mapped -Xcompiler extra.c to host flags",
                "dropped extra.c from -Xcompiler: a file for the host compiler, not a flag",
                "dropped input other.cu: this entry is for k.cu"}));
}

TEST_F(NvccLine, HostSourcesAreNoCuda) {
  test::writeFile(dir() + "/host.cpp", "");
  NvccTranslation t = translate({"nvcc", "-std=c++17", "-c", "host.cpp"});
  std::string w = "clang++ -std=c++17 host.cpp";
  for (const auto& f : cudaHostFlags(CudaSettings{})) w += " " + f;
  EXPECT_EQ(join(t.args), w);
  EXPECT_EQ(t.notes, std::vector<std::string>{"nvcc compiles host.cpp as host C/C++: no -x cuda"});
}

// Lines nvcc itself refuses: said, and nothing of them left behind.
TEST(Nvcc, WhatNvccRefusesIsSaid) {
  test::NvccWorkdir work;
  test::writeFile(work.path() + "/loop.rsp", "-DL -optf loop.rsp");
  test::writeFile(work.path() + "/bad.rsp", "-DBAD \"-Iunterminated");
  NvccTranslation t = translateNvcc({"nvcc", "-lineinfo=true", "-optf", "loop.rsp", "-optf",
                                     "bad.rsp", "", "-c", "k.cu", "-fPIC", "-Xcompiler"},
                                    work.path(), CudaSettings{}, test::readFile);
  EXPECT_EQ(t.args[1], "-DL");
  EXPECT_EQ(t.args[2], "-DBAD");
  EXPECT_EQ(t.args[3], "-fPIC");
  EXPECT_EQ(t.args[4], "-x");
  EXPECT_EQ(t.notes,
            (std::vector<std::string>{
                "dropped -lineinfo=true: nvcc refuses it (no argument expected after "
                "-lineinfo)",
                "expanded -optf loop.rsp",
                "options file " + work.path() + "/loop.rsp names itself: read once",
                "expanded -optf bad.rsp",
                "options file " + work.path() +
                    "/bad.rsp: nvcc refuses it (Stray '\"' character); read up to there",
                "dropped an empty argument",
                "dropped -Xcompiler: nvcc refuses it (argument expected after -Xcompiler)",
                "passed options nvcc does not know to Clang, as nvcc passes them to the host "
                "compiler: -fPIC (nvcc refuses them without -forward-unknown-to-host-compiler)"}));
}

}  // namespace
}  // namespace gridlock::frontend
