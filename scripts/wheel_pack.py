#!/usr/bin/python3
"""Packs a gridlock binary built for Python projects into a wheel (scripts/wheel.sh builds it).

usage: wheel_pack.py --binary BIN --source SRC --out DIR [--man FILE]

The wheel, gridlock-<version>-py3-none-manylinux_2_<Y>_<arch>.whl, holds:
  gridlock-<version>.data/scripts/gridlock           the binary; pip puts it in the venv's bin/
  gridlock-<version>.data/data/share/gridlock/rules  the shipped packs, found from the binary's
  gridlock-<version>.data/data/share/gridlock/schema   own place (<prefix>/bin -> <prefix>/share)
  gridlock-<version>.data/data/share/man/man1        the man page (--man)
  gridlock-<version>.dist-info/                      METADATA, WHEEL, LICENSE and RECORD

Before packing, the binary is checked, and the wheel refused (exit 1, saying why) unless:
  - it needs no shared library but glibc's (DT_NEEDED and ldd's resolved list), and no
    RPATH/RUNPATH: libstdc++ and libgcc are linked statically (cmake/static_libraries.cmake);
  - every symbol version it needs is a GLIBC_x.y one (none of GLIBCXX_, CXXABI_, GCC_,
    GLIBC_PRIVATE): the highest of them is the tag's manylinux_2_Y (PEP 600), the arch is the
    ELF header's machine;
  - `BIN --version` names the version of the source tree (CMakeLists.txt's project()).
The zip is written by pypa's wheel (`python3 -m wheel pack`, Debian python3-wheel): RECORD with
each file's sha256, names and tags by the wheel spec. SOURCE_DATE_EPOCH (default: the last
commit's time) dates the entries, so the same inputs give the same bytes.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

# glibc's own libraries (its 2.34+ merged several into libc.so.6; older ones still name them).
GLIBC_LIBRARIES = {
    'libc.so.6', 'libm.so.6', 'libpthread.so.0', 'libdl.so.2', 'librt.so.1', 'libutil.so.1',
    'ld-linux-x86-64.so.2', 'ld-linux-aarch64.so.1',
}
# The kernel's vDSO, which ldd lists beside the libraries.
VDSO = {'linux-vdso.so.1', 'linux-gate.so.1'}
# readelf's machine names -> the platform tag's arch.
ARCHES = {'Advanced Micro Devices X86-64': 'x86_64', 'AArch64': 'aarch64'}
# `wheel pack` came with wheel 0.32.
WHEEL_MIN = (0, 32)

DESCRIPTION = """\
gridlock finds and removes reads of global process-group state
(`parallel_state.get_tensor_model_parallel_group()`, a module-level `num_kv_heads` written by a
setter) in Python training codebases, gates CI on their count, and rewrites the reads into
explicitly passed groups.

This wheel carries the Python build of gridlock: `gridlock scan`, `gate`, `callers`, `rewrite`
and `pair` on Python code, the shipped rule packs, and nothing else to install (no Clang, LLVM
or MPI; glibc {glibc} or later). C++/CUDA code needs the full build (the .deb). A Python
rewrite's type check runs pyright when it is installed (`npm install -g pyright`).
"""


class Refused(Exception):
    pass


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise Refused(f"{' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def source_version(src):
    with open(os.path.join(src, 'CMakeLists.txt')) as f:
        m = re.search(r'project\(gridlock VERSION ([0-9.]+)', f.read())
    if not m:
        raise Refused(f"no project(gridlock VERSION ...) in {src}/CMakeLists.txt")
    return m.group(1)


def arch_of(binary):
    header = run('readelf', '-h', binary)
    if not re.search(r'Class:\s+ELF64', header):
        raise Refused(f"{binary} is not a 64-bit ELF file")
    m = re.search(r'Machine:\s+(.*)', header)
    machine = m.group(1).strip() if m else '?'
    if machine not in ARCHES:
        raise Refused(f"{binary}: no platform tag known for machine '{machine}'")
    return ARCHES[machine]


def needed_of(binary):
    dynamic = run('readelf', '-d', '-W', binary)
    needed = re.findall(r'\(NEEDED\)\s+Shared library: \[(.*)\]', dynamic)
    if not needed:
        raise Refused(f"readelf found no NEEDED entries in {binary} (not dynamically linked?)")
    foreign = [n for n in needed if n not in GLIBC_LIBRARIES]
    if foreign:
        raise Refused(f"{binary} needs {', '.join(foreign)}: the wheel carries nothing but the "
                      "binary, so every library but glibc must be linked statically "
                      "(-DGRIDLOCK_STATIC_LIBRARIES=ON, and no Clang/LLVM: the Python build)")
    paths = re.findall(r'\((?:RPATH|RUNPATH)\)\s+Library (?:rpath|runpath): \[(.*)\]', dynamic)
    if paths:
        raise Refused(f"{binary} has a library search path ({', '.join(paths)})")
    return needed


def check_ldd(binary):
    """Everything the loader would load (also indirectly) is glibc's."""
    for line in run('ldd', binary).splitlines():
        line = line.strip()
        if not line or line == 'statically linked':
            continue
        name = os.path.basename(line.split()[0])
        if 'not found' in line:
            raise Refused(f"ldd {binary}: {line}")
        if name not in GLIBC_LIBRARIES and name not in VDSO:
            raise Refused(f"ldd {binary} loads {line}, which is not glibc's")


