"""Worker processes for a batch's passes (`blockclf.batch`): how many a batch is worth, the
garbage collector set for a long batch, and `Workers`, the pool that sends a task to the
worker holding its pages and survives a worker that dies.

The pool knows nothing of the tasks it runs but two things its owner tells it: what a task
whose worker died twice gives (``lost``), and the arguments of a task run again in a worker
of its own (``alone_args``).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import os
import pickle
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .booster import fork_safe

__all__ = ["AUTO_JOBS", "GC_THRESHOLDS", "PAGES_PER_WORKER", "Workers", "auto_jobs", "available_cores",
           "batch_collector", "plan_workers", "steady_collector"]

#: the pool's own logger: the command line says what it warns of (a worker that died) without -v
log = logging.getLogger("blockclf.workers")

#: a worker process is started for every this many pages at most: forked, a worker costs a few
#: milliseconds, but a second one paid on 24-page folders (0.63 s against 0.59 s and 0.80 s
#: against 0.71 s) and not on a 15-page one (0.52 s against 0.54 s)
PAGES_PER_WORKER = 12
#: tasks under way in a worker at once (one running, one queued behind it, so that it never
#: waits for this process to send the next)
QUEUED_PER_WORKER = 2
#: tasks drawn ahead of the result given last, a worker: sent, finished before their turn,
#: or waiting for a busy worker they are bound to
DRAWN_PER_WORKER = 4
#: ``--jobs auto`` starts at most this many workers: past it, the outputs written by the main
#: process are what a batch waits for
AUTO_JOBS = 8
#: the cyclic garbage collector's thresholds in a batch's own processes (`steady_collector`;
#: Python's defaults are 700, 10, 10)
GC_THRESHOLDS = (10_000, 20, 20)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, which containers and ``taskset`` set)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def plan_workers(cores: int, total: int) -> int:
    """How many worker processes a batch of ``total`` pages is worth, with ``cores`` free.

    A short batch runs in this process: a worker costs about as much to start as reading
    `PAGES_PER_WORKER` pages saves.
    """
    return max(1, min(cores, total // PAGES_PER_WORKER))


def auto_jobs(total: int | None) -> int:
    """``--jobs auto``: the free cores (at most `AUTO_JOBS`), as many as a batch of ``total``
    pages is worth (`plan_workers`); all of them for a batch of unknown length (a WARC's)."""
    cores = min(available_cores(), AUTO_JOBS)
    return cores if total is None else plan_workers(cores, total)


def _split(args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """A chunk's task as one task per page: list arguments are cut along with the items."""
    items, rest = args[0], args[1:]
    return [(items[i:i + 1], *(r[i:i + 1] if isinstance(r, list) else r for r in rest)) for i in range(len(items))]


def steady_collector() -> None:
    """Set Python's cyclic garbage collector for a long batch in a process of its own (a
    batch worker; the command through `batch_collector`), not in a caller's.

    What is alive now (modules, the model) is frozen out of its passes, and it runs about a
    fifteenth as often: a page's blocks make few reference cycles, and at the default
    thresholds it spent 5% of a batch's CPU walking live objects (0.76 s against 0.34 s over
    the dragnet and wcxb test folders at ``--jobs 1``).
    """
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@contextlib.contextmanager
def batch_collector() -> Iterator[None]:
    """`steady_collector` for a batch run in this process, undone when it ends: the command
    line is also called from a caller's Python (`blockclf.cli.main` in a notebook), whose
    collector is its own. Objects a caller had frozen already stay frozen."""
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    steady_collector()
    try:
        yield
    finally:
        if not frozen:
            gc.unfreeze()
        gc.set_threshold(*thresholds)


def _worker_started(parent: int = 0) -> None:
    """In a new worker: Ctrl-C is the main process's to answer (it stops the workers), a
    termination signal ends the worker whatever handler it inherited, the worker ends with the
    process that started it (`_end_with_parent`), and the collector is set for a batch
    (`steady_collector`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent(parent)
    steady_collector()


#: Linux's prctl option that has the kernel signal a process when its parent ends
_PR_SET_PDEATHSIG = 1


def _end_with_parent(parent: int) -> None:
    """Have the kernel end this worker when ``parent`` (the process that started it; -1: the
    one that did, whichever it is) ends.

    A main process killed outright (SIGKILL, the out-of-memory killer) answers nothing: its
    workers waited for tasks forever, each holding its memory, and the files it had open (a
    WARC's partial output, locked, which ``--resume`` then could not go on from). Linux
    only; elsewhere nothing is done.
    """
    if not sys.platform.startswith("linux") or not parent:
        return
    parent = os.getppid() if parent < 0 else parent
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - a C library without prctl
        return
    if os.getppid() != parent:  # it ended before the request was made
        os._exit(1)


def _dumps(task: tuple[Any, ...], forked: bool) -> bytes:
    """A task pickled for a worker. A forked worker has this process's modules, so the
    standard pickler (several times faster) sends any function it can name; other workers
    get functions by value from cloudpickle, where it is installed, so that a ``transform``
    defined in a script or as a lambda reaches them too."""
    if forked:
        try:
            return pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, AttributeError, TypeError):  # a lambda or a local function
            pass
    try:
        from cloudpickle import dumps
    except ImportError:
        dumps = pickle.dumps
    return dumps(task, protocol=pickle.HIGHEST_PROTOCOL)


def _call(payload: bytes) -> Any:
    """Run a task sent to a worker process as pickled ``(fn, args)``."""
    fn, args = pickle.loads(payload)
    return fn(*args)


class Workers:
    """Worker processes for a batch's passes, started once and kept for both.

    Each worker is a pool of its own (a slot), so that a task can be sent to the worker
    that read its pages: pass 1 leaves pages in the worker that read them (`blockclf.batch`), and
    pass 2 scores them there. A task with no slot of its own goes to the slot with the
    fewest tasks under way.

    On Linux they are forked from this process, which has already imported what they need and
    loaded the model: starting one costs milliseconds, not the half second a fresh
    interpreter takes, so parallel work pays on batches of a few dozen pages. Once this
    process may have started OpenMP threads (`blockclf.booster.fork_safe`), which a forked
    child cannot use, they come from a fork server instead; elsewhere they are spawned.
    Tasks travel pickled (with cloudpickle where it is installed, so that a ``transform``
    may then be any function, a lambda included).

    A worker that dies (killed, out of memory, a crash in a native library) costs only the
    pages it held: the tasks it had under way are run again, each in a fresh worker of its
    own (which reads again the pages the dead one held); a task that kills its worker twice
    is run page by page, and a page that kills its worker on its own comes back failed
    (reason ``worker-died``), never the whole batch. Its slot gets a fresh worker.

    ``lost(fn, args, why)`` gives what such a task returns (each of its pages failed, named with
    ``why``); ``alone_args(fn, args)``, the arguments of a task run again in a worker of its own.
    """

    def __init__(self, jobs: int, lost: Callable[[Callable[..., Any], tuple[Any, ...], str], Any],
                 alone_args: Callable[[Callable[..., Any], tuple[Any, ...]], tuple[Any, ...]]) -> None:
        self.jobs = jobs
        self.lost = lost
        self.alone_args = alone_args
        self.pools: list[Any] = [None] * max(jobs, 1)
        self.forked: dict[Any, bool] = {}  # per pool: whether its worker was forked from this process

    def _executor(self, jobs: int) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        if sys.platform.startswith("linux"):
            method = "fork" if fork_safe() else "forkserver"
        else:
            method = "spawn"
        # a forked worker's parent is this process; a fork server's worker's is the server,
        # which ends when this process does
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method),
                                   initializer=_worker_started, initargs=(os.getpid() if method == "fork" else -1,))
        self.forked[pool] = method == "fork"
        return pool

    def _submit(self, fn: Callable[..., Any], args: tuple[Any, ...], pool: Any = None, slot: int = 0) -> Any:
        pool = pool if pool is not None else self._slot_pool(slot)
        return pool.submit(_call, _dumps((fn, args), self.forked.get(pool, False)))

    def _slot_pool(self, slot: int) -> Any:
        """The pool of worker ``slot``, started on first use (and again after its worker died)."""
        if self.pools[slot] is None:
            self.pools[slot] = self._executor(1)
        return self.pools[slot]

    def close(self, abort: bool = False) -> None:
        """Let the workers go once their tasks are done; with ``abort`` (Ctrl-C, an error, a
        caller that stopped reading outcomes) the tasks not yet started are dropped.

        Workers are not killed: one killed while it sends a result would leave half a message
        in the pipe, and the pool's reader thread, which the interpreter waits for at exit,
        would wait for the rest forever. A worker finishes at most the task it holds and the
        one queued for it (each within the page time budget), and this returns when they
        have: a pool's thread still running at exit races with it on the pool's wake-up pipe
        (Python 3.11 closes the pipe without the lock its exit hook would need) and prints a
        traceback after a command whose reader stopped early had ended quietly.
        """
        pools, self.pools = self.pools, [None] * len(self.pools)
        for pool in pools:
            if pool is not None:
                self._let_go(pool, wait=True, cancel=abort)

    def _let_go(self, pool: Any, wait: bool, cancel: bool) -> None:
        self.forked.pop(pool, None)
        pool.shutdown(wait=wait, cancel_futures=cancel)

    def map(self, fn: Callable[..., Any], tasks: Iterable[tuple[int | None, tuple[Any, ...]]]) -> Iterator[
            tuple[int, Any]]:
        """``(slot, fn(*args))`` for each ``(slot, args)`` task, in order; a slot of None lets
        the least busy worker take the task.

        Each worker has `QUEUED_PER_WORKER` tasks under way, and is given the next one as soon
        as one of them ends, whatever the order results are given in: a result that comes
        before its turn waits here. Handing out work only as results were given, in order, left
        a worker idle behind the other's slower task (a third of a second of the wcxb test
        folder's five), and a task bound to a busy worker held back those behind it that were
        bound to an idle one; tasks are therefore drawn ahead of their turn, at most
        `DRAWN_PER_WORKER` a worker (with what finished early).
        """
        from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
        from concurrent.futures.process import BrokenProcessPool

        if self.jobs <= 1:
            for _slot, args in tasks:
                yield 0, fn(*args)
            return
        todo = iter(tasks)
        drawn: deque[tuple[int, int | None, tuple[Any, ...]]] = deque()  # drawn, not yet sent: index, slot, args
        running: dict[Any, tuple[int, tuple[Any, ...], int, Any]] = {}  # future: index, args, slot, its pool
        finished: dict[int, tuple[int, Any]] = {}  # index: (slot, result), until its turn
        busy = [0] * self.jobs
        n_drawn = given = 0
        more = True

        def send(index: int, slot: int, args: tuple[Any, ...]) -> None:
            pool = self._slot_pool(slot)
            try:
                future = self._submit(fn, args, slot=slot)
            except BrokenProcessPool as exc:  # its worker died since the last result: run it again below
                future = Future()
                future.set_exception(exc)
            busy[slot] += 1
            running[future] = (index, args, slot, pool)

        def fill() -> None:
            nonlocal n_drawn, more
            while True:
                for task in list(drawn):  # in order, each to its worker (or the least busy) if it has room
                    index, slot, args = task
                    if slot is None or not 0 <= slot < self.jobs:
                        slot = busy.index(min(busy))
                    if busy[slot] < QUEUED_PER_WORKER:
                        drawn.remove(task)
                        send(index, slot, args)
                if not more or n_drawn - given >= DRAWN_PER_WORKER * self.jobs or min(busy) >= QUEUED_PER_WORKER:
                    return
                if any(slot is None for _i, slot, _a in drawn):  # every worker is full
                    return
                nxt = next(todo, None)
                if nxt is None:
                    more = False
                    return
                drawn.append((n_drawn, nxt[0], nxt[1]))
                n_drawn += 1

        fill()
        while given < n_drawn:
            if given in finished:
                slot, out = finished.pop(given)
                given += 1
                yield slot, out
                fill()
                continue
            if not running:  # the task due is drawn and sent as soon as its worker has room
                raise RuntimeError("a batch task was neither sent nor finished")
            ended, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in sorted(ended, key=lambda f: running[f][0]):
                index, args, slot, pool = running.pop(future)
                busy[slot] -= 1
                try:
                    out = future.result()
                except (BrokenProcessPool, CancelledError):  # cancelled: queued on a pool let go of below
                    why = "it ended abruptly: killed, out of memory, or a crash"
                    if self.pools[slot] is pool:  # the slot gets a fresh worker for the tasks still to come
                        log.warning("a worker process died: running its tasks again")
                        self.pools[slot] = None
                        self._let_go(pool, wait=False, cancel=True)
                    out = self._again(fn, args, why)
                finished[index] = (slot, out)
            fill()

    def _alone(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Run one task in a worker process of its own."""
        pool = self._executor(1)
        try:
            return self._submit(fn, args, pool).result()
        finally:
            self._let_go(pool, wait=True, cancel=False)

    def _again(self, fn: Callable[..., Any], args: tuple[Any, ...], why: str) -> Any:
        """A task whose worker died, run once more; page by page if it dies again."""
        from concurrent.futures.process import BrokenProcessPool

        args = self.alone_args(fn, args)
        try:
            return self._alone(fn, args)
        except BrokenProcessPool:
            if len(args[0]) == 1:
                return self.lost(fn, args, why)
        out: list[Any] = []
        for one in _split(args):
            try:
                out.extend(self._alone(fn, one))
            except BrokenProcessPool:
                out.extend(self.lost(fn, one, why))
        return out
