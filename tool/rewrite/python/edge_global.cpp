#include "rewrite/python/edge_global.h"

#include "rewrite/python/import_add.h"
#include "rewrite/python/references.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/supply.h"
#include "rewrite/python/ts_node.h"
#include "rules/python_rewrite_rules.h"

#include <algorithm>
#include <cctype>

namespace gridlock::rewrite::py {
namespace {

std::vector<std::string> dottedParts(const std::string& dotted) {
  std::vector<std::string> out;
  size_t from = 0;
  for (size_t dot = dotted.find('.');; dot = dotted.find('.', from)) {
    out.push_back(dotted.substr(from, dot == std::string::npos ? dot : dot - from));
    if (dot == std::string::npos) break;
    from = dot + 1;
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < parts.size(); ++i) out += (out.empty() ? "" : ".") + parts[i];
  return out;
}

// Whether an argument as written is `name=value` or `value` with a value of literals only
// (strings, numbers, True, False, None, and brackets of them): nothing of the callee's scope.
bool literalArgument(const std::string& a) {
  size_t start = 0, eq = a.find('=');
  if (eq != std::string::npos && a.compare(eq, 2, "==") != 0 && eq > 0 && a[eq - 1] != '!' &&
      a[eq - 1] != '<' && a[eq - 1] != '>')
    start = eq + 1;
  for (size_t i = start; i < a.size();) {
    char c = a[i];
    if (c == '"' || c == '\'') {
      size_t end = a.find(c, i + 1);
      if (end == std::string::npos) return false;
      i = end + 1;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = i;
      while (end < a.size() && (std::isalnum(static_cast<unsigned char>(a[end])) || a[end] == '_'))
        ++end;
      std::string word = a.substr(i, end - i);
      if (word != "True" && word != "False" && word != "None") return false;
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < a.size() && (std::isalnum(static_cast<unsigned char>(a[i])) || a[i] == '.')) ++i;
    } else if (std::string_view(" \t\n\r,[]()-+").find(c) != std::string_view::npos) {
      ++i;
    } else {
      return false;
    }
  }
  return true;
}

// The dropped keyword (`check_initialized=False`) a read is called with, or "": with it the
// global may be None where the read would have asserted.
std::string droppedKeyword(const facts::Read& r, const rules::PythonRewriteRule& rule) {
  for (const std::string& a : r.arguments) {
    std::string name = squeezed(a.substr(0, a.find('=')));
    if (std::find(rule.droppedKeywords.begin(), rule.droppedKeywords.end(), name) !=
        rule.droppedKeywords.end())
      return squeezed(a);
  }
  return "";
}

// Several from-imports that land at one offset as one insertion: new statements one per line
// (the blank lines that set them apart from their neighbours once), names joining one list in
// order.
std::string combined(std::vector<std::pair<std::string, std::string>> texts) {
  std::sort(texts.begin(), texts.end());
  if (texts.size() == 1) return texts[0].second;
  const std::string& first = texts[0].second;
  if (first.find("import ") == std::string::npos) {
    std::string out;
    for (const auto& [key, text] : texts) out += text;
    return out;
  }
  size_t lead = first.find_first_not_of('\n');
  size_t trail = first.size() - 1 - first.find_last_not_of('\n');
  std::string out(lead, '\n');
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::string& t = texts[i].second;
    size_t b = t.find_first_not_of('\n'), e = t.find_last_not_of('\n');
    out += (i ? "\n" : "") + t.substr(b, e - b + 1);
  }
  return out + std::string(trail, '\n');
}

}  // namespace

// `dotted` (`pkg.parallel_state.get_tp_group`, `pkg.groups.Collection.use_mpu`) as `src`
// reaches it through a module-level import; else how it is written once `import` is added:
// a class from its module (`from pkg.groups import Collection`), a function through its module
// (`from pkg import parallel_state`), as Megatron-LM's tests reach them.
std::string spelledIn(const PySource& src, const std::string& dotted,
                      std::pair<std::string, std::string>* import) {
  std::vector<std::string> parts = dottedParts(dotted);
  if (parts.size() < 2) return dotted;
  // The module ends before a class (a capitalized name) or the function.
  size_t end = 1;
  while (end < parts.size() && !std::isupper(static_cast<unsigned char>(parts[end][0]))) ++end;
  if (end == parts.size()) end = parts.size() - 1;
  auto rest = [&](size_t from) {
    return from < parts.size() ? "." + joined(parts, from, parts.size()) : std::string();
  };
  // The function or class from its module (`from m import f`, `import m as ps`: `ps.f`), or
  // the module from its package, imported by name: `import pkg` alone does not load
  // pkg.parallel_state.
  if (auto t = importedAs(src, joined(parts, 0, end), parts[end])) return *t + rest(end + 1);
  if (end >= 2)
    if (auto t = importedAs(src, joined(parts, 0, end - 1), parts[end - 1], true))
      return *t + rest(end);
  size_t cls = end == parts.size() - 1 && end >= 2 ? end - 1 : end;
  *import = {joined(parts, 0, cls), parts[cls]};
  return joined(parts, cls, parts.size());
}

