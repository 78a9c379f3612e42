// Plain facts that the frontend emits and every later part reads. Nothing here knows Clang,
// so the index, analyses and reports are testable without compiling anything.
#pragma once

#include "facts/kinds.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::facts {

// "file:line:col", the way every report and detail names a place.
inline std::string where(const std::string& file, unsigned line, unsigned column) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// The frontend's fix hint for a read: use what is in scope (`source`), require the explicit
// argument (a fallback), thread a parameter (nothing in scope), or none (edges, suppressed).
struct FixHint {
  Hint fix = Hint::Unset;
  std::string source;         // what to substitute with, when fix is Substitute
  bool sourcePointer = true;  // `source` is a pointer or smart pointer (`->`), else a value
  bool sourceEnv = false;     // `source` is an env object (rewrite.env): values are its methods
};

// What analysis adds to a read (analysis/laundering): whether its fallback still runs, and for
// a laundered read, the global the helper reads.
struct ReadAnalysis {
  std::optional<bool> fallbackDead;        // every site supplies the argument
  std::vector<std::string> breakingSites;  // "file:line:col" of sites that omit it
  std::string launders;                    // laundered: the global read inside the helper
};

// A test on a parameter that a fallback's read runs under, besides its holder's
// (`if num_heads is not None:` around `if num_kv_heads is None: num_kv_heads = read`): a call
// whose argument for `param` is known to fail it cannot run the read.
struct ParamTest {
  int param = -1;  // index into the function's parameters
  Expect expect = Expect::NotNone;
  bool operator==(const ParamTest&) const = default;
};

// One reference to global group state at one source location: what the frontend saw, and what
// analysis adds. A rewrite plan's verdict on it is a Verdict of its own (verdict.h).
struct Read {
  std::string file;  // relative to --root when under it, else absolute
  unsigned line = 0;
  unsigned column = 0;
  std::string name;  // qualified accessor/variable, or the macro rule's name
  ReadKind kind = ReadKind::Accessor;
  std::string group;  // tp, pp, world, ... ("" for shims and global state)
  Yields yields = Yields::Group;
  std::string enclosing;       // qualified enclosing function (or variable); "" at file scope
  std::string enclosingClass;  // qualified enclosing class, "" when none
  std::string enclosingUsr;    // USR of the enclosing function (overloads stay apart)
  Guard guard = Guard::None;
  std::optional<std::string> macro;       // the macro whose expansion spells the read
  bool edge = false;                      // in a scope.edges file: listed, not counted
  std::optional<std::string> suppressed;  // reason of the allow comment covering it
  FixHint hint;
  // Identity beyond the reported position: where the read is spelled (inside a macro
  // definition it differs from line:column), so two reads of one expansion stay two.
  std::string spelling;
  Language language = Language::Cpp;  // the frontend that found it

  // The read expression in the file, for edits: the whole call `ns::get_group()` when the
  // accessor is called, the reference alone otherwise, the outermost macro invocation when
  // the read is spelled in a macro. Byte offset and length in `file`.
  unsigned offset = 0;
  unsigned length = 0;
  // The same bytes as lines and columns: where `offset` is (before line:column when a
  // qualifier or object comes first: `ps::get_tp()`), and the end, exclusive. 0 when unknown.
  unsigned rangeLine = 0, rangeColumn = 0, endLine = 0, endColumn = 0;
  std::string holder;  // for a fallback: the variable whose absence it tests ("pg")

  // For a fallback: the parameter whose absence makes the read run (USR of the function and
  // the parameter's index), when the guard tests a parameter. For a read inside a default
  // argument: that parameter. Calls that omit it launder the read (analysis/laundering).
  std::string guardFunction;
  int guardParam = -1;
  bool inDefaultArgument = false;
  // For a fallback: the other parameters' tests it runs under (guardFunction's parameters).
  std::vector<ParamTest> guardTests;

