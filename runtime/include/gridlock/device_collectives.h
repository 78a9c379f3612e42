// Collectives on device buffers over an explicit ProcessGroup (NCCL underneath, on the group's
// DeviceComm). Asynchronous on `stream` (nullptr: the default stream), except where noted.
// Element types: float, double, int32_t, int64_t.
#pragma once

#include "gridlock/collectives.h"  // ReduceOp

#include <cstddef>
#include <span>

typedef struct CUstream_st* cudaStream_t;

namespace gridlock {

class ProcessGroup;

namespace device {

template <class T>
void all_reduce(T* buf, std::size_t count, ReduceOp op, const ProcessGroup& group,
                cudaStream_t stream = nullptr);
template <class T>
void broadcast(T* buf, std::size_t count, int root, const ProcessGroup& group,
               cudaStream_t stream = nullptr);
// out holds group.size() * count elements.
template <class T>
void all_gather(const T* in, T* out, std::size_t count, const ProcessGroup& group,
                cudaStream_t stream = nullptr);
// Uneven widths: pad to the widest, gather, trim into `out` (sum of widths). Synchronizes
// `stream` before returning, since it frees its staging buffer.
template <class T>
void all_gather_uneven(const T* in, std::span<const int> widths, T* out, const ProcessGroup& group,
                       cudaStream_t stream = nullptr);
// in holds group.size() * count elements; out gets the reduction of block rank.
template <class T>
void reduce_scatter(const T* in, T* out, std::size_t count, ReduceOp op, const ProcessGroup& group,
                    cudaStream_t stream = nullptr);
template <class T>
void send(const T* buf, std::size_t count, int dst, const ProcessGroup& group,
          cudaStream_t stream = nullptr);
template <class T>
void recv(T* buf, std::size_t count, int src, const ProcessGroup& group,
          cudaStream_t stream = nullptr);

// Brackets point-to-point calls issued together (ncclGroupStart/ncclGroupEnd), so a ring of
// sends and receives cannot deadlock.
void group_start();
void group_end();

}  // namespace device
}  // namespace gridlock
