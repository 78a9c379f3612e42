// nvcc compile commands (as CMake writes them into compile_commands.json for .cu files) turned
// into a Clang CUDA host-only command. Every flag that is dropped or mapped is said in `notes`,
// so a user can see what the scan parsed with; nothing is silently ignored.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gridlock::frontend {

struct CudaSettings {
  std::string cudaPath = "/usr/local/cuda";
  // Directory holding the empty texture_fetch_functions.h that Clang 19 needs for CUDA 13.
  std::string workaroundDir = "/gridlock-virtual/cuda13";
  // argv[0] of translated commands: the driver finds the GCC installation next to it.
  std::string clang = "clang++";
};

struct NvccTranslation {
  std::vector<std::string> args;   // argv[0] is CudaSettings::clang; ends with cudaHostFlags()
  std::vector<std::string> notes;  // "dropped --generate-code=...", "expanded --options-file F"
};

bool isNvcc(const std::string& argv0);

// `readFile` returns the contents of an --options-file (path already made absolute), or
// nullopt when it cannot be read (then the translation notes it and goes on without it).
using FileReader = std::optional<std::string> (*)(const std::string& path);

// `file` is the compile database entry's file: the one input kept when the line has several.
NvccTranslation translateNvcc(const std::vector<std::string>& args, const std::string& directory,
                              const CudaSettings& cuda, FileReader readFile,
                              const std::string& file = "");

// Flags Clang needs for CUDA host code on these machines, for any CUDA TU (nvcc or not).
std::vector<std::string> cudaHostFlags(const CudaSettings& cuda);

}  // namespace gridlock::frontend
