#include "python/downstream.h"

#include "python/frontend.h"
#include "python/module_index.h"
#include "support/file_io.h"
#include "support/source_files.h"
#include "support/walk.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

namespace gridlock::python {
namespace {

namespace fs = std::filesystem;

// Directory names that hold other projects' code copied in, not the checkout's own.
bool vendoredName(const std::string& name) {
  static const std::set<std::string> names = {
      "3rdparty", "third_party", "third-party", "thirdparty", "vendor", "vendored", "_vendor"};
  return names.count(name) > 0;
}

// The paths `.gitmodules` names (`path = 3rdparty/Megatron-LM`), checkout-relative.
std::set<std::string> submodulePaths(const fs::path& checkout) {
  std::set<std::string> out;
  std::optional<std::string> text = support::readFile((checkout / ".gitmodules").string());
  if (!text) return out;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    auto trim = [](std::string& s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t\r") + 1);
    };
    trim(key);
    trim(value);
    if (key == "path" && !value.empty())
      out.insert(fs::path(value).lexically_normal().generic_string());
  }
  return out;
}

bool isDirectory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool present(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// The files of one checkout, with its vendored copies left out (and named in `out.vendored`).
void readCheckout(const Downstream& d, const fs::path& tree,
                  const std::map<std::string, std::string>& treeModules, DownstreamModules& out) {
  const fs::path root(d.path);
  const std::string packageRoot = downstreamPackageRoot(d.path);
  const std::set<std::string> submodules = submodulePaths(root);
  auto named = [&](const fs::path& p) {
    std::string rel = p.lexically_relative(root).generic_string();
    return d.dir + (d.dir.empty() || d.dir.back() == '/' ? "" : "/") + rel;
  };
  try {
    support::walkTree(d.path, [&](const fs::directory_entry& e) {
      std::error_code kind;
      const std::string name = e.path().filename().string();
      if (e.is_directory(kind)) {
        if ((!name.empty() && name[0] == '.') || name == "__pycache__") return false;
        if (e.path().lexically_normal() == tree) return false;  // the tree, inside a checkout
        std::string rel = e.path().lexically_relative(root).generic_string();
        if (submodules.count(rel)) {
          out.vendored.push_back(named(e.path()) + ": a git submodule (.gitmodules)");
          return false;
        }
        if (present(e.path() / ".git")) {
          out.vendored.push_back(named(e.path()) + ": a git checkout of its own (.git)");
          return false;
        }
        if (vendoredName(name)) {
          out.vendored.push_back(named(e.path()) + ": a directory of vendored code (" + name +
                                 "/)");
          return false;
        }
        return true;
      }
      if (!e.is_regular_file(kind) || !support::isPythonSource(e.path().string())) return false;
      std::string rel = e.path().lexically_relative(root).generic_string();
      std::string module = moduleName(rel, packageRoot);
      // Another project's module may share a name with one of the tree's (tests/__init__.py,
      // conftest.py): only a file with the tree's module's bytes is a copy.
      if (auto same = treeModules.find(module); same != treeModules.end()) {
        std::optional<std::string> mine = support::readFile(e.path().string());
        std::optional<std::string> theirs = support::readFile((tree / same->second).string());
        if (mine && theirs && *mine == *theirs) {
          out.vendored.push_back(named(e.path()) + ": a copy of the tree's module " + module);
          return false;
        }
      }
      std::string file = e.path().lexically_normal().generic_string();
      out.names[file] = module;
      out.files.push_back(std::move(file));
      return false;
    });
  } catch (const support::WalkError& e) {
    throw InputError("--downstream " + d.dir + ": " + e.dir() +
                     ": cannot read the directory: " + e.reason());
  }
}

}  // namespace

std::string downstreamPackageRoot(const std::string& checkout) {
  fs::path src = fs::path(checkout) / "src";
  return isDirectory(src) && !present(src / "__init__.py") ? "src" : "";
}

DownstreamModules findDownstreamModules(const std::vector<Downstream>& checkouts,
                                        const std::string& treeRoot,
                                        const std::map<std::string, std::string>& treeModules) {
  DownstreamModules out;
  const fs::path tree = fs::path(treeRoot).lexically_normal();
  for (const Downstream& d : checkouts) {
    if (!isDirectory(d.path)) throw InputError("--downstream " + d.dir + ": not a directory");
    std::string rel = fs::path(d.path).lexically_relative(tree).generic_string();
    if (rel.empty() || rel == "." || (rel != ".." && rel.rfind("../", 0) != 0))
      throw InputError("--downstream " + d.dir +
                       ": lies inside the tree; a downstream checkout is another project's "
                       "directory (the tree's own files are scanned as the tree)");
    readCheckout(d, tree, treeModules, out);
  }
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  std::sort(out.vendored.begin(), out.vendored.end());
  return out;
}

const Downstream* checkoutOf(const std::vector<Downstream>& checkouts, const std::string& file) {
  for (const Downstream& d : checkouts)
    if (file.size() > d.path.size() && file.compare(0, d.path.size(), d.path) == 0 &&
        (file[d.path.size()] == '/' || d.path.back() == '/'))
      return &d;
  return nullptr;
}

std::string seenOnly(facts::UnitFacts& unit) {
  facts::TuFacts& tu = unit.tu;
  std::string warning;
  if (tu.parseError) {
    warning = "downstream file " + tu.mainFile +
              " does not parse; the calls in its unreadable part are not seen as callers: " +
              (tu.parseError->messages.empty() ? std::string("(no message)")
                                               : tu.parseError->messages.front());
    tu.parseError.reset();
  }
  tu.reads.clear();
  tu.exemptReads.clear();
  tu.badSuppressions.clear();
  tu.allows.clear();
  tu.notes.clear();
  tu.digests.clear();
  tu.rulesSeen.clear();
  return warning;
}

}  // namespace gridlock::python
