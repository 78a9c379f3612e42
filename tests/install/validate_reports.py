#!/usr/bin/python3
"""The JSON reports of scan, gate, callers and pair, as the real commands write them on the
fixtures, validate against their published schemas (schema/*-report.schema.json); strictly here:
a field the output has and its schema does not describe fails, so every field is documented.
Each report carries its schema's `version`; the schemas' closed vocabularies are spelled as in
tool/facts/kinds.h. Usage: validate_reports.py SOURCE_DIR BUILD_DIR GRIDLOCK"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("validate_reports: python3-jsonschema is missing (scripts/setup.sh installs it)")

src, build, gridlock = sys.argv[1:4]
failures = []


def load(path):
    with open(path) as f:
        return json.load(f)


def strict(schema):
    """Every object schema that lists properties, closed to others (the published schemas leave
    them open, so that readers of version 1 take fields added later)."""
    def close(node):
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for v in node.values():
                close(v)
        elif isinstance(node, list):
            for v in node:
                close(v)
    out = copy.deepcopy(schema)
    close(out)
    return out


schemas = {}
for name in ("scan", "gate", "callers", "pair"):
    schema = load(os.path.join(src, "schema", name + "-report.schema.json"))
    jsonschema.Draft7Validator.check_schema(schema)
    if schema["properties"]["version"] != {"const": 1, "description": "The report's format version."}:
        failures.append("%s schema: version is not const 1" % name)
    if "version" not in schema["required"]:
        failures.append("%s schema: version is not required" % name)
    schemas[name] = jsonschema.Draft7Validator(strict(schema))


def run(what, args, want_rc, cwd=None):
    """`gridlock ARGS`: its stdout as JSON, or None (a failure said) when it did not run as
    expected."""
    p = subprocess.run([gridlock] + args, cwd=cwd, capture_output=True, text=True)
    if p.returncode != want_rc:
        failures.append("%s: exit %d, expected %d: %s" % (what, p.returncode, want_rc,
                                                          p.stderr.strip()[:400]))
        return None
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        failures.append("%s: not JSON (%s): %s" % (what, e, p.stdout[:200]))
        return None


def check(what, name, doc, musts=()):
    """`doc` valid against `name`'s schema, its version first, and each path in `musts` (a
    field that must be there, so that its schema is exercised) present."""
    if doc is None:
        return
    for e in schemas[name].iter_errors(doc):
        failures.append("%s: /%s: %s" % (what, "/".join(map(str, e.absolute_path)), e.message))
    if next(iter(doc), None) != "version":
        failures.append("%s: version is not the first field" % what)
    for path in musts:
        node, ok = doc, True
        for part in path.split("/"):
            if isinstance(node, list):
                node = [n[part] for n in node if isinstance(n, dict) and part in n]
                ok = bool(node)
                node = node[0] if node else None
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                ok = False
            if not ok:
                break
        if not ok:
            failures.append("%s: no %s in the output; the check does not reach that field" %
                            (what, path))


scan_db = os.path.join(build, "fixtures", "scan")
scan_root = os.path.join(src, "fixtures", "scan")
scan_args = ["--no-cache", "-q", "-p", scan_db, "--root", scan_root,
             "--rules", os.path.join(scan_root, "gridlock.json")]
with tempfile.TemporaryDirectory(prefix="gridlock-reports-") as tmp:
    # scan: reads of every shape (macro, fallback, edge, allowed, laundered), nvcc notes; with
    # --plan the rewriter's detail; a file that does not parse.
    check("scan", "scan", run("scan", ["scan", "--format", "json"] + scan_args, 0),
          ["reads/macro", "reads/spelling", "reads/fix_source", "reads/holder", "reads/offset",
           "reads/end_line", "reads/language", "reads/mutates", "notes", "summary/by_group"])
    callers = os.path.join(src, "fixtures", "callers")
    callers_db = os.path.join(build, "fixtures", "callers")
    check("scan (laundered)", "scan",
          run("scan (laundered)", ["scan", "--format", "json", "--no-cache", "-q", "-p",
                                   callers_db, "--root", callers, "--rules",
                                   os.path.join(callers, "gridlock.json")], 0),
          ["reads/launders", "reads/fallback_dead", "reads/breaking_sites"])
    check("scan --plan", "scan",
          run("scan --plan", ["scan", "--plan", "--format", "json"] + scan_args, 0),
          ["reads/fix_detail"])
    broken = os.path.join(src, "fixtures", "broken")
    check("scan (parse error)", "scan",
          run("scan (parse error)", ["scan", "--format", "json", "--no-cache", "-q",
                                     "--allow-parse-errors", "-p",
                                     os.path.join(build, "fixtures", "broken"), "--root", broken,
                                     "--rules", "gridlock-legacy"], 0),
          ["parse_errors/messages"])
    # Python: no compile database, the pack's scope; every read says it is Python's.
    python = os.path.join(src, "fixtures", "python")
    py_scan = run("scan (python)", ["scan", "--format", "json", "--no-cache", "-q",
                                    "--allow-parse-errors", "--root", python, "--rules",
                                    os.path.join(python, "gridlock.json")], 0)
    check("scan (python)", "scan", py_scan, ["reads/language"])
    if py_scan and {r.get("language") for r in py_scan["reads"]} != {"python"}:
        failures.append("scan (python): languages %s, expected python only" %
                        sorted({r.get("language") for r in py_scan["reads"]}))

    # gate: a baseline (without its root, so that it serves from here) that misses one key, has
    # one more read of another, and a key of a file that is there but no unit scans (as a file
    # that left the compile database): new, fell and kept.
    base = load(os.path.join(scan_root, "gridlock-baseline.json"))
    base.pop("root", None)
    gone = base["entries"].pop(0)
    base["entries"][0]["count"] += 1
    base["entries"].append({"file": "gridlock.json", "enclosing": "f", "name": gone["name"],
                            "count": 1})
    base["total"] = sum(e["count"] for e in base["entries"])
    baseline = os.path.join(tmp, "baseline.json")
    with open(baseline, "w") as f:
        json.dump(base, f)
    gate = run("gate", ["gate", "--format", "json", "--baseline", baseline] + scan_args, 1)
    check("gate", "gate", gate, ["changes/reads/fix_source", "changes/why", "allowed/reason",
                                 "gate/changed_since", "gate/writes", "gate/writes_checked",
                                 "changes/access"])
    if gate and sorted({c["change"] for c in gate["changes"]}) != ["fell", "kept", "new"]:
        failures.append("gate: changes %s, expected new, fell and kept" %
                        sorted({c["change"] for c in gate["changes"]}))

    # merge: one shard's facts give the scan's report.
    facts = os.path.join(tmp, "all.facts")
    subprocess.run([gridlock, "scan", "--shard", "1/1", "--facts-out", facts] + scan_args,
                   capture_output=True)
    check("merge", "scan", run("merge", ["merge", facts, "--format", "json"], 0))

    # callers: every via and supplied value of fixtures/callers.
    check("callers", "callers",
          run("callers", ["callers", "-q", "-p", callers_db,
                          "--root", callers, "--function", "minitron::Attention::Attention",
                          "--param", "pg_collection", "--format", "json"], 0),
          ["sites/forwarded_from", "classes"])

    # callers on Python: classes handed on as values, and where they escape.
    pycallers = os.path.join(src, "fixtures", "pycallers")
    check("callers (python)", "callers",
          run("callers (python)", ["callers", "-q", "--no-cache", "--root", pycallers,
                                   "--rules", os.path.join(pycallers, "gridlock.json"),
                                   "--function", "pkg.layers.Row", "--param", "tp_group",
                                   "--format", "json"], 0),
          ["escapes/how", "sites/passed"])

    # pair: results already collected (tests/pair/data/categories), every category.
    data = os.path.join(src, "tests", "pair", "data", "categories")
    check("pair", "pair",
          run("pair", ["pair", "--baseline-results", os.path.join(data, "baseline"),
                       "--change-results", os.path.join(data, "change"), "--format", "json"],
              1),
          ["tests/failed_ranks", "signatures/categories"])

# The closed vocabularies, spelled as the facts spell them (tool/facts/kinds.h).
with open(os.path.join(src, "tool", "facts", "kinds.h")) as f:
    kinds = f.read()
tables = {m.group(1): re.findall(r'"([^"]*)"', m.group(2)) for m in
          re.finditer(r"^GRIDLOCK_SPELLINGS\((\w+),(.*?)\);", kinds, re.S | re.M)}
scan_s = load(os.path.join(src, "schema", "scan-report.schema.json"))
read = scan_s["definitions"]["read"]["properties"]
callers_s = load(os.path.join(src, "schema", "callers-report.schema.json"))
site = callers_s["properties"]["sites"]["items"]["properties"]
gate_s = load(os.path.join(src, "schema", "gate-report.schema.json"))
gate_kind = gate_s["properties"]["changes"]["items"]["properties"]["reads"]["items"]["properties"]
for where, enum, table in (("scan reads/kind", read["kind"]["enum"], "ReadKind"),
                           ("gate changes/reads/kind", gate_kind["kind"]["enum"], "ReadKind"),
                           ("scan reads/guard", read["guard"]["enum"], "Guard"),
                           ("scan reads/yields", read["yields"]["enum"], "Yields"),
                           ("scan reads/language", read["language"]["enum"], "Language"),
                           ("callers sites/via", site["via"]["enum"], "Via"),
                           ("callers sites/supplied", site["supplied"]["enum"], "Supplied")):
    if sorted(enum) != sorted(tables.get(table, [])):
        failures.append("%s: %s != kinds.h %s" % (where, enum, tables.get(table)))
# A read's "fix" is its hint, the strategy applied (a supplied argument is spelled substitute:
# tool/facts/verdict.h) or the reason it was left: the union of those three tables.
fix_words = set(tables.get("Hint", [])) | set(tables.get("Left", [])) | (
    set(tables.get("Strategy", [])) - {"supply"})
fix_enum = scan_s["definitions"]["fix"]["enum"]
if not tables.get("Hint") or not tables.get("Left") or not tables.get("Strategy") or \
        sorted(fix_enum) != sorted(fix_words):
    failures.append("scan fix: %s != kinds.h Hint | Strategy - supply | Left %s"
                    % (sorted(fix_enum), sorted(fix_words)))

for f in failures:
    print("validate_reports: FAIL: " + f)
print("validate_reports: %s" % ("FAIL" if failures else "OK"))
sys.exit(1 if failures else 0)
