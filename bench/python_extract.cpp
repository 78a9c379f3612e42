// Benchmark (not a test) of the Python frontend's step one: every .py file under ROOT/DIR
// parsed by tree-sitter and its facts extracted (tool/python/frontend.h extractModules), on
// --jobs threads. Prints one JSON line: files, bytes, files with syntax errors, seconds.
// bench/python_parse.py runs it beside CPython's own parser on the same files.
#include "python/frontend.h"

#include <chrono>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: gridlock_bench_python_extract ROOT [DIR] [--jobs N]\n");
    return 2;
  }
  gridlock::python::PythonOptions o;
  o.root = argv[1];
  std::vector<std::string> paths;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--jobs" && i + 1 < argc)
      o.jobs = static_cast<unsigned>(std::stoul(argv[++i]));
    else
      paths.push_back(a);
  }
  std::vector<std::string> files = gridlock::python::findPythonFiles(o, paths);
  auto start = std::chrono::steady_clock::now();
  std::vector<gridlock::python::ModuleFacts> modules = gridlock::python::extractModules(files, o);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  size_t errors = 0, refs = 0;
  for (const auto& m : modules) {
    errors += !m.errors.empty();
    refs += m.refs.size();
  }
  std::printf("{\"files\": %zu, \"with_errors\": %zu, \"refs\": %zu, \"seconds\": %.3f}\n",
              files.size(), errors, refs, seconds);
  return 0;
}
