// The closed vocabularies of the facts, as enums, with one spelling table each. Strings appear
// only where facts meet the outside: the JSON/SARIF/text reports and rule-pack parsing, which
// both go through spell() and parse() here, so a value is spelled the same everywhere.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gridlock::facts {

// What a read is (scan JSON `kind`: docs/contracts.md).
enum class ReadKind { Accessor, Shim, GlobalState, GlobalWrite, Laundered };

// Whether the read only runs when an explicit group is missing (`guard`).
enum class Guard { None, Fallback };

// What a test around a fallback asks of another parameter for the read to run (ParamTest):
// that it is None (null), not None, true or false.
enum class Expect { None, NotNone, True, False };

// What an accessor, a type or a parameter gives: a group, a value derived from one, a whole
// collection of groups, per-model state, or another value of the parallel layout that no group
// method gives (a flag, a rank computed from coordinates: `value`) (`yields`).
enum class Yields { Group, Size, Rank, SrcRank, Collection, State, Value };

// The frontend's hint for a read (FixHint): use what is in scope (Substitute), require the
// explicit argument (Require: a fallback), thread a parameter (Thread: nothing in scope), or
// nothing to do (None: an edge, a suppressed read). `Unset` is a write, which has none.
enum class Hint { Unset, None, Substitute, Require, Thread };

// A rewrite strategy (tool/rewrite/core/strategy.h), by name: the one whose edit removes a read
// (Verdict::applied), the one that makes an edit, the key of its tally in a plan.
// PerModelState counts as Substitute (it substitutes a field of the state in scope).
enum class Strategy { Substitute, Require, Thread, Store, Supply, Collapse };

// Why a rewrite plan leaves a read (Verdict::left): `Thread` is a read that needs a parameter
// no closure gave it (not done), `None` one there is nothing to do with (an edge, a suppressed
// read, an accessor's own definition), `Unset` a write; every other value is a refusal.
enum class Left {
  Unset,
  None,
  Thread,
  NoSource,
  OpenCallGraph,
  PublicApi,
  Macro,
  FunctionPointer,
  VirtualDispatch,
  Lambda,
  DefaultArgument,
  Initializer,
  NameClash,
  OpenFallback,
  EagerFallback,
  NoSpelling,
  CompileError,
};

// A C++ access specifier, as a class's last one is written (ClassBodyFact::endAccess); `None` when
// the class writes none.
enum class Access { None, Public, Protected, Private };

// How a call or construction reaches its callee (callers JSON `via`).
enum class Via {
  Direct,
  New,
  MakeUnique,
  MakeShared,
  Emplace,
  BaseInit,
  Delegating,
  Inherited,
  Aggregate,
  Call,
  Partial,  // Python: functools.partial(f, ...) binds f's arguments
};

// How a site binds one parameter (callers JSON `supplied`).
enum class Supplied { Explicit, Default, Null, Forwarded };

// How a Python site writes the argument for one parameter (callers JSON `passed`): positionally,
// by keyword, not at all, through `*args` or `**kwargs` (which may or may not carry it), as a
// key of a `**` dict built in sight (`**{"tp_group": g}`, `d["tp_group"] = g`), or twice
// (positionally and by keyword, a TypeError). C++ sites leave it Unknown.
enum class Passed {
  Unknown,
  Positional,
  Keyword,
  Omitted,
  StarArgs,
  StarKwargs,
  Twice,
  StarKwargsKey
};

// How a value holds what its type rule names: itself (a value, a reference, a handle such as
// MPI_Comm), through a raw pointer, a shared_ptr or a unique_ptr.
enum class Holder { Value, Pointer, Smart, Unique };

// A holder, possibly wrapped in std::optional (an optional takes what its element takes).
struct Shape {
  Holder holder = Holder::Value;
  bool optional = false;
  bool operator==(const Shape&) const = default;
};

// The language a read was found in (scan JSON `language`): each frontend sets its own.
enum class Language { Cpp, Python };

// Where Thread adds its parameter (rule packs' rewrite.thread.position).
enum class ThreadPosition { BeforeDefaults, Last };

template <typename E>
struct Spellings;  // specialised below: a table of {value, spelling}

#define GRIDLOCK_SPELLINGS(E, ...)                                           \
  template <>                                                                \
  struct Spellings<E> {                                                      \
    static constexpr std::pair<E, std::string_view> table[] = {__VA_ARGS__}; \
  }

GRIDLOCK_SPELLINGS(ReadKind, {ReadKind::Accessor, "accessor"}, {ReadKind::Shim, "shim"},
                   {ReadKind::GlobalState, "global_state"}, {ReadKind::GlobalWrite, "global_write"},
                   {ReadKind::Laundered, "laundered"});
GRIDLOCK_SPELLINGS(Guard, {Guard::None, "none"}, {Guard::Fallback, "fallback"});
GRIDLOCK_SPELLINGS(Expect, {Expect::None, "none"}, {Expect::NotNone, "not_none"},
                   {Expect::True, "true"}, {Expect::False, "false"});
