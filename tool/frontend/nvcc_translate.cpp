#include "frontend/nvcc_translate.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>

#include <set>

namespace gridlock::frontend {
namespace {

// nvcc options that take a separate value and mean nothing for host-side parsing.
const std::set<std::string> kDropWithValue = {
    "-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code",
    "-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options",
    "-Xcudafe", "-Xfatbin", "--fatbin-options", "-MT", "-MF", "-MQ", "-rdc",
    "--relocatable-device-code", "-maxrregcount", "--maxrregcount", "-t", "--threads",
    "--diag-suppress", "--diag-error", "--diag-warn", "-o", "--output-file", "--default-stream"};

// nvcc-only switches (or --name=value forms) that are dropped.
const std::set<std::string> kDropAlone = {
    "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
    "-forward-unknown-opts", "--forward-unknown-opts", "--expt-relaxed-constexpr",
    "-expt-relaxed-constexpr", "--extended-lambda", "-extended-lambda",
    "--expt-extended-lambda", "-expt-extended-lambda", "--use_fast_math", "-use_fast_math",
    "-lineinfo", "--generate-line-info", "-G", "--device-debug", "-dc", "--device-c", "-dw",
    "--device-w", "-dlink", "--keep", "-keep", "-MD", "-MMD", "-M", "-MM", "-c", "--compile",
    "-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", "-cudart", "--cudart",
    "-static-global-template-stub=true", "-static-global-template-stub=false"};

bool startsWithAny(const std::string& a, std::initializer_list<const char*> prefixes) {
  for (const char* p : prefixes)
    if (llvm::StringRef(a).starts_with(p)) return true;
  return false;
}

class Translator {
 public:
  Translator(const std::string& dir, FileReader read) : dir_(dir), read_(read) {}

  void run(const std::vector<std::string>& in, size_t first, NvccTranslation& out) {
    for (size_t i = first; i < in.size(); ++i) {
      const std::string& a = in[i];
      auto value = [&]() -> std::string { return i + 1 < in.size() ? in[++i] : std::string(); };
      std::string name = a.substr(0, a.find('='));
      bool hasEq = a.find('=') != std::string::npos;

      if (name == "--options-file" || name == "-optf") {
        std::string f = hasEq ? a.substr(a.find('=') + 1) : value();
        expandOptionsFile(f, out);
      } else if (name == "-Xcompiler" || name == "--compiler-options") {
        std::string v = hasEq ? a.substr(a.find('=') + 1) : value();
        llvm::SmallVector<llvm::StringRef, 8> parts;
        llvm::StringRef(v).split(parts, ',', -1, false);
        for (auto p : parts) out.args.push_back(p.str());
        out.notes.push_back("mapped " + name + " " + v + " to host flags");
      } else if (a == "-x" || a == "--x") {
        std::string v = value();
        out.args.push_back("-x");
        out.args.push_back(v == "cu" ? "cuda" : v);
      } else if (name == "-isystem" && hasEq) {  // CMake writes nvcc's -isystem=DIR
        out.args.push_back("-isystem");
        out.args.push_back(a.substr(a.find('=') + 1));
      } else if (name == "--std" || name == "-std") {
        out.args.push_back("-std=" + (hasEq ? a.substr(a.find('=') + 1) : value()));
      } else if (kDropWithValue.count(name)) {
        std::string v = hasEq ? a.substr(a.find('=') + 1) : value();
        if (name != "-o" && name != "--output-file" && name != "-MF" && name != "-MT")
          out.notes.push_back("dropped nvcc-only " + name + (v.empty() ? "" : " " + v));
      } else if (kDropAlone.count(a) || kDropAlone.count(name)) {
        if (a != "-c" && a != "--compile" && !startsWithAny(a, {"-M"}))
          out.notes.push_back("dropped nvcc-only " + a);
      } else if (startsWithAny(a, {"-I", "-D", "-U", "-W", "-f", "-O", "-g", "-m", "-std=",
                                   "-include", "-isystem", "-idirafter", "-iquote", "-pthread",
                                   "-nostd", "--cuda", "-x"})) {
        out.args.push_back(a);
        // Separate-value forms.
        if ((a == "-I" || a == "-D" || a == "-U" || a == "-include" || a == "-isystem" ||
             a == "-idirafter" || a == "-iquote") && i + 1 < in.size())
          out.args.push_back(value());
      } else if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
        out.notes.push_back("dropped unknown nvcc option " + a);
      } else if (!a.empty() && a[0] == '-') {
        out.args.push_back(a);  // forwarded to the host compiler by nvcc, so Clang takes it
      } else {
        out.args.push_back(a);  // the source file
      }
    }
  }

 private:
  void expandOptionsFile(const std::string& file, NvccTranslation& out) {
    llvm::SmallString<256> path(file);
    if (!llvm::sys::path::is_absolute(path)) llvm::sys::fs::make_absolute(dir_, path);
    std::optional<std::string> text = read_ ? read_(std::string(path)) : std::nullopt;
    if (!text) {
      out.notes.push_back("could not read --options-file " + std::string(path) +
                          ": its flags are missing from the parse");
      return;
    }
    llvm::BumpPtrAllocator alloc;
    llvm::StringSaver saver(alloc);
    llvm::SmallVector<const char*, 32> toks;
    llvm::cl::TokenizeGNUCommandLine(*text, saver, toks);
    std::vector<std::string> args(toks.begin(), toks.end());
    out.notes.push_back("expanded --options-file " + file);
    run(args, 0, out);
  }

  std::string dir_;
  FileReader read_;
};

}  // namespace

bool isNvcc(const std::string& argv0) {
  llvm::StringRef base = llvm::sys::path::filename(argv0);
  return base == "nvcc" || base == "nvcc.exe";
}

std::vector<std::string> cudaHostFlags(const CudaSettings& cuda) {
  return {"--cuda-host-only", "--cuda-path=" + cuda.cudaPath, "-Wno-unknown-cuda-version",
          "-idirafter", cuda.workaroundDir, "-isystem", cuda.cudaPath + "/include/cccl"};
}

NvccTranslation translateNvcc(const std::vector<std::string>& args, const std::string& directory,
                              const CudaSettings& cuda, FileReader readFile) {
  NvccTranslation out;
  out.args.push_back(cuda.clang);
  Translator(directory, readFile).run(args, 1, out);
  bool hasLang = false;
  for (size_t i = 0; i + 1 < out.args.size(); ++i)
    if (out.args[i] == "-x") hasLang = true;
  // nvcc treats .cu as CUDA without -x; say so explicitly for Clang.
  if (!hasLang) out.args.insert(out.args.begin() + 1, {"-x", "cuda"});
  for (auto& f : cudaHostFlags(cuda)) out.args.push_back(f);
  return out;
}

}  // namespace gridlock::frontend
