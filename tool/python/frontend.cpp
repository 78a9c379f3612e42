#include "python/frontend.h"

#include "python/cpython_check.h"
#include "python/extract.h"
#include "python/module_program.h"
#include "python/module_reads.h"
#include "python/module_values.h"
#include "python/parallel.h"
#include "rules/python_rules.h"
#include "support/file_io.h"
#include "support/source_files.h"
#include "support/walk.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace gridlock::python {
namespace {

namespace fs = std::filesystem;

bool skipped(const fs::path& dir) {
  std::string name = dir.filename().string();
  return (!name.empty() && name[0] == '.' && name != "." && name != "..") || name == "__pycache__";
}

void addFile(const fs::path& root, const fs::path& file, std::set<std::string>& out) {
  if (support::isPythonSource(file.string()))
    out.insert(file.lexically_relative(root).generic_string());
}

// `path` under `root`, a file or a directory; throws InputError when it lies outside the root
// or is neither.
fs::path checkedStart(const fs::path& root, const std::string& path) {
  fs::path start = (root / path).lexically_normal();
  std::string rel = start.lexically_relative(root).generic_string();
  if (rel == ".." || rel.rfind("../", 0) == 0)
    throw InputError(path + ": lies outside the root " + root.string());
  std::error_code ec;
  if (!fs::is_regular_file(start, ec) && !fs::is_directory(start, ec))
    throw InputError(path + ": no such file or directory");
  return start;
}

std::optional<std::string> sourceOf(const std::string& file, const PythonOptions& options) {
  if (auto o = options.overlay.find(file); o != options.overlay.end()) return o->second;
  return support::readFile((fs::path(options.root) / file).string());
}

// The names CPython's parse finds that tree-sitter's tree holds no reference to (none starts
// there, or one cut short: a recovered tree may keep `ps` of `ps.get_tp()`): each a reference
// to the module-level name its root is (its def found by name when tree-sitter read the def).
// A root tree-sitter saw and left out (a builtin, say) is here too, and resolves to no rule.
std::vector<Ref> unreadRefs(const ModuleFacts& m, const std::vector<CPythonRef>& found) {
  std::map<std::pair<unsigned, unsigned>, size_t> held;  // where a reference starts: its length
  for (const auto* refs : {&m.refs, &m.imports})
    for (const Ref& r : *refs)
      if (!r.parts.empty()) {
        size_t& n = held[{r.parts[0].line, r.parts[0].column}];
        n = std::max(n, r.parts.size());
      }
  std::vector<Ref> out;
  for (const CPythonRef& c : found) {
    if (auto h = held.find(c.at.front()); h != held.end() && h->second >= c.names.size()) continue;
    Ref r;
    r.targets = {Path{true, 0, c.names, false}};
    if (c.imported) {  // what the def's import names, the chain's attributes appended
      Path p{false, c.importLevel, c.importPath, true};
      p.names.insert(p.names.end(), c.names.begin() + 1, c.names.end());
      r.targets = {std::move(p)};
    }
    for (const auto& [line, column] : c.at) r.parts.push_back({line, column});
    r.access = c.write ? Access::Write : Access::Read;
    r.called = c.called;
    r.line = r.statementLine = c.at.front().first;
    r.column = c.at.front().second;
    for (size_t f = 0; f < m.functions.size(); ++f)
      if (m.functions[f].qualname == c.function) r.function = static_cast<int>(f);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::vector<std::string> findPythonFiles(const PythonOptions& options,
                                         const std::vector<std::string>& paths) {
  const fs::path root = fs::path(options.root).lexically_normal();
  std::set<std::string> out;
  std::vector<std::string> starts = paths.empty() ? std::vector<std::string>{""} : paths;
  for (const std::string& p : starts) {
    fs::path start = checkedStart(root, p);
    std::error_code ec;
    if (fs::is_regular_file(start, ec)) {
      addFile(root, start, out);
      continue;
    }
    try {
      support::walkTree(start.string(), [&](const fs::directory_entry& e) {
        std::error_code kind;
        if (e.is_directory(kind)) return !skipped(e.path());
        if (e.is_regular_file(kind)) addFile(root, e.path(), out);
        return false;
      });
    } catch (const support::WalkError& e) {
      // A directory not read would be modules missed: an error, never a shorter list.
      std::string dir = fs::path(e.dir()).lexically_relative(root).generic_string();
      throw InputError((dir.empty() ? e.dir() : dir) +
                       ": cannot read the directory: " + e.reason());
    }
  }
  return {out.begin(), out.end()};
}

void checkPythonPath(const PythonOptions& options, const std::string& path) {
  checkedStart(fs::path(options.root).lexically_normal(), path);
}

std::vector<ModuleFacts> extractModules(const std::vector<std::string>& files,
                                        const PythonOptions& options,
                                        std::vector<char>* unsettled) {
  std::vector<ModuleFacts> out(files.size());
  if (unsettled) unsettled->assign(files.size(), 0);
  // Files tree-sitter rejects that CPython's parser accepts are no parse errors (see
  // cpython_check.h): their errors become lines that may hold what was not seen.
  CPythonCheck cpython(options.cpythonTimeoutSeconds);
  std::vector<size_t> asked(files.size(), SIZE_MAX);  // each file's place in cpython's answers
  parallel(files.size(), options.jobs, [&](size_t i) {
    if (cpython.interrupted()) return;  // answers() throws
    std::optional<std::string> text = sourceOf(files[i], options);
    if (!text) {
      out[i].file = files[i];
      out[i].errors = {files[i] + ":1:1: error: cannot read the file"};
      return;
    }
    std::string source = *text;  // the bytes parsed, for CPython when tree-sitter rejects them
    out[i] = extractModule(files[i], std::move(*text));
    if (!out[i].errors.empty()) asked[i] = cpython.add(source);
  });
  std::vector<CPythonAnswer> answers = cpython.answers();
  for (size_t i = 0; i < files.size(); ++i) {
    if (asked[i] == SIZE_MAX) continue;
    if (!cpython.error().empty()) {
      // No second opinion: the file stays a parse error, which says why.
      const std::string& first = out[i].errors.front();
      size_t at = first.find(": error: ");
      out[i].errors.push_back((at == std::string::npos ? files[i] + ":1:1" : first.substr(0, at)) +
                              ": error: CPython's parse of this file, which tree-sitter-python "
                              "cannot read, failed: " +
                              cpython.error());
      if (unsettled) (*unsettled)[i] = 1;
    }
    if (!answers[asked[i]].accepted) continue;
    out[i].unread = std::move(out[i].errors);
    out[i].errors.clear();
    out[i].unreadRefs = unreadRefs(out[i], answers[asked[i]].refs);
  }
  return out;
}

std::vector<facts::UnitFacts> resolveModules(const std::vector<ModuleFacts>& modules,
                                             const rules::RuleSet& rules,
                                             const PythonOptions& options) {
  ModuleIndex index(modules, options.packageRoot, options.moduleNames);
  Definitions defs(index, modules);
  std::vector<facts::UnitFacts> out(modules.size());
  parallel(modules.size(), options.jobs, [&](size_t m) {
    facts::TuFacts& tu = out[m].tu;
    tu.mainFile = modules[m].file;
    std::vector<std::string> errors = modules[m].errors;
    for (std::string& e : missedReads(index, m, modules[m], rules, &defs))
      errors.push_back(std::move(e));
    if (!errors.empty())
      tu.parseError = facts::ParseError{modules[m].file, errors, {modules[m].file}};
    for (const std::string& e : modules[m].unread)
      tu.notes.push_back(
          "tree-sitter-python could not read this, which CPython parses; CPython's parse "
          "finds no read of the packs' rules there: " +
          e);
    collectReads(index, m, modules[m], rules, tu);
    collectProgram(defs, m, tu);
    collectValues(defs, m, tu);
    // A module a pack names as public API (public_headers) is called from outside.
    for (facts::FunctionFact& f : tu.functions) f.isPublicApi = rules.isPublicHeader(f.file);
  });
  return out;
}

std::vector<std::string> unmatchedPythonRules(const rules::RuleSet& rules,
                                              const std::set<std::string>& seen, size_t modules) {
  const std::string in =
      " in " + std::to_string(modules) + (modules == 1 ? " Python module" : " Python modules");
  std::vector<std::string> out;
  auto check = [&](const std::string& key, const std::string& pack) {
    if (!seen.count(key))
      out.push_back("rule '" + key + "' (pack " + pack + ") matched no definition" + in);
  };
  for (const auto& pack : rules.packs()) {
    for (const auto& a : pack.pythonAccessors) check(rules::pythonRuleName(a), pack.name);
    for (const auto& g : pack.pythonGlobals) check(rules::pythonRuleName(g), pack.name);
    for (const auto& st : pack.setters)
      if (!st.python.empty()) check(rules::setterRuleName(st), pack.name);
  }
  return out;
}

}  // namespace gridlock::python
