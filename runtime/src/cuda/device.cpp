#include "gridlock/device.h"

#include "cuda_check.h"
#include "gridlock/process_group.h"

namespace gridlock::device {

bool built_with_cuda() { return true; }

int count() {
  int n = 0;
  // No driver gives an error (35 here), not zero devices: both mean "none usable".
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so later calls report their own
    return 0;
  }
  return n;
}

bool available() { return count() > 0; }

std::string unavailable_reason() {
  int n = 0;
  cudaError_t rc = cudaGetDeviceCount(&n);
  if (rc != cudaSuccess) {
    cudaGetLastError();
    return std::string("no usable CUDA device: cudaGetDeviceCount failed with ") +
           cudaGetErrorName(rc) + " (" + std::to_string(static_cast<int>(rc)) +
           "): " + cudaGetErrorString(rc);
  }
  if (n == 0) return "no CUDA device: cudaGetDeviceCount returned 0";
  return "";
}

int select_for(const ProcessGroup& group) {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(
      MPI_Comm_split_type(group.comm(), MPI_COMM_TYPE_SHARED, group.rank(), MPI_INFO_NULL, &node),
      "MPI_Comm_split_type", group.name());
  int local = 0;
  int rc = MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  check_mpi(rc, "MPI_Comm_rank", group.name());
  int n = count();
  if (n == 0) throw std::runtime_error(unavailable_reason());
  int dev = local % n;
  detail::check_cuda(cudaSetDevice(dev), "cudaSetDevice", group.name());
  return dev;
}

}  // namespace gridlock::device
