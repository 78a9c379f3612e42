#include "frontend/nvcc_host_meaning.h"

namespace gridlock::frontend {
namespace {

using Flags = std::vector<std::string>;
using enum HostUse;
constexpr NvccListStyle kPath = NvccListStyle::Path;

struct Row {
  std::string_view longName;
  HostMeaning meaning;
};

Flags rdc(const std::string&) { return {"-D__CUDACC_RDC__"}; }

// Every option not here is Dropped. The macros are the ones nvcc defines for its host passes
// (gcc -E ... -D__CUDACC_RDC__); Clang defines none of them.
const Row kRows[] = {
    {"output-file", {Quiet}},
    {"dependency-output", {Quiet}},
    {"dependency-target-name", {Quiet}},
    {"generate-dependencies", {Quiet}},
    {"generate-nonsystem-dependencies", {Quiet}},
    {"generate-dependencies-with-compile", {Quiet}},
    {"generate-nonsystem-dependencies-with-compile", {Quiet}},
    {"generate-dependency-targets", {Quiet}},
    {"compile", {Quiet}},

    {"pre-include", {Same, [](const std::string& v) -> Flags { return {"-include", v}; }, kPath}},
    {"include-path", {Same, [](const std::string& v) -> Flags { return {"-I" + v}; }, kPath}},
    {"system-include",
     {Same, [](const std::string& v) -> Flags { return {"-isystem", v}; }, kPath}},
    {"define-macro", {Same, [](const std::string& v) -> Flags { return {"-D" + v}; }}},
    {"undefine-macro", {Same, [](const std::string& v) -> Flags { return {"-U" + v}; }}},
    {"optimize", {Same, [](const std::string& v) -> Flags { return {"-O" + v}; }}},
    {"std", {Same, [](const std::string& v) -> Flags { return {"-std=" + v}; }}},
    {"machine", {Same, [](const std::string& v) -> Flags { return {"-m" + v}; }}},
    {"m64", {Same, [](const std::string&) -> Flags { return {"-m64"}; }}},
    {"debug", {Same, [](const std::string&) -> Flags { return {"-g"}; }}},
    {"profile", {Same, [](const std::string&) -> Flags { return {"-pg"}; }}},
    {"disable-warnings", {Same, [](const std::string&) -> Flags { return {"-w"}; }}},
    {"no-exceptions", {Same, [](const std::string&) -> Flags { return {"-fno-exceptions"}; }}},
    {"Wno-deprecated-declarations",
     {Same, [](const std::string&) -> Flags { return {"-Wno-deprecated-declarations"}; }}},
    {"ftemplate-backtrace-limit",
     {Same, [](const std::string& v) -> Flags { return {"-ftemplate-backtrace-limit=" + v}; }}},
    {"ftemplate-depth",
     {Same, [](const std::string& v) -> Flags { return {"-ftemplate-depth=" + v}; }}},
    {"frandom-seed", {Same, [](const std::string& v) -> Flags { return {"-frandom-seed=" + v}; }}},

    {"expt-relaxed-constexpr",
     {Mapped, [](const std::string&) -> Flags { return {"-D__CUDACC_RELAXED_CONSTEXPR__"}; }}},
    {"extended-lambda",
     {Mapped, [](const std::string&) -> Flags { return {"-D__CUDACC_EXTENDED_LAMBDA__"}; }}},
    {"expt-extended-lambda",
     {Mapped, [](const std::string&) -> Flags { return {"-D__CUDACC_EXTENDED_LAMBDA__"}; }}},
    {"relocatable-device-code",
     {Mapped, [](const std::string& v) -> Flags { return v == "true" ? rdc(v) : Flags{}; }}},
    {"device-c", {Mapped, rdc}},
    {"device-link", {Mapped, rdc}},
    {"dlink-time-opt", {Mapped, rdc}},
    {"lto", {Mapped, rdc}},
    {"relocatable-link", {Mapped, rdc}},
    {"device-debug", {Mapped, [](const std::string&) -> Flags { return {"-D__CUDACC_DEBUG__"}; }}},
    {"extensible-whole-program",
     {Mapped, [](const std::string&) -> Flags { return {"-D__CUDACC_EWP__"}; }}},
    {"default-stream",
     {Mapped,
      [](const std::string& v) -> Flags {
        if (v == "per-thread") return {"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"};
        return {};
      }}},
    {"allow-unsupported-compiler",
     {Mapped, [](const std::string&) -> Flags { return {"-D__NV_NO_HOST_COMPILER_CHECK=1"}; }}},

    {"compiler-options", {CompilerOptions}},
    {"options-file", {OptionsFile, nullptr, kPath}},
    {"x", {Language}},
};

}  // namespace

HostMeaning hostMeaning(const NvccOption& option) {
  for (const Row& r : kRows)
    if (r.longName == option.longName) return r.meaning;
  return {};
}

std::vector<std::string_view> hostMeaningNames() {
  std::vector<std::string_view> out;
  for (const Row& r : kRows) out.push_back(r.longName);
  return out;
}

}  // namespace gridlock::frontend
