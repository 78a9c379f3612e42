#include "python/cpython_check.h"

#include <optional>

#include <nlohmann/json.hpp>

namespace gridlock::python {
namespace {

// Reads `LENGTH\n` then that many bytes, per source, from stdin, each parsed as it comes;
// writes one line for each at the end: `0` when CPython rejects it, else `1 ` and its dotted
// names as JSON, [function, called, write, [[name, line, column], ...]], and for a name a def
// imports itself (`from pkg import ps` in the def) what it imports, [level, [names]]. 0x400 is
// ast.PyCF_ONLY_AST: compiled to a tree, never to code that could run; symtable tells which
// names a scope binds itself (parameters, locals), whose chains are left out, and a
// comprehension's or lambda's own names are left out where they are bound.
constexpr const char* kScript = R"py(import ast, json, symtable, sys

def refs(src):
    tree = compile(src, 'm.py', 'exec', 0x400, True)
    top = symtable.symtable(src.decode('utf-8'), 'm.py', 'exec')
    out = []

    def chain(n):
        parts = []
        while isinstance(n, ast.Attribute):
            parts.append([n.attr, n.end_lineno, n.end_col_offset - len(n.attr) + 1])
            n = n.value
        if not isinstance(n, ast.Name):
            return None
        parts.append([n.id, n.lineno, n.col_offset + 1])
        parts.reverse()
        return parts

    def local_imports(body):
        # The names a def's own imports bind (not a nested def's or class's): level, path.
        found, stack = {}, list(body)
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(n, ast.Import):
                for a in n.names:
                    parts = a.name.split('.')
                    if a.asname:
                        found[a.asname] = [0, parts]
                    else:
                        found[parts[0]] = [0, parts[:1]]
            elif isinstance(n, ast.ImportFrom):
                mod = n.module.split('.') if n.module else []
                for a in n.names:
                    if a.name != '*':
                        found[a.asname or a.name] = [n.level, mod + [a.name]]
            stack.extend(ast.iter_child_nodes(n))
        return found

    def scope(table, qual, outer):
        kids = {}
        imports = dict(outer)
        for t in table.get_children():
            kids.setdefault((t.get_name(), t.get_lineno()), []).append(t)

        def child(name, line):
            found = kids.get((name, line))
            return found.pop(0) if found else None

        def seen(name):
            if table.get_type() == 'module':
                return True
            try:
                s = table.lookup(name)
            except KeyError:
                return True
            return s.is_global() or not (s.is_local() or s.is_free())

        def imported(name):
            # What a def's own import (or an enclosing def's, for a free name) binds it to.
            if table.get_type() != 'function' or name not in imports:
                return None
            try:
                s = table.lookup(name)
            except KeyError:
                return None
            return imports[name] if s.is_imported() or s.is_free() else None

        def visit(n, called=False, write=False, shadow=frozenset()):
            if isinstance(n, (ast.Attribute, ast.Name)):
                parts = chain(n)
                if parts is not None:
                    store = not isinstance(n.ctx, ast.Load)
                    if parts[0][0] not in shadow and seen(parts[0][0]):
                        out.append([qual, called, store or write, parts])
                    elif parts[0][0] not in shadow and imported(parts[0][0]):
                        out.append([qual, called, store or write, parts, imported(parts[0][0])])
                    return
            if isinstance(n, ast.Call):
                visit(n.func, called=True, shadow=shadow)
                for a in n.args + n.keywords:
                    visit(a, shadow=shadow)
                return
            if isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load):
                visit(n.value, write=True, shadow=shadow)
                visit(n.slice, shadow=shadow)
                return
            if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                # Its targets are its own; the first iterable is the enclosing scope's.
                bound = {t.id for g in n.generators for t in ast.walk(g.target)
                         if isinstance(t, ast.Name)}
                visit(n.generators[0].iter, shadow=shadow)
                inner = shadow | bound
                for g in n.generators:
                    if g is not n.generators[0]:
                        visit(g.iter, shadow=inner)
                    for x in g.ifs:
                        visit(x, shadow=inner)
                for x in ([n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]):
                    visit(x, shadow=inner)
                return
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                outer = []
                if not isinstance(n, ast.Lambda):
                    outer += n.decorator_list
                if isinstance(n, ast.ClassDef):
                    outer += n.bases + n.keywords
                else:
                    a = n.args
                    outer += a.defaults + [d for d in a.kw_defaults if d]
                    if not isinstance(n, ast.Lambda):
                        outer += [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs if x.annotation]
                        outer += [x.annotation for x in (a.vararg, a.kwarg) if x and x.annotation]
                        if n.returns:
                            outer.append(n.returns)
                for x in outer:
                    visit(x, shadow=shadow)
                name = 'lambda' if isinstance(n, ast.Lambda) else n.name
                inner = child(name, n.lineno)
                body = [n.body] if isinstance(n, ast.Lambda) else n.body
                q = qual if isinstance(n, ast.Lambda) else (qual + '.' if qual else '') + n.name
                if inner is None:
                    for x in body:
                        visit(x)
                else:
                    scope(inner, q, imports)(body)
                return
            for c in ast.iter_child_nodes(n):
                visit(c, shadow=shadow)

        def run(body):
            if table.get_type() == 'function':
                imports.update(local_imports(body))
            for x in body:
                visit(x)
        return run

    scope(top, '', {})(tree.body)
    return out

r = sys.stdin.buffer
answers = []
while True:
    n = r.readline()
    if not n:
        break
    s = r.read(int(n))
    try:
        answers.append('1 ' + json.dumps(refs(s)))
    except Exception:
        answers.append('0')
sys.stdout.write('\n'.join(answers) + '\n')
)py";

