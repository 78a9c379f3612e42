#include "frontend/host_flags.h"

#include <clang/Driver/Options.h>
#include <llvm/Option/Arg.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>

namespace gridlock::frontend {

HostFlags checkHostFlags(const std::vector<std::string>& words) {
  HostFlags out;
  std::vector<const char*> argv;
  for (const auto& w : words) argv.push_back(w.c_str());
  unsigned missingIndex = 0, missingCount = 0;
  llvm::opt::InputArgList list = clang::driver::getDriverOptTable().ParseArgs(
      argv, missingIndex, missingCount, llvm::opt::Visibility(clang::driver::options::ClangOption));
  // An Arg spans the words from its index to the next one's: `-include foo.h` stays whole.
  std::vector<const llvm::opt::Arg*> args(list.begin(), list.end());
  for (size_t k = 0; k < args.size(); ++k) {
    unsigned begin = args[k]->getIndex();
    unsigned end = k + 1 < args.size() ? args[k + 1]->getIndex() : unsigned(words.size());
    if (missingCount && end > missingIndex) end = missingIndex;
    std::vector<std::string>& to =
        args[k]->getOption().getKind() == llvm::opt::Option::InputClass     ? out.inputs
        : args[k]->getOption().getKind() == llvm::opt::Option::UnknownClass ? out.unknown
                                                                            : out.kept;
    to.insert(to.end(), words.begin() + begin, words.begin() + end);
  }
  // The last flag's value is missing: Clang would stop at it.
  if (missingCount)
    out.unknown.insert(out.unknown.end(), words.begin() + missingIndex, words.end());
  return out;
}

}  // namespace gridlock::frontend
