"""How the main process notices at once that a DataLoader worker died: a SIGCHLD handler.

Mirrors PyTorch's torch/utils/data/_utils/signal_handling.py together with the C++ half it
imports from torch._C (torch/csrc/DataLoader.cpp: _set_worker_pids, _remove_worker_pids,
_error_if_any_worker_fails, _set_worker_signal_handlers), here written in Python.
Guide: docs/source/internals/python_layer.rst

A worker killed by a signal (SIGKILL from the OOM killer, a segfault in a C extension) or
leaving through os._exit never puts anything on the result queue, so the main process,
blocked in ``get``, would only find out when its next liveness check comes round. Instead:

1. Each _MultiProcessingDataLoaderIter registers its workers' pids here
   (``_set_worker_pids(id(iterator), pids)``) once they have started, and removes them
   (``_remove_worker_pids``) before it stops them on purpose.
2. ``_set_SIGCHLD_handler`` installs, once per process, a handler for SIGCHLD, the signal
   the kernel sends a parent whenever a child exits. It calls
   ``_error_if_any_worker_fails``, which asks the kernel about each registered pid with
   ``waitid(WEXITED | WNOHANG | WNOWAIT)``: WNOHANG so that it never blocks, WNOWAIT so
   that the dead child stays a zombie and multiprocessing's own ``is_alive()`` can still
   reap it and see that it died.
3. A worker that exited with a non-zero code or was killed by a signal makes the handler
   raise RuntimeError. Python runs signal handlers in the main thread, so the error comes
   out of whatever the main thread was doing - usually the result queue's ``get``, which
   ``_try_get_data`` turns into "DataLoader worker (pid(s) N) exited unexpectedly", with
   the handler's message as its cause.
"""

import faulthandler
import os
import signal
import threading
import time

from . import IS_WINDOWS

# waitid(WNOWAIT) asks about a child without reaping it; Windows has no SIGCHLD, and macOS
# Pythons before 3.13 have no os.waitid.
_HAS_WAITID = hasattr(os, "waitid") and not IS_WINDOWS

# id(_BaseDataLoaderIter) -> set of its workers' pids (DataLoader.cpp's `worker_pids`).
_worker_pids = {}


def _set_worker_pids(key, child_pids):
    r"""Register the pids of one iterator's workers (once per iterator)."""
    if not isinstance(child_pids, tuple):
        raise TypeError(f"_set_worker_pids expects a tuple for child_pids, but got {type(child_pids).__name__}.")
    if key in _worker_pids:
        raise ValueError("_set_worker_pids should be called only once for each _BaseDataLoaderIter.")
    _worker_pids[key] = set(child_pids)


def _remove_worker_pids(key):
    r"""Forget an iterator's workers: from now on their exit is expected, not an error."""
    if _worker_pids.pop(key, None) is None:
        raise ValueError(f"Cannot find worker information for _BaseDataLoaderIter with id {key}")


def _failure_message(pid, exitcode):
    r"""What to say about worker ``pid`` that ended with ``exitcode`` (multiprocessing's
    convention: -N if killed by signal N), or None if it exited cleanly."""
    if exitcode is None or exitcode == 0:
        return None
    if exitcode > 0:
        return (f"DataLoader worker (pid {pid}) exited unexpectedly with exit code {exitcode}. "
                "Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better error trace.")
    msg = f"DataLoader worker (pid {pid}) is killed by signal: {signal.strsignal(-exitcode)}. "
    if -exitcode == signal.SIGBUS:
        # Workers write batches into /dev/shm; a full /dev/shm shows up as SIGBUS on the
        # first touch of a page that cannot be backed.
        msg += ("It is possible that dataloader's workers are out of shared memory. "
                "Please try to raise your shared memory limit.")
    return msg


def _worker_failure(pid):
    r"""What to say if worker ``pid`` has died badly, else None. Never blocks, never reaps."""
    if not _HAS_WAITID:
        return None
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # already reaped by someone else: nothing to learn
        return None
    if info is None:  # still running
        return None
    if info.si_code == os.CLD_EXITED:
        return _failure_message(pid, info.si_status)
    if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
        return _failure_message(pid, -info.si_status)
    return None  # only stopped or continued


def _wait_until_waitable(pid, timeout):
    r"""Wait (up to ``timeout`` s) until exiting child ``pid`` can be waited for; don't reap it."""
    if not _HAS_WAITID:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return
        except ChildProcessError:  # already reaped
            return
        time.sleep(0.001)


def _error_if_any_worker_fails(key=None):
    r"""Raise RuntimeError if a registered worker (of iterator ``key``, or of any) died badly."""
    keys = list(_worker_pids) if key is None else [key]
    for k in keys:
        pids = _worker_pids.get(k)
        for pid in list(pids or ()):
            msg = _worker_failure(pid)
            if msg is not None:
                # Forget this iterator's workers: raising makes the iterator shut down and
                # terminate the others, whose exits must not raise again from this handler.
                pids.clear()
                # Made in the raise, never held in a local: the traceback keeps this frame,
                # and a local holding the error would make a cycle that keeps the iterator
                # (reachable from the frames below) alive until the cycle collector runs.
                raise RuntimeError(msg)


_SIGCHLD_handler_set = False
r"""Whether the SIGCHLD handler is installed: one handler serves every DataLoader."""


def _set_SIGCHLD_handler():
    r"""Install (once) the SIGCHLD handler that raises when a registered worker dies."""
    if IS_WINDOWS or not _HAS_WAITID:  # the timed checks in _try_get_data are all there is
        return
    # Python only lets the main thread install signal handlers; an iterator made in another
    # thread relies on _try_get_data's timed checks.
    if threading.current_thread() is not threading.main_thread():
        return
    global _SIGCHLD_handler_set
    if _SIGCHLD_handler_set:
        return
    previous_handler = signal.getsignal(signal.SIGCHLD)
    if not callable(previous_handler):
        # SIG_DFL (ignore SIGCHLD) or None (set outside Python): nothing to chain to.
        previous_handler = None

    def handler(signum, frame):
        _error_if_any_worker_fails()
        if previous_handler is not None:
            previous_handler(signum, frame)

    signal.signal(signal.SIGCHLD, handler)
    _SIGCHLD_handler_set = True


def _set_worker_signal_handlers():
    r"""In a worker: report fatal signals on stderr before dying of them.

    PyTorch installs C handlers for SIGSEGV, SIGBUS and SIGFPE that print "ERROR: Unexpected
    segmentation fault encountered in worker." and re-raise the signal. A Python handler
    cannot do that (it would only run after the faulting instruction returned, which it
    never does), so this uses faulthandler, the interpreter's own C handler: it prints the
    worker's Python stack, then lets the signal kill the process as before, so the main
    process still reports "killed by signal: Segmentation fault.".
    """
    if faulthandler.is_enabled():
        return
    try:
        faulthandler.enable(all_threads=False)  # the thread that faulted is the one to read
    except (AttributeError, ValueError, OSError, RuntimeError):
        pass  # sys.stderr is None or has no file descriptor: nowhere to print to
