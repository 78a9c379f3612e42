// A group of processes over its own MPI communicator, with an NCCL communicator attached on
// first device use. Every group is made from an explicit parent; nothing here reads a
// process-wide default.
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace gridlock {

class DeviceComm;  // NCCL state, defined by the CUDA library (gridlock/device_comm.h)

class ProcessGroup {
 public:
  // A root group over a duplicate of `comm` (the library talks on its own context and turns
  // MPI errors into exceptions without touching the caller's communicator). Collective over
  // `comm`. A root's members have global ranks equal to their ranks in it.
  static std::shared_ptr<ProcessGroup> from_comm(MPI_Comm comm, std::string name);

  // The sub-group of the listed members (ranks in this group, in the new group's rank order).
  // Collective over those members only (MPI_Comm_create_group); a caller that is not listed
  // gets nullptr without communicating.
  std::shared_ptr<ProcessGroup> subgroup(std::span<const int> members, std::string name) const;

  // MPI_Comm_split semantics, collective over this group; MPI_UNDEFINED color gives nullptr.
  std::shared_ptr<ProcessGroup> split(int color, int key, std::string name) const;

  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  const std::string& name() const { return name_; }
  int rank() const { return rank_; }
  int size() const { return static_cast<int>(ranks_.size()); }
  // Global ranks (ranks in the root group this one descends from), by group rank.
  const std::vector<int>& ranks() const { return ranks_; }
  int global_rank() const { return ranks_[rank_]; }
  int global_rank(int group_rank) const;
  // This group's rank of a global rank, or -1 for a non-member.
  int group_rank(int global_rank) const;
  MPI_Comm comm() const { return comm_; }
  // The group this one was made from; null for a root.
  const std::shared_ptr<const ProcessGroup>& parent() const { return parent_; }

  void barrier() const;

  // The NCCL communicator slot. `create` runs once, on first device use, and must be
  // collective over this group (the CUDA library bootstraps NCCL through MPI here).
  std::shared_ptr<DeviceComm> device_comm(
      const std::function<std::shared_ptr<DeviceComm>()>& create) const;
  std::shared_ptr<DeviceComm> device_comm_if_created() const;
  void set_device_comm(std::shared_ptr<DeviceComm> comm) const;

 private:
  ProcessGroup(MPI_Comm comm, std::string name, std::vector<int> ranks,
               std::shared_ptr<const ProcessGroup> parent);
  std::shared_ptr<ProcessGroup> adopt(MPI_Comm comm, std::string name) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::string name_;
  std::vector<int> ranks_;
  int rank_ = -1;
  std::shared_ptr<const ProcessGroup> parent_;
  std::weak_ptr<const ProcessGroup> self_;
  mutable std::mutex device_mutex_;
  mutable std::shared_ptr<DeviceComm> device_;
};

// Throws RuntimeError("MPI", call, group.name(), rc, ...) unless rc is MPI_SUCCESS.
void check_mpi(int rc, const char* call, const std::string& group);

}  // namespace gridlock
