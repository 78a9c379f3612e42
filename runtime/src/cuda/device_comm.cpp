#include "gridlock/device_comm.h"

#include "cuda_check.h"
#include "gridlock/grid.h"
#include "gridlock/process_group.h"

#include <algorithm>

namespace gridlock {

DeviceComm::~DeviceComm() {
  if (comm_) ncclCommDestroy(comm_);  // no throwing from a destructor; teardown is best effort
}

namespace {

std::shared_ptr<DeviceComm> bootstrap(const ProcessGroup& g) {
  ncclUniqueId id{};
  if (g.rank() == 0) detail::check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId", g.name());
  check_mpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, g.comm()), "MPI_Bcast", g.name());
  int dev = 0;
  detail::check_cuda(cudaGetDevice(&dev), "cudaGetDevice", g.name());
  ncclComm_t comm = nullptr;
  detail::check_nccl(ncclCommInitRank(&comm, g.size(), id, g.rank()), "ncclCommInitRank", g.name());
  return std::make_shared<DeviceComm>(comm, dev);
}

}  // namespace

DeviceComm& device_comm(const ProcessGroup& group) {
  return *group.device_comm([&] { return bootstrap(group); });
}

void derive_device_comms(const Grid& grid) {
  if (!grid.has_this_rank()) return;
  const ProcessGroup& root = *grid.root();
  DeviceComm& parent = device_comm(root);
  // Layout ranks count in the grid's parent, whose ranks the root holds from rank_offset on.
  int parent_rank_in_layout = root.rank() + grid.options().rank_offset;
  for (const auto& family : ProcessGroupCollection::field_names()) {
    const auto& groups = grid.layout().groups(family);
    int color = NCCL_SPLIT_NOCOLOR;
    for (std::size_t i = 0; i < groups.size(); ++i)
      if (std::find(groups[i].begin(), groups[i].end(), parent_rank_in_layout) != groups[i].end())
        color = static_cast<int>(i);
    std::shared_ptr<ProcessGroup> g = grid.group(family);
    ncclComm_t child = nullptr;
    detail::check_nccl(ncclCommSplit(parent.get(), color, g ? g->rank() : 0, &child, nullptr),
                       "ncclCommSplit", g ? g->name() : root.name() + "/" + family);
    if (g) g->set_device_comm(std::make_shared<DeviceComm>(child, parent.cuda_device()));
  }
}

}  // namespace gridlock
