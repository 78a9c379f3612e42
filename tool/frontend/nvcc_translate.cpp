#include "frontend/nvcc_translate.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>

#include "frontend/host_flags.h"
#include "frontend/nvcc_host_meaning.h"
#include "frontend/nvcc_lex.h"
#include "frontend/nvcc_options.h"
#include "support/strings.h"

namespace gridlock::frontend {
namespace {

std::string absolute(const std::string& dir, const std::string& file) {
  llvm::SmallString<256> path(file);
  if (!llvm::sys::path::is_absolute(path)) llvm::sys::fs::make_absolute(dir, path);
  llvm::sys::path::remove_dots(path, true);
  return std::string(path);
}

// nvcc compiles these as host C/C++ (nvcc --help: "compilation trajectories").
bool isHostSource(llvm::StringRef file) {
  llvm::StringRef ext = llvm::sys::path::extension(file);
  return ext == ".c" || ext == ".cc" || ext == ".cpp" || ext == ".cxx";
}

// Walks an nvcc command line (and the options files it names) and collects Clang flags, the
// inputs, and a note for everything that is not carried over as it was.
class Translator {
 public:
  Translator(const std::string& dir, FileReader read, NvccTranslation& out)
      : dir_(dir), read_(read), out_(out) {}

  void run(const std::vector<std::string>& args, size_t first) {
    for (size_t i = first; i < args.size();) {
      NvccArg a = readNvccArg(args, i);
      if (a.kind == NvccArg::Kind::Input) {
        inputs_.push_back(a.spelling);
      } else if (a.kind == NvccArg::Kind::Unknown) {
        unknown(a.spelling);
      } else if (!a.error.empty()) {
        note("dropped " + a.spelling + (a.value ? "=" + *a.value : "") + ": nvcc refuses it (" +
             a.error + ")");
      } else {
        option(a);
      }
    }
  }

  // The flags, then the language and the one input.
  void finish(const std::string& entryFile) {
    std::string input = pickInput(entryFile);
    if (!forwarded_.empty())
      note(
          "passed options nvcc does not know to Clang, as nvcc passes them to the host "
          "compiler: " +
          support::joinWords(forwarded_) +
          (forwardsUnknown_ ? ""
                            : " (nvcc refuses them without -forward-unknown-to-host-compiler)"));
    out_.args.insert(out_.args.end(), flags_.begin(), flags_.end());
    if (!lang_ && !input.empty() && isHostSource(input))
      note("nvcc compiles " + input + " as host C/C++: no -x cuda");
    else
      out_.args.insert(out_.args.end(), {"-x", lang_.value_or("cuda")});
    if (!input.empty()) out_.args.push_back(input);
  }

 private:
  void note(std::string n) { out_.notes.push_back(std::move(n)); }

  void option(const NvccArg& a) {
    const NvccOption& o = *a.option;
    HostMeaning m = hostMeaning(o);
    if (o.longName == "forward-unknown-to-host-compiler" || o.longName == "forward-unknown-opts")
      forwardsUnknown_ = true;
    std::string said = a.spelling + (a.value ? " " + *a.value : "");
    std::vector<std::string> values;
    if (a.value) values = o.list ? splitNvccList(*a.value, m.style) : std::vector{*a.value};
    switch (m.use) {
      case HostUse::Quiet:
        break;
      case HostUse::Dropped:
        note("dropped nvcc-only " + said);
        break;
      case HostUse::Same:
      case HostUse::Mapped: {
        std::vector<std::string> flags;
        if (!a.value) values.push_back("");  // a switch; `-I ""` means nothing to nvcc
        for (const auto& v : values) {
          auto f = m.toClang(v);
          flags.insert(flags.end(), f.begin(), f.end());
        }
        if (m.use == HostUse::Mapped)
          note(flags.empty() ? "dropped nvcc-only " + said
                             : "mapped " + said + " to " + support::joinWords(flags));
        flags_.insert(flags_.end(), flags.begin(), flags.end());
        break;
      }
      case HostUse::CompilerOptions:
        note("mapped " + said + " to host flags");
        compilerOptions(a.spelling, values);
        break;
      case HostUse::OptionsFile:
        for (const auto& f : values) optionsFile(a.spelling, f);
        break;
      case HostUse::Language:
        lang_ = values.front() == "cu" ? "cuda" : values.front();
        break;
    }
  }

