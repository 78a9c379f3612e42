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

}  // namespace

const facts::SourceFact* pickSource(const std::vector<facts::SourceFact>& sources,
                                    const std::string& group, facts::Yields yields, bool* field) {
  using facts::Yields;
  if (field) *field = false;
  if (yields == Yields::State) {  // per-model state: a value of the state type (`group`)
    for (const auto& s : sources)
      if (s.yields == Yields::State && (group.empty() || s.group == group)) return &s;
    return nullptr;
  }
  const bool whole = yields == Yields::Collection || group.empty();
  for (const auto& s : sources)
    if (s.yields == Yields::Collection &&
        (whole || s.fields.empty() ||
         std::find(s.fields.begin(), s.fields.end(), group) != s.fields.end())) {
      if (field) *field = !whole;
      return &s;
    }
  if (whole) return nullptr;
  for (const auto& s : sources)
    if (s.yields == Yields::Group && s.group == group) return &s;
  for (const auto& s : sources)
    if (s.yields == Yields::Group && s.group.empty() &&
        words(s.name).find("_" + group + "_") != std::string::npos)
      return &s;
  return nullptr;
}

std::string spellPicked(const facts::SourceFact& s, bool field, const std::string& group,
                        facts::Shape* shape) {
  if (shape) *shape = field ? facts::Shape{facts::Holder::Smart} : s.shape;
  if (!field) return s.spelling;
  return s.spelling + (s.shape == facts::Shape{} ? "." : "->") + group;
}

facts::Shape shapeOfTypeName(const std::string& type) {
  using facts::Holder;
  std::string t;
  for (char c : type)
    if (c != ' ') t += c;
  if (t.rfind("std::optional<", 0) == 0 || t.rfind("conststd::optional<", 0) == 0) {
    size_t open = t.find('<'), close = t.rfind('>');
    return {shapeOfTypeName(t.substr(open + 1, close - open - 1)).holder, true};
  }
  if (!t.empty() && t.back() == '*') return {Holder::Pointer};
  if (t.find("unique_ptr<") != std::string::npos) return {Holder::Unique};
  if (t.find("shared_ptr<") != std::string::npos) return {Holder::Smart};
  return {Holder::Value};
}

std::string adaptShape(const std::string& spelling, facts::Shape from, facts::Shape to) {
  using facts::Holder;
  if (from == to && !(to == facts::Shape{Holder::Unique})) return spelling;
  if (to.optional)  // std::optional<T> converts from what T converts from
    return adaptShape(spelling, from, {to.holder});
  if (from.optional) return adaptShape("(*" + spelling + ")", {from.holder}, to);
  if (to.holder == Holder::Value) return from.holder != Holder::Value ? "*" + spelling : spelling;
  if (to.holder == Holder::Pointer) {
    if (from.holder == Holder::Value) return "&" + spelling;
    if (from.holder == Holder::Smart || from.holder == Holder::Unique) return spelling + ".get()";
  }
  return "";
}

}  // namespace gridlock::rules
