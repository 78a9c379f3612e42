// The frontends of the Python build (gridlock-python): Python alone, no Clang, LLVM or MPI
// linked. What only the full build reads (a compile database, a C/C++/CUDA file, a shard's
// facts file, which only its merge reads) is an error naming that build, before anything is
// scanned. The full build links frontends_full.cpp instead.
#include "pipeline/frontend.h"
#include "pipeline/python_frontend.h"
#include "pipeline/shard.h"
#include "support/source_files.h"

#include <stdexcept>

namespace gridlock::pipeline {
namespace {

const char* const kThisBuild = "this is gridlock-python, the Python build without the C++ frontend";

[[noreturn]] void fullBuildOnly(const std::string& what) {
  throw std::runtime_error(what + ": only the full build, gridlock (with Clang), reads it; " +
                           kThisBuild);
}

}  // namespace

std::vector<std::unique_ptr<Frontend>> frontendsFor(const ScanRequest& request,
                                                    const rules::RuleSet& rules) {
  if (!request.buildDir.empty()) fullBuildOnly("-p " + request.buildDir + " (a compile database)");
  if (!request.extraDbs.empty())
    fullBuildOnly("--extra-db " + request.extraDbs.front() + " (a compile database)");
  if (!request.factsOut.empty() || !request.shard.empty())
    fullBuildOnly("--shard/--facts-out (a shard's facts file)");
  // A diff's files are whatever it touched: those that are not Python select nothing.
  if (!request.filesFromDiff)
    for (const std::string& file : request.files)
      if (support::isCxxSource(file)) fullBuildOnly(file + " (a C, C++ or CUDA file)");
  if (!readsPython(request, rules))
    throw std::runtime_error(
        std::string("nothing to scan: the rule packs hold no Python rules and no python_roots "
                    "are set (C/C++ is scanned by the full build, gridlock); ") +
        kThisBuild);
  std::vector<std::unique_ptr<Frontend>> out;
  out.push_back(std::make_unique<PythonFrontend>(request));
  return out;
}

std::string buildDescription() { return "Python build: no C++ frontend"; }

bool readsCompileDatabases() { return false; }

void writeShardFacts(const ScanRequest&, const Scope&, const std::vector<Units>&) {
  fullBuildOnly("--facts-out (a shard's facts file)");
}

}  // namespace gridlock::pipeline
