// nvcc's own options, as `nvcc --help` of the installed CUDA lists them (nvcc_options_table.cpp,
// written by nvcc_options_extract.py), and how nvcc reads one of them off a command line.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::frontend {

enum class NvccValue : unsigned char {
  None,      // a switch: nvcc rejects `--name=value`
  Required,  // `--name=v`, `--name v`, `-short=v`, `-short v`: the next argument, whatever it is
  Optional,  // as Required, but the option may end the line or precede one that starts with '-'
};

struct NvccOption {
  std::string_view longName;   // without dashes: "pre-include"
  std::string_view shortName;  // without its dash: "include"; empty when nvcc has none
  NvccValue value;
  bool list;      // the value is a comma-separated list ("<file>,...")
  bool attached;  // `-Ivalue` works too
};

std::span<const NvccOption> nvccOptions();
std::string_view nvccOptionsVersion();  // the nvcc the table came from: "13.0.88"

// One argument of an nvcc command line, as nvcc reads it.
struct NvccArg {
  enum class Kind { Option, Input, Unknown } kind = Kind::Input;
  const NvccOption* option = nullptr;  // for Option
  std::string spelling;                // as written, without "=value": "--pre-include", "-I"
  std::optional<std::string> value;    // the option's value, when it has one
  std::string error;                   // why nvcc would reject it; empty when it would not
};

// Reads the argument at args[i] (with its value, maybe args[i + 1]); i ends past what it used.
NvccArg readNvccArg(const std::vector<std::string>& args, size_t& i);

}  // namespace gridlock::frontend
