#!/usr/bin/python3
"""Every shipped pack, example pack, fixture pack and every-key pack (tests/cache/every_key)
validates against the published rule-pack schema; the schema rejects what the parser rejects
(a few known-bad packs); every enum in the schema is spelled as in tool/facts/kinds.h (and the
closed ones list exactly its table); the config schema names exactly the documented keys.
Usage: validate_packs.py SOURCE_DIR"""
import glob
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate_packs: python3-jsonschema is missing (scripts/setup.sh installs it)")

src = sys.argv[1]
failures = []


def load(rel):
    with open(os.path.join(src, rel)) as f:
        return json.load(f)


pack_schema = load("schema/rule-pack.schema.json")
config_schema = load("schema/config.schema.json")
for name, schema in (("rule-pack", pack_schema), ("config", config_schema)):
    jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(pack_schema)

# 1. Every pack in the tree validates.
packs = sorted(glob.glob(os.path.join(src, "rules", "*.json")) +
               glob.glob(os.path.join(src, "rules", "examples", "*.json")) +
               glob.glob(os.path.join(src, "fixtures", "**", "gridlock.json"), recursive=True) +
               glob.glob(os.path.join(src, "tests", "cache", "every_key", "*.json")))
rels = [os.path.relpath(p, src) for p in packs]
for must in ("rules/gridlock-legacy.json", "rules/mpi.json", "fixtures/scan/gridlock.json",
             "fixtures/model/gridlock.json", "tests/cache/every_key/cpp.json"):
    if must not in rels:
        failures.append("expected pack not found: " + must)
for path, rel in zip(packs, rels):
    with open(path) as f:
        pack = json.load(f)
    for e in validator.iter_errors(pack):
        failures.append("%s: /%s: %s" % (rel, "/".join(map(str, e.absolute_path)), e.message))
print("validate_packs: %d packs checked" % len(packs))

# 2. Packs the parser rejects (tests/unit/rules_test.cpp), rejected here too.
bad = {
    "unknown key": {"name": "x", "acessors": []},
    "no name": {"accessors": [{"macro": "M", "kind": "accessor", "group": "g", "yields": "group"}]},
    "finds nothing": {"name": "x"},
    "bad kind": {"name": "x", "accessors": [{"function": "f", "kind": "acessor", "group": "tp"}]},
    "accessor without group": {"name": "x", "accessors": [{"function": "f", "kind": "accessor"}]},
    "function and macro": {"name": "x", "accessors": [
        {"function": "f", "macro": "M", "kind": "shim"}]},
    "neither function nor macro": {"name": "x", "accessors": [{"kind": "shim"}]},
    "shim yielding a group": {"name": "x", "accessors": [
        {"function": "f", "kind": "shim", "yields": "group"}]},
    "type yielding size": {"name": "x", "types": [{"type": "T", "yields": "size"}],
                           "globals": [{"variable": "v"}]},
    "type without field": {"name": "x", "globals": [{"variable": "v", "type": "M"}]},
    "field not an identifier": {"name": "x", "globals": [{"variable": "v", "field": "m.kv"}]},
    "scope include a string": {"name": "x", "scope": {"include": "**"},
                               "globals": [{"variable": "v"}]},
    "spell without {g}": {"name": "x", "globals": [{"variable": "v"}],
                          "rewrite": {"spell": {"size": "size()"}}},
    "thread group without group": {"name": "x", "globals": [{"variable": "v"}],
                                   "rewrite": {"thread": {"type": "T", "name": "n", "edge": "e"}}},
    "$schema a number": {"$schema": 7, "name": "x", "globals": [{"variable": "v"}]},
    "env without methods": {"name": "x", "globals": [{"variable": "v"}],
                            "rewrite": {"env": {"type": "E", "parameter": "const E &e",
                                                "edge": "E::get()"}}},
    "env passed by value": {"name": "x", "globals": [{"variable": "v"}],
                            "rewrite": {"env": {"type": "E", "parameter": "E e", "edge": "E::get()",
                                                "methods": {"tp": {"size": "{env}.s()"}}}}},
    "env method without {env}": {"name": "x", "globals": [{"variable": "v"}],
                                 "rewrite": {"env": {"type": "E", "parameter": "E &e",
                                                     "edge": "E::get()",
                                                     "methods": {"tp": {"size": "s()"}}}}},
    "env and thread": {"name": "x", "globals": [{"variable": "v"}],
                       "rewrite": {"thread": {"type": "T", "name": "n", "edge": "e",
                                              "yields": "collection"},
                                   "env": {"type": "E", "parameter": "E &e", "edge": "E::get()",
                                           "methods": {"tp": {"size": "{env}.s()"}}}}},
    "python and function": {"name": "x", "accessors": [
        {"python": "a.b", "function": "f", "kind": "accessor", "group": "tp", "yields": "group"}]},
    "python accessor without group": {"name": "x", "accessors": [
        {"python": "a.b", "kind": "accessor", "yields": "group"}]},
    "python name not dotted": {"name": "x", "accessors": [
        {"python": "a..b", "kind": "accessor", "group": "tp", "yields": "group"}]},
    "python family of shims": {"name": "x", "accessors": [
        {"python_family": {"module": "m", "suffixes": {"_g": "group"}}, "kind": "shim"}]},
    "python family with yields": {"name": "x", "accessors": [
        {"python_family": {"module": "m", "suffixes": {"_g": "group"}}, "kind": "accessor",
         "yields": "group"}]},
    "python family without suffixes": {"name": "x", "accessors": [
        {"python_family": {"module": "m", "suffixes": {}}, "kind": "accessor"}]},
    "python global with field": {"name": "x", "globals": [{"python": "a.b", "field": "f"}]},
    "python global with except": {"name": "x", "globals": [{"python": "a.b", "except": ["c"]}]},
    "python count unknown": {"name": "x", "python": {"count": "lines"},
                             "globals": [{"python": "a.b"}]},
}
for what, pack in bad.items():
    if validator.is_valid(pack):
        failures.append("the schema accepts a pack the parser rejects: " + what)
