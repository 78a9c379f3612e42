// One statement of a rule pack's shape: schema/rule-pack.schema.json. The parser
// (rules/rule_pack.cpp, rules/python_rules.cpp) must take exactly the keys the schema names at
// each object, and every field the rules codec writes (rules/rules_codec.cpp, held to the
// structs by RulesCodec.FieldCountsMatchTheCodec) must be set by some key. The packs in
// every_key/ hold every key the schema names, which the first test checks; so a key added to
// the schema, the parser or the structs alone fails here.
#include "rules/rule_pack.h"
#include "rules/rules_codec.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::test {
namespace {

using nlohmann::json;

const std::string kDir = GRIDLOCK_SOURCE_DIR "/tests/cache/every_key/";
const std::vector<std::string> kPacks = {"cpp.json", "env.json", "base.json"};

const json& schema() {
  static const json s = json::parse(readFile(GRIDLOCK_SOURCE_DIR "/schema/rule-pack.schema.json"));
  return s;
}

// A node with "$ref": "#/definitions/NAME" is that definition.
const json& resolve(const json& node) {
  auto ref = node.find("$ref");
  if (ref == node.end()) return node;
  return schema().at(json::json_pointer(ref->get<std::string>().substr(1)));
}

// The schema's object nodes (additionalProperties false), by their JSON pointer in the schema.
void objectNodes(const json& node, const std::string& at, std::map<const json*, std::string>& out) {
  if (node.is_object()) {
    if (node.value("additionalProperties", json(true)) == json(false) &&
        node.contains("properties"))
      out[&node] = at.empty() ? "/" : at;
    for (const auto& [k, v] : node.items()) objectNodes(v, at + "/" + k, out);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i)
      objectNodes(node[i], at + "/" + std::to_string(i), out);
  }
}

std::set<std::string> keysOf(const json& object) {
  std::set<std::string> keys;
  for (const auto& [k, v] : object.items()) keys.insert(k);
  return keys;
}

// Of `node`'s oneOf alternatives, the one whose properties hold every key of `instance` and
// whose required keys it has; `node` itself when it has no alternatives.
const json& alternativeFor(const json& node, const json& instance) {
  auto one = node.find("oneOf");
  // A value that is no object (a state module's attribute name) has no keys to describe.
  if (one == node.end() || node.contains("properties") || !instance.is_object()) return node;
  const json* found = nullptr;
  for (const auto& alt : *one) {
    const json& a = resolve(alt);
    bool fits = a.contains("properties");
    for (const auto& [k, v] : instance.items()) fits = fits && a["properties"].contains(k);
    for (const auto& r : a.value("required", json::array()))
      fits = fits && instance.contains(r.get<std::string>());
    if (fits) {
      EXPECT_EQ(found, nullptr) << "two alternatives fit " << instance.dump();
      found = &a;
    }
  }
  EXPECT_NE(found, nullptr) << "no alternative fits " << instance.dump();
  return found ? *found : node;
}

// The parser reads a Python accessor's two forms (schema: pythonAccessor, pythonFamily) with one
// list of keys, then refuses the other form's keys with a message of its own
// (rules/python_rules.cpp), which TheParserTakesExactlyTheKeysTheSchemaNames checks too.
const std::map<std::string, std::string> kReadTogether = {
    {"/definitions/pythonAccessor", "/definitions/pythonFamily"},
    {"/definitions/pythonFamily", "/definitions/pythonAccessor"}};

// An object of a pack (at its JSON pointer) and the schema node that describes it.
struct Described {
  std::string at;
  const json* node;
  std::set<std::string> keys;
};

void describe(const json& schemaNode, const json& instance, const std::string& at,
              std::vector<Described>& out) {
  const json& node = alternativeFor(resolve(schemaNode), instance);
  if (instance.is_object() && node.contains("properties")) {
    out.push_back({at, &node, keysOf(instance)});
    for (const auto& [k, v] : instance.items())
      if (node["properties"].contains(k)) describe(node["properties"][k], v, at + "/" + k, out);
  } else if (instance.is_object() && node.value("additionalProperties", json(false)).is_object()) {
    for (const auto& [k, v] : instance.items())
      describe(node["additionalProperties"], v, at + "/" + k, out);
  } else if (instance.is_array() && node.contains("items")) {
    for (size_t i = 0; i < instance.size(); ++i)
      describe(node["items"], instance[i], at + "/" + std::to_string(i), out);
  }
}

std::vector<Described> describedObjects(const json& pack) {
  std::vector<Described> out;
  describe(schema(), pack, "", out);
  return out;
}

json packJson(const std::string& file) { return json::parse(readFile(kDir + file)); }

