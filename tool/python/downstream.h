// Downstream checkouts (--downstream DIR, the config's "downstream"): other projects whose
// Python code imports the tree (Megatron-Bridge, NeMo-RL downstream of megatron.core). Their
// modules are read with the tree's, so that their calls, constructions, subclasses and
// re-exports of the tree's functions and classes are callers of the tree's defs (`callers`,
// whether a fallback is dead); they are seen, never counted, gated or edited: their reads,
// allows and notes are dropped (seenOnly). Their vendored copies of the tree are not callers
// and are not read (docs/callers.md, "Downstream checkouts").
#pragma once

#include "facts/by_file.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::python {

struct Downstream {
  std::string dir;   // as the user named it (the command line, or the config's entry)
  std::string path;  // absolute, normalised: what its modules' files start with
};

struct DownstreamModules {
  std::vector<std::string> files;            // absolute, sorted, once each
  std::map<std::string, std::string> names;  // file -> its dotted module name in its checkout
  // What was left out as a vendored copy of the tree, each with why, e.g.
  // "DIR/3rdparty/Megatron-LM: a git submodule (.gitmodules)".
  std::vector<std::string> vendored;
};

// Where a checkout's module names start: "src" when it has a src/ directory that is no package
// itself (a src layout: src/megatron/bridge/x.py is megatron.bridge.x), else its root. Files
// outside src/ are named from the checkout's root.
std::string downstreamPackageRoot(const std::string& checkout);

// Every .py file of each checkout, but its vendored copies of the tree: a git submodule (a path
// .gitmodules names, or a directory holding a .git of its own), a directory named as vendored
// code is (3rdparty, third_party, third-party, thirdparty, vendor, vendored, _vendor), and a
// module whose name in its checkout is one of `treeModules` (dotted name -> the tree's file,
// root-relative) and whose bytes are that file's (a copy of the tree's module, which an import
// would never reach: the tree's own has its name; a module of another project that only shares
// the name, tests/__init__.py, is read). Hidden directories
// and __pycache__ are skipped as in the tree. Throws InputError: a checkout that is not a
// directory, one inside the tree (its files are the tree's), a directory that cannot be read.
DownstreamModules findDownstreamModules(const std::vector<Downstream>& checkouts,
                                        const std::string& treeRoot,
                                        const std::map<std::string, std::string>& treeModules);

// The checkout `file` (an absolute path) belongs to, or null.
const Downstream* checkoutOf(const std::vector<Downstream>& checkouts, const std::string& file);

// A downstream unit as the whole program sees it: its functions, classes, call sites and values
// (what `callers` and the fallbacks are decided on), none of its reads, allows, suppressions,
// notes or digests. Its parse error is returned as a warning ("" when none) rather than kept: a
// checkout is no part of the tree the gate judges, but what a broken file calls is not seen.
std::string seenOnly(facts::UnitFacts& unit);

}  // namespace gridlock::python
