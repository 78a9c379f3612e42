#include "rules/rules_codec.h"

#include "facts/struct_codec.h"
#include "support/file_io.h"

#include <type_traits>

namespace gridlock::rules {

// Each struct's fields, listed once for both directions (facts/struct_codec.h).
template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, Scope>
void fields(V&& v, T& x) {
  v("include", x.include);
  v("exclude", x.exclude);
  v("edges", x.edges);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, AccessorRule>
void fields(V&& v, T& x) {
  v("function", x.function);
  v("macro", x.macro);
  v("kind", x.kind);
  v("group", x.group);
  v("yields", x.yields);
  v("pack", x.pack);
  v("spell", x.spell);
  v("env", x.env);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, GlobalRule>
void fields(V&& v, T& x) {
  v("variable", x.variable);
  v("field", x.field);
  v("type", x.type);
  v("thread", x.thread);
  v("pack", x.pack);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, TypeRule>
void fields(V&& v, T& x) {
  v("type", x.type);
  v("yields", x.yields);
  v("group", x.group);
  v("groups", x.groups);
  v("env", x.env);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ThreadRule>
void fields(V&& v, T& x) {
  v("type", x.type);
  v("name", x.name);
  v("yields", x.yields);
  v("group", x.group);
  v("pointer", x.pointer);
  v("edge", x.edge);
  v("include", x.include);
  v("position", x.position);
  v("forward_declaration", x.forwardDeclaration);
  v("env", x.env);
  v("hoist", x.hoist);
  v("store", x.store);
  v("member", x.member);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, CollapseRule>
void fields(V&& v, T& x) {
  v("lookup", x.lookup);
  v("type", x.type);
  v("name", x.name);
  v("include", x.include);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, EnvRule>
void fields(V&& v, T& x) {
  v("type", x.type);
  v("parameter", x.parameter);
  v("edge", x.edge);
  v("include", x.include);
  v("forward_declaration", x.forwardDeclaration);
  v("hoist", x.hoist);
  v("store", x.store);
  v("member", x.member);
  v("methods", x.methods);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, PythonSpecRule>
void fields(V&& v, T& x) {
  v("spec", x.spec);
  v("build", x.build);
  v("get", x.get);
  v("submodules", x.submodules);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, PythonStateRule>
void fields(V&& v, T& x) {
  v("class", x.cls);
  v("fields", x.fields);
  v("place", x.place);
  v("attribute", x.attribute);
  v("parameter", x.parameter);
  v("local", x.local);
  v("build", x.build);
  v("build_call", x.buildCall);
  v("build_config", x.buildConfig);
  v("build_fields", x.buildFields);
  v("edge_default", x.edgeDefault);
  v("retire_deprecate", x.retireDeprecate);
  v("private", x.privateModules);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, SetterRule>
void fields(V&& v, T& x) {
  v("function", x.function);
  v("python", x.python);
  v("writes", x.writes);
  v("pack", x.pack);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, PythonRewriteRule>
void fields(V&& v, T& x) {
  v("collection", x.collection);
  v("group", x.group);
  v("spell", x.spell);
  v("state", x.state);
  v("attributes", x.attributes);
  v("dropped_keywords", x.droppedKeywords);
  v("keyword_attributes", x.keywordAttributes);
  v("error", x.error);
  v("public_modules", x.publicModules);
  v("public_keyword", x.publicKeyword);
  v("store", x.store);
  v("edge_global", x.edgeGlobal);
  v("collapse", x.collapse);
  v("unset_defaults", x.unsetDefaults);
  v("specs", x.specs);
  v("state_objects", x.stateObjects);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, RewriteRules>
void fields(V&& v, T& x) {
  v("spell", x.spell);
  v("spell_include", x.spellInclude);
  v("require_spell", x.requireSpell);
  v("require_include", x.requireInclude);
  v("thread", x.thread);
  v("collapse", x.collapse);
  v("env", x.env);
  v("python", x.python);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, PythonFamily>
void fields(V&& v, T& x) {
  v("module", x.module);
  v("prefix", x.prefix);
  v("suffixes", x.suffixes);
  v("except", x.except);
  v("groups", x.groups);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, PythonAccessorRule>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("family", x.family);
  v("kind", x.kind);
  v("group", x.group);
  v("yields", x.yields);
  v("pack", x.pack);
  v("returns", x.returns);
  v("state_parameter", x.stateParameter);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, PythonGlobalRule>
void fields(V&& v, T& x) {
  v("variable", x.variable);
  v("module", x.module);
  v("except", x.except);
  v("pack", x.pack);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, PythonCounting>
void fields(V&& v, T& x) {
  v("calls_only", x.callsOnly);
  v("once_per_line", x.oncePerLine);
  v("launder", x.launder);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, RulePack>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("path", x.path);
  v("scope", x.scope);
  v("accessors", x.accessors);
  v("globals", x.globals);
  v("types", x.types);
  v("public_headers", x.publicHeaders);
  v("rewrite", x.rewrite);
  v("python_accessors", x.pythonAccessors);
  v("python_globals", x.pythonGlobals);
  v("setters", x.setters);
  v("python", x.python);
}

nlohmann::json toJson(const RulePack& pack) { return codec::encode(pack); }

RulePack rulePackFromJson(const nlohmann::json& j) {
  return codec::decodeDocument<RulePack>(j, "rule pack");
}

nlohmann::json toJson(const RuleSet& rules) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& p : rules.packs()) a.push_back(toJson(p));
  return a;
}

RuleSet ruleSetFromJson(const nlohmann::json& j) {
  if (!j.is_array()) throw codec::Error("rule packs: /: expected an array");
  std::vector<RulePack> packs;
  for (const auto& p : j) packs.push_back(rulePackFromJson(p));
  return RuleSet(std::move(packs));
}

std::string digestOf(const RuleSet& rules) {
  nlohmann::json j = toJson(rules);
  for (auto& p : j) p.erase("path");
  std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(j);
  return support::md5Hex({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

}  // namespace gridlock::rules
