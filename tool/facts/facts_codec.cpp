#include "facts/facts_codec.h"

#include "facts/struct_codec.h"

#include <type_traits>

namespace gridlock::facts {

using json = nlohmann::json;

// Each struct's fields, listed once for both directions: `v(key, field)` (struct_codec.h finds
// them by argument-dependent lookup).
template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, FixHint>
void fields(V&& v, T& x) {
  v("fix", x.fix);
  v("source", x.source);
  v("source_pointer", x.sourcePointer);
  v("source_env", x.sourceEnv);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ReadAnalysis>
void fields(V&& v, T& x) {
  v("fallback_dead", x.fallbackDead);
  v("breaking_sites", x.breakingSites);
  v("launders", x.launders);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ParamTest>
void fields(V&& v, T& x) {
  v("param", x.param);
  v("expect", x.expect);
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
  v("language", x.language);
  v("offset", x.offset);
  v("length", x.length);
  v("range_line", x.rangeLine);
  v("range_column", x.rangeColumn);
  v("end_line", x.endLine);
  v("end_column", x.endColumn);
  v("holder", x.holder);
  v("guard_function", x.guardFunction);
  v("guard_param", x.guardParam);
  v("in_default_argument", x.inDefaultArgument);
  v("guard_tests", x.guardTests);
  v("called", x.called);
  v("parent_qualified", x.parentQualified);
  v("in_lambda", x.inLambda);
  v("in_initializer", x.inInitializer);
  v("eager_fallback", x.eagerFallback);
  v("mutated", x.mutated);
  v("type", x.type);
  v("arguments", x.arguments);
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
  v("is_static", x.isStatic);
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
  requires std::is_same_v<std::remove_const_t<T>, ClassBodyFact>
void fields(V&& v, T& x) {
  v("usr", x.usr);
  v("file", x.file);
  v("member_at", x.memberAt);
  v("member_own_line", x.memberOwnLine);
  v("member_indent", x.memberIndent);
  v("access_indent", x.accessIndent);
  v("end_access", x.endAccess);
  v("is_template", x.isTemplate);
  v("user_copy", x.userCopy);
  v("constructors", x.constructors);
  v("member_names", x.memberNames);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ArgFact>
void fields(V&& v, T& x) {
  v("supplied", x.supplied);
  v("forwarded_from", x.forwardedFrom);
  v("forwarded_also", x.forwardedAlso);
  v("passed", x.passed);
  v("offset", x.offset);
  v("length", x.length);
  v("insert_at", x.insertAt);
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
  v("env", x.env);
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
  v("alternative", x.alternative);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ValueFact>
void fields(V&& v, T& x) {
  v("usr", x.usr);
  v("file", x.file);
  v("line", x.line);
  v("column", x.column);
  v("how", x.how);
  v("returned_by", x.returnedBy);
  v("result", x.result);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, BadSuppression>
void fields(V&& v, T& x) {
  v("file", x.file);
  v("line", x.line);
  v("column", x.column);
  v("text", x.text);
  v("problem", x.problem);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, AllowFact>
void fields(V&& v, T& x) {
  v("file", x.file);
  v("line", x.line);
  v("column", x.column);
  v("text", x.text);
  v("covers", x.covers);
  v("main_file", x.mainFile);
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
  v("definition", x.definition);
  v("init_at", x.initAt);
  v("init_after", x.initAfter);
  v("delegating", x.delegating);
  v("is_template", x.isTemplate);
  v("in_macro", x.inMacro);
  v("aliases", x.aliases);
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
  requires std::is_same_v<std::remove_const_t<T>, ConditionalFact>
void fields(V&& v, T& x) {
  v("file", x.file);
  v("begin", x.begin);
  v("end", x.end);
  v("line", x.line);
  v("condition", x.condition);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, SkippedName>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("file", x.file);
  v("line", x.line);
  v("offset", x.offset);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, TuFacts>
void fields(V&& v, T& x) {
  v("main_file", x.mainFile);
  v("reads", x.reads);
  v("bad_suppressions", x.badSuppressions);
  v("allows", x.allows);
  v("parse_error", x.parseError);
  v("notes", x.notes);
  v("exempt_reads", x.exemptReads);
  v("digests", x.digests);
  v("functions", x.functions);
  v("classes", x.classes);
  v("sites", x.sites);
  v("values", x.values);
  v("param_lists", x.paramLists);
  v("calls", x.calls);
  v("address_taken", x.addressTaken);
  v("dependent_calls", x.dependentCalls);
  v("skipped", x.skipped);
  v("conditionals", x.conditionals);
  v("class_bodies", x.classBodies);
  v("includes", x.includes);
  v("rules_seen", x.rulesSeen);
}

nlohmann::json toJson(const TuFacts& tu) { return codec::encode(tu); }

TuFacts tuFactsFromJson(const nlohmann::json& j) {
  return codec::decodeDocument<TuFacts>(j, "facts");
}

std::string encodeTuFacts(const TuFacts& tu) {
  std::vector<std::uint8_t> bytes = json::to_cbor(toJson(tu));
  return std::string(bytes.begin(), bytes.end());
}

void putTuFacts(codec::bin::Writer& w, const TuFacts& tu) { codec::bin::put(w, tu); }

void getTuFacts(codec::bin::Reader& r, TuFacts& tu) { codec::bin::get(r, tu); }

std::string binaryLayout() {
  std::string out;
  codec::bin::describe<TuFacts>(out);
  return out;
}

std::string encodeTuFactsBinary(const TuFacts& tu) {
  codec::bin::Writer w;
  putTuFacts(w, tu);
  return std::move(w.out);
}

TuFacts decodeTuFactsBinary(std::string_view bytes) {
  codec::bin::Reader r(bytes, "facts");
  TuFacts tu;
  getTuFacts(r, tu);
  if (!r.atEnd()) r.fail("trailing bytes");
  return tu;
}

TuFacts decodeTuFacts(std::string_view cbor) {
  json j = json::from_cbor(cbor.begin(), cbor.end(), /*strict=*/true, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw CodecError("facts: not valid CBOR");
  return tuFactsFromJson(j);
}

}  // namespace gridlock::facts
