#include "python/module_codec.h"

#include "facts/binary_codec.h"

#include <type_traits>

namespace gridlock::facts {

// The spellings of the extraction's own enums, for the codec (kinds.h has the facts' ones).
template <>
struct Spellings<python::Binding::Kind> {
  using K = python::Binding::Kind;
  static constexpr std::pair<K, std::string_view> table[] = {
      {K::Alias, "alias"}, {K::Def, "def"}, {K::Class, "class"}, {K::Value, "value"}};
};
template <>
struct Spellings<python::Binding::Holds> {
  using H = python::Binding::Holds;
  static constexpr std::pair<H, std::string_view> table[] = {
      {H::Nothing, "nothing"}, {H::Display, "display"}, {H::Result, "result"}};
};
template <>
struct Spellings<python::ValueUse> {
  using U = python::ValueUse;
  static constexpr std::pair<U, std::string_view> table[] = {{U::None, "none"},
                                                             {U::Escapes, "escapes"},
                                                             {U::Returned, "returned"},
                                                             {U::Element, "element"}};
};
template <>
struct Spellings<python::Handed> {
  using H = python::Handed;
  static constexpr std::pair<H, std::string_view> table[] = {
      {H::Argument, "argument"}, {H::Stored, "stored"},       {H::Element, "element"},
      {H::Returned, "returned"}, {H::Yielded, "yielded"},     {H::Default, "default"},
      {H::Lambda, "lambda"},     {H::Decorator, "decorator"}, {H::Other, "other"}};
};
template <>
struct Spellings<python::Access> {
  using A = python::Access;
  static constexpr std::pair<A, std::string_view> table[] = {{A::Read, "read"},
                                                             {A::Write, "write"}};
};
template <>
struct Spellings<python::Param::Kind> {
  using K = python::Param::Kind;
  static constexpr std::pair<K, std::string_view> table[] = {{K::Positional, "positional"},
                                                             {K::PositionalOnly, "positional_only"},
                                                             {K::KeywordOnly, "keyword_only"},
                                                             {K::VarArgs, "var_args"},
                                                             {K::VarKeywords, "var_keywords"}};
};
template <>
struct Spellings<python::Call::Arg::Kind> {
  using K = python::Call::Arg::Kind;
  static constexpr std::pair<K, std::string_view> table[] = {
      {K::Plain, "plain"}, {K::Star, "star"}, {K::DoubleStar, "double_star"}};
};

}  // namespace gridlock::facts

namespace gridlock::python {

template <typename T, typename U>
constexpr bool is = std::is_same_v<std::remove_const_t<T>, U>;

template <typename V, typename T>
  requires is<T, Path>
void fields(V&& v, T& x) {
  v("global", x.global);
  v("level", x.level);
  v("names", x.names);
  v("copy", x.copy);
}

template <typename V, typename T>
  requires is<T, HandedOn>
void fields(V&& v, T& x) {
  v("line", x.line);
  v("column", x.column);
  v("how", x.how);
}

template <typename V, typename T>
  requires is<T, Binding>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("kind", x.kind);
  v("target", x.target);
  v("line", x.line);
  v("set_by_function", x.setByFunction);
  v("assigned", x.assigned);
  v("holds", x.holds);
  v("result_of", x.resultOf);
  v("element", x.element);
}

template <typename V, typename T>
  requires is<T, Ref::Part>
void fields(V&& v, T& x) {
  v("line", x.line);
  v("column", x.column);
}

template <typename V, typename T>
  requires is<T, Ref::Guard>
void fields(V&& v, T& x) {
  v("holder", x.holder);
  v("holder_param", x.holderParam);
  v("at", x.at);
  v("presence", x.presence);
  v("flows", x.flows);
  v("others", x.others);
}

template <typename V, typename T>
  requires is<T, Ref::Test>
void fields(V&& v, T& x) {
  v("param", x.param);
  v("expect", x.expect);
}

template <typename V, typename T>
  requires is<T, Ref>
