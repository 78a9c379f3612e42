#!/usr/bin/env bash
# scripts/e2e.sh on a GPU machine: the fixture and the runtime built with their CUDA/NCCL path
# (MINIMODEL_WITH_CUDA=ON builds the runtime's gridlock_runtime_cuda, the model's .cu and its
# Device tests). The suite runs under mpirun with 2 and 4 ranks as on CPU, plus the Device tests
# with one rank (NCCL wants a GPU per rank), with GRIDLOCK_REQUIRE_GPU=1 so that a missing device
# fails instead of skipping. Same verdict and exit status as scripts/e2e.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "e2e-gpu: error: no usable NVIDIA GPU here (nvidia-smi -L failed); run scripts/e2e.sh instead" >&2
  exit 2
fi
[ -x /usr/local/cuda/bin/nvcc ] || { echo "e2e-gpu: error: no nvcc at /usr/local/cuda/bin/nvcc" >&2; exit 2; }
nvidia-smi -L
export E2E_CUDA=ON
export E2E_STORIES=${E2E_STORIES:-cpp}  # the Python story has no GPU path
export E2E_DIR=${E2E_DIR:-${BUILD_DIR:-build}/e2e-gpu}
export GRIDLOCK_REQUIRE_GPU=1
exec ./scripts/e2e.sh "$@"
