"""Build hook: compile the per-block hot path to C extensions with mypyc where that can be done.

Segmentation walks every element of every page in Python and is the largest share of a
page's time; compiled, the same source segments about 30% faster. The feature table, the
site evidence, the thread pass, the page checks and the comment, byline and structure
readings it hands on run per block too, and compiled with it they take about a twentieth
less of the command's CPU (benchmarks/README.md). The `Block` record compiled with them is
built and read natively, without a Python call: about 4% less of the command's time. Each
compiled module is optional: where mypyc or a C compiler is missing, or ``BLOCKCLF_PURE=1``
is set, the package installs as plain Python and behaves the same (tests/test_compiled.py
compares the two). Editable installs stay pure, so that an edit takes effect without
rebuilding.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

#: modules compiled when possible (each also ships as its Python source, the fallback), together
#: so that they call each other natively: the record they pass, the segmenter and the rules it
#: asks of every element, then what reads every block after it. Not compiled: render,
#: metadata, headline and markdown (compiled, they took no less CPU: benchmarks/quality.md),
#: inline (a ``str`` subclass) and html (mypyc cannot follow its types)
COMPILED = ["blockclf/block.py", "blockclf/segment.py", "blockclf/elements.py", "blockclf/words.py",
            "blockclf/features.py", "blockclf/region.py", "blockclf/site.py", "blockclf/threads.py",
            "blockclf/checks.py", "blockclf/comments.py", "blockclf/byline.py", "blockclf/structure.py"]
#: the setup commands that build extensions (metadata, sdist and editable builds do not)
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def _extensions() -> list:
    if os.environ.get("BLOCKCLF_PURE", "") not in ("", "0") or not BUILDS.intersection(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("blockclf: mypyc is not available; installing the pure-Python segmenter", file=sys.stderr)
        return []
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    try:
        # the build environment has none of the runtime dependencies: their types read as Any
        # one shared library, inside the package (unnamed, it lands beside the package in site-packages)
        exts = mypycify([*COMPILED, "--ignore-missing-imports", "--python-version", version], opt_level="3",
                        group_name="blockclf.segment")
    except (Exception, SystemExit) as exc:  # a type error mypyc refuses: fall back rather than fail the install
        print(f"blockclf: not compiling the segmenter ({exc}); installing it as pure Python", file=sys.stderr)
        return []
    for ext in exts:
        ext.optional = True  # a compiler failure leaves the pure-Python module in place
    return exts


setup(ext_modules=_extensions())
