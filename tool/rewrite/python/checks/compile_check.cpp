#include "rewrite/python/checks/compile_check.h"

#include "support/ask_python.h"

namespace gridlock::rewrite::py::checks {
namespace {

// Null, or [line, column, "Type: message"]. compile() of the bytes is what py_compile does
// (importlib's source_to_code) before it writes the .pyc.
constexpr const char* kCheck =
    "def check(s):\n"
    "    try:\n"
    "        compile(s, 'source.py', 'exec', dont_inherit=True)\n"
    "        return None\n"
    "    except SyntaxError as e:\n"
    "        return [e.lineno or 0, e.offset or 0, type(e).__name__ + ': ' + str(e.msg)]\n"
    "    except Exception as e:\n"
    "        return [0, 0, type(e).__name__ + ': ' + str(e)]\n";

bool isFailure(const nlohmann::json& a) {
  return a.is_array() && a.size() == 3 && a[0].is_number_integer() && a[1].is_number_integer() &&
         a[2].is_string();
}

}  // namespace

CompileOutcome compileSources(const std::string& python, const std::vector<std::string>& sources) {
  CompileOutcome outcome;
  support::PythonAnswers asked = support::askPython(python, kCheck, sources);
  if (!asked.ran) {
    outcome.error = "the compile check could not run: " + asked.error;
    return outcome;
  }
  for (const nlohmann::json& a : asked.answers) {
    if (a.is_null()) {
      outcome.failures.emplace_back();
    } else if (isFailure(a)) {
      outcome.failures.push_back(std::to_string(a[0].get<int>()) + ":" +
                                 std::to_string(a[1].get<int>()) + ": " + a[2].get<std::string>());
    } else {
      outcome.failures.clear();
      outcome.error = python + " answered what the compile check did not ask: " + a.dump();
      return outcome;
    }
  }
  outcome.ran = true;
  return outcome;
}

}  // namespace gridlock::rewrite::py::checks
