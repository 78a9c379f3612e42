#!/usr/bin/env python3
"""fixtures/rewrite/py_autograd under torch's autograd: the input as it is and the tree
`gridlock rewrite --apply` makes of it each run forward and backward through every Function the
rewrite threads (gloo, one process, a world of one), and give the gradients worked out by hand
below. A backward that returns one gradient fewer than its forward takes inputs fails here
("returned an incorrect number of gradients"), which py_compile, the re-scan and pyright pass.

Usage: py_autograd_backward.py GRIDLOCK FIXTURE WORKDIR
Exit: 0 passed, 1 failed, 2 bad usage, 77 torch not importable (skipped).
"""

import json
import os
import shutil
import subprocess
import sys

# Runs in a tree (its directory on sys.path): each model function of pkg/model.py on fresh
# leaves, the gradients of the sum of its output. The globals hold groups of the one rank, as
# the callers' tp_group and cp_group do.
DRIVER = r"""
import json, sys
import torch
import torch.distributed as dist

dist.init_process_group("gloo", init_method="file://" + sys.argv[1], rank=0, world_size=1)
from pkg import model, parallel_state

tp, cp = dist.new_group([0]), dist.new_group([0])
parallel_state._TENSOR_MODEL_PARALLEL_GROUP = tp
parallel_state._CONTEXT_PARALLEL_GROUP = cp


def grads(run, count=1):
    leaves = [torch.full((3,), 1.5, requires_grad=True) for _ in range(count)]
    run(*leaves).sum().backward()
    return [leaf.grad.tolist() for leaf in leaves]


print(json.dumps({
    "reduce": grads(lambda x: model.run_reduce(x, tp)),
    "scale2": grads(lambda x: model.run_scale(x, 2.0, tp)),
    "scale1": grads(lambda x: model.run_scale(x, 1, tp)),
    "twice": grads(lambda x: model.run_twice(x, tp)),
    "both": grads(lambda x, y: model.run_both(x, y, tp), 2),
    "unpacked": grads(lambda x: model.run_unpacked(x, tp)),
    "two_groups": grads(lambda x: model.run_two_groups(x, tp, cp)),
}, sort_keys=True))
dist.destroy_process_group()
"""

# By hand, from pkg/ops.py: every all_reduce is over one rank (the identity), so each gradient is
# what backward returns for a gradient of ones.
EXPECTED = {
    "reduce": [[1.0] * 3],  # backward returns grad
    "scale2": [[2.0] * 3],  # grad * ctx.factor
    "scale1": [[1.0] * 3],  # (grad, None) when the factor is 1
    "twice": [[2.0] * 3],  # _scaled(grad): grad * 2
    "both": [[1.0] * 3, [3.0] * 3],  # _pair(grad): grad, grad * 3
    "unpacked": [[1.0] * 3],  # _one(grad): (grad,)
    "two_groups": [[1.0] * 3],  # grad
}


def run_tree(tree, work):
    init = os.path.join(work, "init-" + os.path.basename(tree))
    if os.path.exists(init):
        os.remove(init)
    env = dict(os.environ, PYTHONPATH=tree, PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-c", DRIVER, init], env=env, cwd=work,
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print(f"py_autograd_backward: {tree}: the driver failed:\n{r.stdout}{r.stderr}")
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    if len(sys.argv) != 4:
        print("usage: py_autograd_backward.py GRIDLOCK FIXTURE WORKDIR", file=sys.stderr)
        return 2
    gridlock, fixture, work = sys.argv[1:]
    try:
        import torch.distributed  # noqa: F401
    except ImportError as e:
        print(f"py_autograd_backward: SKIPPED: torch.distributed not importable: {e}")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    before, after = os.path.join(work, "before"), os.path.join(work, "after")
    shutil.copytree(os.path.join(fixture, "input"), before)
    shutil.copytree(os.path.join(fixture, "input"), after)
    r = subprocess.run([gridlock, "rewrite", "--rules", os.path.join(fixture, "gridlock.json"),
                        "--root", after, "--no-cache", "--python-checker=warn", "--apply"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"py_autograd_backward: gridlock rewrite failed ({r.returncode}):\n{r.stderr}")
        return 1
    with open(os.path.join(after, "pkg", "model.py")) as f:
        if "Both.apply(x, y, tp_group)" not in f.read():
            print("py_autograd_backward: the rewrite did not thread the Functions:\n" + r.stderr)
            return 1
    failed = False
    for tree in (before, after):
        got = run_tree(tree, work)
        if got != EXPECTED:
            print(f"py_autograd_backward: {tree}: expected {EXPECTED}, got {got}")
            failed = True
    if not failed:
        print("py_autograd_backward: both trees give the expected gradients")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
