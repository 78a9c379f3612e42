#!/usr/bin/env python3
"""The verdict of an end-to-end story (scripts/e2e.sh, scripts/e2e-python.sh).

    e2e_verdict.py WORK PAIR_STATUS BUG_TEST...

WORK holds pair.json (gridlock pair --format json) and scan-baseline.json, scan-change.json
(gridlock scan --format json). PASS, exit 0, when every bug test is `fixed` (fails on the
baseline, passes on the change), no test is `new_failure`, `invalid` or `removed`, pair exited
0, and the change's global-read total is below the baseline's; else FAIL, exit 1.
"""
import json
import sys


def main(work, pair_rc, bugs):
    pair = json.load(open(f"{work}/pair.json"))
    base = json.load(open(f"{work}/scan-baseline.json"))["summary"]
    change = json.load(open(f"{work}/scan-change.json"))["summary"]
    tests = {t["id"]: t for t in pair["tests"]}
    s = pair["summary"]
    ok = True
    print(f"global reads: {base['total']} -> {change['total']}"
          f" (fallbacks {base.get('fallbacks')} -> {change.get('fallbacks')},"
          f" writes {base.get('writes')} -> {change.get('writes')})")
    if change["total"] >= base["total"]:
        ok = False
        print("  FAIL: the global-read count did not drop")
    for kind in ("accessor", "shim", "global_state", "laundered"):
        print(f"  {kind}: {base['by_kind'].get(kind, 0)} -> {change['by_kind'].get(kind, 0)}")
    for b in bugs:
        t = tests.get(b)
        cat = t["category"] if t else "missing"
        print(f"bug test {b}: {t['baseline'] if t else '-'} -> {t['change'] if t else '-'} ({cat})")
        if cat != "fixed":
            ok = False
            print("  FAIL: expected fixed (fails on the baseline, passes on the change)")
    print("tests: " + ", ".join(f"{k} {v}" for k, v in s.items()))
    for k in ("new_failure", "invalid", "removed"):
        if s.get(k, 0):
            ok = False
            print(f"  FAIL: {s[k]} {k}")
    others = [t for t in pair["tests"] if t["id"] not in bugs and t["category"] != "passed_both"]
    for t in others:
        print(f"  note: {t['id']}: {t['category']} ({t.get('signature') or t.get('message') or ''})")
    if pair_rc != 0:
        ok = False
        print(f"  FAIL: gridlock pair exited {pair_rc}")
    print("RESULT: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3:]))
