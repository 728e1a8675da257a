"""``blockclf site ...``: build, inspect and watch site profiles from the command line.

- ``site build PAGES... -o site.json`` counts block repetition over a site's pages (``--update``
  adds new pages to an existing profile);
- ``site inspect site.json`` shows the document-frequency distribution of the site's blocks,
  the most repeated ones, and (with ``--pages``) what the model would remove;
- ``site stats INPUT... -o stats.json`` records extracted length and kept ratio per page;
- ``site drift OLD.json NEW.json [NEWER.json...]`` compares consecutive stats files and flags
  template changes.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..files import printable, write_atomic
from ..html import PageError
from ..inputs import is_jsonl
from ..model import cached_model, load_model
from ..predict import extract_batch, prepare_or_error
from ..records import json_objects
from ..result import Page, Result
from ..site import SAMPLE_CHARS, SiteProfile, batch_repetition, block_keys
from .common import (
    ARCHIVE_FILES,
    EXIT_CODES,
    UsageError,
    check_threshold,
    collect_inputs,
    iter_pages,
    jobs_value,
    model_options,
    nothing_found,
    page_items,
    readable_archives,
    report_skip,
    report_skips,
)

if TYPE_CHECKING:
    from ..batch import Item

__all__ = ["add_parser"]

#: document-frequency bins of the inspect histogram (upper edges, share of pages)
DF_BINS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
#: a removed block found on at least this share of other pages is reported as template
TEMPLATE_SHARE = 0.5


def _prepare_all(paths: Sequence[str], site: str | None, failed: list[str] | None = None) -> list[Page]:
    """Parse the pages named by ``paths`` (files, folders, and the pages of WARC and JSONL files);
    unusable pages are named on stderr and skipped (`blockclf.cli.common.read_pages`), their
    names appended to ``failed`` (the command then exits 1)."""
    return list(_each_page(paths, site, failed))


def _each_page(paths: Sequence[str], site: str | None, failed: list[str] | None = None) -> Iterator[Page]:
    """`_prepare_all` one page at a time (nothing found is a usage error before the first)."""
    inputs, listing, archives = _inputs(paths)
    return iter_pages(inputs, listing, site, failed if failed is not None else [], archives)


#: pages a worker of `site build` reads per task
_PAGES_PER_TASK = 8


def _each_counted(paths: Sequence[str], site: str | None, failed: list[str], jobs: int,
                  count: Callable[[Sequence[Item]], list[tuple[str, str | None, _Counted | PageError]]] | None = None,
                  ) -> Iterator[tuple[str, str | None, _Counted]]:
    """Each page's name, site and what a profile counts of it (`_Counted`), in input order,
    read by ``jobs`` worker processes (0: as many as the pages are worth, `auto_jobs`) with
    ``count`` (`_counted_pages`); unusable pages are named on stderr and in ``failed``, as
    `iter_pages` names them. A worker that dies costs only the pages it was reading, each
    named as failed."""
    from ..workers import Workers, auto_jobs, batch_collector

    inputs, listing, archives = _inputs(paths)
    report_skips(listing, failed)
    damage: dict[str, PageError] = {}
    items = page_items(inputs, site, archives, damage)
    tasks = ((None, (chunk,)) for chunk in iter(lambda: list(itertools.islice(items, _PAGES_PER_TASK)), []))
    workers = Workers(jobs or auto_jobs(None if archives else len(inputs)), lost=_lost_pages,
                      alone_args=lambda _fn, args: args)
    done = False
    try:
        with batch_collector():
            for _slot, rows in workers.map(count or _counted_pages, tasks):
                for name, page_site, got in rows:
                    if isinstance(got, PageError):
                        report_skip(name, got)
                        failed.append(name)
                    else:
                        yield name, page_site, got
        done = True
    finally:
        workers.close(abort=not done)
    report_skips(damage.items(), failed)


def _counted_pages(items: Sequence[Item]) -> list[tuple[str, str | None, _Counted | PageError]]:
    """A worker's task: each item read and counted as a profile counts it (`_counted`)."""
    out: list[tuple[str, str | None, _Counted | PageError]] = []
    for item in items:
        page = prepare_or_error(item.source, item.name, url=item.url, site=item.site, encoding=item.encoding)
        out.append((item.name, None, page) if isinstance(page, PageError) else (item.name, page.site, _counted(page)))
    return out