good = {"name": "x", "$schema": "s", "extends": ["mpi"],
        "rewrite": {"thread": {"type": "T", "name": "n", "edge": "e", "yields": "collection"}}}
python = {"name": "x", "python": {"count": "calls", "once_per_line": True, "laundering": False},
          "accessors": [{"python": "a.b", "kind": "accessor", "group": "tp", "yields": "group"},
                        {"python": "a.C.use", "kind": "shim"},
                        {"python_family": {"module": "a", "prefix": "get_",
                                           "suffixes": {"_group": "group"}, "except": ["get_x"],
                                           "groups": {"tp": "tp"}}, "kind": "accessor"}],
          "globals": [{"python": "a._X"}, {"python_module": "a", "except": ["_LOCK"]}]}
for pack in (good, python):
    if not validator.is_valid(pack):
        failures.append("the schema rejects a pack the parser takes: " + json.dumps(pack))

# 3. Enums spelled as the facts spell them; closed vocabularies complete.
with open(os.path.join(src, "tool/facts/kinds.h")) as f:
    kinds = f.read()
tables = {}
for m in re.finditer(r"^GRIDLOCK_SPELLINGS\((\w+),(.*?)\);", kinds, re.S | re.M):
    tables[m.group(1)] = re.findall(r'"([^"]*)"', m.group(2))
defs = pack_schema["definitions"]
rw = defs["rewrite"]["properties"]
enums = [  # (where, enum, its kinds.h table, whether the parser takes the whole table)
    ("types/yields", defs["type"]["properties"]["yields"]["enum"], "Yields", False),
    ("accessors/kind", defs["accessor"]["properties"]["kind"]["enum"], "ReadKind", False),
    ("accessors/yields", defs["accessor"]["properties"]["yields"]["enum"], "Yields", False),
    ("globals/kind", defs["global"]["properties"]["kind"]["enum"], "ReadKind", False),
    ("accessors/python/kind", defs["pythonAccessor"]["properties"]["kind"]["enum"], "ReadKind",
     False),
    ("accessors/python/yields", defs["pythonAccessor"]["properties"]["yields"]["enum"], "Yields",
     False),
    ("accessors/python_family/suffixes",
     defs["pythonFamily"]["properties"]["python_family"]["properties"]["suffixes"][
         "additionalProperties"]["enum"], "Yields", False),
    ("globals/python/kind", defs["pythonGlobal"]["properties"]["kind"]["enum"], "ReadKind", False),
    ("rewrite/thread/yields", rw["thread"]["properties"]["yields"]["enum"], "Yields", False),
    ("rewrite/thread/position", rw["thread"]["properties"]["position"]["enum"],
     "ThreadPosition", True),
]
for where, enum, table, whole in enums:
    if table not in tables or not tables[table]:
        failures.append("kinds.h has no spelling table for " + table)
        continue
    for v in enum:
        if v not in tables[table]:
            failures.append("%s: %r is not a spelling of %s %s" % (where, v, table, tables[table]))
    if whole and sorted(enum) != sorted(tables[table]):
        failures.append("%s: %s != kinds.h %s" % (where, enum, tables[table]))
