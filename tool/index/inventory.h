// The merged facts of a whole scan: every read once, however many translation units or
// template instantiations saw it.
#pragma once

#include "facts/by_file.h"
#include "facts/facts.h"
#include "index/program.h"
#include "index/rewrite_index.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::index {

// How a scan got its facts: translation units loaded from the facts cache, and parsed.
struct CacheCounts {
  size_t hits = 0;
  size_t misses = 0;
};

struct Inventory {
  std::vector<facts::Read> reads;  // sorted by file, line, column, name; unique
  std::vector<facts::ParseError> parseErrors;
  std::vector<facts::BadSuppression> badSuppressions;
  // The allows no read of any unit falls under (covers false), sorted by file, line, column;
  // `mainFile`: in some unit's main file. A subset run keeps only those (pipeline::scan): a
  // header's allow may cover a read of a unit it did not scan.
  std::vector<facts::AllowFact> unusedAllows;
  std::map<std::string, std::vector<std::string>> notes;  // TU main file -> frontend notes
  size_t filesScanned = 0;  // translation units (of a subset run: those its paths select)
  // Every file under the root a unit saw (main files and their includes), root-relative; in a
  // subset run, a unit its paths select: the files whose reads the run reports.
  std::set<std::string> filesSeen;
  // Of those, the files some unit saw whole: not in the chain of a parse error (a file with an
  // error and the files including it), not in a unit the compiler could not run at all. Only
  // these can show that a count fell.
  std::set<std::string> filesComplete;
  // The rules some unit declares (TuFacts::rulesSeen).
  std::set<std::string> rulesSeen;
  // A run over some paths (positional paths, a diff's files): its selected units' reads are
  // reported, and the other units of the tree (its context) were read as the whole program:
  // their functions, classes, sites and rewrite facts are here, their fallbacks in
  // exemptReads, their files in programFiles, their parse errors in parseErrors (what a
  // broken unit calls is missing from the program); their reads and notes are not.
  // Whether a fallback is dead, who calls a function and what a call launders are decided on
  // all of it; the paths limit what is reported and edited (docs/scan.md, "Partial runs").
  bool subset = false;
  // Every file any unit saw, the context's too: the whole program. filesSeen in a full run.
  std::set<std::string> programFiles;
  Program program;
  std::vector<facts::Read> exemptReads;        // see TuFacts::exemptReads
  std::map<std::string, std::string> digests;  // file -> MD5 at scan time
  // Downstream checkouts whose units were seen (merge's `seen`): absolute directory -> as the
  // user named it. Their files are in the program, never among the reads (set by the scan).
  std::map<std::string, std::string> downstream;
  RewriteIndex rewrite;
  CacheCounts cache;  // set by the scan, not by merge()
};

// `rewriteFacts`: the TUs carry the rewriter's facts (they are merged into `rewrite`).
Inventory merge(std::vector<facts::TuFacts> tus, bool rewriteFacts = false);
// The same of units whose facts may be split by file (facts/by_file.h): the facts of a file
// that several units share by digest are merged once, with the first unit that has them.
Inventory merge(std::vector<facts::UnitFacts> units, bool rewriteFacts = false);
// The same, with units only seen (downstream checkouts: python/downstream.h): their functions,
// classes, call sites and values join the program (callers, fallbacks); nothing else of them
// is the run's (not even programFiles).
Inventory merge(std::vector<facts::UnitFacts> units, std::vector<facts::UnitFacts> seen,
                bool rewriteFacts);
// A subset run's inventory (Inventory::subset): `units` are those its paths select, `context`
// every other unit of the tree. A read belongs to the run when its file is one a selected unit
// saw; a context file's fallback (a read that tests a parameter) goes to exemptReads, where
// laundering and the rewriter find it; its other reads are left out.
Inventory mergeSubset(std::vector<facts::UnitFacts> units, std::vector<facts::UnitFacts> context,
                      bool rewriteFacts = false, std::vector<facts::UnitFacts> seen = {});
// The one order of reads every report and the gate rely on: file, line, column, name, spelling.
void sortReads(std::vector<facts::Read>& reads);

}  // namespace gridlock::index
