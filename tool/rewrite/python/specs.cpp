#include "rewrite/python/specs.h"

#include "rewrite/python/maybe_none.h"
#include "rewrite/python/ts_node.h"
#include "rules/glob.h"
#include "support/strings.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

using ts::walk;

using support::lastName;

bool namedBy(std::string_view name, const std::vector<std::string>& dotted) {
  return !name.empty() && std::any_of(dotted.begin(), dotted.end(),
                                      [&](const std::string& d) { return lastName(d) == name; });
}

// The last name of what a call calls: `f` of `f(...)` and of `m.f(...)`, else "".
std::string_view calleeName(const PySource& src, TSNode call) {
  TSNode f = field<"function">(call);
  if (is<"attribute">(f)) f = field<"attribute">(f);
  return is<"identifier">(f) ? src.text(f) : std::string_view();
}

// What the model reads of a file: the kinds of call it names.
struct Kinds {
  const rules::PythonSpecRule& rule;
  bool spec(const PySource& src, TSNode call) const {
    return is<"call">(call) && namedBy(calleeName(src, call), rule.spec);
  }
  bool build(const PySource& src, TSNode call) const {
    return is<"call">(call) && namedBy(calleeName(src, call), rule.build);
  }
  bool get(const PySource& src, TSNode call) const {
    return is<"call">(call) && namedBy(calleeName(src, call), rule.get);
  }
  bool submodulesClass(std::string_view name) const {
    return !name.empty() &&
           std::any_of(rule.submodules.begin(), rule.submodules.end(),
                       [&](const std::string& g) { return rules::globMatch(g, name); });
  }
  bool submodules(const PySource& src, TSNode call) const {
    return is<"call">(call) && submodulesClass(calleeName(src, call));
  }
  // A call in the model's own code: a build or get function's body, the spec class's methods
  // (ModuleSpec.__call__ is `build_module(self, *args, **kwargs)`).
  bool own(const PySource& src, TSNode n) const {
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
      if (is<"function_definition">(p) && (namedBy(src.text(field<"name">(p)), rule.build) ||
                                           namedBy(src.text(field<"name">(p)), rule.get)))
        return true;
      if (is<"class_definition">(p) && namedBy(src.text(field<"name">(p)), rule.spec)) return true;
    }
    return false;
  }
};

// `n` and the parentheses and conditional expressions (as a value, not a condition) around it:
// the node whose place says where `n`'s value goes.
TSNode valueTop(TSNode n) {
  for (TSNode p = ts_node_parent(n);; p = ts_node_parent(n)) {
    if (is<"parenthesized_expression">(p)) {
      n = p;
    } else if (is<"conditional_expression">(p)) {
      std::vector<TSNode> parts = namedChildren(p);  // body, condition, else
      if (parts.size() == 3 && ts::same(parts[1], n)) return n;
      n = p;
    } else {
      return n;
    }
  }
}

// The call whose argument `n` is (through valueTop), with the keyword or the position.
struct Slot {
  TSNode call{};
  std::string keyword;  // "" for a positional argument
  int position = -1;
};

Slot slotOf(const PySource& src, TSNode n) {
  n = valueTop(n);
  TSNode p = ts_node_parent(n);
  Slot s;
  if (is<"keyword_argument">(p) && ts::same(field<"value">(p), n)) {
    s.keyword = std::string(src.text(field<"name">(p)));
    n = p;
    p = ts_node_parent(p);
  }
  if (!is<"argument_list">(p) || !is<"call">(ts_node_parent(p))) return Slot{};
  s.call = ts_node_parent(p);
  if (s.keyword.empty()) {
    int i = 0;
    for (TSNode a : namedChildren(p)) {
      if (ts::same(a, n)) break;
      ++i;
    }
    s.position = i;
  }
  return s;
}

// Where a spec or class a use names goes.
struct Place {
  enum Kind { None, Field, Any, Build } kind = None;
  std::string field;  // Field
  TSNode call{};      // Build: the build call
};

