// `gridlock: allow` comments of one file and which reads they cover (docs/suppressions.md).
// Plain text, no Clang: a small lexer finds the comments (`//` and `/* */`), stepping over
// string, character and raw string literals, so an allow inside a string is no allow.
//
//   x = get_tp();  // gridlock: allow(reason)          this line
//   // gridlock: allow(reason)                         alone: the next line (or statement) too
//   // gridlock: allow-next-line(reason)               the next line (or statement) only
//   // gridlock: allow-begin(reason) ... // gridlock: allow-end     the lines between
//   // gridlock: allow-file(reason)                    the whole file
//   // gridlock: allow(tp, MPI_COMM_WORLD: reason)     only reads of these groups or names
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::frontend {

struct AllowComment {
  enum class Form { Line, NextLine, Block, File };
  Form form = Form::Line;
  unsigned line = 0;               // where the comment starts
  unsigned column = 0;             // ... and its column (1-based, in bytes)
  unsigned endLine = 0;            // where it ends (a block comment may span lines)
  unsigned blockEnd = 0;           // Block: the line of its allow-end
  bool alone = false;              // nothing but blanks before it on its line
  std::vector<std::string> names;  // what it is limited to; empty: every read
  std::string reason;
  std::string text;  // the comment as written
};

struct BadAllow {
  unsigned line = 0, column = 0;  // where the comment starts (column 1-based, in bytes)
  std::string text;               // the comment as written
  std::string problem;            // why it is ignored
};

struct FileSuppressions {
  std::vector<AllowComment> allows;
  std::vector<BadAllow> bad;
};

// The allows of a C++ file's text (its `//` and `/* */` comments).
FileSuppressions findSuppressions(std::string_view text);

// One comment as a frontend found it (a Python `#` comment from its syntax tree).
struct SourceComment {
  unsigned line = 0, column = 0, endLine = 0;  // column: 1-based, of the comment marker
  bool alone = false;                          // nothing but blanks before it on its line
  std::string_view text;                       // with its comment marker
};

// The allows of the given comments, in file order.
FileSuppressions suppressionsOf(const std::vector<SourceComment>& comments);

// What a read is, for an allow that names something: its group and its rule's name (the
// last component of a qualified name also names it).
struct ReadName {
  std::string group;
  std::string name;
};

bool allowNames(const AllowComment& a, const ReadName& r);

// The allow covering a read on `line` of a statement that starts on `statementLine` (the same
// line for a one-line statement), or null. The nearest wins: the read's line, the line above
// it, the statement's first line and the line above that, then the innermost block, then the
// file. An allow that names something covers only reads it names.
const AllowComment* coveringAllow(const FileSuppressions& s, unsigned line, unsigned statementLine,
                                  const ReadName& r);

}  // namespace gridlock::frontend
