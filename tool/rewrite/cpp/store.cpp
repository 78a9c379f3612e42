#include "rewrite/cpp/store.h"

#include "rewrite/cpp/thread.h"
#include "rewrite/cpp/type_spelling.h"

#include <set>

namespace gridlock::rewrite::cpp {

std::string memberDeclaration(const facts::ClassBodyFact& k, const std::string& decl,
                              facts::Access access) {
  using facts::Access;
  // A class with no access specifier keeps its key's default for a private member: private in
  // a class, public in a struct, as its other members are.
  const bool label =
      k.endAccess != access && !(k.endAccess == Access::None && access == Access::Private);
  const std::string spelled = facts::str(access);
  if (!k.memberOwnLine) return (label ? " " + spelled + ":" : std::string()) + " " + decl + ";";
  const std::string indent = k.memberIndent.empty() ? k.accessIndent + "  " : k.memberIndent;
  return (label ? "\n" + k.accessIndent + spelled + ":\n" : std::string()) + indent + decl + ";\n";
}

void Store::runOn(CppState& s) {
  for (const CppState::Stored& method : s.stored) replaceReads(s, method);
  s.tally(facts::Strategy::Store).places += declareMembers(s);
}

void Store::replaceReads(CppState& s, const CppState::Stored& method) {
  const rules::ThreadRule& rule = *method.rule;
  const std::string& keeper = s.inv.program.classes.at(method.classUsr).name;
  for (size_t i : method.reads) {
    CppState::Spelled value = Thread::valueOf(s, s.read(i), rule, rule.member);
    if (value.text.empty()) {
      s.leave(i, facts::Left::NoSpelling, value.why);
      continue;
    }
    ++s.tally(facts::Strategy::Store).reads;
    s.replaceRead(i, value.text, value.derived, facts::Strategy::Store);
    s.apply(i, facts::Strategy::Store,
            "replaced with " + value.text + ", " + rule.name + " kept in " + keeper +
                " at construction, " + Thread::threadedThrough(method.functions));
  }
}

size_t Store::declareMembers(CppState& s) {
  const std::map<std::string, const rules::ThreadRule*>& classes = s.storeClasses;
  size_t declared = 0;
  for (const auto& [usr, rule] : classes) {
    // A subclass of a class that keeps the value uses the base's member (protected there), which
    // its constructors initialise through the base's.
    const std::set<std::string> up = s.inv.program.ancestors(usr);
    bool base = false, subclass = false;
    for (const auto& other : classes) {
      if (other.first == usr) continue;
      base = base || up.count(other.first);
      subclass = subclass || s.inv.program.ancestors(other.first).count(usr);
    }
    if (base) continue;
    ++declared;
    const facts::ClassFact& k = s.inv.program.classes.at(usr);
    const facts::ClassBodyFact& body = *s.inv.rewrite.bodyOf(usr);
    // Spelled as the class's constructors spell the parameter: from its namespace, through the
    // aliases its file has there.
    const facts::FunctionFact& ctor = s.inv.program.functions.at(body.constructors.front());
    Aliases aliases;
    for (const auto& ctorUsr : body.constructors)
      for (const auto& l : s.inv.rewrite.lists.at(ctorUsr))
        if (l.file == k.file) aliases = l.aliases;
    const std::string type = typeSpellingIn(rule->type, s.namespaceOf(ctor), aliases);
    const std::string why = k.file + " member " + rule->member + " of " + k.name;
    s.plan.edits.push_back(
        {k.file, body.memberAt, 0,
         memberDeclaration(body, declaration(type, rule->member),
                           subclass ? facts::Access::Protected : facts::Access::Private),
         facts::Strategy::Store, why});
    // A reference or pointer member needs only the type's declaration.
    s.includeType(k.file, *rule, /*definition=*/false);
    const std::string init = rule->member + "(" + rule->name + ")";
    for (const auto& ctorUsr : body.constructors)
      for (const auto& l : s.inv.rewrite.lists.at(ctorUsr)) {
        if (!l.definition || l.delegating) continue;
        s.plan.edits.push_back({l.file, l.initAt, 0, (l.initAfter ? ", " : " : ") + init,
                                facts::Strategy::Store,
                                l.file + " initializer of " + rule->member});
      }
  }
  return declared;
}

}  // namespace gridlock::rewrite::cpp