// Where the value `n` (a class or a spec of it) is put.
Place placeOf(const Kinds& k, const PySource& src, TSNode n) {
  Slot s = slotOf(src, n);
  Place p;
  p.kind = Place::Any;
  if (!ts_node_is_null(s.call) && k.submodules(src, s.call) && !s.keyword.empty()) {
    p.kind = Place::Field;
    p.field = s.keyword;
  } else if (!ts_node_is_null(s.call) && k.build(src, s.call) && s.position == 0) {
    p.kind = Place::Build;
    p.call = s.call;
  } else if (!ts_node_is_null(s.call) && k.get(src, s.call) && s.position == 0) {
    p.kind = Place::None;  // returned to a caller the model does not follow
  }
  return p;
}

// Whether `n` (an identifier, or the tuple naming a class by strings) is a spec's class.
bool specClass(const Kinds& k, const PySource& src, TSNode n) {
  Slot s = slotOf(src, n);
  return !ts_node_is_null(s.call) && k.spec(src, s.call) &&
         (s.keyword == "module" || s.position == 0);
}

std::string_view fieldRead(const PySource& src, TSNode e);
bool ownAttribute(const Kinds& k, const PySource& src, TSNode read);

// The place of a class's name (`C`, or `m.C` as a whole), or None when the model does not put
// it there.
Place classPlace(const Kinds& k, const PySource& src, TSNode use) {
  for (TSNode p = ts_node_parent(use); is<"attribute">(p) && ts::same(field<"attribute">(p), use);
       p = ts_node_parent(p))
    use = p;
  // Written into a spec or a submodules object: `x.f.module = C` (a spec in field f, or in any
  // when x.f is no field read), `x.submodules.f = C` (field f).
  TSNode top = valueTop(use);
  TSNode a = ts_node_parent(top);
  if (is<"assignment">(a) && ts::same(field<"right">(a), top) &&
      is<"attribute">(field<"left">(a))) {
    TSNode left = field<"left">(a), object = field<"object">(left);
    std::string_view name = src.text(field<"attribute">(left));
    Place p;
    if (name == "module") {
      std::string_view f = fieldRead(src, object);
      p.kind = f.empty() || ownAttribute(k, src, object) ? Place::Any : Place::Field;
      p.field = std::string(f);
    } else if (fieldRead(src, object) == "submodules") {
      p.kind = Place::Field;
      p.field = std::string(name);
    }
    return p;
  }
  if (specClass(k, src, use)) return placeOf(k, src, slotOf(src, use).call);
  Slot s = slotOf(src, use);
  if (ts_node_is_null(s.call)) return {};
  if (k.submodules(src, s.call)) return placeOf(k, src, use);
  if (k.build(src, s.call) && s.position == 0) return placeOf(k, src, use);
  return {};
}

// A string literal's text without its quotes (no prefixes, no escapes), or "".
std::string_view stringValue(const PySource& src, TSNode n) {
  if (!is<"string">(n)) return {};
  std::string_view t = src.text(n);
  if (t.size() < 2 || (t.front() != '"' && t.front() != '\'') || t.back() != t.front()) return {};
  return t.substr(1, t.size() - 2);
}

// The class a `("pkg.mod", "C")` tuple names, or "".
std::string_view tupleClass(const PySource& src, TSNode n) {
  std::vector<TSNode> parts = namedChildren(n);
  if (!is<"tuple">(n) || parts.size() != 2 || stringValue(src, parts[0]).empty()) return {};
  return stringValue(src, parts[1]);
}

// What an expression given to a build or get call (or called) reads: a field's name (`x.f`,
// `x["f"]`, `getattr(x, "f")`), or "".
std::string_view fieldRead(const PySource& src, TSNode e) {
  e = ts::unparen(e);
  if (is<"attribute">(e)) return src.text(field<"attribute">(e));
  if (is<"subscript">(e)) return stringValue(src, field<"subscript">(e));
  if (is<"call">(e) && src.text(field<"function">(e)) == "getattr") {
    std::vector<TSNode> args = namedChildren(field<"arguments">(e));
    if (args.size() == 2) return stringValue(src, args[1]);
  }
  return {};
}

