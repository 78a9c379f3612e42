#include "rules/python_rewrite_rules.h"

#include "rules/python_rules.h"

namespace gridlock::rules {
namespace {

using nlohmann::json;

bool identifier(const std::string& s) {
  return isDottedName(s) && s.find('.') == std::string::npos;
}

void readThread(const PackReader& r, const json& th, PythonRewriteRule& out) {
  const std::string at = "/rewrite/python/thread";
  r.object(th, at, {"public", "public_api", "store"});
  out.publicModules = r.strings(th, "public", at);
  std::string api = th.contains("public_api") ? r.string(th, "public_api", at, true) : "refuse";
  if (api != "refuse" && api != "keyword")
    r.fail(at + "/public_api", "expected \"refuse\" or \"keyword\", got \"" + api + "\"");
  out.publicKeyword = api == "keyword";
  out.store = r.boolean(th, "store", at, true);
}

}  // namespace

PythonRewriteRule readPythonRewrite(const PackReader& r, const json& py) {
  const std::string at = "/rewrite/python";
  r.object(py, at,
           {"collection", "group", "spell", "state", "attributes", "dropped_keywords", "error",
            "thread"});
  PythonRewriteRule out;
  out.collection = r.strings(py, "collection", at);
  for (size_t i = 0; i < out.collection.size(); ++i)
    if (!identifier(out.collection[i]))
      r.fail(at + "/collection/" + std::to_string(i), "expected a Python identifier");
  out.group = r.string(py, "group", at, true);
  if (out.group.find("{group}") == std::string::npos)
    r.fail(at + "/group", "the name must carry the read's group as {group} (\"{group}_group\")");
  if (auto sp = py.find("spell"); sp != py.end()) {
    r.object(*sp, at + "/spell", {"size", "rank"});
    for (auto e = sp->begin(); e != sp->end(); ++e) {
      std::string t = r.string(*sp, e.key(), at + "/spell", true);
      if (t.find("{g}") == std::string::npos)
        r.fail(at + "/spell/" + e.key(), "the template must name the group as {g}");
      out.spell[*facts::parse<facts::Yields>(e.key())] = t;
    }
  }
  if (auto st = py.find("state"); st != py.end()) {
    if (!st->is_object()) r.fail(at + "/state", "expected an object: module -> attribute");
    for (auto e = st->begin(); e != st->end(); ++e) {
      std::string attr = r.string(*st, e.key(), at + "/state", true);
      if (!isDottedName(e.key()))
        r.fail(at + "/state/" + e.key(), "expected a dotted module name as the key");
      if (!identifier(attr)) r.fail(at + "/state/" + e.key(), "expected a Python identifier");
      out.state[e.key()] = attr;
    }
  }
  if (auto as = py.find("attributes"); as != py.end()) {
    if (!as->is_object()) r.fail(at + "/attributes", "expected an object: group -> attribute");
    for (auto e = as->begin(); e != as->end(); ++e) {
      std::string attr = r.string(*as, e.key(), at + "/attributes", true);
      if (!identifier(attr)) r.fail(at + "/attributes/" + e.key(), "expected a Python identifier");
      out.attributes[e.key()] = attr;
    }
  }
  out.droppedKeywords = r.strings(py, "dropped_keywords", at);
  for (size_t i = 0; i < out.droppedKeywords.size(); ++i)
    if (!identifier(out.droppedKeywords[i]))
      r.fail(at + "/dropped_keywords/" + std::to_string(i), "expected a Python identifier");
  if (py.contains("error")) out.error = r.string(py, "error", at, true);
  if (!isDottedName(out.error)) r.fail(at + "/error", "expected a dotted Python name");
  if (auto th = py.find("thread"); th != py.end()) readThread(r, *th, out);
  return out;
}

}  // namespace gridlock::rules
