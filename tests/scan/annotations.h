// Ground truth kept beside fixture code, the way clang-tidy's tests keep CHECK-MESSAGES:
//   code();  // expect-read: KIND [GROUP] [guard=fallback] [macro=M] [fix=F] [edge] [suppressed]
//   [mutates] [xN]   (mutates: a read that may also change what it reads, `f(&global)`)
//   // expect-read@+2: ...   (the annotation is for the line two below)
//   Foo f(1);  // expect-site: via=V supplied=S [class=C] [from=F]   (one `callers` query)
//   register(Col)  # expect-escape: VALUE HOW   (a place `callers` says a value escapes:
//   the class or function's name, then how, as the query's escapes spell them)
// Every read the scanner reports must be annotated and every annotation reported. An
// annotation ends at the next `//`, so a line can carry a site and a read. In Python files
// (.py) annotations are `#` comments (`# expect-read: accessor tp fix=thread`) and end at the
// next `#`.
#pragma once

#include "analysis/callers.h"
#include "facts/facts.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::test {

using LineKey = std::pair<std::string, unsigned>;  // root-relative file, line
using Expectations = std::map<LineKey, std::multiset<std::string>>;

// The canonical text of a read, as annotations spell it.
std::string canonical(const facts::Read& r);
std::string canonical(const analysis::CallerSite& s);
// What was scanned, keyed and spelled as annotations are: each read (or site) at its file and
// line, to compare with parseAnnotations.
Expectations expectationsOf(const std::vector<facts::Read>& reads);
Expectations expectationsOf(const std::vector<analysis::CallerSite>& sites);
Expectations expectationsOf(const std::vector<analysis::Escape>& escapes);
// What an annotation's fix= names: the scan's hint, or (Move, fixtures/pymodel) the move the
// migration makes there, which the Python scan hints as `require` (require), `none` (none) or
// `thread` (substitute, thread, store: the scan hints thread wherever no fallback is).
enum class FixWords { Hint, Move };
// Annotations (`expect-read`, a site tag such as `expect-site`, or an escape tag: one that
// ends in `-escape`) of every .cpp/.h/.cu/.py file under `root`; throws on a malformed one.
Expectations parseAnnotations(const std::string& root, const std::string& tag = "expect-read",
                              FixWords fixWords = FixWords::Hint);
// The line of `file` (under `root`) that holds `marker`, which must appear exactly once: how a
// test names a read without hard-coding a line number. Throws when it is absent or repeated.
unsigned lineOf(const std::string& root, const std::string& file, const std::string& marker);
// Human-readable differences ("" when equal).
std::string diff(const Expectations& expected, const Expectations& actual);

}  // namespace gridlock::test
