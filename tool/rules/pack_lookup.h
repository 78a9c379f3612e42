// Packs by name (docs/scan.md#rule-packs): `--rules mpi` and `"extends": ["gridlock-legacy"]` name
// a pack; `rules/ours.json` or `../x/mpi.json` is a path. A name is looked up as NAME.json beside
// the config (or, for `extends`, beside the extending pack), then in the shipped packs: the
// installed <prefix>/share/gridlock/rules of the running binary and, for a binary in its build
// tree, the source tree's rules/; each followed by its examples/ (packs for open-source codebases,
// docs/real-codebases.md), which an unknown name's error lists apart.
#pragma once

#include <string>
#include <vector>

namespace gridlock::rules {

// A directory of packs and what it is, for error messages ("installed", "source tree").
struct PackDir {
  std::string dir;
  std::string what;
  bool examples = false;  // a directory of example packs (rules/examples)
};

// What a reference is resolved from: a relative path against `dir` ("" = the working
// directory); a name first in `dir` when `what` says why (e.g. "beside the config"), else only
// in the shipped packs.
struct PackAnchor {
  std::string dir;
  std::string what;
};

// A name is a plain word: no '/', not ending in ".json".
bool isPackName(const std::string& ref);

// The shipped pack directories of this process, in lookup order; only those that exist.
std::vector<PackDir> shippedPackDirs();

// The file `ref` names. A path is returned as written (joined to the anchor's dir), whether or
// not it exists; an unknown name throws RuleError listing every place it looked, the shipped
// packs, and the nearest of them when the name looks like a slip.
std::string resolvePack(const std::string& ref, const PackAnchor& anchor,
                        const std::vector<PackDir>& shipped);

}  // namespace gridlock::rules
