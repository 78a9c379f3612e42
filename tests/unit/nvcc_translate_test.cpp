// nvcc commands as CMake writes them, turned into Clang CUDA host commands.
#include "frontend/nvcc_translate.h"

#include <gtest/gtest.h>

namespace gridlock::frontend {
namespace {

std::optional<std::string> fakeRead(const std::string& path) {
  if (path == "/build/CMakeFiles/includes_CUDA.rsp") return std::string("-I/src -isystem=/dep \"-I/with space\"");
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
  NvccTranslation t = translateNvcc(
      {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DFOO=1",
       "--options-file", "CMakeFiles/includes_CUDA.rsp", "-O3",
       "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-Xcompiler=-fPIC,-Wall",
       "--expt-relaxed-constexpr", "-std=c++17", "-x", "cu", "-c", "/src/k.cu", "-o", "k.o",
       "-MD", "-MT", "k.o", "-MF", "k.o.d", "--unknown-nvcc-thing"},
      "/build", cuda, fakeRead);
  EXPECT_EQ(join(t.args),
            "/usr/lib/llvm-19/bin/clang++ -DFOO=1 -I/src -isystem /dep -I/with space -O3 -fPIC "
            "-Wall -std=c++17 -x cuda /src/k.cu --cuda-host-only --cuda-path=/usr/local/cuda "
            "-Wno-unknown-cuda-version -idirafter /gridlock-virtual/cuda13 -isystem "
            "/usr/local/cuda/include/cccl");
  EXPECT_EQ(join(t.notes),
            "dropped nvcc-only -forward-unknown-to-host-compiler expanded --options-file "
            "CMakeFiles/includes_CUDA.rsp dropped nvcc-only --generate-code "
            "arch=compute_90,code=[compute_90,sm_90] mapped -Xcompiler -fPIC,-Wall to host flags "
            "dropped nvcc-only --expt-relaxed-constexpr dropped unknown nvcc option "
            "--unknown-nvcc-thing");
}

TEST(Nvcc, MissingOptionsFileIsSaidAndLanguageAdded) {
  NvccTranslation t = translateNvcc({"nvcc", "--options-file=missing.rsp", "-c", "k.cu"}, "/b",
                                    CudaSettings{}, fakeRead);
  EXPECT_EQ(t.args[1], "-x");
  EXPECT_EQ(t.args[2], "cuda");
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_EQ(t.notes[0], "could not read --options-file /b/missing.rsp: its flags are missing from the parse");
  EXPECT_TRUE(isNvcc("/usr/local/cuda/bin/nvcc"));
  EXPECT_FALSE(isNvcc("/usr/bin/clang++-19"));
}

}  // namespace
}  // namespace gridlock::frontend
