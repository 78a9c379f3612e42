// The test entry point's world group: the one place tests take MPI_COMM_WORLD, and hand it on.
#pragma once

#include "gridlock/process_group.h"

#include <memory>

namespace gridlock::test {

inline std::shared_ptr<ProcessGroup> world() {
  static std::shared_ptr<ProcessGroup> w = ProcessGroup::from_comm(MPI_COMM_WORLD, "world");
  return w;
}

}  // namespace gridlock::test