GRIDLOCK_SPELLINGS(Yields, {Yields::Group, "group"}, {Yields::Size, "size"}, {Yields::Rank, "rank"},
                   {Yields::SrcRank, "src_rank"}, {Yields::Collection, "collection"},
                   {Yields::State, "state"}, {Yields::Value, "value"});
GRIDLOCK_SPELLINGS(Hint, {Hint::Unset, ""}, {Hint::None, "none"}, {Hint::Substitute, "substitute"},
                   {Hint::Require, "require"}, {Hint::Thread, "thread"});
GRIDLOCK_SPELLINGS(Strategy, {Strategy::Substitute, "substitute"}, {Strategy::Require, "require"},
                   {Strategy::Thread, "thread"}, {Strategy::Store, "store"},
                   {Strategy::Supply, "supply"}, {Strategy::Collapse, "collapse"});
GRIDLOCK_SPELLINGS(Left, {Left::Unset, ""}, {Left::None, "none"}, {Left::Thread, "thread"},
                   {Left::NoSource, "no_source"}, {Left::OpenCallGraph, "open_call_graph"},
                   {Left::PublicApi, "public_api"}, {Left::Macro, "macro"},
                   {Left::FunctionPointer, "function_pointer"},
                   {Left::VirtualDispatch, "virtual_dispatch"}, {Left::Lambda, "lambda"},
                   {Left::DefaultArgument, "default_argument"}, {Left::Initializer, "initializer"},
                   {Left::NameClash, "name_clash"}, {Left::OpenFallback, "open_fallback"},
                   {Left::EagerFallback, "eager_fallback"}, {Left::NoSpelling, "no_spelling"},
                   {Left::CompileError, "compile_error"});
GRIDLOCK_SPELLINGS(Access, {Access::None, ""}, {Access::Public, "public"},
                   {Access::Protected, "protected"}, {Access::Private, "private"});
GRIDLOCK_SPELLINGS(Via, {Via::Direct, "direct"}, {Via::New, "new"},
                   {Via::MakeUnique, "make_unique"}, {Via::MakeShared, "make_shared"},
                   {Via::Emplace, "emplace"}, {Via::BaseInit, "base_init"},
                   {Via::Delegating, "delegating"}, {Via::Inherited, "inherited"},
                   {Via::Aggregate, "aggregate"}, {Via::Call, "call"}, {Via::Partial, "partial"});
GRIDLOCK_SPELLINGS(Supplied, {Supplied::Explicit, "explicit"}, {Supplied::Default, "default"},
                   {Supplied::Null, "null"}, {Supplied::Forwarded, "forwarded"});
GRIDLOCK_SPELLINGS(Passed, {Passed::Unknown, "unknown"}, {Passed::Positional, "positional"},
                   {Passed::Keyword, "keyword"}, {Passed::Omitted, "omitted"},
                   {Passed::StarArgs, "*args"}, {Passed::StarKwargs, "**kwargs"},
                   {Passed::Twice, "twice"}, {Passed::StarKwargsKey, "**kwargs[key]"});
GRIDLOCK_SPELLINGS(Holder, {Holder::Value, "value"}, {Holder::Pointer, "pointer"},
                   {Holder::Smart, "smart"}, {Holder::Unique, "unique"});
GRIDLOCK_SPELLINGS(Language, {Language::Cpp, "cpp"}, {Language::Python, "python"});
GRIDLOCK_SPELLINGS(ThreadPosition, {ThreadPosition::BeforeDefaults, "before_defaults"},
                   {ThreadPosition::Last, "last"});

#undef GRIDLOCK_SPELLINGS

// The one spelling of `e`.
template <typename E>
constexpr std::string_view spell(E e) {
  for (const auto& [value, text] : Spellings<E>::table)
    if (value == e) return text;
  return "?";
}

template <typename E>
std::string str(E e) {
  return std::string(spell(e));
}

// The value spelled `text`, or nothing.
template <typename E>
constexpr std::optional<E> parse(std::string_view text) {
  for (const auto& [value, spelled] : Spellings<E>::table)
    if (spelled == text) return value;
  return std::nullopt;
}

// Every spelling of E, for error messages: "a", "b", "c".
template <typename E>
std::string spellingsOf() {
  std::string out;
  for (const auto& [value, text] : Spellings<E>::table) {
    if (text.empty()) continue;
    out += (out.empty() ? "\"" : ", \"") + std::string(text) + "\"";
  }
  return out;
}

// "value", "pointer", ..., "optional:smart": how shapes are spelled in facts and notes.
inline std::string str(Shape s) {
  return (s.optional ? "optional:" : "") + std::string(spell(s.holder));
}

// A read's derived values: a group's size, rank or source rank.
inline bool isDerived(Yields y) {
  return y == Yields::Size || y == Yields::Rank || y == Yields::SrcRank;
}

}  // namespace gridlock::facts