  // nvcc joins the elements with spaces into the host compiler's command, which a shell reads.
  void compilerOptions(const std::string& spelling, const std::vector<std::string>& values) {
    Tokens words = splitShellWords(support::joinWords(values));
    if (!words.error.empty())
      note("the shell would refuse " + spelling + " " + support::joinWords(values) + " (" +
           words.error + ")");
    HostFlags h = checkHostFlags(words.words);
    flags_.insert(flags_.end(), h.kept.begin(), h.kept.end());
    for (const auto& u : h.unknown)
      note("dropped " + u + " from " + spelling + ": Clang does not know it");
    for (const auto& f : h.inputs)
      note("dropped " + f + " from " + spelling + ": a file for the host compiler, not a flag");
  }

  // nvcc passes an option it does not know to the host compiler (with
  // -forward-unknown-to-host-compiler; without it, nvcc refuses the line).
  void unknown(const std::string& arg) {
    if (arg.empty()) {
      note("dropped an empty argument");
      return;
    }
    HostFlags h = checkHostFlags({arg});
    if (h.kept.size() == 1) {
      flags_.push_back(arg);
      forwarded_.push_back(arg);
    } else {
      note("dropped unknown nvcc option " + arg);
    }
  }

  // A relative name is relative to where nvcc runs, even inside another options file.
  void optionsFile(const std::string& spelling, const std::string& file) {
    std::string path = absolute(dir_, file);
    if (std::find(open_.begin(), open_.end(), path) != open_.end()) {
      note("options file " + path + " names itself: read once");
      return;
    }
    std::optional<std::string> text = read_ ? read_(path) : std::nullopt;
    if (!text) {
      note("could not read " + spelling + " " + path + ": its flags are missing from the parse");
      return;
    }
    note("expanded " + spelling + " " + file);
    Tokens t = tokenizeNvccOptionsFile(*text);
    if (!t.error.empty())
      note("options file " + path + ": nvcc refuses it (" + t.error + "); read up to there");
    open_.push_back(path);
    run(t.words, 0);
    open_.pop_back();
  }

  // One input: the entry's file when the line has several.
  std::string pickInput(const std::string& entryFile) {
    if (inputs_.empty()) {
      if (entryFile.empty()) {
        note("the nvcc line has no input file");
        return "";
      }
      note("the nvcc line has no input file: parsing " + entryFile);
      return entryFile;
    }
    size_t keep = 0;
    if (!entryFile.empty())
      for (size_t k = 0; k < inputs_.size(); ++k)
        if (absolute(dir_, inputs_[k]) == absolute(dir_, entryFile)) keep = k;
    for (size_t k = 0; k < inputs_.size(); ++k)
      if (k != keep) note("dropped input " + inputs_[k] + ": this entry is for " + inputs_[keep]);
    return inputs_[keep];
  }

  std::string dir_;
  FileReader read_;
  NvccTranslation& out_;
  std::vector<std::string> flags_, inputs_, forwarded_;
  std::optional<std::string> lang_;
  bool forwardsUnknown_ = false;   // -forward-unknown-to-host-compiler or -forward-unknown-opts
  std::vector<std::string> open_;  // options files being read, against one naming itself
};

}  // namespace

bool isNvcc(const std::string& argv0) {
  llvm::StringRef base = llvm::sys::path::filename(argv0);
  return base == "nvcc" || base == "nvcc.exe";
}

std::vector<std::string> cudaHostFlags(const CudaSettings& cuda) {
  return {"--cuda-host-only",
          "--cuda-path=" + cuda.cudaPath,
          "-Wno-unknown-cuda-version",
          "-idirafter",
          cuda.workaroundDir,
          "-isystem",
          cuda.cudaPath + "/include/cccl"};
}

NvccTranslation translateNvcc(const std::vector<std::string>& args, const std::string& directory,
                              const CudaSettings& cuda, FileReader readFile,
                              const std::string& file) {
  NvccTranslation out;
  out.args.push_back(cuda.clang);
  Translator t(directory, readFile, out);
  t.run(args, 1);
  t.finish(file);
  for (auto& f : cudaHostFlags(cuda)) out.args.push_back(f);
  return out;
}

}  // namespace gridlock::frontend
