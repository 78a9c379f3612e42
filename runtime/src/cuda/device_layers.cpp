#include "gridlock/device_layers.h"

#include "device_buffer.h"
#include "gridlock/device_collectives.h"
#include "gridlock/process_group.h"
#include "kernels.h"

#include <memory>

namespace gridlock::device {
namespace {

using detail::DeviceBuffer;

struct Cublas {
  explicit Cublas(const std::string& group) {
    detail::check_cublas(cublasCreate(&handle), "cublasCreate", group);
  }
  ~Cublas() { cublasDestroy(handle); }
  cublasHandle_t handle = nullptr;
};

// y[batch x out] = x[batch x in] W^T with W row-major [out x in]. cuBLAS is column-major, so
// this is y^T (out x batch) = W (out x in, stored as in x out) * x^T (stored as in x batch).
void gemm_xwt(const float* x, int batch, int in, const float* w, int out, float* y,
              const std::string& group) {
  if (batch == 0 || out == 0) return;
  if (in == 0) {
    detail::check_cuda(cudaMemset(y, 0, sizeof(float) * batch * out), "cudaMemset", group);
    return;
  }
  Cublas blas(group);
  const float one = 1.f, zero = 0.f;
  detail::check_cublas(cublasSgemm(blas.handle, CUBLAS_OP_T, CUBLAS_OP_N, out, batch, in, &one, w,
                                   in, x, in, &zero, y, out),
                       "cublasSgemm", group);
}

void check_launch(const std::string& group) {
  detail::check_cuda(cudaGetLastError(), "kernel launch", group);
}

}  // namespace

std::vector<float> forward(const ColumnParallelLinear& layer, std::span<const float> x, int batch) {
  const ProcessGroup& g = layer.group();
  int in = layer.in_features(), out = layer.local_out();
  DeviceBuffer<float> dx(x, g.name()), dw(std::span<const float>(layer.weight()), g.name());
  DeviceBuffer<float> dy(static_cast<std::size_t>(batch) * out, g.name());
  gemm_xwt(dx.get(), batch, in, dw.get(), out, dy.get(), g.name());
  if (!layer.bias().empty()) {
    DeviceBuffer<float> db(std::span<const float>(layer.bias()), g.name());
    kernels::add_bias(dy.get(), db.get(), batch, out, nullptr);
    check_launch(g.name());
  }
  if (!layer.gather_output()) return dy.download();

  // Gather [batch x w_r] blocks, then lay them side by side as columns.
  std::vector<int> flat(layer.widths());
  for (int& w : flat) w *= batch;
  int total = layer.out_features();
  DeviceBuffer<float> blocks(static_cast<std::size_t>(batch) * total, g.name());
  all_gather_uneven<float>(dy.get(), flat, blocks.get(), g);
  DeviceBuffer<float> dout(static_cast<std::size_t>(batch) * total, g.name());
  std::size_t at = 0;
  int col = 0;
  for (int w : layer.widths()) {
    if (w > 0 && batch > 0)
      detail::check_cuda(
          cudaMemcpy2D(dout.get() + col, sizeof(float) * total, blocks.get() + at,
                       sizeof(float) * w, sizeof(float) * w, batch, cudaMemcpyDeviceToDevice),
          "cudaMemcpy2D", g.name());
    at += static_cast<std::size_t>(w) * batch;
    col += w;
  }
  return dout.download();
}

std::vector<float> forward(const RowParallelLinear& layer, std::span<const float> x, int batch) {
  const ProcessGroup& g = layer.group();
  std::vector<float> local;
  if (!layer.input_is_parallel()) {
    local = layer.slice_input(x, batch);
    x = local;
  }
  int in = layer.local_in(), out = layer.out_features();
  DeviceBuffer<float> dx(x, g.name()), dw(std::span<const float>(layer.weight()), g.name());
  DeviceBuffer<float> dy(static_cast<std::size_t>(batch) * out, g.name());
  gemm_xwt(dx.get(), batch, in, dw.get(), out, dy.get(), g.name());
  all_reduce<float>(dy.get(), dy.size(), ReduceOp::Sum, g);
  if (!layer.bias().empty()) {
    DeviceBuffer<float> db(std::span<const float>(layer.bias()), g.name());
    kernels::add_bias(dy.get(), db.get(), batch, out, nullptr);
    check_launch(g.name());
  }
  return dy.download();
}

std::vector<float> forward(const VocabParallelEmbedding& layer, std::span<const int> ids) {
  const ProcessGroup& g = layer.group();
  int n = static_cast<int>(ids.size()), dim = layer.dim();
  for (int id : ids)
    if (id < 0 || id >= layer.vocab())
      throw std::out_of_range("token id " + std::to_string(id) + " outside vocabulary of " +
                              std::to_string(layer.vocab()));
  DeviceBuffer<int> dids(ids, g.name());
  DeviceBuffer<float> dtable(std::span<const float>(layer.table()), g.name());
  DeviceBuffer<float> dy(static_cast<std::size_t>(n) * dim, g.name());
  kernels::embedding_lookup(dids.get(), n, dtable.get(), layer.vocab_begin(), layer.vocab_end(),
                            dim, dy.get(), nullptr);
  check_launch(g.name());
  all_reduce<float>(dy.get(), dy.size(), ReduceOp::Sum, g);
  return dy.download();
}

}  // namespace gridlock::device
