"""``blockclf extract``: many pages through the streaming batch, outputs written atomically.

Each output file, and the removed-blocks log, appears complete or not at all: files are
written under a temporary name and renamed into place.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .cli import UsageError, _write_atomic, collect_inputs
from .html import FLAG_WARNINGS, Limits
from .model import load_model
from .validate import verdict_flag

if TYPE_CHECKING:
    from .batch import Outcome

__all__ = ["EXT", "extract_command"]

EXT = {"text": ".txt", "markdown": ".md", "json": ".json"}


def _render(res, fmt: str) -> str:
    if fmt == "text":
        return res.text + ("\n" if res.text else "")
    if fmt == "markdown":
        return res.markdown
    return json.dumps(res.to_dict(), ensure_ascii=False, indent=1) + "\n"


def _render_page(res, fmt: str, with_log: bool) -> tuple[str, list[dict], list[str]]:
    """A result's output, removal-log records and flag warnings (runs in batch workers, so module level)."""
    from .render import removal_log

    flags = [w for w in res.warnings if w in FLAG_WARNINGS]
    flag = verdict_flag(res)  # an error or empty page is named on stderr with its reason
    return _render(res, fmt), (removal_log(res) if with_log else []), flags + ([flag] if flag else [])


class _FailFast(Exception):
    """Raised on the first skipped page under ``--fail-fast``."""


def extract_command(args: argparse.Namespace) -> int:
    """``blockclf extract``: pages, directories and WARC files to text, Markdown or JSON."""
    from functools import partial

    from .batch import BatchOptions, Item, run_batch
    from .site import SiteProfile
    from .warc import is_warc

    if args.threshold is not None and not 0 <= args.threshold <= 1:
        raise UsageError("--threshold must be between 0 and 1")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if min(args.max_bytes, args.max_nodes, args.max_depth) < 1:
        raise UsageError("--max-bytes, --max-nodes and --max-depth must be at least 1")
    model = load_model(args.model)
    profile = SiteProfile.load(args.site_profile) if args.site_profile else None
    warcs = [Path(p) for p in args.paths if is_warc(p)]
    inputs = collect_inputs([p for p in args.paths if not is_warc(p)])
    if not inputs and not warcs:
        raise UsageError("no .html/.htm/.html.gz files found in the given paths")
    if len(inputs) > 1 and args.output is None:
        raise UsageError(f"{len(inputs)} pages found: give -o OUTDIR to write one output per page")
    if args.dask and warcs:
        raise UsageError("--dask reads files the workers can open; extract WARC files without it")
    if inputs and warcs and args.output is None:
        raise UsageError("HTML files and WARC files together: give -o OUTDIR")
    with_log = bool(args.removed_log)
    opts = BatchOptions(model=model if args.jobs == 1 else args.model, favor=args.favor, threshold=args.threshold,
                        site_profile=profile, use_site=not args.no_site, explain=args.explain or with_log,
                        encoding=args.encoding, limits=Limits(max_bytes=args.max_bytes, max_nodes=args.max_nodes,
                                                              max_depth=args.max_depth,
                                                              max_seconds=args.time_budget or None),
                        transform=partial(_render_page, fmt=args.format, with_log=with_log), comments=args.comments)
    progress = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    skipped: Counter[str] = Counter()
    n_done = 0
    log_path = Path(args.removed_log) if args.removed_log else None
    log_tmp = log_path.with_name(f".{log_path.name}.tmp{os.getpid()}") if log_path else None
    log_fh = log_tmp.open("w", encoding="utf-8") if log_tmp else None

    def outcomes(batch):
        nonlocal n_done
        for o in batch:
            if o.error is not None:
                print(f"blockclf: skipped {o.name}: {o.error}", file=sys.stderr)
                skipped[o.error.reason] += 1
                if args.fail_fast:
                    raise _FailFast
                continue
            n_done += 1
            out, records, *flags = o.result
            if flags and flags[0]:
                print(f"blockclf: warning: {o.name}: flagged {', '.join(flags[0])}", file=sys.stderr)
            if log_fh is not None:
                for rec in records:
                    log_fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            yield o.name, out

    stems = {str(path): stem for path, stem in inputs}
    if args.output is not None and not args.overwrite:
        for path, stem in list(inputs):
            target = Path(args.output) / (stem + EXT[args.format])
            if target.exists():
                print(f"blockclf: skipped {path}: output {target} exists (give --overwrite to replace it)",
                      file=sys.stderr)
                skipped["exists"] += 1
                inputs.remove((path, stem))
    stopped = False
    try:
        if skipped and args.fail_fast:
            raise _FailFast
        if inputs:
            items = [Item(str(path), path, site=args.site) for path, stem in inputs]
            batch: Iterable[Outcome]
            if args.dask:
                from dataclasses import replace

                from .distributed import extract_dask

                batch = extract_dask(items, replace(opts, model=args.model), client=args.dask)
            else:
                batch = run_batch(items, opts, jobs=args.jobs, progress=progress)
            for name, out in outcomes(batch):
                if args.output is None:
                    sys.stdout.write(out)
                else:
                    _write_atomic(Path(args.output) / (stems[name] + EXT[args.format]), out)
        for warc in warcs:
            from .warc import extract_warc

            extract_warc(warc, args.output, opts, args.format, jobs=args.jobs, progress=progress,
                         site=args.site, with_log=with_log, outcomes=outcomes)
    except _FailFast:
        stopped = True
    except BaseException:  # an interrupt or a failure leaves no half-written log behind
        if log_fh is not None:
            log_fh.close()
            log_tmp.unlink(missing_ok=True)  # type: ignore[union-attr]
        raise
    if log_fh is not None:
        log_fh.close()
        log_tmp.replace(log_path)  # type: ignore[union-attr, arg-type]
    n_skipped = sum(skipped.values())
    if args.output is not None or n_skipped:
        detail = ", ".join(f"{k} {v}" for k, v in sorted(skipped.items()))
        print(f"blockclf: {n_done} processed, {n_skipped} skipped" + (f" ({detail})" if detail else "")
              + ("; stopped at the first skipped page (--fail-fast)" if stopped else ""), file=sys.stderr)
    return 1 if n_skipped else 0
