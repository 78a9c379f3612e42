// CUDA, NCCL and cuBLAS status codes to RuntimeError, naming the call and the group.
#pragma once

#include "gridlock/error.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include <string>

namespace gridlock::detail {

inline void check_cuda(cudaError_t rc, const char* call, const std::string& group) {
  if (rc != cudaSuccess)
    throw RuntimeError("CUDA", call, group, static_cast<int>(rc),
                       std::string(cudaGetErrorName(rc)) + ": " + cudaGetErrorString(rc));
}

inline void check_nccl(ncclResult_t rc, const char* call, const std::string& group) {
  if (rc != ncclSuccess)
    throw RuntimeError("NCCL", call, group, static_cast<int>(rc), ncclGetErrorString(rc));
}

inline void check_cublas(cublasStatus_t rc, const char* call, const std::string& group) {
  if (rc != CUBLAS_STATUS_SUCCESS)
    throw RuntimeError("cuBLAS", call, group, static_cast<int>(rc), cublasGetStatusString(rc));
}

}  // namespace gridlock::detail
