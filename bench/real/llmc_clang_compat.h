// Parse-only compatibility for llm.c under clang++-19 -x cuda --cuda-host-only with CUDA 13.
// Passed with -include; does nothing outside CUDA mode (the .c TUs).
#pragma once
#if defined(__CUDA__) && defined(__clang__)
#include <cuda_runtime.h>
#include <math.h>
#include <time.h>
// Clang 19's CUDA wrapper blocks CUDA's sm_32_intrinsics.h and defines only __ldg, so the
// cache-hinted loads/stores for builtin and vector types are missing (nvcc has them).
template <class T>
__device__ T __ldcs(const T*);
template <class T>
__device__ T __ldcg(const T*);
template <class T, class U>
__device__ void __stcs(T*, U);
template <class T, class U>
__device__ void __stcg(T*, U);
// nvcc's host max/min for ints; clang's wrapper declares them __device__ only.
static inline __host__ int max(int a, int b) { return a > b ? a : b; }
static inline __host__ int min(int a, int b) { return a < b ? a : b; }
// CUDA 13 removed cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, int device)
// (it now takes a cudaMemLocation); llm.c still calls the old form: nvcc 13 rejects it too.
static inline __host__ cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, int) {
  return cudaSuccess;
}
#endif
