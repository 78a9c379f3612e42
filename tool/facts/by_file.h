// A translation unit's facts split by the file each one is located in, so the facts of a header
// many units include are stored, loaded and merged once however many units share them (the
// facts cache, docs/cache.md). Each file's facts keep their order, and the runs record how
// the files interleave in each list, so joining them gives back the unit's facts exactly, in
// their order: the index's merge of a joined unit is that of the parsed one.
#pragma once

#include "facts/binary_codec.h"
#include "facts/facts.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gridlock::facts {

// The facts of one unit located in one file: only the located lists (reads, bad
// suppressions, exempt reads, digests, functions, classes, sites, values, parameter lists,
// calls, dependent calls, class bodies, allows) are set.
struct FileFacts {
  std::string digest;                    // where it is stored ("" when it is not)
  std::shared_ptr<const TuFacts> facts;  // shared by every unit that has the same ones
};

// Per located list, (file index, count) pairs: the list's facts in their order, taken from
// the files' lists in turn.
struct Runs {
  std::vector<std::uint32_t> reads, badSuppressions, exemptReads, functions, classes, sites, values,
      paramLists, calls, dependentCalls, classBodies, allows;
};

struct ByFile {
  std::vector<FileFacts> files;  // in the order the unit first names them
  Runs runs;
};

// A unit's facts as a scan holds them: whole (`byFile` null), or the facts that belong to the
// unit itself (its main file's name, parse error, notes, skipped branches, includes, rules
// seen, functions whose address it takes) with those of its files in `byFile`.
struct UnitFacts {
  TuFacts tu;
  std::shared_ptr<const ByFile> byFile;
};

// Moves the located facts of `tu` into one TuFacts per file; `tu` keeps the rest. The
// files' digests are left empty.
ByFile splitByFile(TuFacts& tu);

// Puts the facts of `byFile`'s files back into `tu`, in their original order, leaving out
// those of the files `skip` says (by index; none when it is empty).
void joinByFile(TuFacts& tu, const ByFile& byFile, const std::function<bool(size_t)>& skip = {});

// The whole facts of a unit (joined when split).
TuFacts wholeFacts(const UnitFacts& unit);

// "" when the runs name only existing files and take exactly every fact of each; else what
// is wrong. A split that does not hold this is damaged and must not be joined.
std::string checkRuns(const ByFile& byFile);

// The runs in the binary form (binary_codec.h): what a cache entry stores beside its files'
// digests. Reading throws codec::Error on damaged bytes.
void putRuns(codec::bin::Writer& w, const Runs& runs);
void getRuns(codec::bin::Reader& r, Runs& runs);

}  // namespace gridlock::facts
