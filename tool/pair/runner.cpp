#include "pair/runner.h"

#include "pair/command_end.h"
#include "pair/interrupt.h"
#include "pair/process.h"
#include "pair/report.h"
#include "pair/rerun_filter.h"
#include "pair/result_dir.h"
#include "pair/tree.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

namespace gridlock::pair {
namespace fs = std::filesystem;

namespace {

// A scratch directory for worktrees and (by default) results, removed on every way out.
class Scratch {
 public:
  Scratch() {
    std::string tmpl = (fs::temp_directory_path() / "gridlock-pair-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary directory");
    path_ = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void validate(const PairOptions& o) {
  bool running = !o.baseline.empty() || !o.change.empty() || !o.test.empty();
  bool collected = !o.baselineResults.empty() || !o.changeResults.empty();
  if (running && collected)
    throw InputError(
        "give either --baseline/--change/--test or --baseline-results/--change-results");
  if (collected && (o.baselineResults.empty() || o.changeResults.empty()))
    throw InputError("--baseline-results and --change-results go together");
  if (!collected && (o.baseline.empty() || o.change.empty() || o.test.empty()))
    throw InputError(
        "--baseline, --change and --test are required (or --baseline-results and "
        "--change-results)");
  if (o.reruns < 0) throw InputError("--reruns must be 0 or more");
  if (o.timeout < 0) throw InputError("--timeout must be 0 (no limit) or more");
  if (o.buildTimeout < 0) throw InputError("--build-timeout must be 0 (no limit) or more");
  if (o.format != "text" && o.format != "json" && o.format != "markdown")
    throw InputError("--format must be text, json or markdown, not " + o.format);
}

void requireBaselineResults(const RunResults& baseline, const std::string& where) {
  // The change may leave nothing (it crashed: all its tests turn invalid), but a baseline without
  // results means the test command does not write where pair reads: nothing can be compared.
  if (!baseline.files.empty()) return;
  const CommandEnd& end = baseline.end;
  if (end.known && (end.timedOut || end.signal || end.exitStatus)) {  // it died or did not start
    std::string how = (end.signal ? "was " : "") + describe(end);
    throw InputError(where +
                     ": no result files (*.json GoogleTest, *.xml JUnit); its test "
                     "command " +
                     how);
  }
  throw InputError(where +
                   ": no result files (*.json GoogleTest, *.xml JUnit); the test "
                   "command must write them under $GRIDLOCK_RESULTS_DIR (see docs/pair.md)");
}

// The note for processes a command left running in its group when it exited, which
// runProcess ended: `what` ("baseline: test command") and "PID NAME" each.
std::string leftoverNote(const std::string& what, const std::vector<std::string>& leftovers) {
  std::string names;
  for (const auto& l : leftovers) names += (names.empty() ? "" : ", ") + l;
  return what + " left " + std::to_string(leftovers.size()) +
         " process(es) of its group running when it exited (" + names +
         "); pair ended them (SIGTERM, then SIGKILL after 2 s)";
}

// Runs the test command once in `tree` into a fresh results directory and reads it back. A rerun
// (`only` not empty) also gets its tests listed in resultsRoot/label/runK.filter.
RunResults testRun(const PairOptions& o, const Tree& tree, const std::string& label, int run,
                   const std::string& resultsRoot, const std::set<TestId>& only,
                   std::vector<std::string>& notes, std::ostream& log) {
  fs::path dir = fs::path(resultsRoot) / label / ("run" + std::to_string(run));
  // A tree's first run starts its directory afresh: reruns or .end records an earlier session
  // left in --results-dir would otherwise be read as this session's.
  fs::remove_all(run == 0 ? dir.parent_path() : dir);
  fs::create_directories(dir);
  std::string filterFile;
  if (!only.empty()) {
    filterFile = dir.string() + ".filter";
    std::ofstream(filterFile, std::ios::binary) << filterFileText(only);
  }
  auto env = testEnvironment(dir.string(), label, run, only, filterFile);
  log << "gridlock pair: testing " << label;
  if (run) {
    log << " (rerun " << run << ", " << only.size() << " tests";
    bool named =
        std::any_of(env.begin(), env.end(), [](auto& v) { return v.first == "GTEST_FILTER"; });
    if (!named)  // the filter variables would not fit in the environment
      log << "; too many to name in the environment, so every test runs and pair reads only these";
    log << ")";
  }
  log << " in " << tree.path() << std::endl;
  ProcessResult r = runShell(o.test, tree.path(), env, o.timeout);
  std::string what = label + (run ? " rerun " + std::to_string(run) : "");
  if (!r.leftovers.empty()) notes.push_back(leftoverNote(what + ": test command", r.leftovers));
  CommandEnd end{true, r.exitStatus, r.signal, r.timedOut, o.timeout};
  // Kept beside the results, so a later --baseline-results/--change-results sees it too.
  std::ofstream(dir.string() + ".end", std::ios::binary) << formatEnd(end);
  // A signal or a timeout is an incident, reported as such; a plain non-zero exit is a note.
  if (!r.ok() && !isIncident(end)) notes.push_back(what + ": test command " + describe(end));
  RunResults results = readResultDir(dir.string());
  results.end = end;
  return results;
}

Comparison runTrees(const PairOptions& o, std::ostream& log) {
  Scratch scratch;
  // Absolute: the test command runs in its tree, not where pair was started.
  std::string resultsRoot =
      o.resultsDir.empty() ? scratch.path() + "/results" : fs::absolute(o.resultsDir).string();
  Tree baseline = Tree::resolve(o.baseline, o.repo, scratch.path(), "baseline");
  Tree change = Tree::resolve(o.change, o.repo, scratch.path(), "change");
  std::vector<std::string> notes;
  for (const Tree* t : {&baseline, &change}) {
    if (t->isWorktree())
      notes.push_back((t == &baseline ? "baseline" : "change") + std::string(": git revision ") +
                      t->revision());
  }
  if (!o.build.empty())
    for (auto [tree, label] : {std::pair{&baseline, "baseline"}, std::pair{&change, "change"}}) {
      log << "gridlock pair: building " << label << " in " << tree->path() << std::endl;
      ProcessResult r = runShell(o.build, tree->path(), {{"GRIDLOCK_TREE", label}}, o.buildTimeout);
      if (!r.leftovers.empty())
        notes.push_back(leftoverNote(std::string(label) + ": build command", r.leftovers));
      // No per-test comparison is possible without both builds: bad input, not a regression.
      if (!r.ok())
        throw InputError(std::string(label) + ": build command " +
                         describe({true, r.exitStatus, r.signal, r.timedOut, o.buildTimeout}));
    }
  RunResults b = testRun(o, baseline, "baseline", 0, resultsRoot, {}, notes, log);
  requireBaselineResults(b, "baseline");
  RunResults c = testRun(o, change, "change", 0, resultsRoot, {}, notes, log);
  Pairing pairing(b, c, o.ranks);
  for (int k = 1; k <= o.reruns; ++k) {
    std::set<TestId> pending = pairing.pendingReruns();
    if (pending.empty()) break;
    pairing.addRerun(testRun(o, change, "change", k, resultsRoot, pending, notes, log));
  }
  Comparison result = pairing.result();
  result.notes = notes;
  return result;
}

}  // namespace

Environment testEnvironment(const std::string& resultsDir, const std::string& tree, int run,
                            const std::set<TestId>& only, const std::string& filterFile) {
  Environment env = {
      {"GRIDLOCK_RESULTS_DIR", resultsDir},
      {"GTEST_OUTPUT", "json:" + resultsDir + "/"},
      {"GRIDLOCK_TREE", tree},
      {"GRIDLOCK_RUN", std::to_string(run)},
  };
  if (only.empty()) return env;
  env.emplace_back("GRIDLOCK_TEST_FILTER_FILE", filterFile);
  for (auto& v : filterVariables(only)) env.push_back(std::move(v));
  return env;
}

Comparison collectAndCompare(const PairOptions& o, std::ostream& log) {
  validate(o);
  if (o.baselineResults.empty()) return runTrees(o, log);
  TreeResults b = readTreeResults(o.baselineResults);
  requireBaselineResults(b.first, o.baselineResults);
  TreeResults c = readTreeResults(o.changeResults);
  return compare(b, c, o.ranks);
}

int runPair(const PairOptions& o, std::ostream& out, std::ostream& err) {
  InterruptScope interrupts;
  Comparison c;
  try {
    c = collectAndCompare(o, err);
    throwIfInterrupted();  // a signal after the last command: still no report
  } catch (const Interrupted& e) {
    // By now the command's group is stopped and the destructors have removed what pair made.
    err << "gridlock pair: " << e.what()
        << "; stopped the running command and removed the "
           "temporary worktrees and results\n";
    return 128 + e.signal();
  } catch (const InputError& e) {
    err << "gridlock pair: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "gridlock pair: internal error: " << e.what() << "\n";
    return 2;
  }
  std::optional<std::ofstream> file;
  if (!o.output.empty()) {
    file.emplace(o.output);
    if (!*file) {
      err << "gridlock pair: error: cannot write " << o.output << "\n";
      return 2;
    }
  }
  std::ostream& dest = file ? *file : out;
  if (o.format == "json")
    writeJson(c, dest);
  else if (o.format == "markdown")
    writeMarkdown(c, dest);
  else
    writeText(c, dest);
  dest.flush();
  if (!dest) {
    err << "gridlock pair: error: cannot write the report\n";
    return 2;
  }
  return exitCode(c);
}

}  // namespace gridlock::pair
