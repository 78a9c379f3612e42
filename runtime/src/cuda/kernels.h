// The few element-wise kernels the device layers need (kernels.cu, compiled by nvcc).
#pragma once

typedef struct CUstream_st* cudaStream_t;

namespace gridlock::device::kernels {

// y[rows x cols] += bias[cols]
void add_bias(float* y, const float* bias, int rows, int cols, cudaStream_t stream);
// out[n x dim]: row ids[n] - begin of table when begin <= ids[n] < end, else zeros.
void embedding_lookup(const int* ids, int n, const float* table, int begin, int end, int dim,
                      float* out, cudaStream_t stream);

}  // namespace gridlock::device::kernels
