#!/usr/bin/python3
"""What GitHub needs of a documented workflow (docs/examples/github-workflow*.yml) that running
its steps here cannot show (scripts/ci-recipes.sh runs them): the gate's findings reach the pull
request (an upload-sarif step under `if: always()`, with the permissions it needs:
security-events: write, and actions: read, which a private repository's upload needs; or the
gate writes annotations, `--format github`, which need only contents: read), `apt-get update`
before any package install (a fresh runner's package lists are stale), and the facts cache
saved even when the gate fails (a restore before the gate, a save after it under
`if: always()`, same path and key), so the next run parses only what changed. Prints each
problem; exit 1 when there is one.
Usage: check_workflow.py WORKFLOW.yml"""
import re
import sys

import yaml


def problems(doc):
    out = []
    jobs = list((doc.get("jobs") or {}).values())
    all_steps = [s for job in jobs for s in (job.get("steps") or [])]
    uploads = any(str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")
                  for s in all_steps)
    perms = doc.get("permissions") or {}
    wanted = [("contents", "read")]
    if uploads:
        wanted += [("security-events", "write"), ("actions", "read")]
    for key, want in wanted:
        if perms.get(key) != want:
            out.append("permissions: %s is %r, not %r" % (key, perms.get(key), want))
    if len(jobs) != 1:
        return out + ["expected one job, found %d" % len(jobs)]
    steps = jobs[0].get("steps") or []
    updated = False
    for i, step in enumerate(steps):
        for line in str(step.get("run", "")).splitlines():
            if re.search(r"\bapt(-get)?\s+update\b", line):
                updated = True
            elif re.search(r"\bapt(-get)?\s+install\b", line) and not updated:
                out.append("step %d installs packages before any apt-get update: %s" % (i, line))
    gate = next((i for i, s in enumerate(steps)
                 if str(s.get("run", "")).startswith("gridlock gate")), None)
    if gate is None:
        return out + ["no step runs gridlock gate"]
    uses = [str(s.get("uses", "")) for s in steps]
    restore = [i for i in range(gate) if re.match(r"actions/cache(/restore)?@", uses[i])]
    save = [i for i in range(gate + 1, len(steps)) if uses[i].startswith("actions/cache/save@")]
    if not restore:
        out.append("no actions/cache/restore step before the gate")
    if not save:
        out.append("no actions/cache/save step after the gate: a failing gate saves no cache")
    if restore and save:
        before, after = steps[restore[0]].get("with", {}), steps[save[0]].get("with", {})
        for key in ("path", "key"):
            if before.get(key) != after.get(key):
                out.append("cache %s: restored %r, saved %r" % (key, before.get(key),
                                                                after.get(key)))
        if uses[restore[0]].startswith("actions/cache@"):
            out.append("actions/cache@ saves only when the job succeeds: use "
                       "actions/cache/restore@ before the gate and actions/cache/save@ after")
        if str(steps[save[0]].get("if", "")) != "always()":
            out.append("the cache save step runs only on success: give it if: always()")
    sarif = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    annotates = re.search(r"--format[ =]github\b", str(steps[gate].get("run", "")))
    if sarif and str(sarif[0].get("if", "")) != "always()":
        out.append("the upload-sarif step runs only on success: give it if: always()")
    if not sarif and not annotates:
        out.append("the gate's findings reach no pull request: no upload-sarif step, and the "
                   "gate writes no annotations (--format github)")
    return out


def main():
    with open(sys.argv[1]) as f:
        found = problems(yaml.safe_load(f))
    for p in found:
        print("check_workflow: %s: %s" % (sys.argv[1], p))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
