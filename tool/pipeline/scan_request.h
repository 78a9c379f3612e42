// What a scan is asked to do, whichever command asks (scan, gate, callers, rewrite): the
// run's root and rules, the paths it is restricted to, and what the C++ frontend reads (the
// compile databases, their flags, the facts cache, a shard). Filled from the command line and
// .gridlock.json by cli/scan_options.h; tests fill it directly.
#pragma once

#include "python/cpython_check.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::pipeline {

// The facts cache (tool/cache): where it lives, whether to use it, how big it may grow, and
// -v for why each translation unit missed.
struct CacheSettings {
  std::string dir;  // default: .gridlock-cache in the build directory
  bool off = false;
  std::string size = "1G";
  bool verbose = false;
};

struct ScanRequest {
  std::string buildDir;
  // More compile databases whose units are scanned too (a tests or examples build).
  std::vector<std::string> extraDbs;
  std::vector<std::string> rules;
  // Where rule names and relative pack paths are looked up first: a config's directory
  // (rules::PackAnchor); "" for the working directory.
  std::string rulesDir;
  std::string rulesConfigName = ".gridlock.json";  // the file there that named them, for messages
  std::string root = ".";
  std::vector<std::string> files;
  // `files` are what a diff touches (gate --changed-since): one that selects no unit is
  // skipped, and an empty list scans nothing (frontend::FrontendOptions::onlyFromDiff).
  bool filesFromDiff = false;
  bool quiet = false;  // -q: no progress line, no notes
  std::vector<std::string> extraArgs;
  std::vector<std::string> removeArgs;  // --remove-arg: globs (frontend::ArgRemover)
  unsigned jobs = 0;
  bool allowParseErrors = false;
  std::string resourceDir;
  std::string cudaPath = "/usr/local/cuda";
  // Absolute path -> contents scanned instead of the file on disk (rewrite's re-parse).
  std::map<std::string, std::string> overlay;
  // Also collect what only the rewriter needs (index::RewriteIndex).
  bool rewriteFacts = false;
  CacheSettings cache;
  // scan --shard I/N --facts-out FILE (pipeline/shard.h): scan a part, write its facts.
  std::string shard;
  std::string factsOut;
  // Python (pipeline/python_frontend.h): .gridlock.json's "python_roots" and "package_root".
  std::vector<std::string> pythonRoots;
  std::string packageRoot;
  // --downstream DIR and the config's "downstream": other projects' checkouts whose Python code
  // imports the tree, seen as callers, never counted or edited (python/downstream.h).
  std::vector<std::string> downstream;
  // --cpython-timeout: how long python3, parsing a file tree-sitter cannot read, may stall.
  int cpythonTimeoutSeconds = python::kDefaultCPythonTimeoutSeconds;
  // Why there is no build directory (no -p, no "build"): the error when nothing else is read.
  std::string noBuildDir;
};

}  // namespace gridlock::pipeline
