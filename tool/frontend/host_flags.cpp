#include "frontend/host_flags.h"

#include <clang/Driver/Options.h>
#include <llvm/Option/Arg.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>

namespace gridlock::frontend {

std::vector<DriverArg> driverArgs(const std::vector<std::string>& words) {
  std::vector<const char*> argv;
  for (const auto& w : words) argv.push_back(w.c_str());
  unsigned missingIndex = 0, missingCount = 0;
  llvm::opt::InputArgList list = clang::driver::getDriverOptTable().ParseArgs(
      argv, missingIndex, missingCount, llvm::opt::Visibility(clang::driver::options::ClangOption));
  // An Arg spans the words from its index to the next one's: `-include foo.h` stays whole.
  std::vector<const llvm::opt::Arg*> args(list.begin(), list.end());
  std::vector<DriverArg> out;
  for (size_t k = 0; k < args.size(); ++k) {
    unsigned begin = args[k]->getIndex();
    unsigned end = k + 1 < args.size() ? args[k + 1]->getIndex() : unsigned(words.size());
    if (missingCount && end > missingIndex) end = missingIndex;
    if (begin >= end) continue;
    const llvm::opt::Option& o = args[k]->getOption();
    DriverArg a{DriverArg::Kind::Flag, {words.begin() + begin, words.begin() + end}, ""};
    if (o.getKind() == llvm::opt::Option::InputClass)
      a.kind = DriverArg::Kind::Input;
    else if (o.getKind() == llvm::opt::Option::UnknownClass)
      a.kind = DriverArg::Kind::Unknown;
    else
      a.option = o.getPrefixedName().str();
    out.push_back(std::move(a));
  }
  // The last flag's value is missing: Clang would stop at it.
  if (missingCount)
    out.push_back({DriverArg::Kind::Unknown, {words.begin() + missingIndex, words.end()}, ""});
  return out;
}

HostFlags checkHostFlags(const std::vector<std::string>& words) {
  HostFlags out;
  for (const DriverArg& a : driverArgs(words)) {
    std::vector<std::string>& to = a.kind == DriverArg::Kind::Input     ? out.inputs
                                   : a.kind == DriverArg::Kind::Unknown ? out.unknown
                                                                        : out.kept;
    to.insert(to.end(), a.words.begin(), a.words.end());
  }
  return out;
}

}  // namespace gridlock::frontend
