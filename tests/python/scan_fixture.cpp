#include "python/scan_fixture.h"

#include "analysis/laundering.h"
#include "python/frontend.h"

namespace gridlock::test {

PythonRun scanPythonFixture(const std::string& root, const std::string& pack) {
  PythonRun r{rules::RuleSet::load({pack}), {}};
  python::PythonOptions o;
  o.root = root;
  o.jobs = 2;
  std::vector<python::ModuleFacts> modules = python::extractModules(python::findPythonFiles(o), o);
  r.inventory = index::merge(python::resolveModules(modules, r.rules, o));
  analysis::launder(r.inventory, r.rules);
  return r;
}

}  // namespace gridlock::test
