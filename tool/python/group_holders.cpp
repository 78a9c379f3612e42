#include "python/group_holders.h"

#include <algorithm>
#include <cctype>

namespace gridlock::python {
namespace {

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The last word of an identifier: after its last `_`, from its last hump (`Communicator` of
// `P2PCommunicator`; an upper-case run ending it is one word: `PG`), lower-cased.
std::string lastWord(std::string_view id) {
  while (!id.empty() && id.back() == '_') id.remove_suffix(1);
  if (size_t u = id.rfind('_'); u != std::string_view::npos) id.remove_prefix(u + 1);
  auto lower = [](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c));
  };
  auto upper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
  size_t i = id.size();
  while (i > 0 && lower(id[i - 1])) --i;
  if (i == id.size())
    while (i > 0 && upper(id[i - 1])) --i;
  else if (i > 0 && upper(id[i - 1]))
    --i;
  std::string word(id.substr(i));
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word;
}

}  // namespace

bool namesGroupHolder(std::string_view text) {
  static const std::set<std::string, std::less<>> words{"group",      "groups",       "pg",  "pgs",
                                                        "collection", "communicator", "comm"};
  for (size_t at = 0; at < text.size();) {
    if (!identChar(text[at])) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < text.size() && identChar(text[end])) ++end;
    std::string_view id = text.substr(at, end - at);
    if (id != "self" && id != "cls" && words.count(lastWord(id))) return true;
    at = end;
  }
  return false;
}

bool GroupHolders::holds(const Ref& ref, const Ref::Guard& g) const {
  if (flowing_.count({g.at, g.holder})) return true;
  if (!g.presence) return false;
  if (namesGroupHolder(g.holder)) return true;
  if (g.holderParam < 0 || ref.function < 0) return false;
  const Function& f = m_.functions[ref.function];
  return static_cast<size_t>(g.holderParam) < f.params.size() &&
         namesGroupHolder(f.params[g.holderParam].annotation);
}

const Ref::Guard* GroupHolders::fallback(const Ref& ref) const {
  for (const Ref::Guard& g : ref.guards) {
    bool others = std::all_of(g.others.begin(), g.others.end(), [&](const std::string& o) {
      return flowing_.count({g.at, o}) || namesGroupHolder(o);
    });
    if (others && holds(ref, g)) return &g;
  }
  return nullptr;
}

}  // namespace gridlock::python