std::string qualifierFor(PyState& s, const std::string& file, const std::string& parent,
                         TSNode place) {
  const PySource* src = s.sources.get(file);
  if (!src) return "";
  for (const facts::Read& d : s.inv.reads) {
    if (d.file != file || !d.parentQualified || d.language != facts::Language::Python ||
        d.name.rfind('.') != parent.size() || d.name.compare(0, parent.size(), parent) != 0)
      continue;
    TSNode n = src->covering(d.offset, d.length);
    if (ts::is<"call">(n)) n = ts::field<"function">(n);
    if (!ts::is<"attribute">(n)) continue;
    TSNode object = ts::field<"object">(n), root = object;
    while (ts::is<"attribute">(root)) root = ts::field<"object">(root);
    if (!ts::is<"identifier">(root)) continue;
    std::string_view name = src->text(root);
    if (boundLocally(*src, root, name) || boundLocally(*src, place, name)) continue;
    return std::string(src->text(object));
  }
  return "";
}

std::optional<EdgeGlobal> edgeGlobal(PyState& s, const std::string& file, const facts::Read& r,
                                     TSNode place, std::string* why) {
  const PySource* src = s.sources.get(file);
  if (!src) {
    *why = file + " cannot be read";
    return std::nullopt;
  }
  if (!r.called || (r.kind != facts::ReadKind::Accessor && r.kind != facts::ReadKind::Shim)) {
    *why = "the global (" + r.name + ") is not read by a call";
    return std::nullopt;
  }
  std::string arguments;
  for (const std::string& a : r.arguments) {
    if (!literalArgument(a)) {
      *why = "the global's call (" + at(r) + ") passes `" + squeezed(a) + "`, not a literal";
      return std::nullopt;
    }
    arguments += (arguments.empty() ? "" : ", ") + squeezed(a);
  }
  EdgeGlobal out;
  out.name = r.name;
  out.text = spelledIn(*src, r.name, &out.import);
  // Rather than import the module under a second name, the name the file has for it.
  size_t dot = r.name.rfind('.');
  if (!out.import.first.empty() && dot != std::string::npos)
    if (std::string q = qualifierFor(s, file, r.name.substr(0, dot), place); !q.empty()) {
      out.text = q + r.name.substr(dot);
      out.import = {};
    }
  out.text += "(" + arguments + ")";
  return out;
}

std::optional<EdgeGlobal> threadEdgeGlobal(PyState& s, const std::string& file,
                                           const std::vector<size_t>& reads,
                                           const std::string& group, TSNode place,
                                           std::string* why) {
  auto gives = [&](const facts::Read& r) {
    if (r.language != facts::Language::Python || r.kind == facts::ReadKind::Laundered || !r.called)
      return false;
    return group.empty() ? r.yields == facts::Yields::Collection
                         : r.yields == facts::Yields::Group && r.group == group;
  };
  for (size_t i : reads) {
    const facts::Read& r = s.read(i);
    const rules::PythonRewriteRule* rule = s.rule(r);
    if (!gives(r) || !rule) continue;
    std::optional<std::string> key = rules::keywordKey(r.arguments, rule->droppedKeywords);
    if (group.empty() || (key && key->empty())) return edgeGlobal(s, file, r, place, why);
  }
  // The graph reads only derived values (a size): the group as the tree reads it most often.
  std::map<std::string, size_t> count;
  std::map<std::string, const facts::Read*> example;
  for (const facts::Read& r : s.inv.reads)
    if (gives(r) && r.arguments.empty()) {
      ++count[r.name];
      example.emplace(r.name, &r);
    }
  auto best = std::max_element(count.begin(), count.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  if (best == count.end()) {
    *why = "no read in the tree gives the " +
           (group.empty() ? std::string("collection") : group + " group") +
           " itself, to pass there";
    return std::nullopt;
  }
  return edgeGlobal(s, file, *example.at(best->first), place, why);
}

EdgeSupply::EdgeSupply(PyState& s) : s_(s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& f = s.read(i);
    if (f.language != facts::Language::Python || f.guard != facts::Guard::Fallback ||
        f.guardParam < 0 || f.kind == facts::ReadKind::Laundered ||
        f.kind == facts::ReadKind::GlobalWrite)
      continue;
    const rules::PythonRewriteRule* rule = s.rule(f);
    if (!rule || !rule->edgeGlobal) continue;
    for (const analysis::CallerSite& c :
         analysis::reach(s.inv.program, {{f.guardFunction, f.guardParam}})) {
      if (c.supplied == facts::Supplied::Default || c.supplied == facts::Supplied::Null)
        breaking_[facts::where(c.file, c.line, c.column)].emplace_back(i, c);
      else if (c.supplied == facts::Supplied::Forwarded)
        forwarders_[i].insert(c.callerUsr);
    }
  }
}