void fields(V&& v, T& x) {
  v("targets", x.targets);
  v("parts", x.parts);
  v("access", x.access);
  v("offset", x.offset);
  v("length", x.length);
  v("line", x.line);
  v("column", x.column);
  v("end_line", x.endLine);
  v("end_column", x.endColumn);
  v("called", x.called);
  v("alias_definition", x.aliasDefinition);
  v("arguments", x.arguments);
  v("function", x.function);
  v("class_index", x.classIndex);
  v("in_lambda", x.inLambda);
  v("guards", x.guards);
  v("tests", x.tests);
  v("statement_line", x.statementLine);
  v("use", x.use);
  v("handed", x.handed);
  v("element", x.element);
  v("container", x.container);
  v("handed_on", x.handedOn);
}

template <typename V, typename T>
  requires is<T, Param>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("annotation", x.annotation);
  v("types", x.types);
  v("has_default", x.hasDefault);
  v("default_text", x.defaultText);
  v("kind", x.kind);
}

template <typename V, typename T>
  requires is<T, Function>
void fields(V&& v, T& x) {
  v("qualname", x.qualname);
  v("class_index", x.classIndex);
  v("is_static", x.isStatic);
  v("is_class_method", x.isClassMethod);
  v("params", x.params);
  v("line", x.line);
}

template <typename V, typename T>
  requires is<T, Class::Field>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("annotated", x.annotated);
  v("types", x.types);
}

template <typename V, typename T>
  requires is<T, Class>
void fields(V&& v, T& x) {
  v("qualname", x.qualname);
  v("bases", x.bases);
  v("line", x.line);
  v("fields", x.fields);
  v("decorated", x.decorated);
}

template <typename V, typename T>
  requires is<T, Call::DictKey>
void fields(V&& v, T& x) {
  v("name", x.name);
  v("is_none", x.isNone);
  v("forwarded_name", x.forwardedName);
}

template <typename V, typename T>
  requires is<T, Call::Arg>
void fields(V&& v, T& x) {
  v("keyword", x.keyword);
  v("kind", x.kind);
  v("is_none", x.isNone);
  v("forwarded_name", x.forwardedName);
  v("offset", x.offset);
  v("length", x.length);
  v("keys", x.keys);
  v("keys_complete", x.keysComplete);
}

template <typename V, typename T>
  requires is<T, Call::Result>
void fields(V&& v, T& x) {
  v("function", x.function);
  v("element", x.element);
}

template <typename V, typename T>
  requires is<T, Call>
void fields(V&& v, T& x) {
  v("callee", x.callee);
  v("own_class", x.ownClass);
  v("member", x.member);
  v("via_super", x.viaSuper);
  v("receiver_param", x.receiverParam);
  v("fields", x.fields);
  v("args", x.args);
  v("first_arg", x.firstArg);
  v("results", x.results);
  v("item_of", x.itemOf);
  v("result_handed_on", x.resultHandedOn);
  v("function", x.function);
  v("line", x.line);
  v("column", x.column);
  v("rparen", x.rparen);
}

template <typename V, typename T>
  requires is<T, AllowText>
void fields(V&& v, T& x) {
  v("line", x.line);
  v("column", x.column);
  v("alone", x.alone);
  v("text", x.text);
}

template <typename V, typename T>
  requires is<T, ModuleFacts>
void fields(V&& v, T& x) {
  v("file", x.file);
  v("is_package", x.isPackage);
  v("digest", x.digest);
  v("errors", x.errors);
  v("unread", x.unread);
  v("unread_refs", x.unreadRefs);
  v("bindings", x.bindings);
  v("star_imports", x.starImports);
  v("loads", x.loads);
  v("refs", x.refs);
  v("imports", x.imports);
  v("functions", x.functions);
  v("classes", x.classes);
  v("calls", x.calls);
  v("allows", x.allows);
}

std::string encodeModuleFacts(const ModuleFacts& facts) {
  codec::bin::Writer w;
  codec::bin::put(w, facts);
  return std::move(w.out);
}

ModuleFacts decodeModuleFacts(std::string_view bytes) {
  codec::bin::Reader r(bytes, "python module facts");
  ModuleFacts facts;
  codec::bin::get(r, facts);
  if (!r.atEnd()) r.fail("trailing bytes");
  return facts;
}

}  // namespace gridlock::python
