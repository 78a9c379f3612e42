#include "cli/changed_files.h"

#include "support/paths.h"
#include "support/run_program.h"

#include <string_view>

namespace gridlock::cli {
namespace {

struct GitResult {
  int status = -1;
  std::string out, err;
};

// `git -C dir ARGS...` (stdin /dev/null), what it printed and its exit status (-1 when it did
// not exit normally).
GitResult git(const std::string& dir, const std::vector<std::string>& args) {
  support::ProgramRun run;
  run.argv = {"git", "-C", dir};
  run.argv.insert(run.argv.end(), args.begin(), args.end());
  support::ProgramResult ran = support::runProgram(run);
  if (!ran.started) throw std::runtime_error("gate --changed-since needs git, and none is on PATH");
  return {ran.exitStatus, std::move(ran.out), std::move(ran.err)};
}

// `text` without leading and trailing whitespace.
std::string_view trimmed(std::string_view text) {
  const char* space = " \t\n\v\f\r";
  size_t first = text.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

std::string firstLine(const std::string& text) {
  std::string_view t = trimmed(text);
  return std::string(t.substr(0, t.find('\n')));
}

// NUL-separated names (-z), relative to `top`, made absolute.
void addNames(const std::string& top, const std::string& text, std::vector<std::string>& out) {
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\0', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) out.push_back(support::join(top, text.substr(at, end - at)));
    at = end + 1;
  }
}

}  // namespace

ChangedFiles changedSince(const std::string& rev, const std::string& dir) {
  GitResult top = git(dir, {"rev-parse", "--show-toplevel"});
  if (top.status != 0)
    throw std::runtime_error("gate --changed-since: " + dir + " is not in a git repository (" +
                             firstLine(top.err) + ")");
  std::string topDir(trimmed(top.out));
  GitResult commit = git(dir, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"});
  if (commit.status != 0)
    throw std::runtime_error("gate --changed-since " + rev + ": not a commit in " + topDir);
  GitResult diff = git(dir, {"diff", "--name-only", "--no-renames", "-z", rev, "--"});
  if (diff.status != 0)
    throw std::runtime_error("gate --changed-since " + rev +
                             ": git diff failed: " + firstLine(diff.err));
  GitResult untracked =
      git(dir, {"ls-files", "--others", "--exclude-standard", "-z", "--full-name", ":/"});
  if (untracked.status != 0)
    throw std::runtime_error("gate --changed-since: git ls-files failed: " +
                             firstLine(untracked.err));
  std::vector<std::string> all;
  addNames(topDir, diff.out, all);
  addNames(topDir, untracked.out, all);
  ChangedFiles out;
  for (auto& f : all) (support::exists(f) ? out.present : out.deleted).push_back(f);
  return out;
}

}  // namespace gridlock::cli
