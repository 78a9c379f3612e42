#include "scan/small_project.h"

#include <filesystem>

namespace gridlock::test {

SmallProject::SmallProject(const std::string& tag) : TempProject(tag) {
  write("ps.h",
        "#pragma once\n"
        "namespace ps {\n"
        "struct Group {};\n"
        "Group* get_tp();\n"
        "Group* get_dp();\n"
        "}  // namespace ps\n");
  write("core/a.cpp",
        "#include \"../ps.h\"\n"
        "#include \"shared.h\"\n"
        "void a_one() { ps::get_tp(); }\n"
        "void a_two() {\n"
        "  ps::get_tp();\n"
        "  ps::get_dp();\n"
        "}\n");
  write("core/shared.h",
        "#pragma once\n"
        "#include \"../ps.h\"\n"
        "inline void shared() { ps::get_dp(); }\n");
  write("core/b.cpp",
        "#include \"../ps.h\"\n"
        "void b_one() { ps::get_dp(); }\n");
  write("train/main.cpp",
        "#include \"../ps.h\"\n"
        "int main() { ps::get_tp(); }\n");
  writeFile(dir() + "/ours.json",
            R"({"name": "ours",
 "scope": {"include": ["**"], "exclude": [], "edges": ["src/train/**"]},
 "accessors": [
   {"function": "ps::get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
   {"function": "ps::get_dp", "kind": "accessor", "group": "dp", "yields": "group"}]}
)");
  writeFile(dir() + "/.gridlock.json",
            R"({"build": "build", "rules": ["ours"], "baseline": "gridlock-baseline.json"}
)");
  writeDatabase();
}

std::string SmallProject::real() const { return std::filesystem::canonical(dir()).string(); }

CommandResult SmallProject::runIn(const std::string& cwd, const std::string& args,
                                  const std::string& env) const {
  return runCommand("cd " + shellQuote(dir() + "/" + cwd) + " && " + (env.empty() ? "" : "env ") +
                    env + " " + GRIDLOCK_BIN + " " + args);
}

void SmallProject::writeDatabase(const std::string& without) const {
  std::string entries;
  for (const char* f : {"core/a.cpp", "core/b.cpp", "train/main.cpp"}) {
    if (without == f) continue;
    entries += (entries.empty() ? "" : ",\n") + entry(f);
  }
  database(entries);
}

}  // namespace gridlock::test
