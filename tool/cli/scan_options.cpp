#include "cli/scan_options.h"

#include "support/atomic_write.h"

#include <iostream>

namespace gridlock::cli {

void addScanOptions(CLI::App& cmd, ScanOptions& o, bool rulesRequired) {
  // -p and --rules may come from .gridlock.json instead (applyConfig checks them).
  cmd.add_option("-p", o.buildDir,
                 "Build directory holding compile_commands.json, or that file (default: "
                 "\"build\" of .gridlock.json)");
  // One value per occurrence, so a file after --rules R is a file, not a second pack.
  cmd.add_option("--rules", o.rules,
                 std::string("Rule pack, a name or a path (repeatable; default: \"rules\" of "
                             ".gridlock.json)") +
                     (rulesRequired ? "" : "; optional here"))
      ->allow_extra_args(false);
  cmd.add_option("--root", o.root,
                 "Paths in output are relative to this directory (default: the directory of "
                 ".gridlock.json, else the current directory)");
  cmd.add_option("--config", o.config,
                 "Project configuration: a .gridlock.json, or a .toml file's [tool.gridlock] "
                 "(default: the nearest .gridlock.json, or pyproject.toml with [tool.gridlock], "
                 "from the current directory upward)");
  cmd.add_option("files", o.files, "Restrict the scan to these files or directories");
  cmd.add_option("--extra-arg", o.extraArgs, "Extra compiler flag (repeatable)")
      ->allow_extra_args(false);
  cmd.add_option("--remove-arg", o.removeArgs,
                 "Leave the compiler arguments this glob matches out of every database command "
                 "(repeatable; default: \"remove_args\" of .gridlock.json)")
      ->allow_extra_args(false);
  cmd.add_option("--jobs,-j", o.jobs, "Translation units in parallel (default: all cores)");
  cmd.add_flag("-q,--quiet", o.quiet, "No progress line; only errors, findings and the verdict");
  cmd.add_flag("--allow-parse-errors", o.allowParseErrors,
               "Exit 0 even when a file fails to parse (it is still reported)");
  cmd.add_option("--cpython-timeout", o.cpythonTimeoutSeconds,
                 "Stop python3, which parses the Python files tree-sitter cannot read, once it "
                 "takes no file or gives no answer after the last for this long (seconds; 0: no "
                 "limit; default " +
                     std::to_string(python::kDefaultCPythonTimeoutSeconds) +
                     "): those files stay parse errors")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--downstream", o.downstream,
                 "Another project's checkout whose Python code imports the tree (repeatable; "
                 "default: \"downstream\" of .gridlock.json): its calls, constructions and "
                 "subclasses are callers, seen and never counted or edited; its vendored copies "
                 "of the tree are not read")
      ->allow_extra_args(false);
  cmd.add_option("--resource-dir", o.resourceDir,
                 "Clang resource directory (default: the one gridlock was built with)");
  cmd.add_option("--cuda-path", o.cudaPath, "CUDA installation for .cu files");
  addCacheOptions(cmd, o.cache);
}

void checkOutputPath(const std::string& option, const std::string& path) {
  if (path.empty() || path == "-") return;
  std::string why = support::whyUnwritable(path);
  if (!why.empty()) throw ConfigError(option + " " + path + ": " + why);
}

int parseErrorStatus(const pipeline::ScanRun& run, const ScanOptions& o) {
  const auto& errors = run.inventory.parseErrors;
  if (errors.empty()) return 0;
  for (const auto& e : errors) {
    std::cerr << "gridlock: error: " << e.file << " failed to parse; its reads may be incomplete\n";
    for (const auto& m : e.messages) std::cerr << "  " << m << "\n";
  }
  if (o.allowParseErrors) return 0;
  std::cerr << "gridlock: " << errors.size()
            << " file(s) failed to parse; the inventory is incomplete (pass --allow-parse-errors "
               "to accept that)\n";
  return 2;
}

}  // namespace gridlock::cli
