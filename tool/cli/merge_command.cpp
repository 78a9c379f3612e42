// gridlock merge: the shards of one scan (scan --shard I/N --facts-out FILE) -> the report and
// gate verdict that one full scan gives, byte for byte. Refuses any set of files that is not
// every shard of one scan exactly once. Or the facts the Clang plugin wrote during a build
// (tool/plugin), one unit per file: the report a scan of those units gives.
#include "cli/command.h"
#include "cli/gate_coverage.h"
#include "cli/gate_verdict.h"
#include "cli/scan_options.h"
#include "cli/scan_report.h"
#include "pipeline/facts_file.h"
#include "pipeline/pipeline.h"
#include "pipeline/python_frontend.h"

#include "rules/rules_codec.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace gridlock::cli {
namespace {

using pipeline::FactsFile;

std::string shardName(const FactsFile& f) {
  return std::to_string(f.shard) + "/" + std::to_string(f.shards);
}

// Why `b` cannot be merged with `a`, or "".
std::string mismatch(const FactsFile& a, const std::string& pa, const FactsFile& b,
                     const std::string& pb) {
  if ((a.shards == 0) != (b.shards == 0))
    return (a.shards == 0 ? pa : pb) + " is the Clang plugin's facts of one unit but " +
           (a.shards == 0 ? pb : pa) + " is a shard of a scan";
  if (a.shards != b.shards)
    return pb + " is shard " + shardName(b) + " but " + pa + " is shard " + shardName(a);
  if (a.root != b.root) return pb + " was scanned with another --root than " + pa;
  if (a.rulesDigest != b.rulesDigest) return pb + " was scanned with other rule packs than " + pa;
  if (a.plan != b.plan)
    return pb + (b.plan ? " was" : " was not") + " scanned with --plan, " + pa +
           (a.plan ? " was" : " was not");
  if (a.allowParseErrors != b.allowParseErrors)
    return pb + " and " + pa + " differ in --allow-parse-errors";
  if (a.subset != b.subset)
    return pb + " and " + pa + " differ in positional paths (one scanned some files only)";
  if (a.shards != 0 && a.units != b.units)
    return pb + " was scanned over other translation units than " + pa;
  return "";
}

struct Merged {
  pipeline::ScanRun run;
  bool plan = false;
  bool allowParseErrors = false;
  std::vector<std::string> units;  // every unit of the scan
};

Merged merged(const FactsFile& first, std::vector<facts::TuFacts> tus,
              const index::CacheCounts& counts) {
  Merged m;
  m.plan = first.plan;
  m.allowParseErrors = first.allowParseErrors;
  m.run.root = first.root;
  m.run.subset = first.subset;
  m.run.rules = rules::ruleSetFromJson(first.rules);
  m.run.inventory = pipeline::inventoryOf(std::move(tus), m.run.rules, first.plan);
  m.run.inventory.cache = counts;
  m.units = first.units;
  return m;
}

// The Clang plugin's files, one unit each, in the order of their units' paths (a file compiled
// twice, into two objects, is two units).
Merged mergeUnits(std::vector<FactsFile>& files) {
  std::vector<std::pair<std::string, facts::TuFacts*>> units;
  for (auto& f : files) units.emplace_back(f.units[0], &f.tus[0]);
  // Equal paths (one file compiled twice) keep the order of their files' names.
  std::sort(units.begin(), units.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  std::vector<facts::TuFacts> tus;
  for (auto& [unit, tu] : units) tus.push_back(std::move(*tu));
  return merged(files[0], std::move(tus), {});
}

Merged mergeFiles(const std::vector<std::string>& paths) {
  std::vector<FactsFile> files;
  for (const auto& p : paths) files.push_back(pipeline::readFactsFile(p));
  const FactsFile& first = files[0];
  for (size_t i = 1; i < files.size(); ++i)
    if (std::string why = mismatch(first, paths[0], files[i], paths[i]); !why.empty())
      throw std::runtime_error(why);
  if (first.shards == 0) {
    for (size_t i = 0; i < files.size(); ++i)
      if (files[i].units.size() != 1 || files[i].tus.size() != 1)
        throw std::runtime_error(paths[i] + ": damaged facts file (the plugin's holds one unit)");
    return mergeUnits(files);
  }
  std::vector<int> given(first.shards + 1, -1);
  for (size_t i = 0; i < files.size(); ++i) {
    int& seen = given[files[i].shard];
    if (seen >= 0)
      throw std::runtime_error("shard " + shardName(files[i]) + " is given twice: " + paths[seen] +
                               " and " + paths[i]);
    seen = static_cast<int>(i);
  }
  for (size_t s = 1; s <= first.shards; ++s)
    if (given[s] < 0)
      throw std::runtime_error("shard " + std::to_string(s) + "/" + std::to_string(first.shards) +
                               " is missing");

  // Every unit exactly once, in the order one scan has them.
  std::vector<facts::TuFacts> tus(first.units.size());
  std::vector<bool> have(first.units.size(), false);
  index::CacheCounts counts;
  for (auto& f : files) {
    for (size_t k = 0; k < f.positions.size(); ++k) {
      size_t p = f.positions[k];
      if (have[p])
        throw std::runtime_error(first.units[p] + " is in two shards (was the tree the same?)");
      have[p] = true;
      tus[p] = std::move(f.tus[k]);
    }
    counts.hits += f.cache.hits;
    counts.misses += f.cache.misses;
  }
  for (size_t p = 0; p < have.size(); ++p)
    if (!have[p])
      throw std::runtime_error(first.units[p] + " is in no shard (was the tree the same?)");

  return merged(first, std::move(tus), counts);
}

// The files given: a directory stands for the facts files in it (the plugin's out=DIR), in
// name order. A directory with none is an error: a build that wrote no facts is not clean.
std::vector<std::string> factsFiles(const std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const auto& g : given) {
    std::error_code ec;
    if (!std::filesystem::is_directory(g, ec)) {
      out.push_back(g);
      continue;
    }
    std::vector<std::string> here;
    for (const auto& e : std::filesystem::directory_iterator(g, ec))
      if (e.is_regular_file(ec) && e.path().extension() == ".facts") here.push_back(e.path());
    if (ec) throw std::runtime_error(g + ": cannot list (" + ec.message() + ")");
    if (here.empty())
      throw std::runtime_error(g +
                               ": no facts files (*.facts) in it; did the build load the "
                               "gridlock plugin (-fplugin-arg-gridlock-out=" +
                               g + ")?");
    std::sort(here.begin(), here.end());
    out.insert(out.end(), here.begin(), here.end());
  }
  return out;
}

}  // namespace