// The object of a field read (`x` of `x.f`, `x["f"]`, `getattr(x, "f")`).
TSNode readObject(const PySource& src, TSNode e) {
  if (is<"attribute">(e)) return field<"object">(e);
  if (is<"subscript">(e)) return field<"value">(e);
  if (is<"call">(e) && src.text(field<"function">(e)) == "getattr")
    return namedChildren(field<"arguments">(e))[0];
  return TSNode{};
}

// Whether a read of `x.f` is a module's own attribute (`self.f`, outside a submodules class):
// the module it built, not a field.
bool ownAttribute(const Kinds& k, const PySource& src, TSNode read) {
  TSNode object = readObject(src, read);
  if (!is<"identifier">(object) || src.text(object) != "self") return false;
  for (TSNode p = ts_node_parent(read); !ts_node_is_null(p); p = ts_node_parent(p))
    if (is<"class_definition">(p)) return !k.submodulesClass(src.text(field<"name">(p)));
  return true;
}

// Whether the value of `n` is only tested or compared: an operand of a comparison, `not`, a
// condition (of `if`, `while`, `assert`, a conditional expression), `and`/`or` in one, or the
// argument of isinstance, issubclass, hasattr, callable.
bool onlyTested(const PySource& src, TSNode n) {
  n = ts::unparen(n);
  for (TSNode p = ts_node_parent(n);; n = p, p = ts_node_parent(p)) {
    if (is<"parenthesized_expression">(p)) continue;
    if (is<"comparison_operator">(p) || is<"not_operator">(p)) return true;
    if (is<"if_statement">(p) || is<"elif_clause">(p) || is<"while_statement">(p))
      return ts::same(field<"condition">(p), n);
    if (is<"assert_statement">(p)) return ts::same(namedChildren(p).front(), n);
    if (is<"conditional_expression">(p)) {
      std::vector<TSNode> parts = namedChildren(p);
      return parts.size() == 3 && ts::same(parts[1], n);
    }
    if (is<"boolean_operator">(p)) continue;  // tested only if the whole is
    if (is<"argument_list">(p)) {
      std::string_view f = src.text(field<"function">(ts_node_parent(p)));
      return f == "isinstance" || f == "issubclass" || f == "hasattr" || f == "callable";
    }
    return false;
  }
}

// Whether a `.module` read (`e` the attribute) keeps the class in: tested, the object of another
// attribute (`.__name__`, `.from_spec(...)`, whose `cls(...)` the class's own check refuses), or
// a local name whose every use is one of those.
bool moduleKept(const PySource& src, TSNode e) {
  TSNode top = valueTop(e);
  TSNode p = ts_node_parent(top);
  if (onlyTested(src, top)) return true;
  if (is<"attribute">(p) && ts::same(field<"object">(p), top)) return true;
  if (!is<"assignment">(p) || !ts::same(field<"right">(p), top) ||
      !is<"identifier">(field<"left">(p)))
    return false;
  std::string_view name = src.text(field<"left">(p));
  TSNode def = PySource::enclosingDef(p);
  bool kept = !ts_node_is_null(def);
  if (kept)
    walk(field<"body">(def), [&](TSNode n) {
      if (!kept || !is<"identifier">(n) || src.text(n) != name || ts::same(n, field<"left">(p)))
        return;
      TSNode up = ts_node_parent(n);
      kept = onlyTested(src, n) || (is<"attribute">(up) && ts::same(field<"object">(up), n));
    });
  return kept;
}

std::string where(const std::string& file, TSNode n) {
  TSPoint at = ts_node_start_point(n);
  return file + ":" + std::to_string(at.row + 1) + ":" + std::to_string(at.column + 1);
}

// A call the model may build the class at.
struct Construction {
  std::string file;
  const PySource* src = nullptr;
  TSNode call{};
  bool build = false;  // the first argument is the spec, not the class's
};

// What the model knows of one class: the fields it is in, whether it is in any, the calls that
// build it by name, and why it cannot be followed.
struct Known {
  std::set<std::string> fields;
  bool any = false;
  std::vector<Construction> literal;
  std::string refused;
};

