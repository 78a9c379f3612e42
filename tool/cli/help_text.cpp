#include "cli/help_text.h"

#include "cli/scan_options.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>

namespace gridlock::cli {
namespace {

// CLI11's help, with the program's name in every usage line and, for a command that scans,
// where the compiler arguments go.
class Help : public CLI::Formatter {
 public:
  Help() {
    label("SUBCOMMAND", "COMMAND");
    label("SUBCOMMANDS", "COMMANDS");
  }
  std::string make_usage(const CLI::App* app, std::string name) const override {
    std::string usage = CLI::Formatter::make_usage(app, name);
    if (app->get_parent() && takesCompilerArgs(app->get_name()))
      usage.insert(usage.find_last_not_of('\n') + 1, " [-- COMPILER-ARG...]");
    return usage;
  }
};

const char* const kDashDash =
    R"(After --: compiler arguments for every translation unit, after the compile database's own
(as clang-tidy takes them): gridlock scan -p build --rules mpi -- -DWITH_NCCL=0
)";

const char* const kTopArguments = R"(Compiler arguments:
  Everything after -- goes to the compiler for every translation unit, after the compile
  database's own arguments (scan, gate, callers, rewrite), as clang-tidy takes them:
    gridlock scan -p build --rules mpi -- -DWITH_NCCL=0

Formats (--format; -o FILE writes the report there):
)";

// After the commands among scan, gate and merge that the binary has, in a column of 22.
const char* const kTopFormats =
    R"(text (clang-style diagnostics, then a summary or the verdict), json,
                      sarif (SARIF 2.1.0, for code scanning), github (GitHub Actions
                      annotations, as ruff's --output-format github)
  callers             text, json
  pair                text, json, markdown
  grid, shard         json

Exit status:
  0      success: the report is complete, the gate passed (or created or shrank the
         baseline), the rewrite was done
  1      the check found what it guards against: a count rose above the gate's baseline,
         pair found a regression, rewrite --diff --check found edits to make
  2      bad input or an internal error: an unknown command, option, rule pack or key, a
         malformed rule pack or .gridlock.json, a missing compile database, an output path
         that cannot be written, a file that does not parse
  128+N  pair was interrupted by signal N

Configuration: .gridlock.json, or [tool.gridlock] in pyproject.toml (the same keys), found
from the current directory upward, names the build directory, the rule packs and the baseline,
so that `gridlock gate` needs no arguments.

Environment:
  GRIDLOCK_PYRIGHT            rewrite: the pyright that checks a Python change, its index.js
                              (run with node) or an executable (default: the build tree's
                              copy, else pyright on PATH)
  GRIDLOCK_SAFE_DIRECTORIES   directories (colon-separated, or *) whose .gridlock.json,
                              pyproject.toml and rewrite journal are trusted whoever owns them
                              (a container job's checkout); others' are ignored with a warning
  GRIDLOCK_PROGRESS_INTERVAL  seconds between progress lines when stderr is no terminal
                              (default 5; 0: after every unit; -q: none)
  NO_COLOR                    set and not empty: --color auto colours nothing (no-color.org)

More: gridlock COMMAND --help; man gridlock; the guides in share/doc/gridlock of the
installation (docs/ in the source).
)";

// Each command's own: what follows `--`, its formats, its exit statuses.
const std::map<std::string, std::string>& commandFooters() {
  static const std::map<std::string, std::string> footers = {
      {"scan",
       kDashDash +
           std::string(
               R"(Formats: text (clang-style diagnostics, then a summary), json, sarif (SARIF 2.1.0),
github (a workflow command per finding: ::warning file=F,line=L,col=C,title=CHECK::MESSAGE).
Exit status: 0 the inventory is complete; 2 bad input (a rule pack, .gridlock.json, the
compile database, an output path) or a file that does not parse (unless --allow-parse-errors).
)")},
      {"gate",
       kDashDash +
           std::string(
               R"(Formats: text (each new read an error at file:line:col, then the verdict), json, sarif
(with baselineState), github (an ::error annotation at each new read; the verdict on stderr);
with -o FILE the text verdict still goes to stdout.
Exit status: 0 passed (or the baseline was created or shrunk); 1 a count rose above the
baseline (--update refuses to grow it), or with --strict a count fell and the baseline was not
tightened or an allow covers no read; 2 bad input, no baseline, or a file that does not parse.
)")},
      {"callers", kDashDash + std::string(R"(Formats: text, json.
Exit status: 0 done; 2 bad input (no such function or parameter, a file that does not parse).
)")},
      {"rewrite",
       kDashDash +
           std::string(
               R"(Output: --export-fixes FILE (clang-apply-replacements YAML), --diff (a unified diff on
stdout), --apply (the files, journaled; --recover puts back an interrupted one).
Exit status: 0 done, or nothing to do; 1 --diff --check: there are edits to make; 2 refused,
nothing written (the code does not parse, edits conflict, a file changed since the scan, ...).
)")},
      {"merge",
       R"(Formats: text, json, sarif, github: the bytes one scan of every shard gives; with
--baseline, the gate's verdict.
Exit status: as gridlock scan; with --baseline, as gridlock gate.
)"},
      {"pair", R"(Formats: text, json, markdown.
Exit status: 0 no regression; 1 a new failure, an invalid test, or an incident only one tree
had; 2 bad input (a missing tree, a failed build, a malformed result file); 128+N
interrupted by signal N.
)"},
      {"grid", "Output: JSON on stdout. Exit status: 0 done; 2 bad arguments.\n"},
      {"shard", "Output: JSON on stdout. Exit status: 0 done; 2 bad arguments.\n"},
  };
  return footers;
}

// The top help's footer. Its formats name only the reporting commands this binary has (the
// Python build has no merge).
std::string topFooter(CLI::App& app) {
  std::string names;
  for (const char* name : {"scan", "gate", "merge"})
    for (const CLI::App* sub : app.get_subcommands({}))
      if (sub->get_name() == name) names += (names.empty() ? "" : ", ") + sub->get_name();
  std::string line = "  " + names;
  line.resize(std::max<size_t>(line.size() + 1, 22), ' ');
  return kTopArguments + line + kTopFormats;
}

}  // namespace

void describeCommands(CLI::App& app) {
  auto help = std::make_shared<Help>();
  app.name("gridlock");
  app.formatter(help);
  app.footer(topFooter(app));
  for (CLI::App* sub : app.get_subcommands({})) {
    sub->formatter(help);
    sub->group("Commands");
    auto footer = commandFooters().find(sub->get_name());
    sub->footer(footer == commandFooters().end() ? std::string() : footer->second);
  }
}

}  // namespace gridlock::cli