Runner addMergeCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "merge", "Merge the facts of the shards of one scan into its report or gate verdict");
  auto files = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<report::Format>(report::Format::Text);
  auto output = std::make_shared<std::string>();
  auto baseline = std::make_shared<std::string>();
  auto update = std::make_shared<bool>(false);
  auto docsUrl = std::make_shared<std::string>();
  auto verbose = std::make_shared<bool>(false);
  auto allowUncovered = std::make_shared<bool>(false);
  cmd->add_option("files", *files,
                  "Facts files of every shard (scan --shard I/N --facts-out), or the directories "
                  "the Clang plugin wrote (out=DIR)")
      ->required();
  auto* fmt = addFormatOption(
      *cmd, *format,
      {report::Format::Text, report::Format::Json, report::Format::Sarif, report::Format::Github});
  auto omitEdges = std::make_shared<bool>(false);
  addOmitEdgesFlag(*cmd, *omitEdges);
  auto* out = cmd->add_option("-o,--output", *output, "Write the report here instead of stdout");
  auto* base = cmd->add_option("--baseline", *baseline,
                               "Give the verdict of `gridlock gate --baseline FILE` instead");
  cmd->add_flag("--update", *update, "With --baseline: as `gridlock gate --update`")->needs(base);
  auto strict = std::make_shared<bool>(false);
  addStrictFlag(*cmd, *strict)->needs(base);
  addDocsUrlOption(*cmd, *docsUrl);
  cmd->add_flag("-v,--verbose", *verbose, "Name each rule-pack entry that matched nothing");
  addAllowUncoveredFlag(*cmd, *allowUncovered);
  base->excludes(fmt)->excludes(out);
  return [=]() {
    std::string docs = checkedDocsUrl(*docsUrl);
    checkOmitEdges(*omitEdges, *format);
    checkOutputPath("-o", *output);
    Merged m = mergeFiles(factsFiles(*files));
    pipeline::warnUnmatchedPython(m.run.rules, m.run.inventory.rulesSeen, m.units);
    pipeline::warnUnmatched(m.run, *verbose);
    ScanOptions o;
    o.allowParseErrors = m.allowParseErrors;
    if (!baseline->empty()) {
      // The shards carry the root: the baseline is checked against it before any verdict.
      GateBaseline b = readGateBaseline(*baseline, m.run.root);
      if (int rc = baselineMissing(b, *update, /*subset=*/false)) return rc;
      if (int rc = parseErrorStatus(m.run, o)) return rc;
      // As one gate would: the tree walked from the shards' root (the build trees skipped).
      if (int rc = coverageStatus(m.run, analysis::wholeTree(m.run.root), *allowUncovered))
        return rc;
      GateShow show;
      show.strict = *strict;
      return gateVerdict(m.run, b, *update, show);
    }
    writeOutput(*output, renderScan(m.run, *format, m.plan, false, docs, *omitEdges));
    return parseErrorStatus(m.run, o);
  };
}

}  // namespace gridlock::cli
