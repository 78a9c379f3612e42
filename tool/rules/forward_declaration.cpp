#include "rules/forward_declaration.h"

#include "support/strings.h"

#include <cctype>
#include <vector>

namespace gridlock::rules {
namespace {

using support::isIdentifier;

}  // namespace

std::string forwardDeclarationLines(const std::string& declaration) {
  size_t space = declaration.find(' ');
  if (space == std::string::npos) return "";
  std::string tag = declaration.substr(0, space), name = declaration.substr(space + 1);
  if (tag != "class" && tag != "struct") return "";
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    size_t sep = name.find("::", at);
    parts.push_back(name.substr(at, sep == std::string::npos ? std::string::npos : sep - at));
    if (sep == std::string::npos) break;
    at = sep + 2;
  }
  for (const auto& p : parts)
    if (!isIdentifier(p)) return "";
  std::string ns;
  for (size_t i = 0; i + 1 < parts.size(); ++i) ns += (i ? "::" : "") + parts[i];
  std::string decl = tag + " " + parts.back() + ";\n";
  if (ns.empty()) return decl;
  return "namespace " + ns + " {\n" + decl + "}  // namespace " + ns + "\n";
}

}  // namespace gridlock::rules
