#include "pipeline/root_path.h"

#include <algorithm>
#include <filesystem>

namespace gridlock::pipeline {

std::vector<std::string> rootRelative(const std::string& root, const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  fs::path lexical = fs::absolute(path, ec).lexically_normal();
  for (const fs::path& p : {lexical, fs::weakly_canonical(lexical, ec)}) {
    std::string rel = p.lexically_relative(root).generic_string();
    while (!rel.empty() && rel.back() == '/') rel.pop_back();
    if (rel.empty() || rel == ".." || rel.starts_with("../")) continue;
    if (rel == ".") rel.clear();
    if (std::find(out.begin(), out.end(), rel) == out.end()) out.push_back(rel);
  }
  return out;
}

}  // namespace gridlock::pipeline
