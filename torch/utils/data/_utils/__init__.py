"""torch.utils.data._utils: the pieces the DataLoader's iterators are built from.

Mirrors PyTorch's torch/utils/data/_utils/__init__.py. Guide: docs/source/internals/python_layer.rst

``collate`` turns samples into batches, ``fetch`` reads samples from a dataset, ``worker``
is the loop each worker process runs, ``shared_memory`` moves batch tensors between
processes without copying their bytes through a pipe.
"""

import atexit
import sys
import traceback

IS_WINDOWS = sys.platform == "win32"

MP_STATUS_CHECK_INTERVAL = 5.0
r"""Seconds between a worker's checks that its main process is still alive, so that a dead
main process never leaves its workers blocked forever; also how long the main process
waits for a worker to exit before it terminates it."""

WORKER_STATUS_POLL_INTERVAL = 0.1
r"""Seconds the main process waits on the result queue before it checks its workers again.

Usually SIGCHLD reports a dead worker first (``signal_handling``); this bounds the delay
where it cannot: an iterator made in a thread other than the main one (only the main
thread can install signal handlers), and a worker that exits with code 0 before finishing
its work (the handler raises only for failures). PyTorch polls every
MP_STATUS_CHECK_INTERVAL here; a wake-up ten times a second costs nothing measurable."""

python_exit_status = False
r"""Set when the interpreter starts shutting down; iterators then skip their shutdown
logic, whose modules may already be gone (PyTorch's note: the atexit hook runs first)."""

try:
    import numpy  # noqa: F401

    HAS_NUMPY = True
except ModuleNotFoundError:
    HAS_NUMPY = False


def _set_python_exit_flag():
    global python_exit_status
    python_exit_status = True


atexit.register(_set_python_exit_flag)


class KeyErrorMessage(str):
    r"""str subclass that returns itself in repr (KeyError quotes its message otherwise)."""

    def __repr__(self):
        return self


# PyTorch keeps ExceptionWrapper in torch/_utils.py; it lives here because the DataLoader
# is its only user in this project.
class ExceptionWrapper:
    r"""An exception and its formatted traceback, picklable, to re-raise in another process.

    A worker cannot send the exception object itself (tracebacks do not pickle), so it sends
    the type and the text; ``reraise`` raises the same type in the main process with
    "Caught ValueError in DataLoader worker process 0.\nOriginal Traceback ...".
    """

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        r"""Re-raise the wrapped exception in the current process."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            # The exception type takes other arguments: fall back to RuntimeError.
            raise RuntimeError(msg) from None
        try:
            raise exception
        finally:
            # Drop the frame's reference to the exception: otherwise exception -> traceback
            # -> this frame -> exception is a cycle that keeps the DataLoader iterator (on the
            # traceback) alive until the cycle collector runs, and the collector may close
            # its queues before the iterator's __del__ can tell the workers to exit.
            del exception


from . import collate, fetch, pin_memory, shared_memory, signal_handling, worker  # noqa: E402