  // Where the read sits, for the rewriter (docs/rewrite.md).
  bool called = true;  // false: an accessor named but not called (&accessor, a callback)
  // Python: what is written before the rule's name (`mpu` of `mpu.get_x()`) names what defines
  // it, the module (or class) itself, not a module that re-exports the name: the file reaches
  // the module's other names through it too (an edge call given a global is spelled so).
  bool parentQualified = false;
  bool inLambda = false;       // inside a lambda body
  bool inInitializer = false;  // in a constructor's member or base initializer list
  bool eagerFallback = false;  // a fallback that is always evaluated (`pg.value_or(global())`)
  // The value read is changed where it is read: a non-const method is called on it
  // (`Env::Instance().Init(...)`), it is assigned to, or its address is taken as non-const. A
  // const parameter cannot stand for it. A global's read that may change it (`f(&cfg)`,
  // `cfg.reset()`) is still a read (global_state, counted), with this set; a write (assigned
  // only) is global_write, always with this set. JSON `mutates`.
  bool mutated = false;
  std::string type;  // the read expression's type, fully qualified
  // A called accessor's written arguments, as written ("" for one spelled in a macro): what
  // replaces the call must carry them (`{0}` in a spelling template).
  std::vector<std::string> arguments;

  ReadAnalysis analysis;
};

// A function or constructor declared in the scanned code, once per USR.
struct ParamFact {
  std::string name;
  std::string type;
  bool hasDefault = false;
  std::string defaultText;
};

struct FunctionFact {
  std::string usr;
  std::string name;      // qualified
  std::string classUsr;  // for members and constructors
  bool isConstructor = false;
  bool isVirtual = false;
  bool isStatic = false;     // a static member function: it has no object
  bool isPublicApi = false;  // declared in a header a pack names as public API
  std::vector<ParamFact> params;
  std::vector<std::string> overrides;  // USRs of the methods it overrides
  std::string file;
  unsigned line = 0;
};

struct ClassFact {
  std::string usr;
  std::string name;                // qualified; specializations of templates with their arguments
  std::vector<std::string> bases;  // USRs
  std::string file;
  unsigned line = 0;
};

// A class definition's body under the root, for the rewriter's Store (a member that keeps what
// the constructors are given); collected with the rewrite facts (frontend/rewrite_collector.h).
struct ClassBodyFact {
  std::string usr;   // the class's
  std::string file;  // where it is defined
  // Where a member is inserted: the start of the line of the closing brace, or the brace itself
  // when code precedes it; 0 when the head or the brace is spelled in a macro.
  unsigned memberAt = 0;
  bool memberOwnLine = false;       // memberAt starts a line
  std::string memberIndent;         // the whitespace before its last member that starts a line
  std::string accessIndent;         // before its last access specifier (else its head's line)
  Access endAccess = Access::None;  // its last access specifier
  bool isTemplate = false;          // a template, a specialization or a member of one
  bool userCopy = false;            // a copy or move constructor with a body of its own
  std::vector<std::string> constructors;  // USRs of those it declares, copies and moves aside
  std::vector<std::string> memberNames;   // the names it declares (fields, methods, types)
};

// How one call or construction binds one parameter of its callee.
struct ArgFact {
  Supplied supplied = Supplied::Explicit;
  int forwardedFrom = -1;           // the caller's parameter index, when forwarded
  Passed passed = Passed::Unknown;  // how a Python site writes it
  // Python: a second parameter of the caller that may carry it instead (a call passing on both
  // `*args` and `**kwargs`): the argument is left out only when both leave it out.
  int forwardedAlso = -1;
  // The written argument's bytes in the site's file (length 0: not written, or in a macro),
  // and where an argument inserted before it goes (before the comments that lead it).
  unsigned offset = 0;
  unsigned length = 0;
  unsigned insertAt = 0;
  // For a parameter whose type holds a group or collection (a type rule): what it yields and
  // how it holds it, so a source can be adapted to it.
  std::optional<Yields> yields;
  Shape shape;
};

// A value in scope at a site that holds a group or a collection (a parameter, a local declared
// before the site, a field of the enclosing class or a base): what a site that leaves a group
// out could pass instead.
struct SourceFact {
  std::string spelling;           // "groups", "this->tp_group_"
  Yields yields = Yields::Group;  // Group, Collection or State
  std::string group;  // the group its type rule names, "" when the type does not say; State:
                      // the state type
  std::string name;   // the declaration's name, for "tp_group" -> tp
  Shape shape;
  std::vector<std::string> fields;  // a collection's groups, when its type rule lists them
  bool env = false;  // an env object (rewrite.env): its groups are methods, not fields
};

