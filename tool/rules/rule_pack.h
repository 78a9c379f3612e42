// Rule packs (rules/*.json; keys in docs/scan.md "Rule packs" and docs/rewrite.md "Rule pack
// keys"): what counts as a global group read in one codebase, and how the rewriter spells what
// replaces it. Loading validates everything and names the file, the JSON path
// and what is wrong; nothing downstream re-checks.
#pragma once

#include "facts/kinds.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridlock::rules {

struct Scope {
  std::vector<std::string> include{"**"};
  std::vector<std::string> exclude;
  std::vector<std::string> edges;
};

// One thing whose every reference is a read: a function (accessor or shim) or a macro.
struct AccessorRule {
  std::string function;                              // qualified name; empty for macro rules
  std::string macro;                                 // macro name; empty for function rules
  facts::ReadKind kind = facts::ReadKind::Accessor;  // Accessor or Shim
  std::string group;                                 // "" for collections
  facts::Yields yields = facts::Yields::Group;       // anything but State
  size_t pack = 0;    // index of the pack it came from, for its scope
  std::string spell;  // rewrite: this accessor's value from a group "{g}" (overrides the pack's)
  // rewrite.env: this accessor's value from the env "{env}" (overrides rewrite.env.methods);
  // the only spelling a `value` read has there.
  std::string env;
};

// How Thread adds a parameter: `type name`, holding one group (`group`) or a collection;
// callers in edge files (or main) pass `edge`.
struct ThreadRule {
  std::string type;
  std::string name;
  facts::Yields yields = facts::Yields::Group;  // Group or Collection (State: a global's)
  std::string group;     // for yields group: the group it holds ("world"); State: the state type
  bool pointer = false;  // `name->` (else `name.`) reaches a collection's fields
  std::string edge;      // the expression an edge caller passes (`MPI_COMM_WORLD`)
  std::string include;   // the header declaring `type`, added where a list changes
  // Where the parameter goes: before the first defaulted one (defaults keep trailing), or
  // last (the defaults before it are removed and spelled out at the calls that left them out).
  facts::ThreadPosition position = facts::ThreadPosition::BeforeDefaults;
  // `class ns::T`: declared instead of `include` in a header whose declaration (not a
  // definition) only takes the parameter by reference or pointer; "" = always include.
  std::string forwardDeclaration;
  bool env = false;  // the collection is rewrite.env's object: values are its methods
  // An edge function that passes `edge` at two or more calls declares it once, as a local of
  // the parameter's declaration before its first statement, and passes that: only for an
  // expression that gives the same object wherever it is evaluated (`GlobalEnv::Instance()`).
  bool hoist = false;
  // Store: a method Thread cannot change (virtual, an operator) takes the value from a member
  // of its class that every constructor initialises from the parameter; `member` names it
  // (default: the parameter's name and `_`). `store` false: such reads are left.
  bool store = true;
  std::string member;
};

// Mutable process-wide state: reads are global_state, writes global_write.
struct GlobalRule {
  std::string variable;  // qualified name
  std::string field;     // per-model metadata field that replaces it, if known
  std::string type;      // the state type holding `field`; "" = any type rule yielding state
  // The variable itself threaded as a parameter (`const MultiGpuConfig& multi_gpu_config`):
  // yields State, `group` the state type ("" any); empty type: not threaded.
  ThreadRule thread;
  size_t pack = 0;
};

// A function whose every reference writes global state (`setters`): a call of it is a write
// (global_write), counted and gated as every write. C++ names one `function` and the variable it
// `writes` (required); Python one function by dotted name (`python`), `writes` optional.
struct SetterRule {
  std::string function;  // C++: qualified name; "" for a Python rule
  std::string python;    // Python: dotted name; "" for a C++ rule
  std::string writes;    // the variable written (qualified or dotted), a global of the pack
  size_t pack = 0;
};

// Types that hold a group, a collection or per-model state (the metadata whose fields replace
// mutable globals): what a read could be replaced with.
struct TypeRule {
  std::string type;                             // qualified name (or a typedef such as MPI_Comm)
  facts::Yields yields = facts::Yields::Group;  // Group, Collection or State
  std::string group;  // the group a value of this type always holds ("world" for MPI_Comm)
  std::vector<std::string> groups;  // a collection's groups (its fields); empty: not said
  // A collection whose groups and derived values are reached through methods (rewrite.env),
  // not fields: a value of it is spelled with the env's method templates.
  bool env = false;
};

// Collapse: several reads of one function's groups become one lookup of the collection that
// holds them all, declared at the top of the body.
struct CollapseRule {
  std::string lookup;  // the expression that yields the collection (the shim call)
  std::string type = "const auto";
  std::string name;     // the local it is held in
  std::string include;  // the header declaring the collection
};