std::string joined(const std::set<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

TEST(PackShape, TheEveryKeyPacksHoldEveryKeyTheSchemaNames) {
  std::map<const json*, std::string> nodes;
  objectNodes(schema(), "", nodes);
  std::map<const json*, std::set<std::string>> seen;
  for (const auto& file : kPacks)
    for (const auto& d : describedObjects(packJson(file)))
      seen[d.node].insert(d.keys.begin(), d.keys.end());
  for (const auto& [node, at] : nodes) {
    std::set<std::string> named = keysOf((*node)["properties"]);
    EXPECT_EQ(joined(seen[node]), joined(named)) << "schema " << at << ": keys the packs use";
  }
  EXPECT_EQ(nodes.size(), 26u);  // the objects a pack has: a new one needs a key in every_key/
}

// The keys the parser lists for an unknown key `key` put in the object at `at`, or what it said.
std::set<std::string> allowedAt(const json& pack, const std::string& file, const std::string& at,
                                std::string& said) {
  json bad = pack;
  bad[json::json_pointer(at + "/not_a_key")] = 1;
  std::string prefix = kDir + file + ": " + at + "/not_a_key: unknown key (allowed: ";
  try {
    rules::parseRulePack(bad.dump(), kDir + file);
    said = "(taken)";
    return {};
  } catch (const rules::RuleError& e) {
    said = e.what();
  }
  if (said.compare(0, prefix.size(), prefix) != 0) return {};
  std::string list = said.substr(prefix.size(), said.find(')', prefix.size()) - prefix.size());
  std::set<std::string> allowed;
  for (size_t from = 0; from <= list.size();) {
    size_t comma = list.find(", ", from);
    allowed.insert(list.substr(from, comma - from));
    from = comma == std::string::npos ? list.size() + 1 : comma + 2;
  }
  return allowed;
}

// The value some object of `pack` gives `key`, for putting it where it does not belong.
json valueOf(const json& pack, const std::string& key) {
  for (const auto& d : describedObjects(pack)) {
    const json& object = pack[json::json_pointer(d.at)];
    if (object.contains(key)) return object[key];
  }
  return "x";
}

TEST(PackShape, TheParserTakesExactlyTheKeysTheSchemaNames) {
  std::map<const json*, std::string> nodes;
  objectNodes(schema(), "", nodes);
  size_t checked = 0;
  for (const auto& file : kPacks) {
    json pack = packJson(file);
    ASSERT_NO_THROW(rules::parseRulePack(pack.dump(), kDir + file)) << file;
    for (const auto& d : describedObjects(pack)) {
      SCOPED_TRACE(file + " " + (d.at.empty() ? "/" : d.at));
      std::set<std::string> expected = keysOf((*d.node)["properties"]);
      std::set<std::string> own = expected;
      if (auto other = kReadTogether.find(nodes[d.node]); other != kReadTogether.end())
        for (const auto& [k, v] :
             schema().at(json::json_pointer(other->second))["properties"].items())
          expected.insert(k);
      std::string said;
      EXPECT_EQ(joined(allowedAt(pack, file, d.at, said)), joined(expected)) << said;
      // A key of the other form only: refused, by a message of its own.
      for (const auto& k : expected) {
        if (own.count(k)) continue;
        json bad = pack;
        bad[json::json_pointer(d.at + "/" + k)] = valueOf(pack, k);
        EXPECT_THROW(rules::parseRulePack(bad.dump(), kDir + file), rules::RuleError) << k;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 39u);  // every object of the three packs
}

// Paths of the codec's JSON (arrays as "[]") and those some pack sets to a value other than
// the default: `def` is the codec's JSON of a default value, with one default element in each
// array of structs.
void fieldsSet(const json& value, const json& def, const std::string& path,
               std::set<std::string>& all, std::set<std::string>& set) {
  if (def.is_object()) {
    for (const auto& [k, d] : def.items())
      fieldsSet(value.contains(k) ? value[k] : json(), d, path + "." + k, all, set);
    return;
  }
  all.insert(path);
  if (def.is_array() && !def.empty() && def[0].is_object()) {
    if (value.is_array() && !value.empty()) set.insert(path);
    for (const auto& e : value.is_array() ? value : json::array())
      fieldsSet(e, def[0], path + "[]", all, set);
    std::set<std::string> none;  // every path of an element, whether or not there is one
    fieldsSet(json(), def[0], path + "[]", all, none);
    return;
  }
  if (!value.is_null() && value != def) set.insert(path);
}

TEST(PackShape, EveryFieldTheCodecWritesIsSetBySomeKey) {
  rules::RulePack defaults;
  defaults.accessors.emplace_back();
  defaults.globals.emplace_back();
  defaults.types.emplace_back();
  defaults.pythonAccessors.emplace_back();
  defaults.pythonGlobals.emplace_back();
  defaults.setters.emplace_back();
  json def = rules::toJson(defaults);
  std::set<std::string> all, set;
  for (const auto& file : kPacks)
    fieldsSet(rules::toJson(rules::loadRulePack(kDir + file)), def, "", all, set);
  std::set<std::string> unset;
  for (const auto& p : all)
    if (!set.count(p)) unset.insert(p);
  // The index of the pack a rule came from: numbered by the rule set, not read from a pack;
  // a threaded global is never rewrite.env's object (ThreadRule::env is rewrite.thread's).
  EXPECT_EQ(joined(unset),
            ".accessors[].pack, .globals[].pack, .globals[].thread.env, .python_accessors[].pack, "
            ".python_globals[].pack, .setters[].pack");
}

}  // namespace
}  // namespace gridlock::test
