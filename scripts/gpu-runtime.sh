#!/usr/bin/env bash
# Runs the runtime's GPU suite in one go on a machine with NVIDIA GPUs: configures a CUDA build,
# builds only the runtime and its GPU test, then runs it under mpirun with 1 rank and with one
# rank per GPU. GRIDLOCK_REQUIRE_GPU=1 makes a missing device a failure, not a skip.
#   scripts/gpu-runtime.sh            (BUILD_DIR=build-gpu, JOBS=nproc, CUDA_ARCH=90)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-gpu}
JOBS=${JOBS:-$(nproc)}
CUDA_ARCH=${CUDA_ARCH:-90}

nvidia-smi -L || { echo "gpu-runtime: nvidia-smi finds no GPU" >&2; exit 2; }
gpus=$(nvidia-smi -L | grep -c '^GPU')

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DGRIDLOCK_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH" >/dev/null
fi
cmake --build "$BUILD_DIR" -j "$JOBS" --target runtime_gpu_test

export GRIDLOCK_REQUIRE_GPU=1
mpirun_cmd=(mpirun --allow-run-as-root --oversubscribe -x GRIDLOCK_REQUIRE_GPU)
status=0
for n in $(printf '%s\n' 1 "$gpus" | sort -un); do
  echo "== runtime_gpu with $n rank(s) on $gpus GPU(s)"
  "${mpirun_cmd[@]}" -np "$n" "$BUILD_DIR/tests/runtime/runtime_gpu_test" || status=1
done
exit $status
