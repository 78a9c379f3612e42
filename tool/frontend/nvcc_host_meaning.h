// What one of nvcc's options means for the host side of a CUDA file, in Clang's flags: what
// nvcc itself hands the host preprocessor and compiler for it (seen with `nvcc --dryrun`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontend/nvcc_lex.h"
#include "frontend/nvcc_options.h"

namespace gridlock::frontend {

enum class HostUse {
  Dropped,          // device code, linking or the driver only: dropped, and said
  Quiet,            // where the output goes (-o, -MF, -c): dropped without a word
  Same,             // Clang has the same flag (-I, -D, -std): mapped without a word
  Mapped,           // nvcc turns it into something else for the host (a macro): said
  CompilerOptions,  // -Xcompiler: host flags
  OptionsFile,      // --options-file: more nvcc options
  Language,         // -x
};

// Clang flags for one element of the option's value (the whole value when it is no list; empty
// for a switch).
using ToClang = std::vector<std::string> (*)(const std::string& value);

struct HostMeaning {
  HostUse use = HostUse::Dropped;
  ToClang toClang = nullptr;                  // for Same and Mapped
  NvccListStyle style = NvccListStyle::Text;  // how nvcc splits a list value
};

HostMeaning hostMeaning(const NvccOption& option);

// The long names that have a meaning other than Dropped (a test checks them against the table).
std::vector<std::string_view> hostMeaningNames();

}  // namespace gridlock::frontend
