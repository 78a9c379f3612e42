#include "gridlock/process_group.h"

#include "gridlock/error.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace gridlock {
namespace {

bool mpi_finalized() {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

// MPI_Comm_create_group tags only need to keep concurrent creations apart; a hash of the name
// does, within MPI's guaranteed tag range.
int tag_for(const std::string& name) {
  return static_cast<int>(std::hash<std::string>{}(name) % 32767);
}

}  // namespace

ProcessGroup::ProcessGroup(MPI_Comm comm, std::string name, std::vector<int> ranks,
                           std::shared_ptr<const ProcessGroup> parent)
    : comm_(comm), name_(std::move(name)), ranks_(std::move(ranks)), parent_(std::move(parent)) {
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank", name_);
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", name_);
}

ProcessGroup::~ProcessGroup() {
  device_.reset();  // NCCL before MPI: its teardown may still talk
  if (comm_ != MPI_COMM_NULL && !mpi_finalized()) MPI_Comm_free(&comm_);
}

std::shared_ptr<ProcessGroup> ProcessGroup::from_comm(MPI_Comm comm, std::string name) {
  MPI_Comm dup = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup", name);
  int size = 0;
  check_mpi(MPI_Comm_size(dup, &size), "MPI_Comm_size", name);
  std::vector<int> ranks(size);
  for (int i = 0; i < size; ++i) ranks[i] = i;
  std::shared_ptr<ProcessGroup> g(new ProcessGroup(dup, std::move(name), std::move(ranks), {}));
  g->self_ = g;
  return g;
}

std::shared_ptr<ProcessGroup> ProcessGroup::adopt(MPI_Comm comm, std::string name) const {
  if (comm == MPI_COMM_NULL) return nullptr;
  // Global ranks of the new members, learned from the members themselves.
  int size = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size", name);
  std::vector<int> ranks(size);
  int mine = global_rank();
  check_mpi(MPI_Allgather(&mine, 1, MPI_INT, ranks.data(), 1, MPI_INT, comm), "MPI_Allgather",
            name);
  auto parent = self_.lock();
  if (!parent) throw std::logic_error("ProcessGroup '" + name_ + "' is not owned by a shared_ptr");
  std::shared_ptr<ProcessGroup> g(
      new ProcessGroup(comm, std::move(name), std::move(ranks), parent));
  g->self_ = g;
  return g;
}

std::shared_ptr<ProcessGroup> ProcessGroup::subgroup(std::span<const int> members,
                                                     std::string name) const {
  for (int m : members)
    if (m < 0 || m >= size())
      throw std::invalid_argument("subgroup '" + name + "' lists rank " + std::to_string(m) +
                                  ", outside group '" + name_ + "' of size " +
                                  std::to_string(size()));
  if (std::find(members.begin(), members.end(), rank_) == members.end()) return nullptr;
  MPI_Group whole = MPI_GROUP_NULL, part = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(comm_, &whole), "MPI_Comm_group", name_);
  int rc = MPI_Group_incl(whole, static_cast<int>(members.size()), members.data(), &part);
  MPI_Group_free(&whole);
  check_mpi(rc, "MPI_Group_incl", name);
  MPI_Comm comm = MPI_COMM_NULL;
  rc = MPI_Comm_create_group(comm_, part, tag_for(name), &comm);
  MPI_Group_free(&part);
  check_mpi(rc, "MPI_Comm_create_group", name);
  return adopt(comm, std::move(name));
}

std::shared_ptr<ProcessGroup> ProcessGroup::split(int color, int key, std::string name) const {
  MPI_Comm comm = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(comm_, color, key, &comm), "MPI_Comm_split", name_);
  return adopt(comm, std::move(name));
}

int ProcessGroup::global_rank(int group_rank) const {
  if (group_rank < 0 || group_rank >= size())
    throw std::out_of_range("rank " + std::to_string(group_rank) + " is outside group '" + name_ +
                            "' of size " + std::to_string(size()));
  return ranks_[group_rank];
}

int ProcessGroup::group_rank(int global) const {
  auto it = std::find(ranks_.begin(), ranks_.end(), global);
  return it == ranks_.end() ? -1 : static_cast<int>(it - ranks_.begin());
}

void ProcessGroup::barrier() const { check_mpi(MPI_Barrier(comm_), "MPI_Barrier", name_); }

std::shared_ptr<DeviceComm> ProcessGroup::device_comm(
    const std::function<std::shared_ptr<DeviceComm>()>& create) const {
  std::lock_guard lock(device_mutex_);
  if (!device_) device_ = create();
  return device_;
}

std::shared_ptr<DeviceComm> ProcessGroup::device_comm_if_created() const {
  std::lock_guard lock(device_mutex_);
  return device_;
}

void ProcessGroup::set_device_comm(std::shared_ptr<DeviceComm> comm) const {
  std::lock_guard lock(device_mutex_);
  device_ = std::move(comm);
}

}  // namespace gridlock