def _lost_pages(_fn: Callable[..., Any], args: tuple[Any, ...],
                why: str) -> list[tuple[str, str | None, _Counted | PageError]]:
    """What a task whose worker died gives: each of its pages failed, with the reason."""
    error = PageError("worker-died", f"the worker process reading it died ({why})")
    return [(item.name, None, error) for item in args[0]]


def _inputs(paths: Sequence[str]) -> tuple[list[tuple[Path, str]], list[tuple[str, PageError]], list[tuple[Path, str]]]:
    """The pages ``paths`` name, the inputs skipped while listing them, and the WARC and JSONL
    files of pages this installation reads; nothing found is a usage error."""
    listing: list[tuple[str, PageError]] = []
    archives: list[tuple[Path, str]] = []
    # no page output: same names are no collision
    inputs = collect_inputs(paths, skipped=listing, distinct=False, archives=archives, jsonl=True)
    archives = readable_archives(archives, paths, listing)
    if not inputs and not archives and not listing:
        raise nothing_found(ARCHIVE_FILES)
    return inputs, listing, archives


def _not_the_site(name: str, site: str | None, kept: str) -> None:
    print(f"blockclf: skipped {printable(name)}: site {site} is not {kept} (give --site to merge)", file=sys.stderr)


@dataclass
class _Uncounted:
    """The pages `site build` read but did not count: a copy of a page already counted (the
    same block texts and paths, a profile's identity of a page), or a second page without
    text. Counting them again would make a copy evidence for itself."""

    copies: int = 0
    empty: int = 0

    def note(self, counted: bool, page: Page | _Counted) -> None:
        if not counted:
            if len(page.texts if isinstance(page, _Counted) else page.blocks):
                self.copies += 1
            else:
                self.empty += 1

    def words(self) -> str:
        """What the summary line says of them, nothing when there are none."""
        parts = [f"{n} {what}" for n, what in ((self.copies, "copies of pages already counted" if self.copies > 1
                                                else "copy of a page already counted"),
                                               (self.empty, "without text, like one counted before")) if n]
        n = self.copies + self.empty
        return f" ({n} {'page' if n == 1 else 'pages'} not counted: {', '.join(parts)})" if n else ""


@dataclass
class _Counted:
    """What `site build` keeps of a page that names no site until the profile's site is known:
    its keys and its block texts' starts."""

    texts: np.ndarray
    paths: np.ndarray
    samples: list[str]


def _counted(page: Page) -> _Counted:
    texts, paths = block_keys(page.blocks)
    return _Counted(texts, paths, [b.text[:SAMPLE_CHARS] for b in page.blocks])


def cmd_build(args: argparse.Namespace) -> int:
    """Count each page into the profile as it is read, so that memory holds the counts, not
    the pages (a parsed page holds its element tree: 330 shop and listing pages took 600 MB).
    When the profile's site is not given, the pages are counted per site and the most common
    site's count is kept (pages with no site join it at the end), as if it had been named."""
    failed: list[str] = []
    pages = _each_counted(args.paths, args.site, failed, args.jobs)
    prof: SiteProfile | None = None
    if args.update and Path(args.output).exists():
        prof = SiteProfile.load(args.output)
    elif args.site:
        prof = SiteProfile(args.site)
    added = skipped = 0
    uncounted = _Uncounted()  # pages whose blocks a page already counted has: not counted a second time
    if prof is not None:
        for name, site, page in pages:
            if prof.matches(site):
                counted = prof.add_sampled(page.texts, page.paths, page.samples)
                added += counted
                uncounted.note(counted, page)
            else:
                _not_the_site(name, site, prof.site)
                skipped += 1
    else:
        per_site: dict[str, SiteProfile] = {}
        names: dict[str, list[str]] = {}  # each site's pages (the most wins; the others are named as skipped)
        uncounted_by_site: dict[str, _Uncounted] = {}
        loose: list[_Counted] = []  # pages with no site: they join the site kept
        for name, site, page in pages:
            if not site:
                loose.append(page)
                continue
            names.setdefault(site, []).append(name)
            counted = per_site.setdefault(site, SiteProfile(site)).add_sampled(page.texts, page.paths, page.samples)
            uncounted_by_site.setdefault(site, _Uncounted()).note(counted, page)
        kept = max(names, key=lambda site: len(names[site]), default="")  # the first of equals, as before
        prof = per_site.get(kept) or SiteProfile(kept)
        uncounted = uncounted_by_site.get(kept, uncounted)
        added = prof.n_pages  # a new profile: every page it counts is new
        for site, site_names in names.items():
            if site != kept:
                for name in site_names:
                    _not_the_site(name, site, kept)
                skipped += len(site_names)
        for one in loose:
            counted = prof.add_sampled(one.texts, one.paths, one.samples)
            added += counted
            uncounted.note(counted, one)
    prof.save(args.output)
    print(f"site {prof.site or '(unknown)'}: {added} new pages, {prof.n_pages} in profile, "
          f"{len(prof.texts)} distinct block texts{uncounted.words()}; written to {args.output}")
    return 1 if skipped or failed else 0