bool EdgeSupply::covers(size_t i) const {
  const facts::Read& r = s_.read(i);
  const rules::PythonRewriteRule* rule = s_.rule(r);
  // A file verification held back keeps its text: its calls cannot be given anything.
  return r.kind == facts::ReadKind::Laundered && r.edge && rule && rule->edgeGlobal &&
         !s_.held(r.file) && s_.closed(r.file).empty() && breaking_.count(at(r));
}

std::string EdgeSupply::argumentFor(
    const std::vector<std::pair<size_t, analysis::CallerSite>>& reached, Argument* out) {
  const analysis::CallerSite& c = reached.front().second;
  const facts::SiteFact& site = s_.inv.program.sites[c.siteIndex];
  auto place = site.rparen ? s_.place(site.file, site.rparen, 1) : std::nullopt;
  TSNode args = place ? argumentListAt(*place->src, site.rparen) : TSNode{};
  if (ts_node_is_null(args)) return "the call's arguments are not where the scan saw them";
  if (ts_node_is_null(place->def))
    return "at module level, where the global would be read on import";
  for (const facts::ArgFact& a : site.args)
    if (a.passed == facts::Passed::StarArgs || a.passed == facts::Passed::StarKwargs ||
        a.passed == facts::Passed::StarKwargsKey || a.passed == facts::Passed::Twice)
      return "the call passes arguments through * or **, which may hold the group";
  auto fn = s_.inv.program.functions.find(site.calleeUsr);
  if (fn == s_.inv.program.functions.end() || c.param < 0 ||
      static_cast<size_t>(c.param) >= fn->second.params.size() ||
      static_cast<size_t>(c.param) >= site.args.size())
    return "the callee's parameters are not known";
  const facts::Read& first = s_.read(reached.front().first);
  const rules::PythonRewriteRule& rule = *s_.rule(first);
  bool collection = first.yields == facts::Yields::Collection;
  std::string text;
  std::string why;
  if (auto v = groupAt(*place->src, place->def, args, collection ? "" : first.group, rule)) {
    text = spelled(rule, first.yields, *v);
    if (text.empty())
      return "the pack does not say how to spell a " + std::string(facts::spell(first.yields)) +
             " (rewrite.python.spell)";
    std::optional<std::string> given = fallbackValue(s_, first, text, collection ? "" : *v, &why);
    if (!given) return why;
    text = *given;
  } else {
    // Fallbacks along a chain of functions that forward the parameter: the outermost runs,
    // and gives the others what it read.
    auto outermost = std::find_if(reached.begin(), reached.end(), [&](const auto& f) {
      return std::all_of(reached.begin(), reached.end(), [&](const auto& g) {
        const std::string& fn = s_.read(f.first).guardFunction;
        return s_.read(g.first).guardFunction == fn || forwarders_[g.first].count(fn) > 0;
      });
    });
    if (outermost == reached.end())
      return "the fallbacks it reaches are not along one chain of calls";
    const facts::Read& f = s_.read(outermost->first);
    if (std::string k = droppedKeyword(f, rule); !k.empty())
      return "the global the fallback at " + at(f) + " reads may be None (" + k +
             "): passed, it would raise";
    std::optional<EdgeGlobal> g = edgeGlobal(s_, site.file, f, args, &why);
    if (!g) return why;
    std::optional<std::string> given =
        fallbackValue(s_, f, g->text, f.yields == facts::Yields::Group ? g->text : "", &why);
    if (!given) return why;
    text = *given;
    out->import = g->import;
  }
  const facts::ArgFact& a = site.args[c.param];
  out->file = site.file;
  out->name = fn->second.params[c.param].name;
  if (a.supplied == facts::Supplied::Null && a.length > 0) {
    // `None` itself: a keyword argument keeps its name.
    TSNode none = place->src->covering(a.offset, a.length);
    if (ts::is<"keyword_argument">(none)) none = ts::field<"value">(none);
    if (ts_node_is_null(none)) return "the argument's place is not known";
    out->offset = ts_node_start_byte(none);
    out->length = ts_node_end_byte(none) - out->offset;
    out->text = text;
  } else if (a.passed == facts::Passed::Omitted) {
    bool pos = positional(site, c.param, s_.sources.get(fn->second.file), fn->second);
    Insertion ins = appendArgument(*place->src, args, pos ? text : out->name + "=" + text);
    out->offset = ins.offset;
    out->text = ins.text;
    out->keyword = !pos;
  } else {
    return "the argument is passed through *args or **kwargs";
  }
  for (const auto& [index, site_] : reached) out->fallbacks.insert(index);
  return "";
}

