#!/usr/bin/env python3
"""The shell commands a documented recipe runs, so scripts/ci-recipes.sh runs exactly them.

  recipe_commands.py readme README.md          the first ```sh block of "Use it in your project"
  recipe_commands.py readme-bear README.md     its ```sh block that runs bear (not CMake)
  recipe_commands.py workflow WORKFLOW.yml     the `run:` of each step, in order
  recipe_commands.py entry PRE-COMMIT-CONFIG   the `entry:` of each hook

Lines that install gridlock (`apt install`, `apt-get install`, `pip install ... gridlock...`)
and refresh the package lists (`apt-get update`) are printed as comments: the test installs the
build under test instead (tests/wheel/wheel_venv.sh runs the Python workflow's pip line as
written, with the wheel). Steps that `uses:` an action are left out and
named in a comment."""
import re
import sys


def readme_blocks(text):
    section = text.split("## Use it in your project", 1)
    if len(section) < 2:
        sys.exit("recipe_commands: README has no 'Use it in your project' section")
    return re.findall(r"```sh\n(.*?)```", section[1].split("\n## ", 1)[0], re.S)


def readme(text):
    blocks = readme_blocks(text)
    if not blocks:
        sys.exit("recipe_commands: no ```sh block in 'Use it in your project'")
    return blocks[0].splitlines()


def readme_bear(text):
    blocks = [b for b in readme_blocks(text) if re.search(r"^\S.*\bbear\b", b, re.M)]
    if not blocks:
        sys.exit("recipe_commands: no ```sh block running bear in 'Use it in your project'")
    return blocks[0].splitlines()


def workflow(text):
    """Steps of the one job: `- name:`/`- uses:` items with a single-line or `|` run."""
    out, step, lines = [], None, text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        item = re.match(r"^(\s*)- (\w+):\s*(.*)$", line)
        field = re.match(r"^(\s*)(\w+):\s*(.*)$", line)
        if item:
            step = {"indent": len(item.group(1)), item.group(2): item.group(3)}
            out.append(step)
        elif step is not None and field and len(field.group(1)) == step["indent"] + 2:
            key, value = field.group(2), field.group(3)
            if key == "run" and value.strip() == "|":
                body, i = [], i + 1
                while i < len(lines) and (not lines[i].strip() or
                                          len(lines[i]) - len(lines[i].lstrip()) > len(field.group(1))):
                    body.append(lines[i].strip())
                    i += 1
                step["run"] = "\n".join(body)
                continue
            step[key] = value
        i += 1
    commands = []
    for s in out:
        if "run" in s:
            commands.append("# step: " + s.get("name", s["run"]))
            commands.extend(s["run"].splitlines())
        elif "uses" in s:
            commands.append("# step uses " + s["uses"] + " (an action: not run here)")
    return commands


def entry(text):
    return [m.group(1) for m in re.finditer(r"^\s*entry:\s*(.+)$", text, re.M)]


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        text = f.read()
    lines = {"readme": readme, "readme-bear": readme_bear, "workflow": workflow,
             "entry": entry}[kind](text)
    for line in lines:
        if re.match(r"^\s*(sudo\s+)?apt(-get)?\s+(install|update)", line) or \
                re.match(r"^\s*pip3?\s+install\s.*\bgridlock\b", line):
            line = "# installed by the test instead: " + line
        # A trailing comment after a command stays a comment in sh.
        print(line)


if __name__ == "__main__":
    main()