// A call or construction that reaches a function or constructor.
struct SiteFact {
  std::string calleeUsr;  // the function or constructor reached (inherited: the base one)
  std::string callerUsr;  // enclosing function, "" at file scope
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  Via via = Via::Call;
  std::string classUsr;       // the class constructed (constructions), "" for calls
  std::vector<ArgFact> args;  // one per callee parameter
  // Where arguments are written: the closing parenthesis of the argument list (0: none, as
  // for an implicit base initializer), how many are written, whether it is spelled in a macro.
  unsigned rparen = 0;
  unsigned written = 0;
  bool inMacro = false;
  // Groups and collections in scope at the site (none from fields in an initializer list).
  std::vector<SourceFact> sources;
  // Python: one of several functions the call may reach (a name bound to either of two
  // classes): a site of each, and laundering counts the call once.
  bool alternative = false;
};

// Python: a class or function handed on as a value where the scan does not follow it (passed,
// stored, in a display handed on, returned by a function whose result is handed on): what
// calls it from there is no site, so `callers` says its list may be incomplete and names each
// such place. Values followed (an alias, a name bound to a call's result or to a display,
// then called) are sites instead.
struct ValueFact {
  std::string usr;  // the class or function named; with `result`, the function called
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string how;  // "passed as an argument", "stored in self.layer", ...
  // Not handed on here but returned by this function (its USR): handed on where its result is.
  std::string returnedBy;
  bool result = false;  // the result of a call of `usr` is handed on here
};

// A `// gridlock: allow` comment that cannot be honoured (no reason given).
struct BadSuppression {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;  // where the comment starts (1-based, in bytes)
  std::string text;
  std::string problem;  // why it is ignored (frontend/suppressions.h)
};

// An allow comment of a file a unit read (frontend/suppressions.h), and whether a read of that
// unit falls under it. The index joins the units' (a header's allow covers a read when some
// unit's read falls under it); one that covers none is reported, as ruff's RUF100 reports an
// unused noqa.
struct AllowFact {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;  // where the comment starts (1-based, in bytes)
  std::string text;
  bool covers = false;    // a read of this unit falls under it
  bool mainFile = false;  // in the unit's main file (a Python module: always)
};

struct ParseError {
  std::string file;                   // the translation unit's main file
  std::vector<std::string> messages;  // its first errors, "file:line:col: error: ..."
  // Every file those errors are in, and the files that include them up to the main file
  // (root-relative when under the root): where a rewrite that broke the TU may have edited.
  std::vector<std::string> files;
};

// Where one declaration of a function can take another parameter (the rewriter's Thread):
// its parameter list's parentheses, as byte offsets in `file`.
struct ParamListFact {
  std::string usr;
  std::string file;
  unsigned lparen = 0;
  unsigned rparen = 0;
  unsigned written = 0;               // parameters written (0 for `()` and `(void)`)
  std::vector<unsigned> paramBegins;  // where each written parameter starts
  // Per written parameter, the bytes of ` = default` where this declaration writes one
  // (both 0 where it does not).
  std::vector<std::pair<unsigned, unsigned>> defaults;
  // A definition's body (the rewriter's Collapse): where its first statement starts (0: no
  // body, or an empty one), the whitespace before it on its line ("" when the statement does
  // not start its line), and the names its locals take.
  unsigned bodyFirst = 0;
  std::string bodyIndent;
  bool bodyIndented = false;
  std::vector<std::string> bodyNames;
  bool definition = false;  // this declaration has the body
  // A constructor's definition (the rewriter's Store): where a member initializer is added,
  // after the last one written (`initAfter`) or, with none, after the declarator, before the
  // body's brace (then ` : ` leads it); 0: no body, or its initializers are in a macro.
  unsigned initAt = 0;
  bool initAfter = false;
  bool delegating = false;  // its initializer names another constructor of the class
  bool isTemplate = false;  // a template or a member of one
  bool inMacro = false;     // the list is spelled in a macro
  // The names this declaration's own file brings into scope before it, at file scope or in a
  // namespace around it, as {name, what it names}: namespace aliases
  // (`namespace nn = infini_train::nn;`: {"nn", "infini_train::nn"}), using-declarations of a
  // type or namespace (`using a::T;`: {"T", "a::T"}) and using-directives
  // (`using namespace a;`: {"", "a"}). A type the rewriter writes here may go through them, as
  // the file's own code does.
  std::vector<std::pair<std::string, std::string>> aliases;
};

