"""The ``blockclf`` command: ``extract``, ``train``, ``evaluate`` and the others.

One module per subcommand (``extract``, ``train``, ``label``, ``explain``, ``evaluate``,
``site``), each with ``add_parser`` and the function that runs it; what they share (usage
errors, reading inputs, naming skips) is in `blockclf.cli.common`.

Exit codes mean one thing each (`EXIT_CODES`): 0 every page processed; 1 some pages skipped,
each named on stderr with its reason; 2 usage error, unusable model or site profile file, or
a failure that stopped the command (one ``blockclf: error:`` line, no traceback); 3 an output
could not be written (full disk, no permission, ``-o`` naming a file); 130 interrupted.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import traceback
from collections.abc import Sequence

from .. import __version__
from ..files import OutputError, printable
from ..model import ModelError
from . import evaluate, explain, extract, label, site, train
from .common import EXIT_CODES, UsageError, collect_inputs

__all__ = ["EXIT_CODES", "UsageError", "build_parser", "collect_inputs", "console", "main"]

log = logging.getLogger("blockclf")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand, each registered by its own module."""
    parser = argparse.ArgumentParser(
        prog="blockclf", description="Remove boilerplate from web pages with a learned block classifier.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    parser.add_argument("-V", "--version", action="version", version=f"blockclf {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (extract, train, label, explain, evaluate, site):
        command.add_parser(sub)
    return parser


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM ends the command like Ctrl-C does: through the cleanup of temporary files."""
    raise KeyboardInterrupt


def _quiet_stdout() -> int:
    """The reader stopped early (| head): end quietly, as Unix tools do."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
    except OSError:
        pass
    return 141


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command; every failure becomes one ``blockclf: error:`` line and its exit status."""
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return _quiet_stdout()
    except OutputError as exc:
        print(f"blockclf: error: {exc}", file=sys.stderr)
        return 3
    except (UsageError, ModelError, FileNotFoundError, ValueError) as exc:
        print(f"blockclf: error: {printable(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"blockclf: error: {printable(exc.filename or '')}{': ' if exc.filename else ''}"
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("blockclf: interrupted", file=sys.stderr)
        return 130
    except (Exception, RecursionError, MemoryError) as exc:  # a bug: one line, not a traceback
        log.debug("unexpected failure", exc_info=True)
        print(f"blockclf: error: unexpected failure ({type(exc).__name__}: {printable(exc)}); "
              "run with -v to see where", file=sys.stderr)
        if args.verbose:
            traceback.print_exc()
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (see `EXIT_CODES`)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    warnings = None
    if args.verbose:
        logging.basicConfig(level=logging.INFO, format="blockclf: %(message)s")
    else:  # a worker process that died and was replaced is said anyway: it may have run out of memory
        warnings = logging.StreamHandler(sys.stderr)
        warnings.setLevel(logging.WARNING)
        warnings.setFormatter(logging.Formatter("blockclf: warning: %(message)s"))
        logging.getLogger("blockclf.workers").addHandler(warnings)
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread: leave signals alone
        pass
    try:
        return _run(args)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if warnings is not None:  # a caller's Python (a notebook) calls main again
            logging.getLogger("blockclf.workers").removeHandler(warnings)


def console() -> None:
    """The ``blockclf`` program (and ``python -m blockclf``): `main`, then the process ends.

    A finished command leaves nothing to tidy that the operating system does not reclaim at
    once, yet the interpreter's own teardown (freeing every module, the model and the last
    pages' objects) took about 30 ms of each run: a tenth of a one-page command, paid again
    for every page or folder a shell loop hands it. So once the outputs are closed (they are
    written in ``with`` blocks) and standard output and the logs are flushed, the process
    exits at once; where something may still be running (a thread, a child process: a Dask
    client, say) the interpreter ends it as usual.
    """
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early
        code = _quiet_stdout()
    except OSError as exc:  # a full disk behind a redirection
        print(f"blockclf: error: cannot write to standard output: {exc.strerror or exc}", file=sys.stderr)
        code = 3
    logging.shutdown()
    try:
        sys.stderr.flush()
    except OSError:
        pass
    if _still_running():
        sys.exit(code)
    os._exit(code)


def _still_running() -> bool:
    """Whether a thread other than this one (daemon threads end with the process anyway) or a
    child process this one started may still be at work."""
    if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
        return True
    mp = sys.modules.get("multiprocessing")  # imported only by commands that start workers
    return bool(mp is not None and mp.active_children())
