"""Attack the model loader: damaged copies of the shipped models through ``blockclf extract``.

Writes seeded, damaged variants of ``models/default.json`` and ``models/refined.json`` (lines
of the LightGBM text deleted, duplicated or swapped, the text cut short, bytes flipped,
arrays edited with tree_sizes kept right, header values changed, the refining model
damaged, wrong JSON types, deep nesting, huge numbers) to a temporary folder, runs

    blockclf extract data/example.html --model VARIANT

on each in its own process, and counts the outcomes: deaths by signal, tracebacks, hangs
(no answer within ``--timeout`` seconds), exit 2 with one ``blockclf: error:`` line, exit 0
(the damage left a usable model), anything else. Not part of the test suite::

    python benchmarks/attack_models.py [--variants 70] [--jobs 2] [--timeout 60]
    PYTHONPATH=/path/to/other/checkout python benchmarks/attack_models.py   # another version
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "data" / "example.html"


def _resized(text: str) -> str:
    """``text`` with tree_sizes measured again from its tree sections (so edits inside a tree
    reach the checks behind the sizes)."""
    starts, k = [], 0
    while (at := text.find(f"\nTree={k}\n")) >= 0:
        starts.append(at + 1)
        k += 1
    end = text.find("end of trees")
    if not starts or end < 0 or "tree_sizes=" not in text:
        return text
    ends = starts[1:] + [end]
    head, _, rest = text.partition("tree_sizes=")
    return head + "tree_sizes=" + " ".join(str(e - s) for s, e in zip(starts, ends)) + rest[rest.index("\n"):]


def _text_damage(text: str, rng: random.Random) -> tuple[str, str]:
    """One random kind of damage to LightGBM model text, and its name."""
    lines = text.split("\n")
    trees = [i for i, line in enumerate(lines) if line.startswith("Tree=")]
    kind = rng.choice(["delete", "delete-in-tree", "duplicate", "swap", "truncate", "flip", "token", "header"])
    if kind == "delete":
        lines.pop(rng.randrange(len(lines)))
    elif kind == "delete-in-tree":
        lines.pop(rng.choice(trees) + rng.randrange(1, 17))
    elif kind == "duplicate":
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == "swap":
        i = rng.choice(trees) + rng.randrange(1, 16)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == "truncate":
        return text[:rng.randrange(len(text))], kind
    elif kind == "flip":
        k = rng.randrange(len(text))
        return text[:k] + rng.choice("0123456789 -.e=\nxinf\x00\r") + text[k + 1:], kind
    elif kind == "token":
        i = rng.choice(trees) + rng.randrange(1, 17)
        key, _, value = lines[i].partition("=")
        toks = value.split(" ")
        j = rng.randrange(len(toks))
        edit = rng.choice(["drop", "big", "negative", "zero", "word", "inf", "nan", "huge-exponent"])
        toks[j] = {"big": "99999", "negative": "-99999", "zero": "0", "word": "abc", "inf": "inf", "nan": "nan",
                   "huge-exponent": "1e999", "drop": ""}[edit]
        lines[i] = f"{key}={' '.join(t for t in toks if t)}"
        return _resized("\n".join(lines)), f"token-{edit}"
    else:
        i = rng.randrange(1, trees[0])
        key, _, _ = lines[i].partition("=")
        lines[i] = f"{key}={rng.choice(['0', '-1', '3', '', 'x', '99999999999'])}"
    return "\n".join(lines), kind


JSON_DAMAGE = {
    "features-5": lambda d: d.update(features=5),
    "features-lists": lambda d: d.update(features=[[1]]),
    "info-list": lambda d: d.update(info=[1, 2]),
    "info-huge-int": lambda d: d.update(info={"n": 10**3999}),
    "thresholds-text": lambda d: d.update(thresholds="0.5"),
    "format_version-true": lambda d: d.update(format_version=True),
    "booster-number": lambda d: d.update(booster=12),
    "refiner-list": lambda d: d.update(refiner=[1, 2]),
}


def variants(out: Path, n: int, seed: int = 0) -> list[tuple[Path, str]]:
    """Write about ``n`` damaged model files to ``out``; returns (path, what was done)."""
    rng = random.Random(seed)
    models = {name: json.loads((ROOT / "models" / f"{name}.json").read_text(encoding="utf-8"))
              for name in ("default", "refined")}
    made: list[tuple[Path, str]] = []

    def write(data: dict | None, what: str, raw: str | None = None) -> None:
        path = out / f"v{len(made):03d}.json"
        path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
        made.append((path, what))

    for name, change in JSON_DAMAGE.items():
        data = json.loads(json.dumps(models["default"]))
        change(data)
        write(data, f"default json {name}")
    write(None, "deep nesting", raw="[" * 100_000)
    write(None, "deep info", raw='{"format": "blockclf-model", "info": ' + "[" * 100_000)
    write(None, "version of 5000 digits", raw='{"format": "blockclf-model", "format_version": ' + "9" * 5000 + "}")
    raw = json.dumps(models["default"])
    write(None, "json cut in half", raw=raw[:len(raw) // 2])
    while len(made) < n:
        name = rng.choice(["default", "refined"])
        data = dict(models[name])
        part = "booster"
        if name == "refined" and rng.random() < 0.5:
            data["refiner"] = dict(data["refiner"])
            target, part = data["refiner"], "refiner.booster"
        else:
            target = data
        target["booster"], kind = _text_damage(target["booster"], rng)
        write(data, f"{name} {part} {kind}")
    return made


def attack(path: Path, timeout: float) -> str:
    """Run ``blockclf extract`` with model ``path``; the outcome's name."""
    try:
        res = subprocess.run([sys.executable, "-m", "blockclf", "extract", str(PAGE), "--model", str(path)],
                             capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return "hang"
    if res.returncode < 0:
        return f"signal {-res.returncode}"
    if "Traceback" in res.stderr:
        return "traceback"
    if res.returncode == 2 and res.stderr.startswith("blockclf: error: ") and res.stderr.count("\n") == 1 \
            and not res.stdout:
        return "exit 2, one line"
    if res.returncode == 0 and "[LightGBM]" not in res.stdout + res.stderr:
        return "exit 0 (usable)"
    return f"other (exit {res.returncode}: {(res.stderr or res.stdout).strip()[:80]!r})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", type=int, default=70)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", action="store_true", help="print every variant's outcome")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        made = variants(Path(tmp), args.variants, args.seed)
        with ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(lambda v: attack(v[0], args.timeout), made))
    if args.show:
        for (path, what), outcome in zip(made, outcomes):
            print(f"{path.name}  {what:45s} {outcome}")
    counts = Counter(o if not o.startswith("signal") else "death by signal" for o in outcomes)
    print(f"{len(made)} variants: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print(f"deaths by signal {counts['death by signal']}, tracebacks {counts['traceback']}, hangs {counts['hang']}")
    bad = counts["death by signal"] + counts["traceback"] + counts["hang"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
