#include "cli/gate_baseline.h"

#include "support/file_io.h"
#include "support/paths.h"

#include <filesystem>

namespace gridlock::cli {

std::string rootRelativeToBaseline(const std::string& path, const std::string& root) {
  std::string dir = support::realPath(support::parentPath(support::absoluteAsIs(path)));
  std::string rel = std::filesystem::path(root).lexically_relative(dir).generic_string();
  return rel.empty() ? "." : rel;
}

GateBaseline readGateBaseline(const std::string& path, const std::string& root) {
  GateBaseline b;
  b.path = path;
  b.exists = support::exists(path);
  b.root = rootRelativeToBaseline(path, root);
  if (!b.exists) return b;
  std::optional<std::string> text = support::readFile(path);
  if (!text) throw analysis::BaselineError(path + ": cannot read baseline");
  b.baseline = analysis::parseBaseline(*text, path);
  b.recordsWrites = analysis::baselineRecordsWrites(*text, path);
  b.recordedRoot = analysis::parseBaselineRoot(*text, path);
  if (b.recordedRoot) {
    std::string recorded =
        std::filesystem::path(*b.recordedRoot).lexically_normal().generic_string();
    while (recorded.size() > 1 && recorded.back() == '/') recorded.pop_back();
    if (recorded != b.root)
      throw analysis::BaselineError(
          "the baseline " + path + " was made with the root at \"" + *b.recordedRoot +
          "\" (relative to the baseline), but this run's root " + root + " is \"" + b.root +
          "\" from it; run from the project (the directory of .gridlock.json) or pass the "
          "same --root, so that its file names mean the same files");
  }
  return b;
}

}  // namespace gridlock::cli