// One answer line: accepted, with its names; nothing for a line that is not one.
std::optional<CPythonAnswer> parseAnswer(const std::string& line) {
  if (line == "0") return CPythonAnswer{};
  if (!line.starts_with("1 ")) return std::nullopt;
  nlohmann::json doc = nlohmann::json::parse(line.substr(2), nullptr, false);
  if (!doc.is_array()) return std::nullopt;
  CPythonAnswer a;
  a.accepted = true;
  try {
    for (const auto& r : doc) {
      CPythonRef ref;
      ref.function = r.at(0).get<std::string>();
      ref.called = r.at(1).get<bool>();
      ref.write = r.at(2).get<bool>();
      for (const auto& part : r.at(3)) {
        ref.names.push_back(part.at(0).get<std::string>());
        ref.at.emplace_back(part.at(1).get<unsigned>(), part.at(2).get<unsigned>());
      }
      if (r.size() > 4) {
        ref.imported = true;
        ref.importLevel = r.at(4).at(0).get<unsigned>();
        ref.importPath = r.at(4).at(1).get<std::vector<std::string>>();
      }
      if (ref.names.empty()) return std::nullopt;
      a.refs.push_back(std::move(ref));
    }
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return a;
}

// A line of what python3 printed, for a message: at most 80 bytes of it, escaped as JSON.
std::string excerpt(const std::string& line) {
  constexpr size_t kKeep = 80;
  std::string shown = line.size() <= kKeep ? line : line.substr(0, kKeep) + "...";
  return nlohmann::json(shown).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The last line python3 wrote on stderr (a traceback's ends with the exception), for the
// error, which is one line.
std::string lastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  size_t nl = text.find_last_of("\r\n", end);
  size_t from = nl == std::string::npos ? 0 : nl + 1;
  return text.substr(from, end + 1 - from);
}

}  // namespace

size_t CPythonCheck::add(const std::string& source) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (count_ == 0) {
    support::ProgramRun run;
    run.argv = {"python3", "-I", "-S", "-c", kScript};
    child_ = std::make_unique<support::RunningProgram>(run, /*fed=*/true);
    started_ = true;  // its InterruptScope notes a signal from here on
  }
  if (feeding_ == Feeding::On && child_->started()) {
    switch (child_->feed(std::to_string(source.size()) + '\n' + source, timeout_)) {
      case support::RunningProgram::Fed::Yes:
        break;
      case support::RunningProgram::Fed::Closed:
        feeding_ = Feeding::Closed;
        break;
      case support::RunningProgram::Fed::TimedOut:
        feeding_ = Feeding::TimedOut;
        break;
      case support::RunningProgram::Fed::Interrupted:
        feeding_ = Feeding::Interrupted;
        break;
    }
  }
  return count_++;
}

bool CPythonCheck::interrupted() const { return started_ && support::interruptSignal() != 0; }

std::string CPythonCheck::whyNoAnswer(const support::ProgramResult& r) const {
  const std::string limit =
      " and was stopped (--cpython-timeout SECONDS sets the limit; the "
      "default is " +
      std::to_string(kDefaultCPythonTimeoutSeconds) + " s)";
  const std::string seconds = std::to_string(timeout_) + " s";
  if (!r.started) return "could not run " + r.error;
  if (feeding_ == Feeding::TimedOut) return "python3 took no source for " + seconds + limit;
  if (r.timedOut) return "python3 gave no answer within " + seconds + " of the last source" + limit;
  if (r.signal) return "python3 was killed by signal " + std::to_string(r.signal);
  std::string said = lastLine(r.err);
  if (r.exitStatus != 0)
    return "python3 exited with status " + std::to_string(r.exitStatus) +
           (said.empty() ? "" : ": " + said);
  return "";
}

std::vector<CPythonAnswer> CPythonCheck::answers() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!child_) return {};
  // Throws support::Interrupted once a signal came; the group is stopped by then.
  support::ProgramResult r =
      feeding_ == Feeding::TimedOut ? child_->stop() : child_->finish(timeout_);
  child_.reset();
  error_ = whyNoAnswer(r);
  std::vector<std::string> lines;  // one answer a line, each ended by a newline
  for (size_t at = 0; at < r.out.size();) {
    size_t nl = r.out.find('\n', at);
    lines.push_back(r.out.substr(at, nl == std::string::npos ? nl : nl - at));
    at = nl == std::string::npos ? r.out.size() : nl + 1;
  }
  const bool unended = !r.out.empty() && r.out.back() != '\n';
  if (error_.empty() && (lines.size() != count_ || unended))
    error_ = "python3's answer is malformed: " + std::to_string(lines.size()) + " line" +
             (lines.size() == 1 ? "" : "s") + " for " + std::to_string(count_) + " source" +
             (count_ == 1 ? "" : "s") + (unended ? ", the last unended" : "");
  std::vector<CPythonAnswer> parsed;
  for (size_t i = 0; error_.empty() && i < lines.size(); ++i) {
    if (std::optional<CPythonAnswer> a = parseAnswer(lines[i]))
      parsed.push_back(std::move(*a));
    else
      error_ = "python3's answer is malformed: line " + std::to_string(i + 1) +
               " is not `0` or `1 [names]`: " + excerpt(lines[i]);
  }
  if (error_.empty() && feeding_ == Feeding::Closed)
    error_ = "python3 closed its input before it took every source";
  // Anything short of one answer per source is no answer at all: every file stays an error.
  return error_.empty() ? parsed : std::vector<CPythonAnswer>(count_);
}

CPythonCheck::~CPythonCheck() = default;  // RunningProgram stops what was not collected

}  // namespace gridlock::python
