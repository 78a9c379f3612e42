#include "rules/pack_lookup.h"

#include "rules/rule_pack.h"
#include "support/install_layout.h"
#include "support/nearest.h"

#include <filesystem>
#include <set>
#include <system_error>

namespace gridlock::rules {
namespace {

namespace fs = std::filesystem;

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string join(const std::string& dir, const std::string& rel) {
  return dir.empty() ? rel : (fs::path(dir) / rel).string();
}

bool isFile(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// The names of the packs in `dirs` (NAME of each NAME.json), once each, in name order: of the
// example directories or of the others.
std::vector<std::string> packNames(const std::vector<PackDir>& dirs, bool examples) {
  std::set<std::string> names;
  for (const auto& d : dirs) {
    if (d.examples != examples) continue;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d.dir, ec))
      if (e.path().extension() == ".json" && isFile(e.path().string()))
        names.insert(e.path().stem().string());
  }
  return {names.begin(), names.end()};
}

}  // namespace

bool isPackName(const std::string& ref) {
  return !ref.empty() && ref.find('/') == std::string::npos && !endsWith(ref, ".json");
}

std::vector<PackDir> shippedPackDirs() {
  std::vector<PackDir> out;
  std::error_code ec;
  if (std::string data = support::installedDataDir(); !data.empty()) {
    std::string rules = data + "/rules";
    if (fs::is_directory(rules, ec)) out.push_back({rules, "installed"});
    if (fs::is_directory(rules + "/examples", ec))
      out.push_back({rules + "/examples", "installed examples", true});
  }
  if (std::string src = support::sourceTreeOfThisBuild(); !src.empty()) {
    out.push_back({src + "/rules", "source tree"});
    if (fs::is_directory(src + "/rules/examples", ec))
      out.push_back({src + "/rules/examples", "source tree examples", true});
  }
  return out;
}

std::string resolvePack(const std::string& ref, const PackAnchor& anchor,
                        const std::vector<PackDir>& shipped) {
  if (!isPackName(ref)) {
    if (ref.empty()) throw RuleError("empty rule pack name");
    return fs::path(ref).is_absolute() ? ref : join(anchor.dir, ref);
  }
  std::vector<PackDir> dirs;
  if (!anchor.what.empty()) dirs.push_back({anchor.dir.empty() ? "." : anchor.dir, anchor.what});
  for (const auto& d : shipped) {  // a pack in the installed dir extending a name: once
    bool seen = false;
    for (const auto& e : dirs) seen = seen || fs::path(e.dir) == fs::path(d.dir);
    if (!seen) dirs.push_back(d);
  }
  std::string file = ref + ".json";
  std::string looked;
  for (const auto& d : dirs) {
    std::string candidate = join(d.dir, file);
    if (isFile(candidate)) return candidate;
    looked += (looked.empty() ? "" : ", ") + d.dir + " (" + d.what + ")";
  }
  if (looked.empty())
    looked = "(no pack directories: this binary has no share/gridlock/rules beside it)";
  std::string known;
  std::vector<std::string> names = packNames(shipped, false);
  for (const auto& n : names) known += (known.empty() ? "; the shipped packs are " : ", ") + n;
  std::string examples;
  for (const auto& n : packNames(shipped, true)) {
    examples += (examples.empty() ? "; the examples are " : ", ") + n;
    names.push_back(n);
  }
  known += examples;
  throw RuleError("unknown rule pack \"" + ref + "\": no " + file + " in " + looked + known +
                  support::didYouMean(ref, names, '"'));
}

}  // namespace gridlock::rules
