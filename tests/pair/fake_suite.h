// Tiny source trees whose "test suite" is data/fake_suite/run_tests.sh, for running pair for real.
#pragma once

#include "helpers.h"

#include <string>

namespace gridlock::pair::testing {

// Makes `dir` a tree: run_tests.sh plus tests.txt ("Suite.Name outcome" lines).
inline void makeTree(const std::string& dir, const std::string& testsTxt) {
  fs::create_directories(dir);
  fs::copy_file(dataDir() + "/fake_suite/run_tests.sh", dir + "/run_tests.sh",
                fs::copy_options::overwrite_existing);
  writeFile(dir + "/tests.txt", testsTxt);
}

inline const char* kSingleRank = "sh run_tests.sh";
// Two "ranks" the way mpirun would start them: each process sees its OMPI_COMM_WORLD_RANK.
inline const char* kTwoRanks =
    "for r in 0 1; do OMPI_COMM_WORLD_RANK=$r sh run_tests.sh || exit $?; done";

}  // namespace gridlock::pair::testing
