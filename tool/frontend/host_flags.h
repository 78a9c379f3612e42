// Flags meant for the host compiler (nvcc's -Xcompiler, or options nvcc does not know and
// forwards), checked against Clang's driver: Clang stops at an argument it does not know, so a
// flag that only GCC knows has to be left out, and said.
#pragma once

#include <string>
#include <vector>

namespace gridlock::frontend {

struct HostFlags {
  std::vector<std::string> kept;     // for Clang, in order, values beside their flags
  std::vector<std::string> unknown;  // Clang does not know them (or their value is missing)
  std::vector<std::string> inputs;   // file names: inputs of the host compiler, not flags
};

HostFlags checkHostFlags(const std::vector<std::string>& words);

}  // namespace gridlock::frontend
