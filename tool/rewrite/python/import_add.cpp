#include "rewrite/python/import_add.h"

#include "rewrite/python/ts_node.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>
#include <vector>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

// The standard library's modules a Python file commonly imports: isort puts them in a section
// before third-party ones.
const std::set<std::string, std::less<>> kStdlib = {"abc",
                                                    "argparse",
                                                    "ast",
                                                    "asyncio",
                                                    "base64",
                                                    "bisect",
                                                    "builtins",
                                                    "collections",
                                                    "concurrent",
                                                    "contextlib",
                                                    "copy",
                                                    "csv",
                                                    "dataclasses",
                                                    "datetime",
                                                    "decimal",
                                                    "dis",
                                                    "enum",
                                                    "errno",
                                                    "functools",
                                                    "gc",
                                                    "glob",
                                                    "hashlib",
                                                    "heapq",
                                                    "importlib",
                                                    "inspect",
                                                    "io",
                                                    "itertools",
                                                    "json",
                                                    "logging",
                                                    "math",
                                                    "multiprocessing",
                                                    "numbers",
                                                    "operator",
                                                    "os",
                                                    "pathlib",
                                                    "pickle",
                                                    "platform",
                                                    "pprint",
                                                    "queue",
                                                    "random",
                                                    "re",
                                                    "shutil",
                                                    "signal",
                                                    "socket",
                                                    "statistics",
                                                    "string",
                                                    "struct",
                                                    "subprocess",
                                                    "sys",
                                                    "tempfile",
                                                    "textwrap",
                                                    "threading",
                                                    "time",
                                                    "timeit",
                                                    "traceback",
                                                    "types",
                                                    "typing",
                                                    "unittest",
                                                    "uuid",
                                                    "warnings",
                                                    "weakref",
                                                    "zlib"};

