"""Which files a command reads: directories walked once, regular files only, distinct output names.

The page-reading commands (``extract``, ``explain``, ``label``, ``site``) take files and
directories; `list_pages` turns them into ``(file, output stem)`` pairs and names every input
it will not read, with a reason code, instead of blocking on it or looping through it.
Inside a folder, a page is known by its name (`SUFFIXES`) or, failing that, by how its file
begins (`looks_like_html`): a mirror saves ``/news/story`` as ``story`` and ``/item.php?id=3``
as ``item.php?id=3``, and those are pages too. WARC files (and JSONL files of pages) found in
a folder are handed to the commands that read them.
"""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from .files import printable
from .html import PageError

__all__ = ["JSONL_SUFFIXES", "SNIFF_BYTES", "SUFFIXES", "WARC_SUFFIXES", "is_jsonl", "is_warc", "list_pages",
           "looks_like_html", "strip_suffix"]

log = logging.getLogger("blockclf")

#: file names read as pages (case-insensitive; ``.mhtml`` before ``.html``, which it ends with): a
#: browser's single-file save (``.mhtml``, ``.mht``) is read as its HTML part (`blockclf.mhtml`)
SUFFIXES = (".html.gz", ".htm.gz", ".mhtml", ".mht", ".html", ".htm")
#: file names read as WARC files of pages (case-insensitive; needs the ``warc`` extra)
WARC_SUFFIXES = (".warc", ".warc.gz")


#: file names read as JSON lines of pages (case-insensitive; `blockclf.records`)
JSONL_SUFFIXES = (".jsonl.gz", ".ndjson.gz", ".jsonl", ".ndjson")


def is_warc(path: str | Path) -> bool:
    """Whether ``path`` names a WARC file (by its suffix)."""
    return str(path).lower().endswith(WARC_SUFFIXES)


def is_jsonl(path: str | Path) -> bool:
    """Whether ``path`` names a file of JSON lines of pages (by its suffix)."""
    return str(path).lower().endswith(JSONL_SUFFIXES)


#: a page saved with its URL's query string after the suffix, as mirroring tools name them
#: (``index.html?p=2``): read as a page, its whole name kept as the output stem
_QUERY_PAGE = re.compile(r"\.html?(?:\.gz)?\?", re.IGNORECASE)


def strip_suffix(name: str) -> str | None:
    """``name`` without its page suffix (`SUFFIXES`, any case); a name with a query string after one
    is kept whole; None when ``name`` is not a page's."""
    lower = name.lower()
    for s in SUFFIXES:
        if lower.endswith(s):
            return name[: -len(s)]
    if _QUERY_PAGE.search(name):
        return name
    return None


#: how much of a file of another name is read to tell whether it is a page
SNIFF_BYTES = 1024
#: how an HTML file begins, after white space, a byte order mark and an XML declaration: its
#: doctype, a comment or one of the tags browsers take for HTML in a file of unknown type (the
#: WHATWG MIME sniffing list, with the tags a page's head or body opens with beside them)
_HTML_START = re.compile(
    rb"(?:<\?xml[^>]{0,200}\?>\s*)?"
    rb"<(?:!doctype\s+html|!--|(?:html|head|body|meta|link|title|script|style|iframe|h1|div|font|table|a|b|br|p"
    rb"|header|nav|main|article|section)[\s/>])",
    re.IGNORECASE)
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def looks_like_html(head: bytes) -> bool:
    """Whether a file that begins with ``head`` (its first `SNIFF_BYTES`) is an HTML page.

    Scripts, style sheets, feeds (``<?xml`` then ``<rss``), images, JSON and a PHP file's
    source (``<?php``) are not; a page saved without its suffix, or under its script's name
    (``item.php?id=3``), is."""
    for bom, codec in _BOMS:
        if head.startswith(bom):
            head = head[len(bom):].decode(codec, "ignore").encode("ascii", "ignore")
            break
    return _HTML_START.match(head.lstrip()) is not None


