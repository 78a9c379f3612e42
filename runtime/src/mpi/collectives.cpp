#include "gridlock/collectives.h"

#include "gridlock/error.h"

#include <climits>
#include <stdexcept>

namespace gridlock::detail {
namespace {

MPI_Op to_mpi(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return MPI_SUM;
    case ReduceOp::Max:
      return MPI_MAX;
    case ReduceOp::Min:
      return MPI_MIN;
    case ReduceOp::Prod:
      return MPI_PROD;
  }
  throw std::invalid_argument("unknown ReduceOp");
}

// MPI counts are int; larger buffers are refused rather than silently truncated.
int to_count(std::size_t count, const char* call, const ProcessGroup& group) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw std::length_error(std::string(call) + " on group '" + group.name() +
                            "': " + std::to_string(count) + " elements exceed MPI's int count");
  return static_cast<int>(count);
}

}  // namespace

void check_same_width(std::size_t got, std::size_t want, const char* call,
                      const ProcessGroup& group) {
  if (got != want)
    throw std::invalid_argument(std::string(call) + " on group '" + group.name() +
                                "': buffer has " + std::to_string(got) + " elements, expected " +
                                std::to_string(want));
}

void all_reduce(void* buf, std::size_t count, MPI_Datatype type, ReduceOp op,
                const ProcessGroup& g) {
  int n = to_count(count, "MPI_Allreduce", g);
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, buf, n, type, to_mpi(op), g.comm()), "MPI_Allreduce",
            g.name());
}

void broadcast(void* buf, std::size_t count, MPI_Datatype type, int root, const ProcessGroup& g) {
  int n = to_count(count, "MPI_Bcast", g);
  check_mpi(MPI_Bcast(buf, n, type, root, g.comm()), "MPI_Bcast", g.name());
}

void all_gather(const void* in, void* out, std::size_t count, MPI_Datatype type,
                const ProcessGroup& g) {
  int n = to_count(count, "MPI_Allgather", g);
  check_mpi(MPI_Allgather(in, n, type, out, n, type, g.comm()), "MPI_Allgather", g.name());
}

void reduce_scatter(const void* in, void* out, std::size_t count, MPI_Datatype type, ReduceOp op,
                    const ProcessGroup& g) {
  int n = to_count(count, "MPI_Reduce_scatter_block", g);
  check_mpi(MPI_Reduce_scatter_block(in, out, n, type, to_mpi(op), g.comm()),
            "MPI_Reduce_scatter_block", g.name());
}

void send(const void* buf, std::size_t count, MPI_Datatype type, int dst, int tag,
          const ProcessGroup& g) {
  int n = to_count(count, "MPI_Send", g);
  check_mpi(MPI_Send(buf, n, type, dst, tag, g.comm()), "MPI_Send", g.name());
}

void recv(void* buf, std::size_t count, MPI_Datatype type, int src, int tag,
          const ProcessGroup& g) {
  int n = to_count(count, "MPI_Recv", g);
  check_mpi(MPI_Recv(buf, n, type, src, tag, g.comm(), MPI_STATUS_IGNORE), "MPI_Recv", g.name());
}

}  // namespace gridlock::detail
