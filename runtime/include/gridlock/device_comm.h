// The NCCL communicator a ProcessGroup carries for device work (CUDA library only). No NCCL
// header here: ncclComm_t is declared exactly as nccl.h does.
#pragma once

#include <memory>

typedef struct ncclComm* ncclComm_t;

namespace gridlock {

class Grid;
class ProcessGroup;

class DeviceComm {
 public:
  explicit DeviceComm(ncclComm_t comm, int cuda_device) : comm_(comm), device_(cuda_device) {}
  ~DeviceComm();
  DeviceComm(const DeviceComm&) = delete;
  DeviceComm& operator=(const DeviceComm&) = delete;
  ncclComm_t get() const { return comm_; }
  int cuda_device() const { return device_; }

 private:
  ncclComm_t comm_;
  int device_;
};

// The group's communicator, created on first use: rank 0 makes an ncclUniqueId, MPI broadcasts
// it over the group, every member calls ncclCommInitRank. Collective over `group` the first
// time, on the current CUDA device.
DeviceComm& device_comm(const ProcessGroup& group);

// Derives the communicators of all of the grid's groups from the grid root's with
// ncclCommSplit (one split per group family, every group a child of an explicit parent).
// Collective over grid.root(); a no-op on ranks outside the grid.
void derive_device_comms(const Grid& grid);

}  // namespace gridlock
