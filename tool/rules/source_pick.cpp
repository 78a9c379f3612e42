#include "rules/source_pick.h"

#include <algorithm>
#include <cctype>

namespace gridlock::rules {
namespace {

// "tpGroup", "tp_group_" -> "_tp_group_": identifier words, lower case, '_' around each.
std::string words(const std::string& name) {
  std::string out = "_";
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '_') {
      if (out.back() != '_') out += '_';
      continue;
    }
    if (std::isupper(static_cast<unsigned char>(c)) && i > 0 && out.back() != '_') out += '_';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (out.back() != '_') out += '_';
  return out;
}

bool pointerShaped(const std::string& shape) {
  return shape == "pointer" || shape == "smart" || shape == "unique" ||
         shape.rfind("optional:", 0) == 0;
}

const std::string kOptional = "optional:";

}  // namespace

const facts::SourceFact* pickSource(const std::vector<facts::SourceFact>& sources,
                                    const std::string& group, const std::string& yields,
                                    bool* field) {
  if (field) *field = false;
  for (const auto& s : sources)
    if (s.yields == "collection" &&
        (yields == "collection" || group.empty() || s.fields.empty() ||
         std::find(s.fields.begin(), s.fields.end(), group) != s.fields.end())) {
      if (field) *field = !(yields == "collection" || group.empty());
      return &s;
    }
  if (yields == "collection" || group.empty()) return nullptr;
  for (const auto& s : sources)
    if (s.yields == "group" && s.group == group) return &s;
  for (const auto& s : sources)
    if (s.yields == "group" && s.group.empty() &&
        words(s.name).find("_" + group + "_") != std::string::npos)
      return &s;
  return nullptr;
}

std::string spellPicked(const facts::SourceFact& s, bool field, const std::string& group,
                        std::string* shape) {
  if (shape) *shape = field ? "smart" : s.shape;
  if (!field) return s.spelling;
  return s.spelling + (s.shape == "value" ? "." : "->") + group;
}

std::string shapeOfTypeName(const std::string& type) {
  std::string t;
  for (char c : type)
    if (c != ' ') t += c;
  if (t.rfind("std::optional<", 0) == 0 || t.rfind("conststd::optional<", 0) == 0) {
    size_t open = t.find('<'), close = t.rfind('>');
    return "optional:" + shapeOfTypeName(t.substr(open + 1, close - open - 1));
  }
  if (!t.empty() && t.back() == '*') return "pointer";
  if (t.find("unique_ptr<") != std::string::npos) return "unique";
  if (t.find("shared_ptr<") != std::string::npos) return "smart";
  return "value";
}

std::string adaptShape(const std::string& spelling, const std::string& from,
                       const std::string& to) {
  if (from == to && to != "unique") return spelling;
  if (to.rfind(kOptional, 0) == 0)  // std::optional<T> converts from what T converts from
    return adaptShape(spelling, from, to.substr(kOptional.size()));
  if (from.rfind(kOptional, 0) == 0)
    return adaptShape("(*" + spelling + ")", from.substr(kOptional.size()), to);
  if (to == "value") return pointerShaped(from) ? "*" + spelling : spelling;
  if (to == "pointer") {
    if (from == "value") return "&" + spelling;
    if (from == "smart" || from == "unique") return spelling + ".get()";
  }
  return "";
}

}  // namespace gridlock::rules
