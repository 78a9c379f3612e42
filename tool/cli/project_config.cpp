#include "cli/project_config.h"

#include "cli/config_document.h"
#include "support/file_io.h"
#include "support/nearest.h"
#include "support/ownership.h"
#include "support/paths.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string_view>

namespace gridlock::cli {
namespace {

std::string realDir(const std::string& dir) {
  char real[PATH_MAX];
  return ::realpath(dir.c_str(), real) ? std::string(real) : dir;
}

// `p` made absolute against `dir` (the config's directory), with `.` and `..` folded.
std::string under(const std::string& dir, const std::string& p) {
  return support::removeDots(support::isAbsolute(p) ? p : support::join(dir, p));
}

}  // namespace

namespace {

// Whether `candidate` is a configuration to use; one of another user is named in a warning.
bool trusted(const std::string& candidate, const std::string& dir) {
  if (!support::isRegularFile(candidate)) return false;
  // Anyone may leave one in a shared directory above the project: only one of the user's own
  // (or root's) steers the run, as git trusts only the user's own repositories. A link is
  // judged by its owner and its target's.
  std::string why = support::distrustPath(candidate, dir, support::TrustedOwners::UserOrRoot);
  if (why.empty()) return true;
  support::warnOnce(candidate + ": ignored, not a configuration of yours: " + why);
  return false;
}

// Whether `candidate`, a pyproject.toml, holds a [tool.gridlock] table (a pyproject.toml
// without one is no configuration: the search goes on upward). One that does not parse is an
// error where it would be used (its owner trusted); `use`: it is to be used, so one of another
// user is skipped with trusted()'s warning.
bool holdsGridlockTable(const std::string& candidate, const std::string& dir, bool use) {
  if (!support::isRegularFile(candidate)) return false;
  std::optional<std::string> text = support::readFile(candidate);
  if (!text || text->find("gridlock") == std::string::npos) return false;
  bool holds = false;
  try {
    holds = readConfigDocument(candidate, *text).has_value();
  } catch (const ConfigError&) {
    if (!use || !trusted(candidate, dir)) return false;
    throw;
  }
  return holds && (!use || trusted(candidate, dir));
}

void noteOnce(const std::string& line) {
  static std::set<std::string> said;
  if (said.insert(line).second) std::cerr << "gridlock: note: " << line << "\n";
}

}  // namespace

std::optional<std::string> docsBaseUrl(const std::string& url) {
  for (std::string_view scheme : {"https://", "http://"})
    if (url.starts_with(scheme) && url.size() > scheme.size())
      return url.ends_with("/") ? url : url + "/";
  return std::nullopt;
}

std::string findConfig(const std::string& start) {
  for (std::string d = support::absolute(start); !d.empty(); d = support::parentPath(d)) {
    std::string candidate = support::join(d, kConfigName);
    std::string pyproject = support::join(d, kPyprojectName);
    if (trusted(candidate, d)) {
      if (holdsGridlockTable(pyproject, d, false))
        noteOnce(pyproject + ": [tool.gridlock] is not read: " + candidate +
                 " is, which wins when both are there");
      return candidate;
    }
    if (holdsGridlockTable(pyproject, d, true)) return pyproject;
    if (d == support::rootPath(d)) break;
  }
  return "";
}

void requireTrusted(const std::string& file, const ProjectConfig& config, const std::string& what) {
  if (!support::isSymlink(file) || support::optedIn(config.dir)) return;
  std::string dir = support::parentPath(file);
  std::string why =
      support::distrustPath(file, dir.empty() ? "." : dir, support::TrustedOwners::UserOrRoot);
  if (!why.empty())
    throw ConfigError(file + ": " + what + " named by " + config.path + ", not trusted: " + why);
}

ProjectConfig loadConfig(const std::string& path) {
  std::optional<std::string> text = support::readFile(path);
  if (!text) throw ConfigError(path + ": cannot read the configuration file");
  // .gridlock.json, or a pyproject.toml's [tool.gridlock]: the same keys, checked alike.
  std::optional<ConfigDocument> document = readConfigDocument(path, *text);
  if (!document) throw ConfigError(path + ": no [tool.gridlock] table");
  const nlohmann::json& doc = document->value;

  ProjectConfig c;
  c.path = path;
  c.dir = realDir(support::parentPath(support::absoluteAsIs(path)));
  auto bad = [&](const std::string& key, const std::string& what) {
    return ConfigError(document->at(key) + ": " + what);
  };
  auto text_of = [&](const std::string& key, const nlohmann::json& v) {
    if (!v.is_string() || v.get<std::string>().empty())
      throw bad(key, "expected a non-empty string");
    return v.get<std::string>();
  };
  auto list_of = [&](const std::string& key, const nlohmann::json& v, bool nonEmpty) {
    if (!v.is_array()) throw bad(key, "expected an array of strings");
    if (nonEmpty && v.empty()) throw bad(key, "expected at least one entry");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string()) throw bad(key + "/" + std::to_string(i), "expected a string");
      out.push_back(v[i].get<std::string>());
    }
    return out;
  };
  for (const auto& [key, v] : doc.items()) {
    if (key == "$schema") {
      text_of(key, v);
    } else if (key == "build") {
      c.build = under(c.dir, text_of(key, v));
    } else if (key == "rules") {
      // Names and paths as written: rules::resolvePack looks names up beside this file and
      // takes paths relative to it.
      c.rules = list_of(key, v, true);
      for (size_t i = 0; i < c.rules.size(); ++i)
        if (c.rules[i].empty()) throw bad(key + "/" + std::to_string(i), "empty pack name");
    } else if (key == "baseline") {
      c.baseline = under(c.dir, text_of(key, v));
    } else if (key == "root") {
      c.root = under(c.dir, text_of(key, v));
    } else if (key == "extra_args") {
      c.extraArgs = list_of(key, v, false);
    } else if (key == "remove_args") {
      c.removeArgs = list_of(key, v, false);
      for (size_t i = 0; i < c.removeArgs->size(); ++i)
        if ((*c.removeArgs)[i].empty()) throw bad(key + "/" + std::to_string(i), "empty pattern");
    } else if (key == "jobs") {
      if (!v.is_number_unsigned()) throw bad(key, "expected a non-negative integer");
      c.jobs = v.get<unsigned>();
    } else if (key == "docs_url") {
      c.docsUrl = docsBaseUrl(text_of(key, v));
      if (!c.docsUrl) throw bad(key, kDocsUrlExpected);
    } else if (key == "python_roots" || key == "package_root") {
      std::vector<std::string> paths =
          key == "package_root" ? std::vector<std::string>{text_of(key, v)} : list_of(key, v, true);
      for (size_t i = 0; i < paths.size(); ++i) {
        std::string at = key == "package_root" ? key : key + "/" + std::to_string(i);
        const std::string& p = paths[i];
        if (p.empty() || p[0] == '/' || p == ".." || p.rfind("../", 0) == 0 ||
            p.find("/../") != std::string::npos)
          throw bad(at, "expected a directory relative to the root, inside it");
      }
      if (key == "package_root")
        c.packageRoot = paths[0];
      else
        c.pythonRoots = paths;
    } else if (key == "downstream") {
      // Other projects' checkouts: outside the root, so any path, relative to this file.
      c.downstream = list_of(key, v, false);
      for (size_t i = 0; i < c.downstream->size(); ++i) {
        std::string& p = (*c.downstream)[i];
        if (p.empty()) throw bad(key + "/" + std::to_string(i), "expected a directory");
        p = under(c.dir, p);
      }
    } else {
      static const std::vector<std::string> keys = {
          "build", "rules",    "baseline",     "root",         "extra_args", "remove_args",
          "jobs",  "docs_url", "python_roots", "package_root", "downstream"};
      std::string list;
      for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
      throw bad(key, "unknown key (expected " + list + ")" + support::didYouMean(key, keys, '"'));
    }
  }
  return c;
}

}  // namespace gridlock::cli
