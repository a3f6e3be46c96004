"""Build the compiled extraction modules (see :mod:`specextract.compiled`)::

    python -m specextract.compile_modules build    # compile into specextract/_compiled/
    python -m specextract.compile_modules status   # compiled or pure, and why
    python -m specextract.compile_modules clean    # remove the build

``build`` needs mypy (the ``native`` extra) and a C compiler; when it fails, nothing
changes and specextract runs its Python sources.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .compiled import (GROUP, OUT, PACKAGE_DIR, build_status, compiled_sources,
                       module_name, sources_hash)


def build() -> int:
    """Compile the modules into ``_compiled/``; the old build is replaced only on success."""
    sources = compiled_sources()
    digest = sources_hash()  # before compiling: an edit during the build leaves it stale
    src_root = PACKAGE_DIR.parent
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / "lib"
        script = (
            "import sys\n"
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"paths = {[p.relative_to(src_root).as_posix() for p in sources]!r}\n"
            "setup(name='specextract-compiled', packages=[], py_modules=[],\n"
            f"      ext_modules=mypycify(['--ignore-missing-imports', '--follow-imports=silent'] + paths,\n"
            f"                           group_name={GROUP!r}, target_dir={str(Path(tmp) / 'c')!r}),\n"
            f"      script_args=['build_ext', '--build-lib', {str(lib)!r},\n"
            f"                   '--build-temp', {str(Path(tmp) / 'temp')!r}])\n")
        done = subprocess.run([sys.executable, "-c", script], cwd=src_root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-4000:])
            print(f"compiled build failed (exit {done.returncode}): specextract runs as Python",
                  file=sys.stderr)
            return 1
        manifest = {"python": sys.implementation.cache_tag, "sources": digest,
                    "modules": [module_name(p) for p in sources]}
        (lib / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        shutil.rmtree(OUT, ignore_errors=True)
        shutil.copytree(lib, OUT)
    print(f"compiled {len(sources)} modules into {OUT}")
    return 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "build":
        return build()
    if command == "clean":
        shutil.rmtree(OUT, ignore_errors=True)
        return 0
    if command == "status":
        usable, why = build_status()
        print(("compiled: " if usable else "pure: ") + why)
        return 0
    print("usage: python -m specextract.compile_modules [build|status|clean]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
