// Collectives on host buffers over an explicit ProcessGroup (Open MPI underneath). The group is
// always an argument; a failing MPI call throws RuntimeError naming the call and the group.
#pragma once

#include "gridlock/process_group.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace gridlock {

enum class ReduceOp { Sum, Max, Min, Prod };

namespace detail {

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return MPI_UINT8_T;
  else
    static_assert(sizeof(T) == 0, "no MPI datatype for this element type");
}

// Untyped cores; counts are elements of `type`.
void all_reduce(void* buf, std::size_t count, MPI_Datatype type, ReduceOp op,
                const ProcessGroup& group);
void broadcast(void* buf, std::size_t count, MPI_Datatype type, int root,
               const ProcessGroup& group);
void all_gather(const void* in, void* out, std::size_t count, MPI_Datatype type,
                const ProcessGroup& group);
void reduce_scatter(const void* in, void* out, std::size_t count, MPI_Datatype type, ReduceOp op,
                    const ProcessGroup& group);
void send(const void* buf, std::size_t count, MPI_Datatype type, int dst, int tag,
          const ProcessGroup& group);
void recv(void* buf, std::size_t count, MPI_Datatype type, int src, int tag,
          const ProcessGroup& group);
void check_same_width(std::size_t got, std::size_t want, const char* call,
                      const ProcessGroup& group);

}  // namespace detail

// In place, every rank ends with the reduction of all ranks' buffers.
template <class T>
void all_reduce(std::span<T> buf, ReduceOp op, const ProcessGroup& group) {
  detail::all_reduce(buf.data(), buf.size(), detail::mpi_type<T>(), op, group);
}

// `root` is a rank in `group`.
template <class T>
void broadcast(std::span<T> buf, int root, const ProcessGroup& group) {
  detail::broadcast(buf.data(), buf.size(), detail::mpi_type<T>(), root, group);
}

// Equal widths: out (size * in.size()) holds every rank's `in`, in group-rank order.
template <class T>
void all_gather(std::span<const T> in, std::span<T> out, const ProcessGroup& group) {
  detail::check_same_width(out.size(), in.size() * group.size(), "all_gather", group);
  detail::all_gather(in.data(), out.data(), in.size(), detail::mpi_type<T>(), group);
}

// Uneven widths (widths[r] elements from rank r): pad to the widest, gather, trim. Returns the
// concatenation in rank order.
template <class T>
std::vector<T> all_gather_uneven(std::span<const T> in, std::span<const int> widths,
                                 const ProcessGroup& group) {
  detail::check_same_width(widths.size(), group.size(), "all_gather_uneven", group);
  detail::check_same_width(in.size(), widths[group.rank()], "all_gather_uneven", group);
  std::size_t widest = 0, total = 0;
  for (int w : widths) {
    widest = std::max<std::size_t>(widest, w);
    total += w;
  }
  std::vector<T> padded(widest), gathered(widest * group.size()), out;
  std::copy(in.begin(), in.end(), padded.begin());
  detail::all_gather(padded.data(), gathered.data(), widest, detail::mpi_type<T>(), group);
  out.reserve(total);
  for (int r = 0; r < group.size(); ++r)
    out.insert(out.end(), gathered.begin() + r * widest, gathered.begin() + r * widest + widths[r]);
  return out;
}

// Row-major [rows x widths[r]] blocks, one a rank, joined along columns into [rows x sum].
template <class T>
std::vector<T> all_gather_columns(std::span<const T> local, int rows, std::span<const int> widths,
                                  const ProcessGroup& group) {
  std::vector<int> flat(widths.begin(), widths.end());
  for (int& w : flat) w *= rows;
  std::vector<T> blocks = all_gather_uneven<T>(local, flat, group);
  int total = 0;
  for (int w : widths) total += w;
  std::vector<T> out(static_cast<std::size_t>(rows) * total);
  std::size_t at = 0;
  int col = 0;
  for (int w : widths) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < w; ++j) out[static_cast<std::size_t>(i) * total + col + j] = blocks[at++];
    col += w;
  }
  return out;
}

// in holds size * out.size() elements; rank r gets the reduction of block r.
template <class T>
void reduce_scatter(std::span<const T> in, std::span<T> out, ReduceOp op,
                    const ProcessGroup& group) {
  detail::check_same_width(in.size(), out.size() * group.size(), "reduce_scatter", group);
  detail::reduce_scatter(in.data(), out.data(), out.size(), detail::mpi_type<T>(), op, group);
}

// Point to point; `dst`/`src` are ranks in `group`.
template <class T>
void send(std::span<const T> buf, int dst, const ProcessGroup& group, int tag = 0) {
  detail::send(buf.data(), buf.size(), detail::mpi_type<T>(), dst, tag, group);
}
template <class T>
void recv(std::span<T> buf, int src, const ProcessGroup& group, int tag = 0) {
  detail::recv(buf.data(), buf.size(), detail::mpi_type<T>(), src, tag, group);
}

}  // namespace gridlock