def _sniffed(path: Path) -> bool:
    """Whether ``path`` is a regular file that begins like an HTML page (FIFOs, devices and
    unreadable files are not opened, or not read as pages)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return False
        with path.open("rb") as fh:
            return looks_like_html(fh.read(SNIFF_BYTES))
    except OSError:
        return False


def _regular(path: Path) -> tuple[int, int] | PageError:
    """The file's ``(st_dev, st_ino)`` if it is a regular file (symlinks followed), else why it is skipped."""
    try:
        st = path.stat()
    except OSError as exc:
        return PageError("unreadable", f"cannot read ({exc.strerror or exc})")
    if not stat.S_ISREG(st.st_mode):
        what = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode) or
                stat.S_ISBLK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a file")
        return PageError("not-a-file", f"{what}, not a regular file: not read")
    return st.st_dev, st.st_ino


class _Listing:
    """The files found so far (each real file once) and the inputs that will not be read."""

    def __init__(self, output: Path | None = None) -> None:
        self.found: list[tuple[Path, str, str]] = []  # file, stem, stem keeping the whole file name
        self.problems: list[tuple[str, PageError]] = []
        self.seen_files: set[tuple[int, int]] = set()
        self.seen_dirs: set[tuple[int, int]] = set()
        self.output = _key(output) if output is not None else None  # the folder outputs go to: never entered
        self.passed: list[str] = []  # where the output folder was met inside an input folder

    def add(self, file: Path, stem: str, full: str) -> None:
        if self._first_sight(file):
            self.found.append((file, stem, full))

    def _first_sight(self, file: Path) -> bool:
        """Whether ``file`` is a regular file not listed yet (else why not goes to the problems)."""
        key = _regular(file)
        if isinstance(key, PageError):
            self.problems.append((str(file), key))
            return False
        if key in self.seen_files:
            return False
        self.seen_files.add(key)
        return True

    def unlistable(self, exc: OSError) -> None:
        self.problems.append((str(exc.filename or ""), PageError(
            "unreadable", f"directory cannot be listed ({exc.strerror or exc}): its pages are not read")))

    def walk(self, top: Path, unread: list[str] | None, archives: list[tuple[Path, str]] | None,
             jsonl: bool = False) -> None:
        """Every page under ``top``, each real directory entered once; WARC files (and with
        ``jsonl`` files of JSON lines) go to ``archives`` (with their folder relative to ``top``)
        when given, and other files to ``unread``."""
        for root, dirs, files in os.walk(top, followlinks=True, onerror=self.unlistable):
            try:
                st = os.stat(root)
            except OSError as exc:
                self.unlistable(exc)
                dirs[:] = []
                continue
            if (st.st_dev, st.st_ino) in self.seen_dirs:  # a symlink back to a directory already walked
                dirs[:] = []
                continue
            self.seen_dirs.add((st.st_dev, st.st_ino))
            if (st.st_dev, st.st_ino) == self.output and Path(root) != top:  # a run's outputs are not its inputs
                self.passed.append(root)
                dirs[:] = []
                continue
            dirs.sort()
            rel_dir = Path(root).relative_to(top)
            for f in sorted(files):
                stem = strip_suffix(f)
                path = Path(root, f)
                if stem is None and archives is not None and (is_warc(f) or (jsonl and is_jsonl(f))):
                    self.add_archive(path, str(rel_dir) if rel_dir != Path(".") else "", archives)
                    continue
                if stem is None and not is_warc(f) and _sniffed(path):
                    stem = f  # a page by its content: its whole name is its stem (``story`` → ``story.txt``)
                if stem is not None:
                    self.add(path, str(rel_dir / stem) if rel_dir != Path(".") else stem, str(rel_dir / f))
                elif unread is not None:
                    unread.append(str(path))

    def add_archive(self, file: Path, folder: str, archives: list[tuple[Path, str]]) -> None:
        """A WARC or JSONL file of pages, with its folder (relative to the folder given), once."""
        if self._first_sight(file):
            archives.append((file, folder))


