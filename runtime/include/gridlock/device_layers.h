// The parallel layers' forward on the GPU: cuBLAS for the local product, NCCL for the
// communication, the same slices and the same reductions as the host forward. Host buffers in
// and out, so tests compare both paths number for number.
#pragma once

#include "gridlock/layers.h"

#include <span>
#include <vector>

namespace gridlock::device {

std::vector<float> forward(const ColumnParallelLinear& layer, std::span<const float> x, int batch);
std::vector<float> forward(const RowParallelLinear& layer, std::span<const float> x, int batch);
std::vector<float> forward(const VocabParallelEmbedding& layer, std::span<const int> ids);

}  // namespace gridlock::device
