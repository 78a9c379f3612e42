#include "rules/python_rewrite_rules.h"

#include "rules/python_rules.h"

#include <algorithm>
#include <map>
#include <utility>

namespace gridlock::rules {
namespace {

using nlohmann::json;

bool identifier(const std::string& s) {
  return isDottedName(s) && s.find('.') == std::string::npos;
}

// `text` without blanks at its ends and with each inner run of blanks as one space.
std::string squeezeBlanks(const std::string& text) {
  std::string out;
  for (char c : text) {
    bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\';
    if (blank && !out.empty() && out.back() != ' ') out += ' ';
    if (!blank) out += c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// "a=1, b=2" (a pack's key) split at its commas.
std::vector<std::string> splitKey(const std::string& key) {
  std::vector<std::string> out;
  size_t from = 0;
  for (size_t comma = key.find(',');; comma = key.find(',', from)) {
    out.push_back(key.substr(from, comma == std::string::npos ? comma : comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

void readKeywordAttributes(const PackReader& r, const json& ka, PythonRewriteRule& out) {
  const std::string at = "/rewrite/python/keyword_attributes";
  if (!ka.is_object()) r.fail(at, "expected an object: group -> {keyword arguments -> attribute}");
  for (auto g = ka.begin(); g != ka.end(); ++g) {
    if (!g->is_object())
      r.fail(at + "/" + g.key(), "expected an object: keyword arguments -> attribute");
    for (auto e = g->begin(); e != g->end(); ++e) {
      std::string where = at + "/" + g.key() + "/" + e.key();
      std::string attr = r.string(*g, e.key(), at + "/" + g.key(), true);
      if (!identifier(attr)) r.fail(where, "expected a Python identifier");
      std::optional<std::string> key = keywordKey(splitKey(e.key()), {});
      if (!key || key->empty())
        r.fail(where, "expected keyword arguments written name=value, separated by commas");
      for (const std::string& a : splitKey(*key))
        if (!identifier(squeezeBlanks(a.substr(0, a.find('=')))))
          r.fail(where, "expected keyword arguments written name=value, separated by commas");
      out.keywordAttributes[g.key()][*key] = attr;
    }
  }
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

void readSpecs(const PackReader& r, const json& sp, PythonRewriteRule& out) {
  const std::string at = "/rewrite/python/specs";
  r.object(sp, at, {"spec", "build", "get", "submodules"});
  out.specs.spec = r.strings(sp, "spec", at);
  out.specs.build = r.strings(sp, "build", at);
  out.specs.get = r.strings(sp, "get", at);
  out.specs.submodules = r.strings(sp, "submodules", at);
  using Names = std::pair<const char*, const std::vector<std::string>*>;
  for (const Names& names :
       {Names{"spec", &out.specs.spec}, {"build", &out.specs.build}, {"get", &out.specs.get}})
    for (size_t i = 0; i < names.second->size(); ++i)
      if (!isDottedName((*names.second)[i]))
        r.fail(at + "/" + names.first + "/" + std::to_string(i), "expected a dotted Python name");
  if (out.specs.spec.empty() || out.specs.build.empty())
    r.fail(at,
           "a spec model names its spec classes (spec) and the functions that build them "
           "(build)");
}

// One word of `allowed` at `key`, else `dflt` when absent.
std::string word(const PackReader& r, const json& j, const std::string& key, const std::string& at,
                 std::initializer_list<const char*> allowed) {
  if (!j.contains(key)) return *allowed.begin();
  std::string v = r.string(j, key, at, true);
  std::string list;
  for (const char* a : allowed) {
    if (v == a) return v;
    list += std::string(list.empty() ? "\"" : ", \"") + a + "\"";
  }
  r.fail(at + "/" + key, "expected one of " + list + "; got \"" + v + "\"");
}

std::string identifierAt(const PackReader& r, const json& j, const std::string& key,
                         const std::string& at) {
  std::string v = r.string(j, key, at, false);
  if (!v.empty() && !identifier(v))
    r.fail(at + "/" + key, "expected a Python identifier, got \"" + v + "\"");
  return v;
}

// `state.M` as an object: the class replacing module M's variables (PythonStateRule).
PythonStateRule readStateObject(const PackReader& r, const json& o, const std::string& at) {
  r.object(o, at,
           {"class", "fields", "place", "attribute", "parameter", "local", "build", "edge_callers",
            "retire", "private"});
  PythonStateRule s;
  s.cls = readPythonName(r, o, "class", at);
  if (auto f = o.find("fields"); f != o.end()) {
    if (!f->is_object())
      r.fail(at + "/fields", "expected an object: field -> annotation (\"Optional[int]\")");
    for (auto e = f->begin(); e != f->end(); ++e) {
      if (!identifier(e.key()))
        r.fail(at + "/fields/" + e.key(), "expected a field name (a Python identifier)");
      s.fields[e.key()] = r.string(*f, e.key(), at + "/fields", true);
    }
  }
  s.place = word(r, o, "place", at, {"globals", "after_imports"});
  s.attribute = identifierAt(r, o, "attribute", at);
  s.parameter = identifierAt(r, o, "parameter", at);
  s.local = identifierAt(r, o, "local", at);
  if (s.attribute.empty() && s.parameter.empty())
    r.fail(at, "names neither \"attribute\" nor \"parameter\": what holds the instance");
  if (s.attribute.empty()) s.attribute = s.parameter;
  if (s.parameter.empty()) s.parameter = s.attribute;
  if (s.local.empty()) s.local = s.attribute;
  if (auto b = o.find("build"); b != o.end() && b->is_object()) {
    r.object(*b, at + "/build", {"call", "config", "fields"});
    s.build = "call";
    s.buildCall = readPythonName(r, *b, "call", at + "/build");
    s.buildConfig = identifierAt(r, *b, "config", at + "/build");
    if (s.buildConfig.empty()) r.fail(at + "/build", "missing required key \"config\"");
    s.buildFields = r.strings(*b, "fields", at + "/build");
    for (size_t i = 0; i < s.buildFields.size(); ++i)
      if (!identifier(s.buildFields[i]))
        r.fail(at + "/build/fields/" + std::to_string(i), "expected a field name");
  } else if (b != o.end() && (!b->is_string() || b->get<std::string>() != "setters")) {
    r.fail(at + "/build",
           "expected \"setters\" or {\"call\": \"pkg.State.from_config\", \"config\": NAME}");
  }
  s.edgeDefault = word(r, o, "edge_callers", at, {"refuse", "default"}) == "default";
  s.retireDeprecate = word(r, o, "retire", at, {"remove", "deprecate"}) == "deprecate";
  if (auto pm = o.find("private"); pm != o.end()) {
    if (!pm->is_object()) r.fail(at + "/private", "expected an object: module -> name");
    for (auto e = pm->begin(); e != pm->end(); ++e) {
      if (!isDottedName(e.key()))
        r.fail(at + "/private/" + e.key(), "expected a dotted module name as the key");
      std::string name = r.string(*pm, e.key(), at + "/private", true);
      if (!identifier(name))
        r.fail(at + "/private/" + e.key(), "expected a Python identifier, got \"" + name + "\"");
      s.privateModules[e.key()] = name;
    }
  }
  return s;
}

}  // namespace

std::optional<std::string> keywordKey(const std::vector<std::string>& arguments,
                                      const std::vector<std::string>& dropped) {
  std::map<std::string, std::string> byName;
  for (const std::string& a : arguments) {
    size_t eq = a.find('=');
    if (eq == std::string::npos || a.compare(eq, 2, "==") == 0) return std::nullopt;
    std::string name = squeezeBlanks(a.substr(0, eq)), value = squeezeBlanks(a.substr(eq + 1));
    if (name.empty() || value.empty() || name[0] == '*') return std::nullopt;
    if (std::find(dropped.begin(), dropped.end(), name) != dropped.end()) continue;
    if (!byName.emplace(name, value).second) return std::nullopt;
  }
  std::string out;
  for (const auto& [name, value] : byName) out += (out.empty() ? "" : ", ") + name + "=" + value;
  return out;
}

PythonRewriteRule readPythonRewrite(const PackReader& r, const json& py) {
  const std::string at = "/rewrite/python";
  r.object(py, at,
           {"collection", "group", "spell", "state", "attributes", "dropped_keywords",
            "keyword_attributes", "error", "thread", "edge_callers", "collapse", "unset_defaults",
            "specs"});
  PythonRewriteRule out;
  out.collection = r.strings(py, "collection", at);
  for (size_t i = 0; i < out.collection.size(); ++i)
    if (!identifier(out.collection[i]))
      r.fail(at + "/collection/" + std::to_string(i), "expected a Python identifier");
  // A pack that only moves module state to an object spells no group.
  bool stateObject = false;
  if (auto st = py.find("state"); st != py.end() && st->is_object())
    for (const auto& v : *st) stateObject = stateObject || v.is_object();
  out.group = r.string(py, "group", at, !stateObject);
  if ((!stateObject || !out.group.empty()) && out.group.find("{group}") == std::string::npos)
    r.fail(at + "/group", "the name must carry the read's group as {group} (\"{group}_group\")");
  if (auto sp = py.find("spell"); sp != py.end()) {
    r.object(*sp, at + "/spell", {"size", "rank", "src_rank"});
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
      if (!isDottedName(e.key()))
        r.fail(at + "/state/" + e.key(), "expected a dotted module name as the key");
      if (e->is_object()) {
        out.stateObjects[e.key()] = readStateObject(r, *e, at + "/state/" + e.key());
        continue;
      }
      std::string attr = r.string(*st, e.key(), at + "/state", true);
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
  if (auto ka = py.find("keyword_attributes"); ka != py.end()) readKeywordAttributes(r, *ka, out);
  if (py.contains("error")) out.error = r.string(py, "error", at, true);
  if (!isDottedName(out.error)) r.fail(at + "/error", "expected a dotted Python name");
  if (auto th = py.find("thread"); th != py.end()) readThread(r, *th, out);
  std::string edge =
      py.contains("edge_callers") ? r.string(py, "edge_callers", at, true) : "refuse";
  if (edge != "refuse" && edge != "global")
    r.fail(at + "/edge_callers", "expected \"refuse\" or \"global\", got \"" + edge + "\"");
  out.edgeGlobal = edge == "global";
  out.collapse = r.boolean(py, "collapse", at, false);
  out.unsetDefaults = r.strings(py, "unset_defaults", at);
  if (auto sp = py.find("specs"); sp != py.end()) readSpecs(r, *sp, out);
  return out;
}

}  // namespace gridlock::rules
