#!/usr/bin/python3
"""fixtures/pymodel/run_tests.sh refuses bad input with exit 2 and a message naming the
problem, before running anything and without touching what is there.

usage: check_usage.py FIXTURE_DIR SCRATCH_DIR"""

import os
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fixture, scratch = sys.argv[1], sys.argv[2]
    script = os.path.join(fixture, 'run_tests.sh')
    shutil.rmtree(scratch, ignore_errors=True)  # this test's own directory
    os.makedirs(os.path.join(scratch, 'not-a-fixture'))
    busy = os.path.join(scratch, 'busy')
    os.makedirs(busy)
    with open(os.path.join(busy, 'keep.txt'), 'w') as f:
        f.write('a user file\n')
    fresh = os.path.join(scratch, 'fresh')
    cases = [
        ([], 'usage: '),
        (['3', fresh], "RANKS must be an even number of at least 2, got '3'"),
        (['two', fresh], "RANKS must be an even number of at least 2, got 'two'"),
        (['0', fresh], "RANKS must be an even number of at least 2, got '0'"),
        (['2', fresh, os.path.join(scratch, 'not-a-fixture')], 'is not a copy of the fixture'),
        (['2', busy], f"RESULTS_DIR {busy} must be new or an empty directory"),
        (['2', os.path.join(busy, 'keep.txt')], 'must be new or an empty directory'),
    ]
    problems = []
    for args, message in cases:
        run = subprocess.run([script] + args, capture_output=True, text=True)
        if run.returncode != 2 or message not in run.stderr:
            problems.append(f"{args}: exit {run.returncode}, stderr {run.stderr!r}; expected 2, {message!r}")
    if os.path.exists(fresh):
        problems.append(f"{fresh} was created by a refused run")
    with open(os.path.join(busy, 'keep.txt')) as f:
        if f.read() != 'a user file\n' or os.listdir(busy) != ['keep.txt']:
            problems.append(f"{busy} was changed by a refused run")
    for p in problems:
        print(f"check_usage: {p}")
    if not problems:
        print(f"check_usage: {len(cases)} bad inputs refused")
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
