// A real GoogleTest binary for the mpirun flow test: behaves per rank, steered by marker files
// in its working directory (the tree), so baseline and change differ only in those files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

int rank() {
  const char* r = std::getenv("OMPI_COMM_WORLD_RANK");
  return r ? std::atoi(r) : 0;
}

bool marker(const char* name) { return std::filesystem::exists(name); }

TEST(Mpi, Same) { EXPECT_EQ(1 + 1, 2); }

TEST(Mpi, BreaksOnRank1) {
  if (marker("break") && rank() == 1) FAIL() << "Attention requires an explicit pg_collection";
}

TEST(Mpi, CrashesOnRank1) {
  if (marker("crash") && rank() == 1) std::abort();
}

}  // namespace
