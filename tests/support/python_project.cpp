#include "support/python_project.h"

#include "support/run_command.h"

namespace gridlock::test {

void writePythonProject(const std::string& dir) {
  writeFile(dir + "/pkg/__init__.py", "");
  writeFile(dir + "/pkg/ps.py", "_G = None\n\n\ndef get_tp():\n    return _G\n");
  writeFile(dir + "/pkg/use.py", "from pkg import ps\n\n\ndef f():\n    return ps.get_tp()\n");
  writeFile(dir + "/py.json", R"({"name": "py", "scope": {"include": ["pkg/**"]},
 "accessors": [
   {"python": "pkg.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]}
)");
}

void addASecondRead(const std::string& dir) {
  writeFile(dir + "/pkg/use.py",
            "from pkg import ps\n\n\ndef f():\n    return ps.get_tp()\n\n\n"
            "def g():\n    return ps.get_tp()\n");
}

}  // namespace gridlock::test
