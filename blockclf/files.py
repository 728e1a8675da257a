"""Writing output files safely, and naming files safely on a terminal.

Every file blockclf writes (extracted pages, the removal log, WARC JSONL, site profiles and
stats, explain views, labelled datasets, reports) goes through `write_atomic` or
`atomic_open`: the data is written to a temporary file in the target's own directory and
renamed over the target only when complete, so a reader sees the old file or the new one,
never half of one. The temporary's name is unpredictable and it is created exclusively
without following symlinks (``O_CREAT | O_EXCL | O_NOFOLLOW``): a symlink planted where a
temporary will be cannot redirect the write. The rename replaces a symlink at the target
itself, never the file it points to. The temporary is removed on every exit path Python sees
(errors, Ctrl-C, SIGTERM under the command line); only a SIGKILL can leave one behind,
named ``.<target>.<random>.tmp``.

One kind of output is written otherwise, so that a run stopped halfway can go on where it
stopped: a WARC's or a JSONL file's lines (`resumable_open`) go to ``.<target>.partial``
beside the target, renamed over it when complete. That file stays after a run that was
stopped (Ctrl-C, a full disk, a kill); ``--resume`` continues it (the command line leaves a
file that holds one alone unless ``--resume`` or ``--overwrite`` says what to do with it). It
is created exclusively without following symlinks like a temporary, continued only when it
is a regular file with no other link, and locked while a run writes it.

A target that is a stream rather than a file (`open_stream`: a pipe, a terminal, the null
device, named directly or through links, as ``/dev/stderr`` is) is written straight into, as a
shell's redirection does: replaced by a file, the device or link would be lost, and what was
written would reach no reader. Any other device is refused.

A failure to write raises `OutputError`, which the command line turns into exit status 3.
This module is at the bottom of the package: it imports nothing from blockclf.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: partial files are not locked
    fcntl = None  # type: ignore[assignment]

__all__ = ["NAME_MAX", "OutputError", "atomic_open", "fit_name", "fitting_path", "is_stream", "open_stream",
           "partial_path", "printable", "resumable_open", "write_atomic"]

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
# C0 and C1 controls, line and paragraph separators, and lone surrogates (undecodable file names)
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


#: the longest file name (one component of a path) that most file systems take, in bytes
NAME_MAX = 255
#: the digest a shortened name ends with: hexadecimal digits of the whole name's SHA-1
_NAME_DIGEST = 8
#: the most bytes of a target's name that its temporary's name holds
_TEMPORARY_NAME = 120


#: what an output's own name or place causes, not the disk or the folder it goes to: a name
#: too long or refused by the file system, a file where a folder must go or the reverse, an
#: output another run is writing (EBUSY: `resumable_open`)
_PLACE_ERRNOS = frozenset((errno.ENAMETOOLONG, errno.EEXIST, errno.ENOTDIR, errno.EISDIR, errno.EINVAL, errno.EILSEQ,
                           errno.EBUSY))


class OutputError(Exception):
    """An output file could not be written (full disk, no permission, not a directory...).

    ``errno`` is the failed call's error number, when one failed. `only_this_output` tells
    a failure that another output's write would not meet (its name or its place) from one
    that every write would (a full or read-only disk): a batch skips the page for the first
    and stops for the second.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno

    @property
    def only_this_output(self) -> bool:
        return self.errno in _PLACE_ERRNOS


def printable(name: object) -> str:
    """``name`` safe for one line of a terminal or log: control characters and undecodable bytes escaped.

    A file name holding a newline could otherwise forge a line of blockclf's own output.
    """
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(name))


def _cut(name: str, limit: int) -> str:
    """``name`` cut to at most ``limit`` bytes in the file system's encoding, between characters."""
    name = name[:limit]
    while len(os.fsencode(name)) > limit:
        name = name[:-1]
    return name


def fit_name(name: str, limit: int = NAME_MAX, suffix: str = "") -> str:
    """``name`` (ending in ``suffix``) as a file name of at most ``limit`` bytes.

    A name that fits is returned as it is. A longer one is cut before its suffix and ends
    with ``~`` and a digest of the whole name (``<start>~1a2b3c4d.json``): distinct names
    stay distinct, and a name is always shortened the same way, so a run that is repeated
    finds the outputs it wrote. Output names are the input's with another suffix, and a file
    name of 255 bytes (85 Chinese characters in UTF-8) is legal: without this, writing its
    output failed and stopped the batch.
    """
    if len(os.fsencode(name)) <= limit:
        return name
    if not (suffix and name.endswith(suffix)) or len(os.fsencode(suffix)) > limit // 4:
        suffix = ""  # no suffix to keep, or one too long to be one
    stem = name[: len(name) - len(suffix)]
    digest = hashlib.sha1(os.fsencode(name)).hexdigest()[:_NAME_DIGEST]
    return f"{_cut(stem, limit - len(os.fsencode(suffix)) - 1 - _NAME_DIGEST)}~{digest}{suffix}"


