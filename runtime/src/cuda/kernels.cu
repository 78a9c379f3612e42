#include "kernels.h"

#include <cuda_runtime.h>

namespace gridlock::device::kernels {
namespace {

__global__ void add_bias_kernel(float* y, const float* bias, int rows, int cols) {
  long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < static_cast<long long>(rows) * cols) y[i] += bias[i % cols];
}

__global__ void embedding_kernel(const int* ids, int n, const float* table, int begin, int end,
                                 int dim, float* out) {
  long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(n) * dim) return;
  int row = static_cast<int>(i / dim), col = static_cast<int>(i % dim);
  int id = ids[row];
  out[i] = (id >= begin && id < end) ? table[static_cast<long long>(id - begin) * dim + col] : 0.f;
}

unsigned blocks(long long n) { return static_cast<unsigned>((n + 255) / 256); }

}  // namespace

void add_bias(float* y, const float* bias, int rows, int cols, cudaStream_t s) {
  long long n = static_cast<long long>(rows) * cols;
  if (n > 0) add_bias_kernel<<<blocks(n), 256, 0, s>>>(y, bias, rows, cols);
}

void embedding_lookup(const int* ids, int n, const float* table, int begin, int end, int dim,
                      float* out, cudaStream_t s) {
  long long total = static_cast<long long>(n) * dim;
  if (total > 0)
    embedding_kernel<<<blocks(total), 256, 0, s>>>(ids, n, table, begin, end, dim, out);
}

}  // namespace gridlock::device::kernels