// An object that holds the groups behind methods (InfiniTrain's GlobalEnv), rewrite.env: each
// group's value, and values derived from it (size, rank), is a method template on `{env}`,
// written for a reference (`{env}.tensor_parallel_size()`; `{env}->` where the env in scope is
// a pointer). Implies a type rule (a collection of the methods' groups, `env`), a thread rule
// and a collapse rule, all spelled from `parameter` and `edge`.
struct EnvRule {
  std::string type;                // qualified class name; "" when the pack has no env
  std::string parameter;           // as written: "const GlobalEnv &env"
  std::string edge;                // what an edge passes: "GlobalEnv::Instance()"
  std::string include;             // the header declaring the type
  std::string forwardDeclaration;  // ThreadRule::forwardDeclaration for the env's parameter
  bool hoist = false;              // ThreadRule::hoist for the env's parameter
  bool store = true;               // ThreadRule::store and ::member for the env's parameter
  std::string member;
  std::map<std::string, std::map<facts::Yields, std::string>> methods;  // group -> value -> tmpl
};

// The rewrite keys of a pack (docs/rewrite.md). Spelling templates name the group expression
// `{g}`; a template written for a pointer (`{g}->size()`) is used with `.` when the group in
// scope is a reference or a value.
// `rewrite.python.specs`: how the code builds classes from module specs (Megatron's ModuleSpec),
// so that Require can find the constructions of a class a spec names (docs/rewrite.md, "Python",
// `require`). Names are dotted; the code is matched by their last name.
struct PythonSpecRule {
  std::vector<std::string> spec;        // the spec classes: `module=C` or the first argument
  std::vector<std::string> build;       // build(spec_or_class, *args, **kwargs) builds it
  std::vector<std::string> get;         // get(spec_or_class) returns the class itself
  std::vector<std::string> submodules;  // globs of the classes whose fields hold specs
  bool empty() const { return spec.empty() && build.empty(); }
};

// `rewrite.python.state`'s object form: the class that replaces a module of per-model state
// (its variables become the class's fields), and how the rewrite builds, passes and keeps an
// instance of it (docs/rewrite.md, "Python", `state`).
struct PythonStateRule {
  std::string cls;                            // dotted
  std::map<std::string, std::string> fields;  // field -> annotation; empty: `Any` each
  std::string place = "globals";              // globals or after_imports
  std::string attribute;                      // `self.<attribute>` (default: the parameter's name)
  std::string parameter;                 // a function's parameter (default: the attribute's name)
  std::string local;                     // the constructed local (default: the attribute's name)
  std::string build = "setters";         // setters or call
  std::string buildCall;                 // build.call: the constructor, dotted
  std::string buildConfig;               // build.config: the value it is called with
  std::vector<std::string> buildFields;  // build.fields: fields taken from their setters
  bool edgeDefault = false;              // edge_callers: "default" (else "refuse")
  bool retireDeprecate = false;          // retire: "deprecate" (else "remove")
  std::map<std::string, std::string> privateModules;  // module -> its private instance's name
};

// `rewrite.python`: how the Python rewriter spells what replaces a Python read (docs/rewrite.md,
// "Python"). Python has no declared types to say which value holds a group, so names do: a
// group is `group` with `{group}` the read's group (`tp_group`), a collection one of
// `collection` (`pg_collection`), whose attributes are the groups (`pg_collection.tp`).
struct PythonRewriteRule {
  std::vector<std::string> collection;
  std::string group;
  std::map<facts::Yields, std::string> spell;  // Size, Rank -> "{g}.size()"; Group is "{g}"
  // Module of per-model state -> the attribute of `self` holding this model's copy, whose
  // attributes have the module variables' names (`minimodel.tp_shard` -> `sharding`).
  std::map<std::string, std::string> state;
  // Group -> the collection's attribute holding it (`etp` -> `expt_tp`); when given, a group
  // it does not name has no attribute, so its reads are not taken from a collection. Empty:
  // the collection's attributes are the group names.
  std::map<std::string, std::string> attributes;
  // Keyword arguments of an accessor that only say how the global is looked up (Megatron's
  // check_initialized=False): a value in scope makes them moot, so a call passing nothing else
  // is replaced as a call without arguments.
  std::vector<std::string> droppedKeywords;
  // Group -> the keyword arguments of an accessor call (the dropped ones left out, written
  // "k=v, k=v" in keyword order, as keywordKey spells them) -> the collection's attribute
  // holding the group that call returns (Megatron's get_data_parallel_group(
  // with_context_parallel=True) -> `dp_cp_gtp_remat`, as use_mpu_process_groups fills it).
  std::map<std::string, std::map<std::string, std::string>> keywordAttributes;
  std::string error = "ValueError";  // what a dead fallback raises
  // Thread: module globs whose functions without a leading underscore are public API, and
  // whether such a function is refused (false) or given the parameter as a keyword with a
  // default of None, which keeps its old callers working (true).
  std::vector<std::string> publicModules;
  bool publicKeyword = false;
  bool store = true;  // a method Thread cannot change keeps the group on self (`self.tp_group`)
  // A call in an edge file that holds nothing passes the global its callee would read, written
  // out (edge_callers: "global"), instead of keeping the fallback or the graph open ("refuse").
  bool edgeGlobal = false;
  // Collapse: two or more reads in a def Thread cannot change become one lookup of the
  // collection (the pack's shim) and fields of it (docs/rewrite.md, "Python", `collapse`).
  bool collapse = false;
  // Groups whose size and rank accessors return a default where the group is unset (Megatron's
  // get_context_parallel_world_size() is 0 before torch.distributed is initialized): the
  // lookup's field is None there, so Collapse does not take such a read.
  std::vector<std::string> unsetDefaults;
  PythonSpecRule specs;  // none: a class named as a value keeps its fallback
  // `state`'s object form: module -> the class replacing its variables (docs/rewrite.md).
  // Parsed and validated; the rewrite does not act on it yet.
  std::map<std::string, PythonStateRule> stateObjects;
  bool empty() const { return group.empty() && collection.empty(); }
};

