#!/bin/sh
# Runs one MPI rank of a GoogleTest binary so that it writes its JSON report where
# `gridlock pair` expects it: $GRIDLOCK_RESULTS_DIR/rank<N>/<binary>.json. Without it every rank
# would write the same file. Usage: mpirun -n 4 gtest-rank-output.sh ./model_test [args]
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-${SLURM_PROCID:-0}}}}
if [ -n "${GRIDLOCK_RESULTS_DIR:-}" ]; then
  GTEST_OUTPUT="json:$GRIDLOCK_RESULTS_DIR/rank$rank/"
  export GTEST_OUTPUT
fi
exec "$@"
