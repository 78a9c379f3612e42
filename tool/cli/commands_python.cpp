// The commands only the Python build (gridlock-python) has: none. It has no merge: a shard's
// facts file is the full build's (scan --shard/--facts-out is refused there too).
#include "cli/command.h"

namespace gridlock::cli {

void addBuildCommands(std::vector<Adder>&) {}

}  // namespace gridlock::cli
