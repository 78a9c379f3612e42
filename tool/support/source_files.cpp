#include "support/source_files.h"

#include <filesystem>
#include <set>

namespace gridlock::support {

bool isCxxSource(const std::string& path) {
  static const std::set<std::string> kExtensions = {".c",   ".cc",  ".cpp", ".cxx", ".c++", ".C",
                                                    ".cu",  ".cuh", ".h",   ".hh",  ".hpp", ".hxx",
                                                    ".h++", ".H",   ".inl", ".ipp", ".tpp", ".tcc"};
  return kExtensions.count(std::filesystem::path(path).extension().string()) > 0;
}

bool isPythonSource(const std::string& path) {
  return std::filesystem::path(path).extension() == ".py";
}

}  // namespace gridlock::support
