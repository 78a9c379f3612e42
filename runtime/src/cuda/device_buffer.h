// A device allocation that frees itself; uploads and downloads host vectors.
#pragma once

#include "cuda_check.h"

#include <span>
#include <string>
#include <vector>

namespace gridlock::detail {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer(std::size_t count, const std::string& group) : count_(count), group_(group) {
    if (count_)
      check_cuda(cudaMalloc(reinterpret_cast<void**>(&ptr_), sizeof(T) * count_), "cudaMalloc",
                 group_);
  }
  DeviceBuffer(std::span<const T> host, const std::string& group)
      : DeviceBuffer(host.size(), group) {
    if (count_)
      check_cuda(cudaMemcpy(ptr_, host.data(), sizeof(T) * count_, cudaMemcpyHostToDevice),
                 "cudaMemcpy", group_);
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_)
      check_cuda(cudaMemcpy(host.data(), ptr_, sizeof(T) * count_, cudaMemcpyDeviceToHost),
                 "cudaMemcpy", group_);
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_;
  std::string group_;
};

}  // namespace gridlock::detail
