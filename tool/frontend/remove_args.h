// What the scan leaves out of a compile database's command before Clang parses it: arguments
// the user removes (--remove-arg, "remove_args" in .gridlock.json: globs, as clangd's
// `CompileFlags: Remove`), and flags Clang's driver does not know (GCC's
// -ftree-vectorizer-verbose=2), at which Clang would stop the parse. Each is said in a note.
#pragma once

#include <llvm/Support/GlobPattern.h>

#include <memory>
#include <string>
#include <vector>

namespace gridlock::frontend {

class ArgRemover {
 public:
  // Throws std::invalid_argument naming a pattern that is no glob (`[a`).
  explicit ArgRemover(const std::vector<std::string>& patterns);

  struct Result {
    std::vector<std::string> args;
    std::vector<std::string> notes;
    std::vector<bool> matched;  // per pattern: it removed something here
  };
  // `args[0]` (the compiler) and the inputs are kept. A pattern matches a flag when it matches
  // its first word (`-fplugin=*`), its words joined by a space (`-include *`), or is its name
  // (`-D` for `-DX` and `-D X`); the flag goes with its values.
  Result apply(const std::vector<std::string>& args) const;

  size_t size() const { return patterns_.size(); }
  const std::string& pattern(size_t i) const { return patterns_[i]->text; }

 private:
  struct Pattern {
    std::string text;
    llvm::GlobPattern glob;  // refers to `text`: a Pattern never moves (unique_ptr)
  };
  std::vector<std::unique_ptr<Pattern>> patterns_;
};

}  // namespace gridlock::frontend