def fitting_path(path: str | Path) -> Path:
    """``path`` with its file name shortened to `NAME_MAX` bytes when it is longer (`fit_name`,
    keeping its last suffix)."""
    path = Path(path)
    name = fit_name(path.name, suffix=path.suffix)
    return path if name == path.name else path.with_name(name)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _temporary(path: Path, named: list[Path]) -> int:
    """Create an exclusive, unpredictable temporary next to ``path``; return its descriptor.

    Its name is put in ``named`` before it is created, so that an interrupt that lands as it
    is created, before this returns, still leaves a name for the caller to remove. Holding
    signals back cannot do that: Python runs its handlers in the main thread whichever thread
    the signal reaches, and a batch's pool keeps threads of its own."""
    for _ in range(16):
        named.append(path.with_name(f".{_cut(path.name, _TEMPORARY_NAME)}.{secrets.token_hex(6)}.tmp"))
        try:
            return os.open(named[-1], _FLAGS, 0o666)
        except OSError as exc:  # nothing was created: a name another file holds is never removed
            named.pop()
            if not isinstance(exc, FileExistsError):
                raise
    raise FileExistsError(f"no free temporary name next to {path}")


#: the devices written into as streams beside pipes and terminals: they discard what they are
#: given or refuse it as a full disk would (``/dev/full``)
_SINKS = ("/dev/null", "/dev/zero", "/dev/full", os.devnull)
#: the device numbers of terminals (consoles, serial lines, pseudo-terminals) where Linux gives them
_TERMINALS = frozenset((4, 5, *range(136, 144)))


def _writable_device(info: os.stat_result) -> bool:
    """Whether a character device is a sink or a terminal, told by its numbers alone: any other
    (memory, a watchdog) is never opened, as opening some acts on the machine."""
    if hasattr(os, "major") and os.major(info.st_rdev) in _TERMINALS:
        return True
    for name in _SINKS:
        try:
            sink = os.stat(name)
        except OSError:
            continue
        if stat.S_ISCHR(sink.st_mode) and sink.st_rdev == info.st_rdev:
            return True
    return False


def is_stream(path: str | Path) -> bool:
    """Whether ``path`` (followed through links) is a pipe or a character device: written
    into as a stream (`open_stream`), never replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def open_stream(path: str | Path) -> int | None:
    """A descriptor to write into ``path`` when it is a stream (a pipe, a terminal or a sink
    device, itself or through links), None when it is a file, a folder or nothing yet.

    A pipe with no reader is refused rather than waited on (the run would hang), as is a
    device of any other kind (`OutputError`).
    """
    try:
        info = os.stat(path)
    except OSError:
        return None
    if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        return None
    pipe = stat.S_ISFIFO(info.st_mode)
    if not (pipe or (stat.S_ISCHR(info.st_mode) and _writable_device(info))):
        raise OutputError(f"cannot write {printable(path)}: it is a device, not a file", errno.EINVAL)
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        why = "a pipe nobody reads" if pipe and exc.errno == errno.ENXIO else _why(exc)
        raise OutputError(f"cannot write {printable(path)}: {why}", exc.errno) from None
    with suppress(AttributeError, OSError):  # not POSIX: it was opened blocking
        os.set_blocking(fd, True)  # a slow reader is waited for, line by line
    return fd


@contextmanager
def _streamed(fd: int, path: Path, mode: str, encoding: str) -> Iterator[IO[Any]]:
    """Write into the stream ``fd`` opened on ``path``: a failure is an `OutputError`, as a file's is."""
    try:
        fh = os.fdopen(fd, mode) if "b" in mode else os.fdopen(fd, mode, encoding=encoding,
                                                               errors="backslashreplace", newline="")
        with fh:
            yield fh
    except OSError as exc:
        raise OutputError(f"cannot write {printable(path)}: {_why(exc)}", exc.errno) from None


