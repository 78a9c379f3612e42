#include "python/cpython_check.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include <nlohmann/json.hpp>

extern char** environ;

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

}  // namespace

void CPythonCheck::start() {
  int sock[2], pipeFds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0) {
    failed_ = true;
    return;
  }
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
    ::close(sock[0]);
    ::close(sock[1]);
    failed_ = true;
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sock[1], 0);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  char* argv[] = {const_cast<char*>("python3"), const_cast<char*>("-I"),    const_cast<char*>("-S"),
                  const_cast<char*>("-c"),      const_cast<char*>(kScript), nullptr};
  int spawned = ::posix_spawnp(&pid_, "python3", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(sock[1]);
  ::close(pipeFds[1]);
  in_ = sock[0];
  out_ = pipeFds[0];
  if (spawned != 0) {
    pid_ = -1;
    failed_ = true;
  }
}

void CPythonCheck::send(const std::string& bytes) {
  for (size_t done = 0; done < bytes.size() && !failed_;) {
    ssize_t n = ::send(in_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      failed_ = true;  // the child is gone: every answer is no
    else
      done += static_cast<size_t>(n);
  }
}

size_t CPythonCheck::add(const std::string& source) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (count_ == 0) start();
  if (!failed_) send(std::to_string(source.size()) + '\n' + source);
  return count_++;
}

std::vector<CPythonAnswer> CPythonCheck::answers() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<CPythonAnswer> out(count_);
  if (in_ >= 0) ::shutdown(in_, SHUT_WR);  // end of the sources: the child answers
  std::string answer;
  char buf[65536];
  for (ssize_t n; out_ >= 0 && (n = ::read(out_, buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    answer.append(buf, static_cast<size_t>(n));
  }
  int status = 0;
  bool ok = pid_ > 0 && ::waitpid(pid_, &status, 0) == pid_ && WIFEXITED(status) &&
            WEXITSTATUS(status) == 0 && !failed_;
  pid_ = -1;
  if (!ok) return std::vector<CPythonAnswer>(count_);
  std::vector<CPythonAnswer> parsed;
  for (size_t at = 0; at < answer.size() && parsed.size() < count_;) {
    size_t nl = answer.find('\n', at);
    if (nl == std::string::npos) break;
    std::optional<CPythonAnswer> a = parseAnswer(answer.substr(at, nl - at));
    if (!a) break;
    parsed.push_back(std::move(*a));
    at = nl + 1;
  }
  // Anything short of one answer per source is no answer at all: every file stays an error.
  return parsed.size() == count_ ? parsed : out;
}

CPythonCheck::~CPythonCheck() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (in_ >= 0) ::close(in_);
  if (out_ >= 0) ::close(out_);
}

}  // namespace gridlock::python
