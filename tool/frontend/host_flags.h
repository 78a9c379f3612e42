// Flags checked against Clang's driver: Clang stops at an argument it does not know, so a flag
// that only GCC knows (nvcc's -Xcompiler, options nvcc forwards, a GCC line in the database)
// has to be left out, and said.
#pragma once

#include <string>
#include <vector>

namespace gridlock::frontend {

// One argument as Clang's driver reads it: a flag with its values, an input, or a word the
// driver does not know.
struct DriverArg {
  enum class Kind { Flag, Input, Unknown } kind;
  std::vector<std::string> words;  // as written: `-include foo.h` is two
  std::string option;              // the flag's name as spelled with its prefix ("-D"); else ""
};

// The words in order, each in one DriverArg. A flag whose value is missing at the end is
// Unknown (Clang would stop at it).
std::vector<DriverArg> driverArgs(const std::vector<std::string>& words);

struct HostFlags {
  std::vector<std::string> kept;     // for Clang, in order, values beside their flags
  std::vector<std::string> unknown;  // Clang does not know them (or their value is missing)
  std::vector<std::string> inputs;   // file names: inputs of the host compiler, not flags
};

HostFlags checkHostFlags(const std::vector<std::string>& words);

}  // namespace gridlock::frontend