def df_histogram(prof: SiteProfile, width: int = 40) -> list[str]:
    """Text histogram: distinct block texts by the share of the site's pages holding them."""
    counts = np.fromiter(prof.texts.values(), float, len(prof.texts))
    if not len(counts):
        return ["(empty profile)"]
    rows = [("on 1 page only", int((counts == 1).sum()))]
    shares = counts[counts > 1] / max(prof.n_pages, 1)
    lo = 0.0
    for hi in DF_BINS:
        rows.append((f"{lo:4.0%} < share <= {hi:4.0%}", int(((shares > lo) & (shares <= hi)).sum())))
        lo = hi
    top = max(n for _, n in rows) or 1
    return [f"{label:24} {n:7d} {'#' * max(round(width * n / top), 1 if n else 0)}" for label, n in rows]


def plot_histogram(prof: SiteProfile, path: str) -> None:
    """PNG of the document-frequency distribution (needs the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'blockclf[plot]'") from None
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(prof.document_frequencies(), bins=20, range=(0, 1), color="#4477aa")
    ax.set_yscale("log")
    ax.set_xlabel("share of the site's pages holding the block text")
    ax.set_ylabel("distinct block texts")
    ax.set_title(f"{prof.site or 'site'}: {prof.n_pages} pages")
    fig.tight_layout()
    buf = io.BytesIO()  # rendered in memory, written atomically like every other output
    fig.savefig(buf, format=Path(path).suffix.lstrip(".").lower() or "png", dpi=100)
    plt.close(fig)
    write_atomic(path, buf.getvalue())


def _would_remove(prof: SiteProfile, args: argparse.Namespace) -> list[str]:
    """What the model, with this profile's evidence, removes from the pages given."""
    pages = _prepare_all(args.pages, args.site or prof.site or None)
    model = load_model(args.model)
    results = extract_batch(pages, model=model, favor=args.favor, threshold=args.threshold, site_profile=prof)
    reps = batch_repetition([block_keys(p.blocks) for p in pages], [p.site for p in pages], prof)
    template: Counter[str] = Counter()
    own: list[tuple[int, str, str]] = []
    removed_chars = total_chars = kept_repeated = 0
    for res, rep in zip(results, reps):
        shares = rep[0] if rep is not None else np.full(len(res.blocks), np.nan)
        seen: set[str] = set()
        for b, keep, share in zip(res.blocks, res.kept, shares):
            total_chars += len(b.text)
            repeated = not np.isnan(share) and share >= TEMPLATE_SHARE
            if keep:
                kept_repeated += repeated
                continue
            removed_chars += len(b.text)
            if repeated and b.text[:80] not in seen:
                seen.add(b.text[:80])
                template[b.text[:80]] += 1
            else:
                own.append((len(b.text), b.text[:80], res.name or ""))
    thr = results[0].threshold if results else float("nan")
    share = removed_chars / max(total_chars, 1)
    out = [f"with threshold {thr:.3f}: {len(results)} pages, {share:.1%} of their text removed",
           (f"removed and repeated on >= {TEMPLATE_SHARE:.0%} of other pages ({len(template)} distinct texts), "
            "with the number of given pages it was removed from:")]
    out += [f"  {n:4d} pages  {text}" for text, n in template.most_common(args.top)]
    out.append(f"removed although not repeated, longest first ({len(own)} blocks):")
    out += [f"  {n:5d} ch  {text}  [{Path(name).name}]" for n, text, name in sorted(own, reverse=True)[:args.top]]
    out.append(f"kept although repeated on >= {TEMPLATE_SHARE:.0%} of other pages: {kept_repeated} blocks "
               "(repetition alone never removes a block)")
    return out


