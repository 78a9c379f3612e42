#include "frontend/remove_args.h"

#include "frontend/host_flags.h"
#include "support/strings.h"

#include <llvm/Support/Error.h>

#include <stdexcept>

namespace gridlock::frontend {

ArgRemover::ArgRemover(const std::vector<std::string>& patterns) {
  for (const auto& p : patterns) {
    if (p.empty()) throw std::invalid_argument("--remove-arg: an empty pattern removes nothing");
    auto entry = std::make_unique<Pattern>(Pattern{p, {}});
    auto glob = llvm::GlobPattern::create(entry->text);
    if (!glob)
      throw std::invalid_argument("--remove-arg '" + p +
                                  "': not a glob: " + llvm::toString(glob.takeError()));
    entry->glob = std::move(*glob);
    patterns_.push_back(std::move(entry));
  }
}

ArgRemover::Result ArgRemover::apply(const std::vector<std::string>& args) const {
  Result out;
  out.matched.assign(patterns_.size(), false);
  if (args.empty()) return out;
  out.args.push_back(args[0]);
  for (const DriverArg& a : driverArgs({args.begin() + 1, args.end()})) {
    bool removed = false;
    if (a.kind != DriverArg::Kind::Input) {
      for (size_t i = 0; i < patterns_.size(); ++i) {
        const Pattern& p = *patterns_[i];
        if (!p.glob.match(a.words.front()) && !p.glob.match(support::joinWords(a.words)) &&
            p.text != a.option)
          continue;
        if (!removed)
          out.notes.push_back("removed " + support::joinWords(a.words) + " (remove pattern '" +
                              p.text + "')");
        removed = true;
        out.matched[i] = true;
      }
    }
    if (!removed && a.kind == DriverArg::Kind::Unknown) {
      out.notes.push_back("dropped " + support::joinWords(a.words) + ": Clang does not know it");
      removed = true;
    }
    if (!removed) out.args.insert(out.args.end(), a.words.begin(), a.words.end());
  }
  return out;
}

}  // namespace gridlock::frontend
