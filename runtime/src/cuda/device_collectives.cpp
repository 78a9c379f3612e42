#include "gridlock/device_collectives.h"

#include "cuda_check.h"
#include "gridlock/device_comm.h"
#include "gridlock/process_group.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace gridlock::device {
namespace {

template <class T>
ncclDataType_t nccl_type() {
  if constexpr (std::is_same_v<T, float>)
    return ncclFloat32;
  else if constexpr (std::is_same_v<T, double>)
    return ncclFloat64;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return ncclInt32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return ncclInt64;
  else
    static_assert(sizeof(T) == 0, "no NCCL datatype for this element type");
}

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return ncclSum;
    case ReduceOp::Max:
      return ncclMax;
    case ReduceOp::Min:
      return ncclMin;
    case ReduceOp::Prod:
      return ncclProd;
  }
  throw std::invalid_argument("unknown ReduceOp");
}

ncclComm_t comm_of(const ProcessGroup& g) { return device_comm(g).get(); }

}  // namespace

template <class T>
void all_reduce(T* buf, std::size_t count, ReduceOp op, const ProcessGroup& g, cudaStream_t s) {
  detail::check_nccl(ncclAllReduce(buf, buf, count, nccl_type<T>(), nccl_op(op), comm_of(g), s),
                     "ncclAllReduce", g.name());
}

template <class T>
void broadcast(T* buf, std::size_t count, int root, const ProcessGroup& g, cudaStream_t s) {
  detail::check_nccl(ncclBroadcast(buf, buf, count, nccl_type<T>(), root, comm_of(g), s),
                     "ncclBroadcast", g.name());
}

template <class T>
void all_gather(const T* in, T* out, std::size_t count, const ProcessGroup& g, cudaStream_t s) {
  detail::check_nccl(ncclAllGather(in, out, count, nccl_type<T>(), comm_of(g), s), "ncclAllGather",
                     g.name());
}

template <class T>
void all_gather_uneven(const T* in, std::span<const int> widths, T* out, const ProcessGroup& g,
                       cudaStream_t s) {
  if (widths.size() != static_cast<std::size_t>(g.size()))
    throw std::invalid_argument("all_gather_uneven on group '" + g.name() +
                                "': one width per rank expected");
  std::size_t widest = 0;
  for (int w : widths) widest = std::max<std::size_t>(widest, w);
  std::size_t mine = widths[g.rank()];
  T* staging = nullptr;  // [pad(in) | gathered]
  std::size_t bytes = sizeof(T) * widest * (g.size() + 1);
  detail::check_cuda(
      cudaMallocAsync(reinterpret_cast<void**>(&staging), std::max<std::size_t>(bytes, 1), s),
      "cudaMallocAsync", g.name());
  T* padded = staging;
  T* gathered = staging + widest;
  try {
    detail::check_cuda(cudaMemsetAsync(padded, 0, sizeof(T) * widest, s), "cudaMemsetAsync",
                       g.name());
    detail::check_cuda(cudaMemcpyAsync(padded, in, sizeof(T) * mine, cudaMemcpyDeviceToDevice, s),
                       "cudaMemcpyAsync", g.name());
    all_gather(padded, gathered, widest, g, s);
    std::size_t at = 0;
    for (int r = 0; r < g.size(); ++r) {
      detail::check_cuda(cudaMemcpyAsync(out + at, gathered + r * widest, sizeof(T) * widths[r],
                                         cudaMemcpyDeviceToDevice, s),
                         "cudaMemcpyAsync", g.name());
      at += widths[r];
    }
    detail::check_cuda(cudaFreeAsync(staging, s), "cudaFreeAsync", g.name());
    detail::check_cuda(cudaStreamSynchronize(s), "cudaStreamSynchronize", g.name());
  } catch (...) {
    cudaFreeAsync(staging, s);
    throw;
  }
}

template <class T>
void reduce_scatter(const T* in, T* out, std::size_t count, ReduceOp op, const ProcessGroup& g,
                    cudaStream_t s) {
  detail::check_nccl(ncclReduceScatter(in, out, count, nccl_type<T>(), nccl_op(op), comm_of(g), s),
                     "ncclReduceScatter", g.name());
}

template <class T>
void send(const T* buf, std::size_t count, int dst, const ProcessGroup& g, cudaStream_t s) {
  detail::check_nccl(ncclSend(buf, count, nccl_type<T>(), dst, comm_of(g), s), "ncclSend",
                     g.name());
}

template <class T>
void recv(T* buf, std::size_t count, int src, const ProcessGroup& g, cudaStream_t s) {
  detail::check_nccl(ncclRecv(buf, count, nccl_type<T>(), src, comm_of(g), s), "ncclRecv",
                     g.name());
}

void group_start() { detail::check_nccl(ncclGroupStart(), "ncclGroupStart", "(none)"); }
void group_end() { detail::check_nccl(ncclGroupEnd(), "ncclGroupEnd", "(none)"); }

#define GRIDLOCK_INSTANTIATE(T)                                                               \
  template void all_reduce<T>(T*, std::size_t, ReduceOp, const ProcessGroup&, cudaStream_t);  \
  template void broadcast<T>(T*, std::size_t, int, const ProcessGroup&, cudaStream_t);        \
  template void all_gather<T>(const T*, T*, std::size_t, const ProcessGroup&, cudaStream_t);  \
  template void all_gather_uneven<T>(const T*, std::span<const int>, T*, const ProcessGroup&, \
                                     cudaStream_t);                                           \
  template void reduce_scatter<T>(const T*, T*, std::size_t, ReduceOp, const ProcessGroup&,   \
                                  cudaStream_t);                                              \
  template void send<T>(const T*, std::size_t, int, const ProcessGroup&, cudaStream_t);       \
  template void recv<T>(T*, std::size_t, int, const ProcessGroup&, cudaStream_t);

GRIDLOCK_INSTANTIATE(float)
GRIDLOCK_INSTANTIATE(double)
GRIDLOCK_INSTANTIATE(std::int32_t)
GRIDLOCK_INSTANTIATE(std::int64_t)

#undef GRIDLOCK_INSTANTIATE

}  // namespace gridlock::device