def cmd_inspect(args: argparse.Namespace) -> int:
    check_threshold(args.threshold)
    prof = SiteProfile.load(args.profile)
    print(f"site {prof.site or '(unknown)'}: {prof.n_pages} pages, {len(prof.texts)} distinct block texts, "
          f"{len(prof.paths)} element paths")
    print("\ndocument frequency of block texts:")
    print("\n".join(df_histogram(prof)))
    print("\nmost repeated blocks (share of pages, text):")
    for share, text in prof.most_repeated(args.top):
        print(f"  {share:5.0%}  {text}")
    if args.plot:
        plot_histogram(prof, args.plot)
        print(f"\nplot written to {args.plot}")
    if args.pages:
        print()
        print("\n".join(_would_remove(prof, args)))
    return 0


def _stats_record(row: Any, name: str) -> dict[str, Any]:
    """A stats file's record of one page from its JSON output (KeyError, TypeError,
    AttributeError or ValueError when ``row`` is not one): its statistics are checked as
    ``site drift`` checks a stats file, so that a damaged output is a named skip here rather
    than a stats file no comparison can read."""
    from ..drift import check_record  # lazy, as cmd_stats imports drift

    rec = {"name": row.get("name") or row.get("url") or name, "site": row.get("site") or "", **row["stats"]}
    rec["name"], rec["site"] = str(rec["name"]), str(rec["site"])
    check_record(rec)
    return rec


def _json_records(paths: Sequence[Path]) -> list[dict[str, Any]]:
    recs = []
    for p in paths:
        if not p.is_file():  # a FIFO or device named .json would never finish reading
            print(f"blockclf: skipped {printable(p)}: not a regular file", file=sys.stderr)
            continue
        try:
            recs.append(_stats_record(json.loads(p.read_text(encoding="utf-8")), str(p)))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            print(f"blockclf: skipped {printable(p)}: not a blockclf JSON output ({printable(exc)})", file=sys.stderr)
    return recs


def _output_kind(path: Path) -> str | None:
    """What a file of JSON lines is to ``site stats``: ``"stats"``, lines `extract` wrote with
    ``--format json`` (a WARC's or a JSONL file's pages, or pages written to standard
    output); ``"text"``, lines it wrote in another format, which hold no statistics; None, a
    file of something else (pages to read, say)."""
    if not path.is_file():
        return None
    try:
        _number, row = next(json_objects(path), (0, None))
    except OSError:
        return None
    if not isinstance(row, dict) or "verdict" not in row:
        return None
    return "stats" if isinstance(row.get("stats"), dict) else "text"