def _distinct(stem: str, file: Path) -> str:
    """A third name for an input whose stem and whole file name are taken (``a.html`` in three
    folders given as arguments): the stem and a digest of the file's path, the same each run."""
    return f"{stem}~{hashlib.sha1(os.fsencode(str(file))).hexdigest()[:8]}"


def _key(path: Path) -> tuple[int, int] | None:
    """A directory's ``(st_dev, st_ino)``, None when there is none to be read."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


def list_pages(paths: Sequence[str], skipped: list[tuple[str, PageError]] | None = None,
               unread: list[str] | None = None, output: Path | None = None,
               passed: list[str] | None = None, distinct: bool = True,
               archives: list[tuple[Path, str]] | None = None, jsonl: bool = False) -> list[tuple[Path, str]]:
    """Pages named by ``paths``: ``(file, output stem relative to its argument)`` pairs.

    Directories are walked recursively, following symlinks, in sorted order; each real
    directory is entered once (a symlink loop ends the descent) and each real file is listed
    once. Only regular files are listed: FIFOs, devices and sockets are skipped with reason
    ``not-a-file`` (reading one could block forever or never end), a directory that cannot
    be listed with reason ``unreadable``. When two inputs would get the same output stem
    (``a.html``, ``a.htm`` and ``a.HTML`` in one folder, or ``a.html`` in two folders given
    as arguments), the first keeps it and each later one keeps its whole file name as its
    stem (``a.htm`` → ``a.htm.txt``), and one whose whole name is taken too gets the stem and a
    digest of its path (``a~1a2b3c4d.txt``); one that still collides is skipped with reason
    ``collision``; with ``distinct`` False (a command that writes nothing per page) every page
    keeps its stem and none is skipped for it. Skips go to ``skipped`` as ``(name, PageError)``
    pairs, or are logged.
    Inside a directory, a file is read as a page when its name ends in one of `SUFFIXES`
    (any case) or has a query string after one (``index.html?p=2``), or else when it begins
    like an HTML page (`looks_like_html`: a mirror's ``story`` or ``item.php?id=3``, whose
    whole name is then its stem); WARC files go to ``archives`` as ``(file, folder relative to
    the argument; a WARC file given itself goes there too, its folder ``""``) when it is
    given, each real file once (and so do files of JSON lines of pages, `JSONL_SUFFIXES`,
    with ``jsonl``); the others (images, styles, scripts, feeds, and WARC
    files without ``archives``) go to ``unread``, which the command reports.
    A path that does not exist raises `FileNotFoundError`. The ``output`` folder, when it lies
    inside a folder read (``pages/`` with ``-o pages/clean``), is not entered: its files are
    outputs, and read as pages they would be extracted again on every later run (with
    ``--format html``) and counted as the site's pages; where it was met goes to ``passed``.
    """
    listing = _Listing(output)
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            listing.walk(p, unread, archives, jsonl)
        elif archives is not None and (is_warc(arg) or (jsonl and is_jsonl(arg))) and (p.exists() or p.is_symlink()):
            listing.add_archive(p, "", archives)
        elif p.exists() or p.is_symlink():
            listing.add(p, strip_suffix(p.name) or p.name, p.name)
        else:
            raise FileNotFoundError(errno.ENOENT, "no such file or directory", arg)
    found, problems = listing.found, listing.problems
    if passed is not None:
        passed += listing.passed
    out: list[tuple[Path, str]] = []
    used: set[str] = set()
    for file, stem, full in found:
        if not distinct:
            out.append((file, stem))
            continue
        name = stem if stem not in used else full if full not in used else _distinct(stem, file)
        if name in used:
            problems.append((str(file), PageError(
                "collision", f"its output name '{stem}' is taken by another input with the same name")))
            continue
        used.add(name)
        out.append((file, name))
    for name, err in problems:
        if skipped is not None:
            skipped.append((name, err))
        else:
            log.warning("skipped %s: %s", printable(name), err)
    return out
