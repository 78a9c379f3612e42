#!/usr/bin/env python3
"""What rules/megatron-core.json counts beyond rules/megatron-core-ratchet.json, by category.

Usage: megatron_extras.py RATCHET.json SEMANTIC.json [--list]
Each file is `gridlock scan --format json` of one Megatron-LM tree, with
`--rules megatron-core-ratchet` and `--rules megatron-core` (scripts/megatron-check.sh runs both
and this script at each commit). A read is its file, line, kind and the accessor's last name
(the ratchet's site, as tests/python/megatron_ratchet_test.cpp compares them); the counted reads
of each pack are two multisets, and the extras are the semantic pack's less the ratchet's:

  accessor, by name   an accessor call the ratchet's name test does not count (`is_pipeline_*`,
                      or a `get_*` name through an alias or `getattr` it cannot see)
  shim                a use_mpu_process_groups() call the ratchet does not count
  laundered, by where the callee is:
    megatron/core     a call leaving out the group a megatron/core function then reads
                      globally (`*_if_none` helpers and every function forwarding to one)
    exempt files      a call of a helper in parallel_state.py or process_groups_config.py,
                      files the ratchet exempts
    elsewhere         a call of a function outside megatron/core (megatron/training, ...)

It also prints the reads the ratchet counts and the semantic pack does not (none is expected).
Exit 0, or 2 when a file cannot be read as a scan's JSON.
"""
import collections
import json
import sys

EXEMPT = ("megatron.core.parallel_state.", "megatron.core.process_groups_config.")


def counted(path):
    with open(path, encoding="utf-8") as f:
        scan = json.load(f)
    return [r for r in scan["reads"] if not r.get("edge") and r["kind"] != "global_write"]


def site(r):
    return (r["file"], r["line"], r["kind"], r["name"].rsplit(".", 1)[-1])


def category(r):
    if r["kind"] != "laundered":
        return r["kind"]
    name = r["name"]
    if name.startswith(EXEMPT):
        return "laundered into the exempt files"
    if name.startswith("megatron.core."):
        return "laundered into megatron/core"
    return "laundered into the rest of the repository"


def extras(ratchet, semantic):
    """The semantic pack's reads less the ratchet's, as lists of reads: (extra, ratchet only)."""
    left = collections.Counter(site(r) for r in ratchet)
    extra = []
    for r in sorted(semantic, key=lambda r: (r["file"], r["line"], r["column"], r["name"])):
        if left[site(r)] > 0:
            left[site(r)] -= 1
        else:
            extra.append(r)
    only = sorted(s for s, n in left.items() for _ in range(n))
    return extra, only


def main(argv):
    args = [a for a in argv if a != "--list"]
    if len(args) != 2:
        print("usage: megatron_extras.py RATCHET.json SEMANTIC.json [--list]", file=sys.stderr)
        return 2
    try:
        ratchet, semantic = counted(args[0]), counted(args[1])
    except (OSError, ValueError, KeyError) as e:
        print(f"megatron_extras: {e}", file=sys.stderr)
        return 2
    extra, only = extras(ratchet, semantic)
    print(f"megatron-core {len(semantic)} = megatron-core-ratchet {len(ratchet)} "
          f"+ {len(extra)} extras - {len(only)} the ratchet only")
    groups = collections.defaultdict(list)
    for r in extra:
        groups[category(r)].append(r)
    for cat in sorted(groups):
        print(f"  {cat}: {len(groups[cat])}")
        for name, n in sorted(collections.Counter(r["name"] for r in groups[cat]).items(),
                              key=lambda kv: (-kv[1], kv[0])):
            print(f"    {n} {name}")
            if "--list" in argv:
                for r in groups[cat]:
                    if r["name"] == name:
                        print(f"      {r['file']}:{r['line']} in {r['enclosing']}")
    for s in only:
        print(f"  the ratchet only: {s[0]}:{s[1]} {s[2]} {s[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