struct Statement {
  TSNode node{};
  int section = 0;  // 0 __future__, 1 standard library, 2 third party, 3 first party, 4 relative
  bool straight = false;  // `import m`, not `from m import ...`
  std::string module;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int sectionOf(const std::string& file, const std::string& module) {
  if (module.starts_with(".")) return 4;
  std::string top = module.substr(0, module.find('.'));
  if (top == "__future__") return 0;
  if (file.find('/') != std::string::npos && file.substr(0, file.find('/')) == top) return 3;
  return kStdlib.count(top) ? 1 : 2;
}

// The module-level imports before the first def or class.
std::vector<Statement> importBlock(const std::string& file, const PySource& src) {
  std::vector<Statement> out;
  for (TSNode c : namedChildren(src.root())) {
    if (is<"function_definition">(c) || is<"class_definition">(c) || is<"decorated_definition">(c))
      break;
    Statement s{c, 0, false, ""};
    if (is<"future_import_statement">(c)) {
      s.module = "__future__";
    } else if (is<"import_from_statement">(c)) {
      s.module = std::string(src.text(field<"module_name">(c)));
    } else if (is<"import_statement">(c)) {
      s.straight = true;
      TSNode first = ts_node_named_child(c, 0);
      if (is<"aliased_import">(first)) first = field<"name">(first);
      s.module = std::string(src.text(first));
    } else {
      continue;
    }
    s.section = sectionOf(file, s.module);
    out.push_back(std::move(s));
  }
  return out;
}

// What a from-import lists, without its module (none for `*`).
std::vector<TSNode> listed(TSNode statement) {
  std::vector<TSNode> out;
  TSNode module = field<"module_name">(statement);
  for (TSNode c : namedChildren(statement)) {
    if (is<"wildcard_import">(c)) return {};
    if (ts::same(c, module)) continue;
    if (is<"dotted_name">(c) || is<"aliased_import">(c)) out.push_back(c);
  }
  return out;
}

std::string nameOf(const PySource& src, TSNode element) {
  return std::string(src.text(is<"aliased_import">(element) ? field<"name">(element) : element));
}

// `name` joins the list of `from m import ...`.
ImportEdit joinList(const PySource& src, TSNode statement, const std::string& name) {
  std::vector<TSNode> e = listed(statement);
  bool sorted = true;
  for (size_t i = 1; i < e.size(); ++i)
    sorted = sorted && lower(nameOf(src, e[i - 1])) <= lower(nameOf(src, e[i]));
  size_t k = e.size();
  if (sorted)
    for (size_t i = 0; i < e.size() && k == e.size(); ++i)
      if (lower(nameOf(src, e[i])) > lower(name)) k = i;
  const std::string& t = src.text();
  bool multi =
      src.lineStart(ts_node_start_byte(e.front())) != src.lineStart(ts_node_start_byte(e.back())) &&
      src.text(statement).find('(') != std::string_view::npos;
  if (k < e.size()) {
    unsigned at = ts_node_start_byte(e[k]);
    return {at, multi ? name + ",\n" + src.indentAt(at) : name + ", "};
  }
  unsigned end = ts_node_end_byte(e.back());
  size_t after = end;
  while (after < t.size() && (t[after] == ' ' || t[after] == '\t')) ++after;
  std::string indent = src.indentAt(ts_node_start_byte(e.back()));
  if (after < t.size() && t[after] == ',')
    return {static_cast<unsigned>(after + 1),
            multi ? "\n" + indent + name + "," : " " + name + ","};
  return {end, multi ? ",\n" + indent + name : ", " + name};
}

// Where a new statement goes, and its text with the blank lines that set its section apart.
ImportEdit place(const std::string& file, const PySource& src, const std::string& line,
                 const Statement& added) {
  std::vector<Statement> block = importBlock(file, src);
  auto key = [](const Statement& s) {
    return std::make_tuple(s.straight ? 0 : 1, lower(s.module));
  };
  const Statement* last = nullptr;
  for (const Statement& s : block) {
    if (s.section == added.section) {
      if (key(s) > key(added)) return {src.lineStart(ts_node_start_byte(s.node)), line + "\n"};
      last = &s;
    } else if (s.section > added.section) {
      if (last) break;
      return {src.lineStart(ts_node_start_byte(s.node)), line + "\n\n"};
    }
  }
  if (last) return {src.lineEnd(ts_node_end_byte(last->node)) + 1, line + "\n"};
  if (!block.empty())  // every section before this one's: a section of its own after them
    return {src.lineEnd(ts_node_end_byte(block.back().node)) + 1, "\n" + line + "\n"};
  std::vector<TSNode> top = namedChildren(src.root());
  if (!top.empty() && is<"expression_statement">(top[0]) &&
      is<"string">(ts_node_named_child(top[0], 0)))  // after the module's docstring
    return {src.lineEnd(ts_node_end_byte(top[0])) + 1, "\n" + line + "\n"};
  return {0, line + "\n\n"};
}

}  // namespace

std::optional<std::string> importedAs(const PySource& src, const std::string& module,
                                      const std::string& name, bool fromOnly) {
  for (TSNode c : namedChildren(src.root())) {
    if (is<"import_from_statement">(c) && src.text(field<"module_name">(c)) == module) {
      for (TSNode e : listed(c))
        if (nameOf(src, e) == name)
          return std::string(src.text(is<"aliased_import">(e) ? field<"alias">(e) : e));
    } else if (is<"import_statement">(c) && !fromOnly) {
      for (TSNode e : namedChildren(c)) {
        if (is<"dotted_name">(e) && src.text(e) == module) return module + "." + name;
        if (is<"aliased_import">(e) && src.text(field<"name">(e)) == module)
          return std::string(src.text(field<"alias">(e))) + "." + name;
      }
    }
  }
  return std::nullopt;
}

ImportEdit addFromImport(const std::string& file, const PySource& src, const std::string& module,
                         const std::string& name) {
  for (const Statement& s : importBlock(file, src))
    if (!s.straight && s.module == module && !listed(s.node).empty())
      return joinList(src, s.node, name);
  return place(file, src, "from " + module + " import " + name,
               {{}, sectionOf(file, module), false, module});
}

ImportEdit addImport(const std::string& file, const PySource& src, const std::string& module) {
  return place(file, src, "import " + module, {{}, sectionOf(file, module), true, module});
}

}  // namespace gridlock::rewrite::py
