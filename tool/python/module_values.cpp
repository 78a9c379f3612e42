#include "python/module_values.h"

#include "python/module_reads.h"
#include "python/value_uses.h"

namespace gridlock::python {
namespace {

class Values {
 public:
  Values(const Definitions& defs, size_t module, facts::TuFacts& out)
      : defs_(defs), module_(module), m_(defs.modules()[module]), out_(out) {}

  void run() {
    for (const Ref& r : m_.refs) {
      ref(r);
      fromAnotherModule(r);
    }
    for (const Call& c : m_.calls) results(c);
    for (const Class& c : m_.classes)
      for (const HandedOn& h : c.decorated)
        add(usrOf(qualifiedName(defs_.index(), module_, c.qualname)), h.line, h.column,
            std::string(describe(h.how)));
  }

 private:
  // The scanned classes and functions `paths` (of module `m`) name, as USRs.
  std::vector<std::string> named(size_t m, const std::vector<Path>& paths) const {
    std::vector<std::string> out;
    for (const Path& p : paths)
      for (const std::string& name : defs_.index().resolve(m, p))
        if (std::string usr = defs_.definitionUsr(name); !usr.empty()) out.push_back(usr);
    return out;
  }

  void add(const std::string& usr, unsigned line, unsigned column, std::string how,
           std::string returnedBy = "", bool result = false) {
    facts::ValueFact v;
    v.usr = usr;
    v.file = m_.file;
    v.line = line;
    v.column = column;
    v.how = std::move(how);
    v.returnedBy = std::move(returnedBy);
    v.result = result;
    out_.values.push_back(std::move(v));
  }

  void ref(const Ref& r) {
    if (r.use == ValueUse::None) return;
    std::vector<std::string> values = named(module_, r.targets);
    if (values.empty()) return;
    if (r.use == ValueUse::Returned) {
      // Followed where a module-level function's result is (module_program.h): a method's
      // or a nested def's calls are not all bound by the scan.
      const Function& f = m_.functions[r.function];
      bool followed = f.classIndex < 0 && f.qualname.find('.') == std::string::npos;
      for (const std::string& v : values)
        if (followed)
          add(v, r.line, r.column, "returned",
              usrOf(qualifiedName(defs_.index(), module_, f.qualname)));
        else
          add(v, r.line, r.column,
              "returned by " + f.qualname + ", whose calls the scan does not follow");
      return;
    }
    if (r.use == ValueUse::Element) {
      for (const HandedOn& h : r.handedOn)
        for (const std::string& v : values)
          add(v, h.line, h.column,
              "in a display, which is " + std::string(describe(h.how)) + " there");
      return;
    }
    for (const std::string& v : values) add(v, r.line, r.column, std::string(describe(r.handed)));
  }

  // A name another module binds to a display or a call's result, handed on here (or an
  // attribute of it read: `LAYERS.values()`): what it holds leaves the scan's sight. Called,
  // or subscripted and called, it is followed (module_program.h).
  void fromAnotherModule(const Ref& r) {
    for (const Path& p : r.targets)
      for (size_t k = 0; k < p.names.size(); ++k) {
        if (!defs_.holdsName(p.names[k])) continue;
        bool attribute = k + 1 < p.names.size();
        if (!attribute && r.use == ValueUse::None) continue;
        Path prefix = p;
        prefix.names.resize(k + 1);
        for (const std::string& name : defs_.index().resolve(module_, prefix)) {
          const Binding* b = defs_.index().definition(name);
          if (!b || b->holds == Binding::Holds::Nothing) continue;
          std::optional<size_t> from = defs_.index().find(name.substr(0, name.rfind('.')));
          if (!from || *from == module_) continue;
          std::string how = attribute ? "read as an attribute" : std::string(describe(r.handed));
          const ModuleFacts& other = defs_.modules()[*from];
          if (b->holds == Binding::Holds::Result) {
            for (const std::string& f : named(*from, b->resultOf))
              add(f, r.line, r.column, how, "", true);
            continue;
          }
          for (const Ref& e : other.refs)
            if (e.use == ValueUse::Element && e.container == b->name)
              for (const std::string& v : named(*from, e.targets))
                add(v, r.line, r.column,
                    "in " + b->name + ", a display of " + other.file + ", " + how + " here");
        }
        break;
      }
  }

  // A call of a function that returns a class or function, its result handed on.
  void results(const Call& c) {
    if (c.resultHandedOn.empty()) return;
    for (const Path& p : c.callee)
      for (const std::string& name : defs_.index().resolve(module_, p)) {
        std::optional<Definitions::Item> f = defs_.function(name);
        if (!f || !defs_.returnsDefinitions(*f)) continue;
        for (const HandedOn& h : c.resultHandedOn)
          add(usrOf(name), h.line, h.column, std::string(describe(h.how)), "", true);
      }
  }

  const Definitions& defs_;
  size_t module_;
  const ModuleFacts& m_;
  facts::TuFacts& out_;
};

}  // namespace

void collectValues(const Definitions& defs, size_t module, facts::TuFacts& out) {
  Values(defs, module, out).run();
}

}  // namespace gridlock::python