void EdgeSupply::plan(size_t i, std::map<std::string, std::string>& supplied) {
  const std::string key = at(s_.read(i));
  if (planned_.count(key)) {
    supplied[key] = "";
    return;
  }
  std::map<int, std::vector<std::pair<size_t, analysis::CallerSite>>> byParam;
  for (const auto& reached : breaking_.at(key)) byParam[reached.second.param].push_back(reached);
  std::vector<Argument> arguments;
  for (const auto& [param, reached] : byParam) {
    Argument a;
    if (std::string why = argumentFor(reached, &a); !why.empty()) {
      supplied[key] = "in an edge file, holding nothing to pass: " + why;
      return;
    }
    arguments.push_back(std::move(a));
  }
  // Two left out at one call: both by name, in one insertion (emit()).
  if (arguments.size() > 1)
    for (Argument& a : arguments)
      if (a.length == 0 && !a.keyword) {
        supplied[key] = "in an edge file, where it leaves two groups out, one positionally";
        return;
      }
  supplied[key] = "";
  planned_[key] = std::move(arguments);
}

void EdgeSupply::emit() {
  const size_t from = s_.plan.edits.size();
  for (const auto& [key, arguments] : planned_)
    for (const Argument& a : arguments) {
      bool dead = std::any_of(a.fallbacks.begin(), a.fallbacks.end(), [&](size_t f) {
        const facts::Verdict* v = s_.decided(f);
        return v && v->applied == facts::Strategy::Require;
      });
      if (!dead) continue;
      s_.edit(a.file, a.offset, a.length, a.text, facts::Strategy::Supply,
              key + " edge call given " + a.name);
      if (!a.import.first.empty()) s_.edgeImports[a.file].insert(a.import);
    }
  // An insertion at a call another strategy (or another argument) inserts at joins it.
  std::vector<apply::Edit>& edits = s_.plan.edits;
  for (size_t i = from; i < edits.size();) {
    auto same = std::find_if(edits.begin(), edits.begin() + static_cast<long>(i), [&](auto& e) {
      return e.file == edits[i].file && e.offset == edits[i].offset && e.length == 0 &&
             edits[i].length == 0;
    });
    if (same == edits.begin() + static_cast<long>(i)) {
      ++i;
      continue;
    }
    if (same->text.find(edits[i].text) == std::string::npos) same->text += edits[i].text;
    edits.erase(edits.begin() + static_cast<long>(i));
  }
  for (const auto& [file, imports] : s_.edgeImports) {
    const PySource* src = s_.sources.get(file);
    if (!src) continue;
    std::map<unsigned, std::vector<std::pair<std::string, std::string>>> byOffset;
    for (const auto& [module, name] : imports) {
      if (name.empty()) {  // `import module`, unless the file has it
        if (importedAs(*src, module, "_") == module + "._") continue;
        ImportEdit e = addImport(file, *src, module);
        byOffset[e.offset].emplace_back(module, e.text);
        continue;
      }
      if (importedAs(*src, module, name, true)) continue;  // `import m` binds no name of m
      ImportEdit e = addFromImport(file, *src, module, name);
      byOffset[e.offset].emplace_back(module + " " + name, e.text);
    }
    for (const auto& [offset, texts] : byOffset)
      s_.edit(file, offset, 0, combined(texts), facts::Strategy::Supply,
              file + " import for new text");
  }
}

}  // namespace gridlock::rewrite::py
