#include "gridlock/layers.h"

#include <stdexcept>
#include <string>

namespace gridlock {

std::vector<float> linear(std::span<const float> x, int batch, int in,
                          std::span<const float> weight, int out, std::span<const float> bias) {
  if (x.size() != static_cast<std::size_t>(batch) * in ||
      weight.size() != static_cast<std::size_t>(out) * in ||
      (!bias.empty() && bias.size() != static_cast<std::size_t>(out)))
    throw std::invalid_argument("linear: shapes do not match batch " + std::to_string(batch) +
                                ", in " + std::to_string(in) + ", out " + std::to_string(out));
  std::vector<float> y(static_cast<std::size_t>(batch) * out);
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out; ++o) {
      // Accumulate in double: sharded and unsharded sums then agree to float rounding.
      double s = bias.empty() ? 0.0 : bias[o];
      const float* xr = x.data() + static_cast<std::size_t>(b) * in;
      const float* wr = weight.data() + static_cast<std::size_t>(o) * in;
      for (int i = 0; i < in; ++i) s += static_cast<double>(xr[i]) * wr[i];
      y[static_cast<std::size_t>(b) * out + o] = static_cast<float>(s);
    }
  return y;
}

}  // namespace gridlock
