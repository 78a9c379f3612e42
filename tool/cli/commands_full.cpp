// The commands only the full build (gridlock) has: merge, which reads the shards' and the
// Clang plugin's facts files (pipeline/facts_file.h, linked with the C++ facts cache).
#include "cli/command.h"

namespace gridlock::cli {

void addBuildCommands(std::vector<Adder>& adders) { adders.push_back(addMergeCommand); }

}  // namespace gridlock::cli
