#include "support/ask_python.h"

#include "support/run_program.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gridlock::support {
namespace {

// Reads `LENGTH\n` then that many bytes, per source, from stdin; prints a JSON list of
// check()'s answers.
constexpr const char* kFraming =
    "\nimport json, sys\n"
    "d = sys.stdin.buffer.read()\n"
    "i, out = 0, []\n"
    "while i < len(d):\n"
    "    j = d.index(b'\\n', i)\n"
    "    n = int(d[i:j])\n"
    "    out.append(check(d[j + 1:j + 1 + n]))\n"
    "    i = j + 1 + n\n"
    "sys.stdout.write(json.dumps(out))\n";

// The sources in kFraming's framing, in a private temporary file (the child's stdin); "" when
// it cannot be written.
std::string writeInput(const std::vector<std::string>& sources) {
  std::string path = (std::filesystem::temp_directory_path() / "gridlock-py-XXXXXX").string();
  int fd = ::mkstemp(path.data());
  if (fd < 0) return "";
  ::close(fd);
  std::ofstream out(path, std::ios::binary);
  for (const std::string& s : sources) out << s.size() << '\n' << s;
  if (!out.flush()) {
    std::filesystem::remove(path);
    return "";
  }
  return path;
}

}  // namespace

PythonAnswers askPython(const std::string& python, const std::string& check,
                        const std::vector<std::string>& sources) {
  PythonAnswers result;
  std::string input = writeInput(sources);
  if (input.empty()) {
    result.error = "cannot write the sources for " + python + " to a temporary file";
    return result;
  }
  ProgramResult r = runProgram({{python, "-I", "-S", "-c", check + kFraming}, "", input});
  std::filesystem::remove(input);
  nlohmann::json answer = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  if (!r.started || r.exitStatus != 0 || !answer.is_array() || answer.size() != sources.size()) {
    result.error = python + " gave no answer: " +
                   (!r.started      ? r.error
                    : r.err.empty() ? "exit status " + std::to_string(r.exitStatus)
                                    : r.err);
    return result;
  }
  result.ran = true;
  result.answers.assign(answer.begin(), answer.end());
  return result;
}

}  // namespace gridlock::support
