"""tools/sanitizers/fork_quiesce.py - a pytest plugin for the Python suite under ASan
(`make test-asan`, the Makefile's ASAN_PYTEST loads it with ``-p``): before every fork,
wait until the process's other threads are asleep. No PyTorch counterpart; PyTorch's ASan
jobs run with a newer sanitizer runtime. Guide: docs/source/internals/building.rst, "Sanitizers".

Why: fork() copies only the calling thread, and every lock in memory in whatever state
the other threads left it. glibc's malloc takes its own locks around fork
(pthread_atfork), so the child's heap is consistent. GCC 12's AddressSanitizer allocator
(libasan.so.8) does not: if another thread is inside it at that moment (a DataLoader
queue's feeder thread freeing its thread state as it exits, after ``join()`` has already
returned), the child starts with that allocator lock held by a thread it does not have,
and its first allocation waits forever. DataLoader workers are forked processes, so a
full run hangs now and then in a worker's first ``operator new``.

A thread inside the allocator is running (state R) or in a page fault (D); it never
sleeps with the lock held. So the hook waits, for at most one second, until every other
thread of the process is asleep (S), then lets the fork go on. Outside the sanitizer
runs nothing loads this file.
"""

import os
import time

_MAX_WAIT_S = 1.0


def _other_threads_busy():
    me = str(os.gettid()) if hasattr(os, "gettid") else None
    for tid in os.listdir("/proc/self/task"):
        if tid == me:
            continue
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                # "tid (comm) state ...": comm may hold spaces or parentheses.
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # the thread ended while we looked
        if state in ("R", "D"):
            return True
    return False


def _wait_for_quiet_threads():
    deadline = time.monotonic() + _MAX_WAIT_S
    while _other_threads_busy() and time.monotonic() < deadline:
        time.sleep(0.001)


def pytest_configure(config):
    os.register_at_fork(before=_wait_for_quiet_threads)
