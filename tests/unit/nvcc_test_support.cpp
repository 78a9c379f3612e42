#include "nvcc_test_support.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>

#include <cstdlib>
#include <fstream>

#include "frontend/nvcc_options.h"

namespace gridlock::test {
namespace {

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string join(const Args& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::optional<std::string> readFile(const std::string& path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) return std::nullopt;
  return (*buf)->getBuffer().str();
}

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

NvccWorkdir::NvccWorkdir() {
  llvm::SmallString<128> p;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("gridlock-nvcc", p));
  dir_ = std::string(p);
  writeFile(dir_ + "/k.cu", "__global__ void k() {}\n");
  writeFile(dir_ + "/pre.h", "");
  writeFile(dir_ + "/pre2.h", "");
  writeFile(dir_ + "/opts.rsp", "-DFROM_FILE -Iinc\n");
  for (const char* d : {"inc", "inc2", "hostcc"}) llvm::sys::fs::create_directory(dir_ + "/" + d);
  auto gcc = llvm::sys::findProgramByName("gcc");
  std::string cc = dir_ + "/" + kHostCc;
  writeFile(cc,
            "#!/bin/sh\nfor a; do shift; case \"$a\" in -V*) ;; *) set -- \"$@\" \"$a\";; esac; "
            "done\nexec " +
                (gcc ? *gcc : std::string("gcc")) + " \"$@\"\n");
  llvm::sys::fs::setPermissions(
      cc, llvm::sys::fs::all_read | llvm::sys::fs::all_exe | llvm::sys::fs::owner_write);
}

NvccWorkdir::~NvccWorkdir() { llvm::sys::fs::remove_directories(dir_); }

std::string usableNvcc(std::string& whyNot) {
  std::string nvcc = GRIDLOCK_NVCC;
  if (nvcc.empty() || !llvm::sys::fs::can_execute(nvcc)) {
    whyNot = "nvcc is not installed (CMake found none), so no line is checked against it";
    return "";
  }
  std::string want(frontend::nvccOptionsVersion());
  want = want.substr(0, want.rfind('.'));  // 13.0.88: any 13.0
  llvm::SmallString<128> out;
  if (llvm::sys::fs::createTemporaryFile("gridlock-nvcc-version", "txt", out)) {
    whyNot = "no temporary file for nvcc --version";
    return "";
  }
  std::string cmd = shellQuote(nvcc) + " --version > " + shellQuote(std::string(out)) + " 2>&1";
  int rc = std::system(cmd.c_str());
  std::string text = readFile(std::string(out)).value_or("");
  llvm::sys::fs::remove(out);
  if (rc != 0 || text.find("release " + want + ",") == std::string::npos) {
    whyNot = "nvcc at " + nvcc + " is not release " + want + ", the one the option table is from";
    return "";
  }
  return nvcc;
}

int runNvcc(const std::string& nvcc, const std::string& dir, const Args& line, std::string& log) {
  std::string cmd = "cd " + shellQuote(dir) + " && " + shellQuote(nvcc) + " --dryrun";
  for (size_t i = 1; i < line.size(); ++i) cmd += " " + shellQuote(line[i]);
  cmd += " > nvcc.log 2>&1";
  int rc = std::system(cmd.c_str());
  log = readFile(dir + "/nvcc.log").value_or("");
  size_t fatal = log.find("nvcc fatal");
  log = fatal == std::string::npos ? log.substr(0, 400) : log.substr(fatal, 200);
  return rc;
}

}  // namespace gridlock::test
