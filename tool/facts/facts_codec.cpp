#include "facts/facts_codec.h"

#include <type_traits>

namespace gridlock::facts {
namespace {

using json = nlohmann::json;

// Each struct's fields, listed once for both directions: `v(key, field)`.
template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, FixHint>
void fields(V&& v, T& x) {
  v("fix", x.fix);
  v("source", x.source);
  v("source_pointer", x.sourcePointer);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ReadAnalysis>
void fields(V&& v, T& x) {
  v("fallback_dead", x.fallbackDead);
  v("breaking_sites", x.breakingSites);
  v("launders", x.launders);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, Read>
void fields(V&& v, T& x) {
  v("file", x.file);
  v("line", x.line);
  v("column", x.column);
  v("name", x.name);
  v("kind", x.kind);
  v("group", x.group);
  v("yields", x.yields);
  v("enclosing", x.enclosing);
  v("enclosing_class", x.enclosingClass);
  v("enclosing_usr", x.enclosingUsr);
  v("guard", x.guard);
  v("macro", x.macro);
  v("edge", x.edge);
  v("suppressed", x.suppressed);
  v("hint", x.hint);
  v("spelling", x.spelling);
  v("offset", x.offset);
  v("length", x.length);
  v("holder", x.holder);
  v("guard_function", x.guardFunction);
  v("guard_param", x.guardParam);
  v("in_default_argument", x.inDefaultArgument);
  v("called", x.called);
  v("in_lambda", x.inLambda);
  v("in_initializer", x.inInitializer);
  v("eager_fallback", x.eagerFallback);
  v("type", x.type);
  v("analysis", x.analysis);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ParamFact>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("type", x.type);
  v("has_default", x.hasDefault);
  v("default_text", x.defaultText);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, FunctionFact>
void fields(V&& v, T& x) {
  v("usr", x.usr);
  v("name", x.name);
  v("class_usr", x.classUsr);
  v("is_constructor", x.isConstructor);
  v("is_virtual", x.isVirtual);
  v("is_public_api", x.isPublicApi);
  v("params", x.params);
  v("overrides", x.overrides);
  v("file", x.file);
  v("line", x.line);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ClassFact>
void fields(V&& v, T& x) {
  v("usr", x.usr);
  v("name", x.name);
  v("bases", x.bases);
  v("file", x.file);
  v("line", x.line);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ArgFact>
void fields(V&& v, T& x) {
  v("supplied", x.supplied);
  v("forwarded_from", x.forwardedFrom);
  v("offset", x.offset);
  v("length", x.length);
  v("yields", x.yields);
  v("shape", x.shape);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, SourceFact>
void fields(V&& v, T& x) {
  v("spelling", x.spelling);
  v("yields", x.yields);
  v("group", x.group);
  v("name", x.name);
  v("shape", x.shape);
  v("fields", x.fields);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, SiteFact>
void fields(V&& v, T& x) {
  v("callee_usr", x.calleeUsr);
  v("caller_usr", x.callerUsr);
  v("file", x.file);
  v("line", x.line);
  v("column", x.column);
  v("via", x.via);
  v("class_usr", x.classUsr);
  v("args", x.args);
  v("rparen", x.rparen);
  v("written", x.written);
  v("in_macro", x.inMacro);
  v("sources", x.sources);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, BadSuppression>
void fields(V&& v, T& x) {
  v("file", x.file);
  v("line", x.line);
  v("text", x.text);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ParseError>
void fields(V&& v, T& x) {
  v("file", x.file);
  v("messages", x.messages);
  v("files", x.files);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ParamListFact>
void fields(V&& v, T& x) {
  v("usr", x.usr);
  v("file", x.file);
  v("lparen", x.lparen);
  v("rparen", x.rparen);
  v("written", x.written);
  v("param_begins", x.paramBegins);
  v("defaults", x.defaults);
  v("body_first", x.bodyFirst);
  v("body_indent", x.bodyIndent);
  v("body_indented", x.bodyIndented);
  v("body_names", x.bodyNames);
  v("is_template", x.isTemplate);
  v("in_macro", x.inMacro);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, CallFact>
void fields(V&& v, T& x) {
  v("callee_usr", x.calleeUsr);
  v("caller_usr", x.callerUsr);
  v("file", x.file);
  v("line", x.line);
  v("column", x.column);
  v("rparen", x.rparen);
  v("written", x.written);
  v("in_macro", x.inMacro);
  v("in_lambda", x.inLambda);
  v("arg_begins", x.argBegins);
  v("sources", x.sources);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, DependentCallFact>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("file", x.file);
  v("line", x.line);
  v("rparen", x.rparen);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, TuFacts>
void fields(V&& v, T& x) {
  v("main_file", x.mainFile);
  v("reads", x.reads);
  v("bad_suppressions", x.badSuppressions);
  v("parse_error", x.parseError);
  v("notes", x.notes);
  v("exempt_reads", x.exemptReads);
  v("digests", x.digests);
  v("functions", x.functions);
  v("classes", x.classes);
  v("sites", x.sites);
  v("param_lists", x.paramLists);
  v("calls", x.calls);
  v("address_taken", x.addressTaken);
  v("dependent_calls", x.dependentCalls);
  v("skipped_names", x.skippedNames);
}

template <typename T>
constexpr bool hasFields = requires(T& x) { fields([](const char*, auto&) {}, x); };

// ---- writing. All overloads are declared first: the templates call each other for nested
// types (a vector of pairs), and only declarations seen before a template's definition count.

template <typename T>
json enc(const T& x);
template <typename T>
json encValue(const T& x);
template <typename T>
json encValue(const std::optional<T>& x);
template <typename T>
json encValue(const std::vector<T>& xs);
template <typename A, typename B>
json encValue(const std::pair<A, B>& p);
json encValue(const std::map<std::string, std::string>& m);

template <typename T>
json encValue(const T& x) {
  if constexpr (std::is_enum_v<T>) {
    return str(x);
  } else if constexpr (std::is_same_v<T, Shape>) {
    return str(x);
  } else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>) {
    return x;
  } else {
    return enc(x);
  }
}

template <typename T>
json encValue(const std::optional<T>& x) {
  return x ? encValue(*x) : json(nullptr);
}

template <typename T>
json encValue(const std::vector<T>& xs) {
  json a = json::array();
  for (const auto& x : xs) a.push_back(encValue(x));
  return a;
}

template <typename A, typename B>
json encValue(const std::pair<A, B>& p) {
  return json::array({encValue(p.first), encValue(p.second)});
}

json encValue(const std::map<std::string, std::string>& m) {
  json o = json::object();
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

template <typename T>
json enc(const T& x) {
  static_assert(hasFields<const T>, "enc: a struct without a field list");
  json o = json::object();
  fields([&](const char* key, const auto& field) { o[key] = encValue(field); }, x);
  return o;
}

// ---- reading; `at` is the JSON pointer of the value, for messages.

[[noreturn]] void fail(const std::string& at, const std::string& what) {
  throw CodecError("facts: " + (at.empty() ? std::string("/") : at) + ": " + what);
}

template <typename T>
void dec(const json& j, T& x, const std::string& at);
template <typename T>
void decValue(const json& j, T& x, const std::string& at);
template <typename T>
void decValue(const json& j, std::optional<T>& x, const std::string& at);
template <typename T>
void decValue(const json& j, std::vector<T>& xs, const std::string& at);
template <typename A, typename B>
void decValue(const json& j, std::pair<A, B>& p, const std::string& at);
void decValue(const json& j, std::map<std::string, std::string>& m, const std::string& at);

template <typename T>
void decValue(const json& j, T& x, const std::string& at) {
  if constexpr (std::is_enum_v<T>) {
    if (!j.is_string()) fail(at, "expected a string");
    std::optional<T> v = parse<T>(j.get<std::string>());
    if (!v) fail(at, "unknown value \"" + j.get<std::string>() + "\"");
    x = *v;
  } else if constexpr (std::is_same_v<T, Shape>) {
    if (!j.is_string()) fail(at, "expected a string");
    std::string s = j.get<std::string>();
    const std::string prefix = "optional:";
    x.optional = s.rfind(prefix, 0) == 0;
    std::optional<Holder> h = parse<Holder>(x.optional ? s.substr(prefix.size()) : s);
    if (!h) fail(at, "unknown value \"" + s + "\"");
    x.holder = *h;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) fail(at, "expected a string");
    x = j.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) fail(at, "expected a boolean");
    x = j.get<bool>();
  } else if constexpr (std::is_unsigned_v<T>) {
    if (!j.is_number_unsigned()) fail(at, "expected an unsigned number");
    x = j.get<T>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!j.is_number_integer()) fail(at, "expected a number");
    x = j.get<T>();
  } else {
    dec(j, x, at);
  }
}

template <typename T>
void decValue(const json& j, std::optional<T>& x, const std::string& at) {
  if (j.is_null()) {
    x.reset();
    return;
  }
  x.emplace();
  decValue(j, *x, at);
}

template <typename T>
void decValue(const json& j, std::vector<T>& xs, const std::string& at) {
  if (!j.is_array()) fail(at, "expected an array");
  xs.clear();
  xs.resize(j.size());
  for (size_t i = 0; i < j.size(); ++i) decValue(j[i], xs[i], at + "/" + std::to_string(i));
}

template <typename A, typename B>
void decValue(const json& j, std::pair<A, B>& p, const std::string& at) {
  if (!j.is_array() || j.size() != 2) fail(at, "expected a pair");
  decValue(j[0], p.first, at + "/0");
  decValue(j[1], p.second, at + "/1");
}

void decValue(const json& j, std::map<std::string, std::string>& m, const std::string& at) {
  if (!j.is_object()) fail(at, "expected an object");
  m.clear();
  for (const auto& [k, v] : j.items()) decValue(v, m[k], at + "/" + k);
}

template <typename T>
void dec(const json& j, T& x, const std::string& at) {
  static_assert(hasFields<T>, "dec: a struct without a field list");
  if (!j.is_object()) fail(at, "expected an object");
  fields(
      [&](const char* key, auto& field) {
        auto it = j.find(key);
        if (it == j.end()) fail(at, std::string("missing \"") + key + "\"");
        decValue(*it, field, at + "/" + key);
      },
      x);
}

}  // namespace

nlohmann::json toJson(const TuFacts& tu) { return enc(tu); }

TuFacts tuFactsFromJson(const nlohmann::json& j) {
  TuFacts tu;
  dec(j, tu, "");
  return tu;
}

std::string encodeTuFacts(const TuFacts& tu) {
  std::vector<std::uint8_t> bytes = json::to_cbor(toJson(tu));
  return std::string(bytes.begin(), bytes.end());
}

TuFacts decodeTuFacts(std::string_view cbor) {
  json j = json::from_cbor(cbor.begin(), cbor.end(), /*strict=*/true, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw CodecError("facts: not valid CBOR");
  return tuFactsFromJson(j);
}

}  // namespace gridlock::facts