def _jsonl_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The stats records of an output file of JSON lines (`_output_kind` ``"stats"``), and how
    many of its lines are not one (cut short, too long, or not a page's output)."""
    recs: list[dict[str, Any]] = []
    bad = 0
    for number, row in json_objects(path):
        try:
            recs.append(_stats_record(row, f"{path}:{number}"))
        except (KeyError, TypeError, AttributeError, ValueError):
            bad += 1
    if bad:
        print(f"blockclf: skipped {bad} line{'s' if bad != 1 else ''} of {printable(path)}: not a blockclf JSON "
              "output", file=sys.stderr)
    return recs, bad


def cmd_stats(args: argparse.Namespace) -> int:
    from ..drift import page_record, site_stats  # deliberately lazy: stats and drift are this command's own

    check_threshold(args.threshold)
    json_files: list[Path] = []
    line_files: list[Path] = []  # files of JSON lines that extract wrote with --format json
    text_lines: list[Path] = []  # ... and in another format
    html_args: list[str] = []
    for arg in args.inputs:
        p = Path(arg)
        if p.is_dir():
            files = sorted(p.rglob("*"))
            outputs = {f: _output_kind(f) for f in files if is_jsonl(f)}
            found = [f for f in files if f.suffix == ".json"]
            if found or any(outputs.values()):
                json_files += found
                line_files += [f for f, kind in outputs.items() if kind == "stats"]
                text_lines += [f for f, kind in outputs.items() if kind == "text"]
            else:
                html_args.append(arg)
        elif p.suffix == ".json":
            json_files.append(p)
        elif is_jsonl(p) and (kind := _output_kind(p)) is not None:
            (line_files if kind == "stats" else text_lines).append(p)
        else:
            html_args.append(arg)
    records = _json_records(json_files)
    failed: list[str] = [""] * (len(json_files) - len(records))  # JSON files named as skipped
    for path in line_files:
        recs, bad = _jsonl_records(path)
        records += recs
        failed += [""] * bad
    for path in text_lines:
        print(f"blockclf: skipped {printable(path)}: its lines were written without --format json and hold no "
              "statistics (extract with --format json)", file=sys.stderr)
        failed.append(str(path))
    if html_args:
        records += _page_records(html_args, args, failed, page_record)
    if not records:
        raise UsageError("no pages or JSON outputs found")
    stats = site_stats(records)
    write_atomic(args.output, json.dumps(stats, ensure_ascii=False, indent=1))
    print(f"{len(records)} pages of {len(stats['sites'])} sites written to {args.output}")
    return 1 if failed else 0


def _page_records(paths: Sequence[str], args: argparse.Namespace, failed: list[str],
                  record: Callable[[Result], dict[str, Any]]) -> list[dict[str, Any]]:
    """The stats records of the pages ``paths`` name, extracted as ``blockclf extract`` extracts
    a folder: a streaming batch on the free cores, each page let go once its record is made
    (extracting them in one call held every parsed page at once)."""
    from ..batch import BatchOptions, run_batch  # the batch engine, only when pages are extracted here
    from ..workers import auto_jobs

    profile = SiteProfile.load(args.site_profile) if args.site_profile else None
    cached_model(args.model)  # read once here: forked workers find it read, and a bad file stops nothing half-done
    inputs, listing, archives = _inputs(paths)
    report_skips(listing, failed)
    damage: dict[str, PageError] = {}
    opts = BatchOptions(model=args.model, favor=args.favor, threshold=args.threshold, site_profile=profile,
                        transform=record)
    records: list[dict[str, Any]] = []
    pages: Any = (lambda: page_items(inputs, args.site, archives, damage)) if archives else \
        list(page_items(inputs, args.site, (), damage))  # a WARC is read again each pass; files are listed
    for o in run_batch(pages, opts, jobs=auto_jobs(None if archives else len(inputs))):
        if o.error is not None:
            report_skip(o.name, o.error)
            failed.append(o.name)
        else:
            records.append(o.result)
    report_skips(damage.items(), failed)
    return records


def cmd_drift(args: argparse.Namespace) -> int:
    from ..drift import drift  # deliberately lazy, as in cmd_stats

    if len(args.stats) < 2:
        raise UsageError("give at least two stats files (older first)")
    runs = [(path, _read_stats_file(path)) for path in args.stats]
    alarm = False
    results = []
    for (old_path, old), (new_path, new) in zip(runs, runs[1:]):
        reports = drift(old, new, top=args.top)
        if not reports:
            raise UsageError(f"{old_path} and {new_path} share no site")
        alarm = alarm or any(r.alarm for r in reports)
        results.append({"old": old_path, "new": new_path, "sites": [r.to_dict() for r in reports]})
        if args.json:
            continue
        if len(runs) > 2:
            print(f"== {old_path} -> {new_path}")
        for r in reports:
            state = _drift_state(r, new_path if r.n_old else old_path)
            print(f"{r.site or '(unknown site)'}: {state}, {r.n_old} -> {r.n_new} pages")
            for m in r.metrics:
                test = f"KS {m.ks:.2f}, p={m.p_value:.2g}" if m.ks == m.ks else "too few pages to test"
                flag = "  <- shifted" if m.alarm else ""
                print(f"  {m.metric:14} median {m.median_old:8.3g} -> {m.median_new:<8.3g} ({test}){flag}")
            if r.alarm:
                print("  pages that moved most:")
                for d in r.moved:
                    ref = "site median " if d["old_is_site_median"] else ""
                    print(f"    {d['name']}: {d['metric']} {ref}{d['old']:.3g} -> {d['new']:.3g}")
    if args.json:
        print(json.dumps(results[0]["sites"] if len(results) == 1 else results, indent=1))
    return 1 if args.check and alarm else 0


def _read_stats_file(path: str) -> Any:
    """A stats file's content, checked whole before any comparison (`blockclf.drift.read_stats`):
    a file that cannot be read, or is not a stats file, is one usage error naming it."""
    from ..drift import read_stats

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        read_stats(data)
    except OSError as exc:
        raise UsageError(f"{printable(path)}: cannot read stats file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{printable(path)}: not a stats file (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{printable(path)}: not a stats file (not JSON: {exc})") from None
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{printable(path)}: not a usable stats file ({printable(exc)})") from None
    return data


def _drift_state(report: Any, empty_run: str) -> str:
    """How a site's comparison reads in the text report; ``empty_run`` is the run without its
    pages, when one holds none."""
    if report.no_pages:
        return f"ALARM (no pages in {printable(empty_run)}: nothing to compare)"
    return "ALARM (template change?)" if report.alarm else "ok"


def add_parser(sub: Any) -> None:
    """Register ``blockclf site`` and its subcommands on the main parser's subparsers."""
    site = sub.add_parser("site", help="site profiles: cross-page repetition, inspection, drift", epilog=EXIT_CODES,
                          description="Build and inspect site profiles. "
                                      "Example: blockclf site build pages/ -o site.json")
    ss = site.add_subparsers(dest="site_command", required=True)

    b = ss.add_parser("build", epilog=EXIT_CODES, help="count block repetition over a site's pages")
    b.add_argument("paths", nargs="+", metavar="PATH",
                    help=".html/.htm/.html.gz files or directories (their files that begin as HTML are pages too), "
                         "or WARC and JSONL files of pages")
    b.add_argument("-o", "--output", required=True, metavar="FILE", help="profile file to write")
    b.add_argument("--site", help="the site's name (default: the pages' registered domain)")
    b.add_argument("--update", action="store_true", help="add the pages to the existing profile FILE")
    b.add_argument("--jobs", type=jobs_value, default="auto", metavar="N|auto",
                   help="worker processes reading the pages: auto (default) uses the available cores, up to 8 and "
                        "one per 12 pages; 1 never starts workers")
    b.set_defaults(func=cmd_build)

    i = ss.add_parser("inspect", epilog=EXIT_CODES, help="show what a profile holds and what the model would remove")
    i.add_argument("profile", metavar="SITE.json", help="profile written by 'blockclf site build'")
    i.add_argument("--top", type=int, default=15, help="rows per list (default 15)")
    i.add_argument("--plot", metavar="PNG", help="write the document-frequency histogram as a PNG (needs matplotlib)")
    i.add_argument("--pages", nargs="+", metavar="PATH", help="pages to extract with the profile's evidence")
    model_options(i, "model file (default: the shipped model)")
    i.set_defaults(func=cmd_inspect)

    s = ss.add_parser("stats", epilog=EXIT_CODES, help="record extracted length and kept ratio per page and site")
    s.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="outputs of 'extract --format json' (a folder of .json files, or the .jsonl file written "
                   "for a WARC, for a JSONL file of pages, or from standard output) or HTML pages")
    s.add_argument("-o", "--output", required=True, metavar="STATS.json",
                   help="stats file to write (compare runs with 'blockclf site drift')")
    s.add_argument("--site-profile", metavar="FILE", help="site profile to use when extracting HTML pages")
    model_options(s, "model file (default: the shipped model)")
    s.set_defaults(func=cmd_stats)

    d = ss.add_parser("drift", epilog=EXIT_CODES, help="compare two stats files and flag template changes")
    d.add_argument("stats", nargs="+", metavar="STATS.json",
                   help="two or more stats files, oldest first; each run is compared with the one before")
    d.add_argument("--top", type=int, default=5, help="pages listed per alarm (default 5)")
    d.add_argument("--json", action="store_true", help="print the reports as JSON")
    d.add_argument("--check", action="store_true",
                   help="exit 1 when a site's drift alarm trips, or one run holds none of a site's pages")
    d.set_defaults(func=cmd_drift)