env_keys = sorted(rw["env"]["properties"]["methods"]["additionalProperties"]["properties"])
if env_keys != sorted(["group", "size", "rank", "src_rank"]):
    failures.append("rewrite/env/methods keys %s" % env_keys)
spell_keys = sorted(rw["spell"]["properties"])
derived = sorted(["group", "size", "rank", "src_rank"])
if spell_keys != derived or any(k not in tables.get("Yields", []) for k in spell_keys):
    failures.append("rewrite/spell keys %s != %s" % (spell_keys, derived))

# 4. The config schema: exactly the documented keys.
keys = sorted(config_schema["properties"])
want = sorted(["$schema", "build", "rules", "baseline", "root", "extra_args", "remove_args",
               "jobs", "docs_url", "python_roots", "package_root", "downstream"])
if keys != want:
    failures.append("config schema keys %s != %s" % (keys, want))
cfg = jsonschema.Draft7Validator(config_schema)
if not cfg.is_valid({"build": "build", "rules": ["mpi", "rules/ours.json"],
                     "baseline": ".gridlock-baseline.json", "jobs": 2,
                     "docs_url": "https://docs.example/gridlock/"}):
    failures.append("the config schema rejects a good config")
for what, c in {"unknown key": {"biuld": "b"}, "rules a string": {"rules": "mpi"},
                "negative jobs": {"jobs": -1}, "remove_args a string": {"remove_args": "-g"},
                "an empty remove pattern": {"remove_args": [""]},
                "docs_url not a URL": {"docs_url": "docs/"},
                "a python root outside the root": {"python_roots": ["../x"]},
                "an absolute package root": {"package_root": "/src"},
                "downstream a string": {"downstream": "../bridge"},
                "an empty downstream entry": {"downstream": [""]}}.items():
    if cfg.is_valid(c):
        failures.append("the config schema accepts a bad config: " + what)

# 5. The keys tool/cli/project_config.cpp reads are the schema's (less $schema, which it only
# accepts).
parsed = set(re.findall(r'key == "([^"]+)"', open(os.path.join(src, "tool/cli/project_config.cpp")).read()))
if parsed != set(want):
    failures.append("project_config.cpp reads %s, the schema has %s" % (sorted(parsed), want))

# 6. The baseline schema accepts the committed baselines and what --update writes (root).
base_schema = jsonschema.Draft7Validator(load("schema/baseline.schema.json"))
for rel in ("fixtures/scan/gridlock-baseline.json", "fixtures/model/gridlock-baseline.json"):
    for e in base_schema.iter_errors(load(rel)):
        failures.append("%s: %s" % (rel, e.message))
if not base_schema.is_valid({"gridlock_baseline": 1, "root": ".", "total": 1, "entries": [
        {"file": "a.cpp", "enclosing": "", "name": "g", "count": 1}]}):
    failures.append("the baseline schema rejects a baseline with a root")
if base_schema.is_valid({"gridlock_baseline": 1, "entries": [
        {"file": "a.cpp", "enclosing": "", "name": "g", "count": 0}]}):
    failures.append("the baseline schema accepts a count of 0")
if base_schema.is_valid({"gridlock_baseline": 1, "entries": [], "write_entries": [
        {"file": "a.cpp", "enclosing": "", "name": "g", "count": 0}]}):
    failures.append("the baseline schema accepts a write count of 0")
for rel in ("fixtures/scan/gridlock-baseline.json", "fixtures/model/gridlock-baseline.json"):
    if "write_entries" not in load(rel):
        failures.append("%s records no writes: the committed baselines are in the current format"
                        % rel)

for f in failures:
    print("validate_packs: FAIL: " + f)
sys.exit(1 if failures else 0)