// Each file of `files` that names one of `words`, and its source.
template <typename F>
void eachFile(Sources& sources, const std::set<std::string>& files,
              const std::vector<std::string>& words, F&& f) {
  for (const std::string& file : files) {
    const PySource* src = sources.get(file);
    if (!src) continue;
    if (std::none_of(words.begin(), words.end(), [&](const std::string& w) {
          return src->text().find(lastName(w)) != std::string::npos;
        }))
      continue;
    f(file, *src);
  }
}

std::vector<std::string> modelWords(const rules::PythonSpecRule& rule) {
  std::vector<std::string> words = rule.spec;
  words.insert(words.end(), rule.build.begin(), rule.build.end());
  words.insert(words.end(), rule.get.begin(), rule.get.end());
  for (const std::string& g : rule.submodules) {
    std::string w;
    for (char c : g)
      if (c != '*' && c != '?' && c != '[' && c != ']') w += c;
    words.push_back(w.empty() ? std::string("(") : w);
  }
  return words;
}

void place(Known& known, const Place& p, const std::string& file, const PySource& src) {
  if (p.kind == Place::Field) known.fields.insert(p.field);
  if (p.kind == Place::Any) known.any = true;
  if (p.kind == Place::Build) known.literal.push_back({file, &src, p.call, true});
}

// The fields of every submodules class: the keywords its calls pass, the names its body
// assigns (a dataclass's fields).
std::set<std::string> allFields(const Kinds& k, Sources& sources,
                                const std::set<std::string>& files,
                                const std::vector<std::string>& words) {
  std::set<std::string> out;
  eachFile(sources, files, words, [&](const std::string&, const PySource& src) {
    walk(src.root(), [&](TSNode n) {
      if (k.submodules(src, n)) {
        for (TSNode a : namedChildren(field<"arguments">(n)))
          if (is<"keyword_argument">(a)) out.insert(std::string(src.text(field<"name">(a))));
      } else if (is<"class_definition">(n) && k.submodulesClass(src.text(field<"name">(n)))) {
        for (TSNode st : namedChildren(field<"body">(n))) {
          TSNode a = is<"expression_statement">(st) ? ts_node_named_child(st, 0) : TSNode{};
          if (is<"assignment">(a) && is<"identifier">(field<"left">(a)))
            out.insert(std::string(src.text(field<"left">(a))));
        }
      }
    });
  });
  return out;
}

// Reads the arguments of construction `c` for parameter `param` of `init`.
void readArguments(const Construction& c, const rules::PythonRewriteRule& rule,
                   const PySource& initSrc, TSNode init, const std::string& param,
                   const std::string& cls, SpecVerdict& out) {
  std::vector<PyParam> params = initSrc.params(init);
  size_t index = std::numeric_limits<size_t>::max();
  size_t first = !params.empty() && params[0].name == "self" ? 1 : 0;
  for (size_t i = first; i < params.size(); ++i)
    if (params[i].name == param && params[i].kind == PyParam::Kind::Positional) index = i - first;
  std::string at = where(c.file, c.call);
  const PySource& src = *c.src;
  std::vector<TSNode> args = namedChildren(field<"arguments">(c.call));
  size_t positional = 0;
  for (size_t i = c.build ? 1 : 0; i < args.size(); ++i) {
    TSNode a = args[i];
    if (is<"list_splat">(a) || is<"dictionary_splat">(a)) {
      if (out.refused.empty())
        out.refused = at + " may build " + cls + " from a spec, passing arguments through * or " +
                      "**, which may carry " + param + " or leave it out";
      return;
    }
    if (is<"keyword_argument">(a)) {
      if (src.text(field<"name">(a)) != param) continue;
      std::string why = mayBeNone(src, a, PySource::enclosingDef(c.call), rule);
      if (why == "None")
        out.maybeNone.push_back(at + ": passes None");
      else if (!why.empty())
        out.maybeNone.push_back(at + ": passes `" + std::string(src.text(field<"value">(a))) +
                                "`, which may be None (" + why + ")");
      return;
    }
    ++positional;
  }
  if (positional > index) {
    if (out.refused.empty())
      out.refused =
          at + " may build " + cls + " from a spec, passing " + param + "'s position positionally";
    return;
  }
  out.leftOut.push_back(at + ": may build " + cls + " from a spec, without " + param);
}

}  // namespace

