"""Reading untrusted files in a sandboxed worker process.

Every file a user (or a student) hands Sverka is read in a separate process that has an
address-space limit (``RLIMIT_AS``) and a time limit, so a decompression bomb, a PDF whose
forms draw each other a million times or a reader that segfaults costs one file, never the
window, the batch or the collection. A violation becomes an
:class:`~sverka.core.errors.ExtractError` naming the file and the limit. (A plain-text file of
at most 4 MB is only decoded, bounded by its size: :func:`sandboxed_extract` reads it here,
see :func:`sverka.core.extract.extract_small_plain`.)

* :class:`Sandbox` is one warm, persistent worker (started on first use, restarted after a
  violation) that runs one call at a time: the window's single opens, ``check``,
  ``compare``, ``crosscheck``, ``extract`` and small adds use the shared one
  (:func:`shared_sandbox`).
* :func:`limit_this_process` is what a worker does first: the memory limit and "die with the
  parent" (``PR_SET_PDEATHSIG`` on Linux plus a thread watching the parent's pid). Every
  process pool (large adds, checks of many documents, a class in the window) is made by
  :func:`process_pool` (workers started with :data:`START_METHOD`), each worker running
  :func:`pool_initializer` first (a class's workers, which read no files, only die with the
  parent: :func:`die_with_parent`).

Limits (:mod:`sverka.core.limits`): :data:`~sverka.core.limits.READ_MEMORY_BYTES` of address space beyond what the worker holds after its
imports, :data:`~sverka.core.limits.READ_SECONDS` of wall-clock time per file, and as much CPU time per file
(``RLIMIT_CPU``, raised before each file: every reader in the worker obeys it, fallbacks
included). A file that breaks the memory limit is then looked at by a fresh worker
(:func:`diagnose`), so the message names a decompression or form bomb as such. Environment variables
``SVERKA_READ_MEMORY_MB`` and ``SVERKA_READ_SECONDS`` override them (the test suite uses them).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path

from .errors import SverkaError, TooLarge
from .limits import read_limits, usable_cores
from .messages import message

__all__ = ["START_METHOD", "CPUTimeUp", "LimitExceeded", "Sandbox", "default_workers",
           "diagnose", "memory_failure", "time_failure",
           "limit_cpu", "limit_this_process", "pool_initializer", "process_pool", "read_limits", "sandboxed_extract", "shared_sandbox",
           "start_kept",
           "trim_memory", "usable_cores"]

#: How worker processes start: a fresh interpreter, never a fork of a process that may hold
#: threads (the window's) or open SQLite connections.
START_METHOD = "spawn"

class _Starter:
    """The one thread that starts every worker process kept beyond the call that first needs
    it (the shared reader, a window's class workers). Linux sends a worker its "die with the
    parent" signal (``PR_SET_PDEATHSIG``, :func:`die_with_parent`) when the THREAD that
    started it ends, not the process: workers started from a job's thread died when the
    window's thread pool retired that thread (after 30 s idle), the reader in the middle of a
    read, class workers with their pool broken, one of them maybe holding the pool's queue
    lock (closing the pool then waited forever). This daemon thread ends only with the process."""

    def __init__(self) -> None:
        import queue

        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="sverka-worker-starter", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            func, args, answer, done = self._calls.get()
            try:
                answer.append((True, func(*args)))
            except BaseException as e:  # handed to the caller
                answer.append((False, e))
            done.set()

    def call(self, func, *args):
        """``func(*args)`` run in the starter thread: its result, or its exception raised here."""
        if threading.current_thread() is self._thread:
            return func(*args)
        answer: list = []
        done = threading.Event()
        self._calls.put((func, args, answer, done))
        done.wait()
        ok, value = answer[0]
        if ok:
            return value
        raise value


_starter: _Starter | None = None
_starter_lock = threading.Lock()


def start_kept(func, *args):
    """``func(*args)`` in the thread that starts the workers kept beyond one call (see
    :class:`_Starter`): worker processes it starts live as long as this process."""
    global _starter
    with _starter_lock:
        if _starter is None:
            _starter = _Starter()
    return _starter.call(func, *args)


class LimitExceeded(TooLarge):
    """Reading a file broke the memory or time limit, or crashed the reader."""


def memory_message(mem: int) -> str:
    return str(message("error.read_memory_limit", mb=mem // (1024 * 1024)))


def time_message(secs: float) -> str:
    return str(message("error.read_time_limit", seconds=f"{secs:g}"))


def memory_failure(path, mem: int, why=None) -> LimitExceeded:
    """The error of a file that broke the memory limit (or crashed the reader): ``why``, what
    :func:`diagnose` found, when it found something, else the limit's own message."""
    m = why if why is not None else message("error.read_memory_limit", mb=mem // (1024 * 1024))
    return LimitExceeded(path, str(m), code=m.code, **m.kw)


def time_failure(path, secs: float) -> LimitExceeded:
    return LimitExceeded(path, time_message(secs), code="error.read_time_limit", seconds=f"{secs:g}")


def diagnose(path: str, memory: int):
    """What made reading ``path`` break the limits, as a message (a PDF's decompression or form
    bomb, :mod:`sverka.core.extract.pdf_bombs`), or None. Run in a worker, under the limits."""
    from .extract.pdf_bombs import diagnose_pdf

    return diagnose_pdf(path, memory // (1024 * 1024))


#: The wall-clock limit of a call exceeds its CPU limit by this much, so that a reader that
#: computes is stopped by its worker (which then stays) rather than killed.
CPU_GRACE_SECONDS = 1.5


class CPUTimeUp(BaseException):
    """The worker used the CPU time one file may take (SIGXCPU): not an error of the reader
    (a BaseException, so that no reader's own ``except Exception`` takes it for damage)."""


def _cpu_time_up(_signum, _frame) -> None:
    raise CPUTimeUp


def limit_cpu(seconds: float) -> None:
    """Let this process use ``seconds`` more CPU time (then SIGXCPU, handled as
    :class:`CPUTimeUp`, and again each second), for the call about to run."""
    try:
        import math
        import resource

        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = used.ru_utime + used.ru_stime
        soft = math.ceil(spent + seconds)
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        # only the soft limit moves: a process that is not root cannot raise a hard limit again,
        # and the next file needs a later one (the wall clock is the last word)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX
        pass


def _vm_size() -> int:
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def limit_this_process(memory: int | None = None, parent: int | None = None) -> None:
    """Die with the parent and cap this process's address space (call first in a worker)."""
    die_with_parent(parent)
    if memory is None:
        memory = read_limits()[0]
    try:
        import resource

        base = _vm_size()
        if base:
            resource.setrlimit(resource.RLIMIT_AS, (base + memory, base + memory))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX
        pass


def die_with_parent(parent: int | None = None) -> None:
    """End this worker process when its parent (``parent``, or the current one) ends."""
    if parent is None:
        parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux/glibc: the watcher thread below still works
        pass
    if os.getppid() != parent:  # the parent died before the prctl took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="sverka-parent-watch", daemon=True).start()


def _serve(conn, memory: int, parent: int, seconds: float | None = None) -> None:
    """The worker's loop: receive (function name, args), send ("ok", value) or ("error", exc)."""
    # Import what reading needs before the limit, so the limit is about the file, not Sverka.
    from . import extract as _extract  # noqa: F401
    from . import formcache
    from . import text as _text  # noqa: F401

    formcache.read_only_in_this_process()  # forms go back with each file (_prepare_call)
    limit_this_process(memory, parent)
    if seconds is None:
        seconds = read_limits()[1]
    try:
        signal.signal(signal.SIGXCPU, _cpu_time_up)
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        pass
    conn.send(("ready", None))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        func, args = request
        limit_cpu(seconds)
        try:
            result = ("ok", _CALLS[func](*args))
        except CPUTimeUp:
            result = ("time", None)
            limit_cpu(seconds)  # no second SIGXCPU while answering
        except MemoryError:
            result = ("memory", None)
        except SverkaError as e:
            result = ("error", e)
        except RecursionError:
            result = ("error", TooLarge(args[0] if args else None, "the file is nested too deeply to read"))
        except Exception as e:  # a bug: report, do not die
            result = ("error", SverkaError(f"unexpected error in Sverka ({type(e).__name__}: {e}); please report it"))
        try:
            conn.send(result)
        except MemoryError:
            conn.send(("memory", None))
        finally:
            result = None
            trim_memory()


def trim_memory() -> None:
    """Hand freed memory back to the system (glibc's ``malloc_trim``), so two workers do not
    both sit at the high-water mark of the largest file; nothing to do elsewhere."""
    global _malloc_trim
    if _malloc_trim is None:
        try:
            import ctypes

            _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):  # not glibc
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim = None


def pool_initializer(parent: int | None = None, form_cache: bool = False) -> None:
    """What every worker of a process pool (adding files, checking many documents) does first:
    import the canonizer, then set the read limits (memory, die with the parent).

    Each dictionary loads on its first word: loading all of them up front would cost every
    worker ~70 MB for languages a collection may not contain."""
    from . import extract, formcache, text  # noqa: F401

    if not form_cache:  # indexing workers: see formcache.read_only_in_this_process
        formcache.read_only_in_this_process()
    limit_this_process(parent=parent)
    try:
        signal.signal(signal.SIGXCPU, _cpu_time_up)  # each file's CPU time: indexing._prepare_file_in_worker
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        pass


def process_pool(workers: int, initializer=pool_initializer, initargs: tuple = ()):
    """A pool of ``workers`` processes started with :data:`START_METHOD`, each running
    ``initializer(*initargs)`` first: the one way every parallel path (adding files, checking
    many documents, a class in the window) starts its workers."""
    import concurrent.futures as cf

    return cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(START_METHOD),
                                  initializer=initializer, initargs=initargs)


def default_workers() -> int:
    """Worker processes of a large add or a check of many documents: one per usable core, at
    most 4 (more workers would hold more dictionaries than the disk and the store can feed)."""
    return min(usable_cores(), 4)


def _extract_call(path: str):
    from .extract import extract

    return extract(path)


def _prepare_call(path: str, size: int, mtime: float, settings):
    from .preparing import prepare_file_handing_forms

    return prepare_file_handing_forms(path, size, mtime, settings)


def _diagnose_call(path: str, memory: int):
    return diagnose(path, memory)


_CALLS = {"extract": _extract_call, "prepare": _prepare_call, "diagnose": _diagnose_call}


class Sandbox:
    """One persistent worker process with the read limits; thread-safe, one call at a time."""

    def __init__(self, memory: int | None = None, seconds: float | None = None,
                 cpu_seconds: float | None = None) -> None:
        mem, secs = read_limits()
        self.memory = mem if memory is None else memory
        self.seconds = secs if seconds is None else seconds
        #: CPU time per call in the worker (the wall-clock limit's by default)
        self.cpu_seconds = self.seconds if cpu_seconds is None else cpu_seconds
        self._lock = threading.Lock()
        self._proc = None
        self._conn = None
        self._ready = False

    def prestart(self) -> None:
        """Start the worker now without waiting for it: its imports overlap the caller's
        (a command line's cold start); the first call waits for it to be ready."""
        with self._lock:
            if self._proc is None or not self._proc.is_alive():
                self._kill()
                self._launch()

    def _launch(self) -> None:
        start_kept(self._launch_here)  # the reader lives longer than the thread asking for it

    def _launch_here(self) -> None:
        ctx = multiprocessing.get_context(START_METHOD)
        parent_conn, child_conn = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child_conn, self.memory, os.getpid(), self.cpu_seconds),
                           name="sverka-reader", daemon=True)
        proc.start()
        child_conn.close()
        self._proc, self._conn, self._ready = proc, parent_conn, False

    def _start(self) -> None:
        self._launch()
        self._await_ready()

    def _await_ready(self) -> None:
        # The worker's start-up (imports) is not a file's time: wait for it separately.
        try:
            ready = self._conn.poll(120) and self._conn.recv()[0] == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            self._kill()
            raise SverkaError.of("error.reader_not_started")
        self._ready = True

    def _kill(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            conn.close()
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            proc.join(5)

    def close(self) -> None:
        with self._lock:
            self._kill()

    def call(self, func: str, path: str, *args):
        """Run ``func(path, *args)`` in the worker; raise LimitExceeded naming ``path`` on a violation."""
        with self._lock:
            if self._proc is None or not self._proc.is_alive():
                self._kill()
                self._launch()
            if not self._ready:
                self._await_ready()
            try:
                self._conn.send((func, (path, *args)))
                # the worker's CPU limit answers first for a reader that computes; the clock is
                # for one that waits or spins where no signal reaches it
                deadline = time.monotonic() + self.seconds + CPU_GRACE_SECONDS
                while not self._conn.poll(0.05):
                    if not self._proc.is_alive():
                        raise EOFError
                    if time.monotonic() > deadline:
                        self._kill()
                        raise time_failure(path, self.seconds)
                kind, value = self._conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                self._kill()
                raise memory_failure(path, self.memory, self._diagnose(func, path)) from None
            if kind == "memory":
                self._kill()  # its heap may be fragmented near the limit: the next file gets a fresh reader
                raise memory_failure(path, self.memory, self._diagnose(func, path))
        if kind == "ok":
            return value
        if kind == "time":
            raise time_failure(path, self.cpu_seconds)
        raise value

    def _diagnose(self, func: str, path: str):
        """After ``path`` broke the memory limit: what :func:`diagnose` finds in it, asked of a
        fresh worker under the same limits (lock held, worker killed), or None."""
        if func == "diagnose":
            return None
        try:
            self._launch()
            self._await_ready()
            self._conn.send(("diagnose", (path, self.memory)))
            if not self._conn.poll(min(self.seconds, 60.0)):
                self._kill()
                return None
            kind, value = self._conn.recv()
        except (SverkaError, EOFError, OSError, BrokenPipeError):
            self._kill()
            return None
        return value if kind == "ok" else None

    def diagnose(self, path: str):
        """:func:`diagnose` of ``path`` in this worker (for a pool whose worker died on it)."""
        with self._lock:
            self._kill()
            return self._diagnose("extract", path)


_shared: Sandbox | None = None
_shared_lock = threading.Lock()


def shared_sandbox() -> Sandbox:
    """The process-wide warm reader (limits read from the environment when first used)."""
    global _shared
    with _shared_lock:
        if _shared is None or (_shared.memory, _shared.seconds) != read_limits():
            if _shared is not None:
                _shared.close()
            _shared = Sandbox()
        return _shared


def sandboxed_extract(path: str | Path):
    """:func:`sverka.core.extract.extract` in the shared sandbox (raises ExtractError naming the
    file); a small plain-text file is read here (:func:`~sverka.core.extract.extract_small_plain`)."""
    from .extract import extract_small_plain

    doc = extract_small_plain(path)
    return doc if doc is not None else shared_sandbox().call("extract", os.fspath(path))


def _close_shared() -> None:
    if _shared is not None:
        _shared.close()


import atexit  # noqa: E402

atexit.register(_close_shared)
