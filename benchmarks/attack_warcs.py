"""Attack the WARC reader: seeded, damaged copies of a small WARC through ``blockclf extract``.

160 variants of a six-record WARC (gzipped, and every fourth one plain): bytes flipped, the
file cut short, junk inserted or appended, a slice deleted. Each runs as its own process
with a 30 s limit; the counts say how many ended as they should (exit 0 or 1, every damaged
record named) and list any hang, death by signal, traceback or other exit code. Not part of
the test suite (the cases it found are tests in ``tests/test_attacks.py``)::

    python benchmarks/attack_warcs.py
"""

from __future__ import annotations

import io
import random
import subprocess
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

VARIANTS = 160


def sound(gz: bool) -> bytes:
    """A well-formed WARC of six HTML responses."""
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=gz)
    for i in range(6):
        paragraphs = "".join(f"<p>Paragraph {j} of page {i} with words.</p>" for j in range(30))
        html = f"<html><body><h1>Title {i}</h1>{paragraphs}</body></html>".encode()
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(f"http://example.org/{i}", "response",
                                                      payload=io.BytesIO(html), http_headers=headers))
    return buf.getvalue()


def damaged(k: int, rng: random.Random) -> bytes:
    """The ``k``-th variant: one of five kinds of damage, in turn."""
    data = bytearray(sound(gz=k % 4 != 0))
    op = k % 5
    if op == 0:  # flip bytes
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif op == 1:  # truncate
        data = data[: rng.randrange(len(data))]
    elif op == 2:  # insert junk
        at = rng.randrange(len(data))
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))
    elif op == 3:  # append junk
        data += bytes(rng.randrange(256) for _ in range(rng.randint(1, 50)))
    else:  # delete a slice
        at = rng.randrange(len(data))
        del data[at:at + rng.randint(1, 500)]
    return bytes(data)


def run(root: Path, f: Path) -> tuple[str, str]:
    """How the command ended on one file: ``ok``, or what went wrong and where."""
    out = root / ("out_" + f.stem)
    try:
        p = subprocess.run(["blockclf", "extract", str(f), "-o", str(out), "--jobs", "1", "--overwrite"],
                           capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return "hang", f.name
    if p.returncode < 0:
        return "signal", f.name
    if "Traceback" in p.stderr:
        return "traceback", f.name
    if p.returncode not in (0, 1):
        return f"exit{p.returncode}", f.name + " " + p.stderr[-200:]
    return "ok", ""


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="blockclf-warcs-"))
    rng = random.Random(7)
    variants = []
    for k in range(VARIANTS):
        f = root / f"v{k}.warc.gz"
        f.write_bytes(damaged(k, rng))
        variants.append(f)
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda f: run(root, f), variants))
    print(Counter(r[0] for r in results))
    for r in results:
        if r[0] != "ok":
            print(r)


if __name__ == "__main__":
    main()