@contextmanager
def atomic_open(path: str | Path, mode: str = "w", encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """Open a file to write that appears at ``path`` only when the ``with`` block ends without error.

    Text is encoded with ``errors="backslashreplace"``: a string that cannot be UTF-8 (a file
    name with undecodable bytes, held as lone surrogates) is written as ``\\udcff`` escapes,
    which in a JSON string read back as the same characters. Raises `OutputError` when the
    file cannot be created, written or renamed; the temporary is removed on any failure. A
    stream (`open_stream`) is written straight into.
    """
    path = Path(path)
    stream = open_stream(path)
    if stream is not None:
        with _streamed(stream, path, mode, encoding) as fh:
            yield fh
        return
    named: list[Path] = []  # the temporary, named before it exists (`_temporary`)
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = _temporary(path, named)
        except OSError as exc:
            raise OutputError(f"cannot write {printable(path)}: {_why(exc)}", exc.errno) from None
        try:
            if "b" in mode:
                fh = os.fdopen(fd, mode)
            else:
                fh = os.fdopen(fd, mode, encoding=encoding, errors="backslashreplace", newline="")
        except BaseException:
            os.close(fd)
            raise
        with fh:
            yield fh
        named[-1].replace(path)
    except OSError as exc:
        for tmp in named:
            tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write {printable(path)}: {_why(exc)}", exc.errno) from None
    except BaseException:  # an interrupt or a failure leaves neither a half file nor a temporary
        for tmp in named:
            tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` atomically (see `atomic_open`); `OutputError` on failure."""
    with atomic_open(path, "wb" if isinstance(data, bytes) else "w") as fh:
        fh.write(data)


#: how much of a partial file is read at a time when it is continued
_READ_CHUNK = 1 << 20


def partial_path(path: str | Path) -> Path:
    """Where `resumable_open` writes ``path`` until it is complete: ``.<name>.partial`` beside it."""
    path = Path(path)
    return path.with_name(fit_name(f".{path.name}.partial", suffix=".partial"))


def _lock(fd: int, path: Path) -> None:
    """Hold ``fd``'s file for this process: a second run writing the same output would
    interleave its lines. Where file locks are not available, nothing is held."""
    if fcntl is None:  # pragma: no cover - not on POSIX
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise OutputError(f"cannot write {printable(path)}: another run is writing it", errno.EBUSY) from None


def _continued(fd: int, on_line: Callable[[bytes], bool], drop: bool) -> int:
    """Give each complete line of the file ``fd`` holds to ``on_line``, which says whether it
    is kept: the first it refuses ends the file there, or with ``drop`` is left out and the
    lines after it are kept, moved up. A line cut short by a kill goes. Returns the length
    of what is kept."""
    read_at = at = kept = 0  # where the next chunk is read, where the next line starts, the bytes kept
    parts: list[bytes] = []  # the line being read, a chunk at a time (a JSON document may be megabytes)
    while chunk := os.pread(fd, _READ_CHUNK, read_at):
        read_at += len(chunk)
        if b"\n" not in chunk:
            parts.append(chunk)
            continue
        *lines, rest = (b"".join(parts) + chunk).split(b"\n")
        parts = [rest]
        for line in lines:
            size = len(line) + 1
            if on_line(line):
                if at != kept:  # a line was left out before it: written where the kept lines end
                    os.pwrite(fd, line + b"\n", kept)
                kept += size
            elif not drop:
                os.ftruncate(fd, kept)
                return kept
            at += size
    os.ftruncate(fd, kept)
    return kept


@contextmanager
def resumable_open(path: str | Path, resume: bool = False, on_line: Callable[[bytes], bool] | None = None,
                   drop: bool = False) -> Iterator[IO[str]]:
    """Open a file of lines to write that appears at ``path`` only when the ``with`` block
    ends without error, and that a run stopped before then can continue.

    The lines go to `partial_path` (UTF-8, ``backslashreplace`` as `atomic_open` writes),
    which is renamed over ``path`` at the end; on an error or an interrupt it stays, for
    ``resume``. With ``resume`` an existing partial file's complete lines are kept: each is
    given to ``on_line`` first (which may say False to end the file there, or with ``drop``
    to leave that line out), and the new lines follow them. Without it, or when the partial
    file is not a plain file of its own (a link, a file with other names), it starts empty.
    Raises `OutputError` when the file cannot be created, read, written or renamed, or
    another run holds it (errno EBUSY). A stream (`open_stream`) is written straight into,
    with nothing to continue.
    """
    path = Path(path)
    stream = open_stream(path)
    if stream is not None:
        with _streamed(stream, path, "w", "utf-8") as fh:
            yield fh
        return
    partial = partial_path(path)
    fd = old = -1
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            old = os.open(partial, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ELOOP):  # none, or a symbolic link: started afresh
                raise
        if old >= 0:
            _lock(old, path)  # before anything is changed: another run may be writing it
            info = os.fstat(old)
            if resume and stat.S_ISREG(info.st_mode) and info.st_nlink == 1:  # ours to continue
                fd, old = old, -1
        if fd < 0:
            partial.unlink(missing_ok=True)
            fd = os.open(partial, (_FLAGS & ~os.O_WRONLY) | os.O_RDWR, 0o666)
            _lock(fd, path)
        if old >= 0:
            os.close(old)
            old = -1
        end = _continued(fd, on_line or (lambda line: True), drop) if resume else 0
        os.ftruncate(fd, end)
        os.lseek(fd, end, os.SEEK_SET)
        fh = os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="")
    except (OSError, OutputError) as exc:
        for held in (fd, old):
            if held >= 0:
                os.close(held)
        if isinstance(exc, OutputError):
            raise
        raise OutputError(f"cannot write {printable(path)}: {_why(exc)}", exc.errno) from None
    try:
        with fh:  # closing lets go of the lock
            yield fh
            fh.flush()
            partial.replace(path)
    except OSError as exc:
        raise OutputError(f"cannot write {printable(path)}: {_why(exc)}", exc.errno) from None