bool specPlacement(const rules::PythonSpecRule& rule, const NameUse& use) {
  if (rule.empty()) return false;
  Kinds k{rule};
  return classPlace(k, *use.src, use.node).kind != Place::None;
}

namespace {

SpecVerdict decide(Sources& sources, const std::set<std::string>& files,
                   const rules::PythonRewriteRule& rule, const std::vector<std::string>& names,
                   const std::vector<NameUse>& placed, const PySource& src, TSNode init,
                   const std::string& param, const std::set<std::string, std::less<>>& classes,
                   bool any) {
  SpecVerdict out;
  const rules::PythonSpecRule& model = rule.specs;
  Kinds k{model};
  std::vector<std::string> words = modelWords(model);
  const std::string& cls = names.front();
  auto ours = [&](std::string_view n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  Known known;
  known.any = any;
  for (const NameUse& use : placed)
    place(known, classPlace(k, *use.src, use.node), use.file, *use.src);
  // Specs naming the class by where to import it from, `spec(module=("pkg.mod", "C"))`, or by
  // a tuple whose names are not written out (any class).
  eachFile(sources, files, model.spec, [&](const std::string& file, const PySource& s) {
    walk(s.root(), [&](TSNode n) {
      std::string_view named = tupleClass(s, n);
      if (!is<"tuple">(n) || !(named.empty() || ours(named)) || !specClass(k, s, n)) return;
      Place p = placeOf(k, s, slotOf(s, n).call);
      if (p.kind == Place::None && out.refused.empty())
        out.refused = where(file, n) + " may return " + cls + " from a spec, to a caller the " +
                      "model does not follow";
      place(known, p, file, s);
    });
  });
  if (!out.refused.empty()) return out;
  if (known.fields.empty() && !known.any && known.literal.empty()) return out;  // in no spec
  // Fields moved into others (`S(g=x.f)`), to a fixed point.
  std::vector<std::pair<std::string, std::string>> moves;
  eachFile(sources, files, words, [&](const std::string&, const PySource& s) {
    walk(s.root(), [&](TSNode n) {
      if (!k.submodules(s, n)) return;
      for (TSNode a : namedChildren(field<"arguments">(n)))
        if (is<"keyword_argument">(a))
          if (std::string_view f = fieldRead(s, field<"value">(a)); !f.empty())
            moves.emplace_back(std::string(f), std::string(s.text(field<"name">(a))));
    });
  });
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [from, to] : moves)
      if (known.fields.count(from) && known.fields.insert(to).second) grew = true;
  }
  // The reads of the class's fields: a call or build of one builds it, a get returns it; a read
  // that lets the spec out (assigned, passed, returned) puts it in any.
  std::set<std::string> every = known.any ? allFields(k, sources, files, words) : known.fields;
  std::vector<Construction> sites = known.literal;
  std::string escape;
  // A field is read wherever a submodules object goes: every file naming the field.
  std::vector<std::string> read = words;
  read.insert(read.end(), every.begin(), every.end());
  eachFile(sources, files, read, [&](const std::string& file, const PySource& s) {
    walk(s.root(), [&](TSNode n) {
      if (!out.refused.empty() || k.own(s, n)) return;
      if (k.build(s, n) || k.get(s, n)) {
        std::vector<TSNode> args = namedChildren(field<"arguments">(n));
        if (args.empty()) return;
        if (is<"list_splat">(args[0]) || is<"dictionary_splat">(args[0]) ||
            is<"keyword_argument">(args[0])) {
          if (known.any)  // the spec given some other way: it may be the class's
            out.refused = where(file, n) + " may build or return " + cls +
                          " from a spec it is not given first";
          return;
        }
        TSNode e = ts::unparen(args[0]);
        std::string_view f = fieldRead(s, e);
        bool maybe;
        if (is<"identifier">(e) && (ours(s.text(e)) || classes.count(s.text(e))))
          maybe = false;  // the class itself (a placement, in `literal`), or another
        else if (k.spec(s, e))
          maybe = false;  // a spec written here: its class's placement, or another class's
        else if (!f.empty() && !ownAttribute(k, s, e))
          maybe = every.count(std::string(f)) > 0 || known.any;
        else
          maybe = known.any;
        if (!maybe) return;
        if (k.get(s, n))
          out.refused = where(file, n) + " may return " + cls + " from a spec (" +
                        std::string(calleeName(s, n)) + "), to a caller the model does not follow";
        else
          sites.push_back({file, &s, n, true});
        return;
      }
      std::string_view f = fieldRead(s, n);
      if (f.empty() || !every.count(std::string(f)) || ownAttribute(k, s, n)) return;
      TSNode top = valueTop(n);
      TSNode p = ts_node_parent(top);
      if (is<"call">(p) && ts::same(field<"function">(p), top)) {
        sites.push_back({file, &s, p, false});
        return;
      }
      if (known.any) return;  // its reads let out nothing more
      Slot slot = slotOf(s, n);
      if (!ts_node_is_null(slot.call) &&
          ((k.submodules(s, slot.call) && !slot.keyword.empty()) ||
           ((k.build(s, slot.call) || k.get(s, slot.call)) && slot.position == 0)))
        return;  // a move, or a build or get (above)
      if (is<"attribute">(p) && ts::same(field<"object">(p), top)) {
        TSNode up = ts_node_parent(p);
        bool written = is<"assignment">(up) && ts::same(field<"left">(up), p);
        if (s.text(field<"attribute">(p)) != "module" || written || moduleKept(s, p)) return;
        if (!specClass(k, s, p))
          out.refused = where(file, p) + " takes the class out of a spec that may be " + cls +
                        "'s (`.module`), to code the model does not follow";
        else if (escape.empty())
          escape = where(file, p);  // a new spec of its class, put where the model may not say
        return;
      }
      if (onlyTested(s, top) || (is<"assignment">(p) && ts::same(field<"left">(p), top))) return;
      if (escape.empty()) escape = where(file, n);
    });
  });
  if (!out.refused.empty()) return out;
  // The spec left its field: any build or field may build it now.
  if (!escape.empty() && !known.any)
    return decide(sources, files, rule, names, placed, src, init, param, classes, true);
  // An `any` class's `.module` reads: any spec's, wherever it went.
  if (known.any)
    eachFile(sources, files, {".module"}, [&](const std::string& file, const PySource& s) {
      walk(s.root(), [&](TSNode n) {
        if (!out.refused.empty() || k.own(s, n) || !is<"attribute">(n) ||
            s.text(field<"attribute">(n)) != "module" || ownAttribute(k, s, n))
          return;
        TSNode up = ts_node_parent(n);
        if (is<"assignment">(up) && ts::same(field<"left">(up), n)) return;  // a write
        if (!moduleKept(s, n) && !specClass(k, s, n))
          out.refused = where(file, n) + " takes the class out of a spec that may be " + cls +
                        "'s (`.module`), to code the model does not follow";
      });
    });
  if (!out.refused.empty()) return out;
  auto key = [](const Construction& c) {
    return std::make_pair(c.file, ts_node_start_byte(c.call));
  };
  std::sort(sites.begin(), sites.end(),
            [&](const auto& a, const auto& b) { return key(a) < key(b); });
  sites.erase(std::unique(sites.begin(), sites.end(),
                          [&](const auto& a, const auto& b) { return key(a) == key(b); }),
              sites.end());
  for (const Construction& c : sites) readArguments(c, rule, src, init, param, cls, out);
  if (!out.refused.empty()) {
    out.leftOut.clear();
    out.maybeNone.clear();
  }
  return out;
}

}  // namespace

SpecVerdict specConstructions(Sources& sources, const std::set<std::string>& files,
                              const rules::PythonRewriteRule& rule,
                              const std::vector<std::string>& names,
                              const std::vector<NameUse>& placed, const PySource& src, TSNode init,
                              const std::string& param,
                              const std::set<std::string, std::less<>>& classes) {
  return decide(sources, files, rule, names, placed, src, init, param, classes, false);
}

}  // namespace gridlock::rewrite::py