def glibc_needed(binary):
    """The highest GLIBC_x.y[.z] symbol version the binary needs, as (x, y)."""
    text = run('readelf', '-V', '-W', binary)
    section = text.split("Version needs section '.gnu.version_r'", 1)
    if len(section) != 2:
        raise Refused(f"{binary} has no version needs (.gnu.version_r): its glibc is unknown")
    names = re.findall(r'Name: (\S+)\s+Flags:', section[1].split('Version symbols section', 1)[0])
    versions = []
    for name in names:
        m = re.fullmatch(r'GLIBC_(\d+)\.(\d+)(?:\.\d+)?', name)
        if not m:
            raise Refused(f"{binary} needs symbol version {name}: only GLIBC_x.y ones may remain "
                          "(libstdc++ and libgcc linked statically)")
        versions.append((int(m.group(1)), int(m.group(2))))
    if not versions:
        raise Refused(f"{binary} needs no GLIBC_ symbol version: its glibc is unknown")
    return max(versions)


def check_version(binary, version):
    out = run(binary, '--version').strip()
    if not out.startswith(f'gridlock {version}'):
        raise Refused(f"{binary} --version says '{out}', not gridlock {version} (the source tree)")
    return out


def wheel_version():
    import wheel
    got = tuple(int(p) for p in re.findall(r'\d+', wheel.__version__)[:2])
    if got < WHEEL_MIN:
        raise Refused(f"wheel {wheel.__version__} has no `wheel pack` (0.32 or later: Debian "
                      "python3-wheel, scripts/setup.sh)")
    return wheel.__version__


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, mode)


def copy(src, dest_dir, mode=0o644, name=None):
    os.makedirs(dest_dir, exist_ok=True)
    dest = os.path.join(dest_dir, name or os.path.basename(src))
    shutil.copyfile(src, dest)
    os.chmod(dest, mode)


def stage(root, args, version, tag, glibc):
    data = os.path.join(root, f'gridlock-{version}.data')
    info = os.path.join(root, f'gridlock-{version}.dist-info')
    copy(args.binary, os.path.join(data, 'scripts'), 0o755, 'gridlock')
    share = os.path.join(data, 'data', 'share')
    packs = sorted(glob.glob(os.path.join(args.source, 'rules', '*.json')))
    schemas = sorted(glob.glob(os.path.join(args.source, 'schema', '*.json')))
    if not packs or not schemas:
        raise Refused(f"no rules/*.json or schema/*.json in {args.source}")
    for p in packs:
        copy(p, os.path.join(share, 'gridlock', 'rules'))
    for s in schemas:
        copy(s, os.path.join(share, 'gridlock', 'schema'))
    if args.man:
        copy(args.man, os.path.join(share, 'man', 'man1'), name='gridlock.1')
    copy(os.path.join(args.source, 'LICENSE'), info)
    glibc_text = f'{glibc[0]}.{glibc[1]}'
    write(os.path.join(info, 'METADATA'),
          'Metadata-Version: 2.1\n'
          'Name: gridlock\n'
          f'Version: {version}\n'
          'Summary: Find, gate and remove reads of global process-group state in Python '
          'training code\n'
          'License: Apache-2.0 WITH LLVM-exception\n'
          'Classifier: Operating System :: POSIX :: Linux\n'
          'Classifier: Topic :: Software Development :: Quality Assurance\n'
          'Description-Content-Type: text/markdown\n'
          '\n' + DESCRIPTION.format(glibc=glibc_text))
    write(os.path.join(info, 'WHEEL'),
          'Wheel-Version: 1.0\n'
          'Generator: gridlock scripts/wheel_pack.py\n'
          'Root-Is-Purelib: false\n'
          f'Tag: {tag}\n')


def source_date(src):
    if os.environ.get('SOURCE_DATE_EPOCH'):
        return os.environ['SOURCE_DATE_EPOCH']
    r = subprocess.run(['git', '-C', src, 'log', '-1', '--format=%ct'], capture_output=True,
                       text=True)
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--binary', required=True)
    parser.add_argument('--source', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--man')
    args = parser.parse_args()
    try:
        if not os.path.isfile(args.binary) or not os.access(args.binary, os.X_OK):
            raise Refused(f"{args.binary} is not an executable file")
        version = source_version(args.source)
        arch = arch_of(args.binary)
        needed = needed_of(args.binary)
        check_ldd(args.binary)
        glibc = glibc_needed(args.binary)
        says = check_version(args.binary, version)
        wheel_lib = wheel_version()
        tag = f'py3-none-manylinux_{glibc[0]}_{glibc[1]}_{arch}'
        os.makedirs(args.out, exist_ok=True)
        for old in glob.glob(os.path.join(args.out, f'gridlock-{version}-*.whl')):
            os.remove(old)  # one wheel of this version: `pip install dist/*.whl` takes it
        env = dict(os.environ)
        date = source_date(args.source)
        if date:
            env['SOURCE_DATE_EPOCH'] = date
        with tempfile.TemporaryDirectory(prefix='gridlock-wheel-') as tmp:
            root = os.path.join(tmp, f'gridlock-{version}')
            stage(root, args, version, tag, glibc)
            r = subprocess.run([sys.executable, '-m', 'wheel', 'pack', root, '-d', args.out],
                               capture_output=True, text=True, env=env)
            if r.returncode != 0:
                raise Refused(f"wheel pack failed: {r.stderr.strip()}")
        wheel = os.path.join(args.out, f'gridlock-{version}-{tag}.whl')
        if not os.path.isfile(wheel):
            raise Refused(f"wheel pack wrote no {wheel}: {r.stdout.strip()}")
    except Refused as e:
        print(f"wheel: error: {e}", file=sys.stderr)
        return 1
    print(f"wheel: {wheel} ({os.path.getsize(wheel)} bytes; wheel {wheel_lib})")
    print(f"wheel: binary: {says}; NEEDED {' '.join(needed)}; "
          f"needs glibc {glibc[0]}.{glibc[1]}: {tag}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
