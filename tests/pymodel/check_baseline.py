#!/usr/bin/python3
"""fixtures/pymodel on the legacy baseline: run its pytest suite with N ranks
(fixtures/pymodel/run_tests.sh) and check, from every rank's JUnit XML, that exactly the bug
tests fail, each on the ranks where its bug shows, that every other test passes on every rank,
and that every rank reports the same 22 tests. The expected failures are written here by
reasoning, and must be exactly the tests the suite marks @pytest.mark.bug.

usage: check_baseline.py FIXTURE_DIR RESULTS_DIR RANKS
Exit: 0 as expected; 1 not; 77 torch is not importable (the suite cannot run: skipped)."""

import ast
import glob
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

TESTS = 22  # 3 parallel_state, 4 layers, 4 attention, 2 language model, 6 vision, 3 grad norm


def expected_failures(ranks):
    """Test id -> the ranks it fails on. The vision encoder's grid is the last two ranks (the
    others skip its test body); the kv-head and grad-norm results are all-reduced over every
    tensor-parallel group, so every rank sees them wrong."""
    every, vision = set(range(ranks)), {ranks - 2, ranks - 1}
    return {
        # (a) a second model on its own grid reads the first one's groups through the globals
        'tests.test_vision.test_bug_encoder_on_own_grid_uses_own_tp_group': vision,
        'tests.test_vision.test_bug_encoder_on_own_grid_splits_over_own_cp_group': vision,
        # (b) the gradient filter falls back to the global (dense) tensor-parallel group
        'tests.test_grad_norm.test_bug_expert_grads_filtered_by_expert_tp_group': every,
        # (c) a per-model kv-head count overwritten through the process-wide tp_shard global
        'tests.test_attention.test_bug_first_model_keeps_its_kv_heads': every,
    }


def marked_bug_tests(fixture):
    """Ids of the test functions decorated with pytest.mark.bug(...), and of those named test_bug_*."""
    marked, named = set(), set()
    for path in sorted(glob.glob(os.path.join(fixture, 'tests', 'test_*.py'))):
        module = 'tests.' + os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            if node.name.startswith('test_bug_'):
                named.add(f"{module}.{node.name}")
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and ast.unparse(d.func) == 'pytest.mark.bug':
                    marked.add(f"{module}.{node.name}")
    return marked, named


def outcomes(xml_path):
    """Test id -> 'pass', 'fail', 'error' or 'skip' from one rank's JUnit XML."""
    result = {}
    for case in ET.parse(xml_path).getroot().iter('testcase'):
        test_id = f"{case.get('classname')}.{case.get('name')}"
        kinds = {child.tag for child in case}
        outcome = 'pass'
        for tag, name in (('skipped', 'skip'), ('failure', 'fail'), ('error', 'error')):
            if tag in kinds:
                outcome = name
        if test_id in result:
            raise SystemExit(f"{xml_path}: {test_id} reported twice")
        result[test_id] = outcome
    return result


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    fixture, results, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    problems = []
    expected = expected_failures(ranks)
    marked, named = marked_bug_tests(fixture)
    if marked != set(expected) or named != set(expected):
        problems.append(
            f"the bug tests written here {sorted(expected)} are not the ones the suite marks"
            f" {sorted(marked)} and names test_bug_* {sorted(named)}"
        )

    shutil.rmtree(results, ignore_errors=True)  # this test's own output directory
    run = subprocess.run([os.path.join(fixture, 'run_tests.sh'), str(ranks), results])
    if run.returncode == 77:
        print("check_baseline: skipped: torch is not importable (see run_tests.sh's message)")
        return 77
    if run.returncode != 1:
        problems.append(f"run_tests.sh exited {run.returncode}, expected 1 (its bug tests fail)")

    failed_on, reported = {}, []
    for rank in range(ranks):
        xml_path = os.path.join(results, f"rank{rank}", 'pymodel_test.xml')
        if not os.path.exists(xml_path):
            problems.append(f"rank {rank} wrote no {xml_path}")
            continue
        got = outcomes(xml_path)
        reported.append(set(got))
        for test_id, outcome in got.items():
            if outcome == 'fail':
                failed_on.setdefault(test_id, set()).add(rank)
            elif outcome != 'pass':
                problems.append(f"rank {rank}: {test_id}: {outcome}, expected pass or fail")
    if reported and any(r != reported[0] for r in reported):
        problems.append("the ranks do not all report the same tests")
    if reported and len(reported[0]) != TESTS:
        problems.append(f"{len(reported[0])} tests reported, expected {TESTS}")
    if failed_on != expected:
        problems.append(f"failures (test: ranks) {failed_on}, expected {expected}")

    for p in problems:
        print(f"check_baseline: {p}")
    if problems:
        return 1
    print(f"check_baseline: {TESTS} tests at {ranks} ranks, exactly the {len(expected)} bug tests fail")
    return 0


if __name__ == '__main__':
    sys.exit(main())