struct RewriteRules {
  std::map<facts::Yields, std::string> spell;  // Group, Size, Rank, SrcRank -> template
  std::string spellInclude;    // the header derived values need (the group's full type)
  std::string requireSpell;    // a dead fallback's replacement: {type} and {message}
  std::string requireInclude;  // the header that declares it, as written in #include
  ThreadRule thread;           // empty type: the pack does not thread
  CollapseRule collapse;       // empty lookup: the pack does not collapse
  EnvRule env;                 // empty type: the pack has no env object
  PythonRewriteRule python;    // empty: the pack does not rewrite Python
};

// Python rules (docs/scan.md "Python"): names are dotted, as Python qualifies them
// (`megatron.core.parallel_state.get_tensor_model_parallel_group`), after the Python frontend
// resolved imports, aliases and re-exports.
//
// A family of accessors: every function of `module` whose name starts with `prefix` and ends
// with one of `suffixes` (the longest that fits says what it yields), but those `except`
// names. Its group is the rule's `group`, else `groups[middle]` for the name between prefix
// and suffix (`tensor_model_parallel` -> tp), else that middle itself.
struct PythonFamily {
  std::string module;
  std::string prefix;
  std::map<std::string, facts::Yields> suffixes;
  std::vector<std::string> except;
  std::map<std::string, std::string> groups;
};

// A Python accessor or shim: one function or method by dotted name, or a family.
struct PythonAccessorRule {
  std::string name;                                  // "" for a family
  PythonFamily family;                               // module "" for a named one
  facts::ReadKind kind = facts::ReadKind::Accessor;  // Accessor or Shim
  std::string group;
  facts::Yields yields = facts::Yields::Group;
  size_t pack = 0;
  // A getter: the module variable it returns (dotted), which the rewrite spells as the state
  // instance's field.
  std::string returns;
  // The parameter that takes the state once it is an object: a call binding it to anything
  // but a literal None reads nothing (analysis/laundering.h).
  std::string stateParameter;
};

// Python module-level mutable state: one variable by dotted name, or every variable of
// `module` that a function of the module assigns under `global` (a setter's state), but the
// `except` names.
struct PythonGlobalRule {
  std::string variable;  // "" for a module's
  std::string module;
  std::vector<std::string> except;
  size_t pack = 0;
};

// How a pack counts Python reads (its top-level `python` key): every reference (a callback
// too, as in C++), or only calls; at most one read per file, line and name, as a checker
// that collects `line:name` strings in a set does; and whether a fallback of its rules
// launders reads into the callers that leave the group out (analysis/laundering.h).
struct PythonCounting {
  bool callsOnly = false;
  bool oncePerLine = false;
  bool launder = true;
};

struct RulePack {
  std::string name;
  std::string path;  // the file it was loaded from
  Scope scope;
  std::vector<AccessorRule> accessors;
  std::vector<GlobalRule> globals;
  std::vector<TypeRule> types;
  // Globs of headers whose declarations external code calls: changing a signature declared
  // there breaks callers gridlock cannot see.
  std::vector<std::string> publicHeaders;
  RewriteRules rewrite;  // its own keys, then those of the packs it extends
  std::vector<PythonAccessorRule> pythonAccessors;
  std::vector<PythonGlobalRule> pythonGlobals;
  std::vector<SetterRule> setters;  // C++ and Python alike
  PythonCounting python;            // for every Python rule it holds, those it extends included
};

class RuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses and validates one pack. Throws RuleError("FILE: /json/path: problem").
// `depth` counts `extends` nesting.
RulePack parseRulePack(const std::string& text, const std::string& path, int depth = 0);
RulePack loadRulePack(const std::string& path, int depth = 0);

}  // namespace gridlock::rules
