#include "rewrite/cpp/type_spelling.h"

#include "support/strings.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace gridlock::rewrite::cpp {
namespace {

std::vector<std::string> components(const std::string& qualified) {
  std::vector<std::string> out;
  size_t begin = 0;
  for (size_t at = qualified.find("::"); at != std::string::npos;
       at = qualified.find("::", begin)) {
    out.push_back(qualified.substr(begin, at - begin));
    begin = at + 2;
  }
  out.push_back(qualified.substr(begin));
  return out;
}

using support::identChar;

// The qualifier of a qualified name, without template arguments ("a::B<int>::f" -> "a::B").
std::string qualifier(const std::string& name) {
  int depth = 0;
  size_t last = std::string::npos;
  for (size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (depth == 0 && name[i] == ':' && name[i + 1] == ':') last = i;
  }
  if (last == std::string::npos) return "";
  std::string q = name.substr(0, last);
  std::string out;  // template arguments dropped
  depth = 0;
  for (char c : q) {
    if (c == '<') ++depth;
    if (depth == 0) out += c;
    if (c == '>') --depth;
  }
  return out;
}

}  // namespace

std::string relativeTypeSpelling(const std::string& type, const std::string& scope) {
  return typeSpellingIn(type, scope, {});
}

std::string typeSpellingIn(const std::string& type, const std::string& scope,
                           const Aliases& aliases) {
  std::vector<std::string> ns;
  if (!scope.empty())
    for (auto& c : components(scope))
      if (!c.empty() && c[0] != '(') ns.push_back(c);
  std::string out;
  for (size_t i = 0; i < type.size();) {
    if (!identChar(type[i]) || (i > 0 && identChar(type[i - 1]))) {
      out += type[i++];
      continue;
    }
    // A name starting here: identifiers joined by `::`.
    size_t end = i;
    while (end < type.size()) {
      while (end < type.size() && identChar(type[end])) ++end;
      if (type.compare(end, 2, "::") == 0 && end + 2 < type.size() && identChar(type[end + 2]))
        end += 2;
      else
        break;
    }
    const bool global = i >= 2 && type.compare(i - 2, 2, "::") == 0;
    std::vector<std::string> name = components(type.substr(i, end - i));
    size_t shared = 0;
    while (!global && shared + 1 < name.size() && shared < ns.size() && name[shared] == ns[shared])
      ++shared;
    std::vector<std::string> best(name.begin() + static_cast<long>(shared), name.end());
    for (const auto& [alias, target] : aliases) {
      std::vector<std::string> t = components(target);
      // A directive ("") must leave a name to write; an alias or using-declaration may stand
      // for the whole name (`using a::T;` writes `T`).
      const size_t most = alias.empty() ? name.size() - 1 : name.size();
      if (global || t.size() > most || !std::equal(t.begin(), t.end(), name.begin())) continue;
      std::vector<std::string> through;
      if (!alias.empty()) through.push_back(alias);
      through.insert(through.end(), name.begin() + static_cast<long>(t.size()), name.end());
      if (through.size() <= best.size()) best = std::move(through);
    }
    for (size_t k = 0; k < best.size(); ++k) out += (k ? "::" : "") + best[k];
    i = end;
  }
  return out;
}

std::string enclosingNamespace(const std::string& function, const std::string& className) {
  return className.empty() ? qualifier(function) : qualifier(className + "::x");
}

std::string declaration(const std::string& type, const std::string& name) {
  size_t sigils = type.find_last_not_of("&*");
  bool apart = sigils != std::string::npos && sigils + 1 < type.size() && type[sigils] == ' ';
  return type + (apart ? "" : " ") + name;
}

}  // namespace gridlock::rewrite::cpp