// A direct call of a function declared under the root, parameters or not, with the
// parentheses of its argument list (the rewriter's Thread).
struct CallFact {
  std::string calleeUsr;
  std::string callerUsr;  // "" at file scope
  std::string file;
  unsigned line = 0, column = 0;
  unsigned rparen = 0;
  unsigned written = 0;  // arguments written at the call
  bool inMacro = false;
  bool inLambda = false;  // inside a lambda: the caller's parameters are not in scope
  // Where each written argument starts, before the comments that lead it (`/*seq=*/seq`):
  // an argument inserted before it goes there.
  std::vector<unsigned> argBegins;
  std::vector<SourceFact> sources;  // groups and collections in scope at the call
};

// A call in a template whose callee depends on the template's parameters (`f(x)` with `x` of a
// parameter type): the build only resolves it where the template is instantiated. The
// rewriter's Thread checks that an instantiation showed it as a CallFact at the same place.
struct DependentCallFact {
  std::string name;  // the callee's simple name
  std::string file;
  unsigned line = 0;
  unsigned rparen = 0;
};

// An identifier in a preprocessor branch one unit skips (`#if 0`, `#ifndef TESTING` with
// TESTING defined), under the root: a function named there may have calls this unit never
// shows. Whether another unit compiles that place is the index's to decide.
struct SkippedName {
  std::string name;
  std::string file;
  unsigned line = 0;
  unsigned offset = 0;
};

// One branch of a preprocessor conditional in a file under the root, as the unit's build
// took or skipped it: from its directive to the next one of the same conditional. Reads in
// it are compiled only where its condition holds (the rewriter's Thread).
struct ConditionalFact {
  std::string file;
  unsigned begin = 0;  // offset of the branch's directive
  unsigned end = 0;    // offset of the next #elif, #else or #endif
  unsigned line = 0;   // the directive's line
  // The condition as written: the directive's line (`#ifdef USE_MPI`); an #else or #elif
  // branch adds the #if it follows (`#else of #ifdef USE_MPI`).
  std::string condition;
};

// Everything one translation unit contributed.
struct TuFacts {
  std::string mainFile;
  std::vector<Read> reads;
  std::vector<BadSuppression> badSuppressions;
  // The well-formed allows of the files of the packs' scope it read (those naming a name no
  // pack knows are bad suppressions instead).
  std::vector<AllowFact> allows;
  std::optional<ParseError> parseError;
  std::vector<std::string> notes;  // e.g. which nvcc flags were translated or dropped
  // Fallback and default-argument reads in files no pack scans (an exempt helper): not
  // listed, but their parameters launder reads into the helper's callers.
  std::vector<Read> exemptReads;
  // MD5 of each file a read was found in, so an edit can refuse a file changed since.
  std::map<std::string, std::string> digests;
  std::vector<FunctionFact> functions;
  std::vector<ClassFact> classes;
  std::vector<SiteFact> sites;
  std::vector<ValueFact> values;  // Python: classes and functions handed on as values
  // The rewrite facts (FrontendOptions::rewriteFacts; none in a plain scan).
  std::vector<ParamListFact> paramLists;
  std::vector<CallFact> calls;
  std::vector<std::string> addressTaken;  // USRs of functions named other than to call them
  std::vector<DependentCallFact> dependentCalls;
  // Every identifier in the preprocessor branches this unit skips, under the root.
  std::vector<SkippedName> skipped;
  std::vector<ConditionalFact> conditionals;  // rewrite facts only
  std::vector<ClassBodyFact> classBodies;     // rewrite facts only
  // The files under the root this unit includes, directly or not (root-relative, sorted, the
  // main file left out): which units a header selects, and which files a gate covers.
  std::vector<std::string> includes;
  // The rules this unit declares (saw a declaration, or for a macro a definition, of), spelled
  // as rules::RuleSet::seenKey, sorted: a rule no unit declares matched nothing.
  std::vector<std::string> rulesSeen;
};

}  // namespace gridlock::facts
