# test/utils/test_dataloader_workers.py - DataLoader workers that die, and main processes that
# die: how fast the main process notices a dead worker (the SIGCHLD handler of
# torch/utils/data/_utils/signal_handling.py), and that a killed main process leaves no shared
# memory behind (_utils/shared_memory.py). Mirrors the worker-failure tests of PyTorch's
# test/test_dataloader.py. Guide: docs/source/internals/python_layer.rst
#
# The error types and words are PyTorch 2.13's, read off a PyTorch build by killing a worker
# mid-epoch. Time limits are generous (2 s against a measured ~10 ms) for loaded 2-core CI
# machines; without the SIGCHLD handler and the short polls, detection took 5 s.

import faulthandler
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import pytest
import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data._utils import shared_memory, signal_handling

T = 20  # seconds: the DataLoader timeout, so that a broken test fails instead of hanging
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DETECTION_LIMIT = 2.0  # seconds

pytestmark = pytest.mark.skipif(not hasattr(os, "waitid"), reason="POSIX signals, os.waitid")


class Slow(Dataset):
    """Workers spend their time sleeping, so the main process waits in the queue's get."""

    def __len__(self):
        return 10_000

    def __getitem__(self, i):
        time.sleep(0.01)
        return torch.full((4,), float(i))


def no_faulthandler(worker_id):
    faulthandler.disable()


def worker_death(error):
    """The message that says how the worker died. PyTorch raises it from the SIGCHLD handler,
    in whatever the main thread is doing: inside the result queue's get it becomes the cause
    of "DataLoader worker (pid(s) N) exited unexpectedly", elsewhere it arrives as is."""
    if re.fullmatch(r"DataLoader worker \(pid\(s\) [\d, ]+\) exited unexpectedly", str(error)):
        assert type(error.__cause__) is RuntimeError
        return str(error.__cause__)
    return str(error)


def kill_a_worker_and_time_the_error(it, sig):
    victim = it._workers[0].pid
    start = time.monotonic()
    try:
        os.kill(victim, sig)  # inside the try: the handler may raise before the loop starts
        for _ in it:
            pass
    except RuntimeError as e:
        elapsed = time.monotonic() - start
        return victim, e, elapsed
    raise AssertionError("the loader finished without noticing its dead worker")


# Under `make test-asan` the workers inherit AddressSanitizer's own SIGSEGV/SIGBUS handlers,
# which turn the signal the test sends into a report and an abort (SIGABRT): what the loader
# then says is right for SIGABRT, but not the words this test checks.
_ASAN_CATCHES = pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                                   reason="AddressSanitizer handles SIGSEGV/SIGBUS itself and aborts")


@pytest.mark.parametrize("sig, words", [
    (signal.SIGKILL, "Killed. "),
    pytest.param(signal.SIGSEGV, "Segmentation fault. ", marks=_ASAN_CATCHES),
    pytest.param(signal.SIGBUS, "Bus error. It is possible that dataloader's workers are out of shared memory. "
                 "Please try to raise your shared memory limit.", marks=_ASAN_CATCHES),
])
def test_worker_killed_by_a_signal_is_reported_at_once(sig, words):
    # pytest's faulthandler, inherited by the workers, would print the victim's stack.
    it = iter(DataLoader(Slow(), batch_size=2, num_workers=2, timeout=T, worker_init_fn=no_faulthandler))
    next(it)
    victim, error, elapsed = kill_a_worker_and_time_the_error(it, sig)
    assert type(error) is RuntimeError
    assert worker_death(error) == f"DataLoader worker (pid {victim}) is killed by signal: {words}"
    assert elapsed < DETECTION_LIMIT, f"took {elapsed:.2f} s"
    if str(error).startswith("DataLoader worker (pid(s)"):
        assert str(error) == f"DataLoader worker (pid(s) {victim}) exited unexpectedly"
    workers = list(it._workers)
    del it, error
    assert not any(w.is_alive() for w in workers)  # the survivors are shut down too


def test_worker_exiting_with_an_error_code_is_reported_at_once():
    class Exits(Dataset):
        def __len__(self):
            return 100

        def __getitem__(self, i):
            if i == 7:
                os._exit(3)
            time.sleep(0.01)
            return i

    it = iter(DataLoader(Exits(), num_workers=2, timeout=T))
    start = time.monotonic()
    try:
        for _ in it:
            pass
    except RuntimeError as e:
        # Read it here: `e` is unbound after the except block, so no traceback keeps the
        # iterator alive (for the cycle collector to shut down in the middle of a later test).
        elapsed, death = time.monotonic() - start, worker_death(e)
    else:
        raise AssertionError("the loader finished without noticing its dead worker")
    assert re.fullmatch(r"DataLoader worker \(pid \d+\) exited unexpectedly with exit code 3\. Details are lost "
                        r"due to multiprocessing\. Rerunning with num_workers=0 may give better error trace\.", death)
    assert elapsed < DETECTION_LIMIT, f"took {elapsed:.2f} s"
    workers = list(it._workers)
    del it
    assert not any(w.is_alive() for w in workers)


def test_without_a_SIGCHLD_handler_the_short_polls_notice_a_dead_worker():
    # An iterator made in another thread cannot install the handler (Python lets only the
    # main thread do that); a fresh interpreter, so that no earlier test installed it.
    script = textwrap.dedent("""
        import os, signal, threading, time, torch
        from torch.utils.data import DataLoader, Dataset
        from torch.utils.data._utils import signal_handling

        class Slow(Dataset):
            def __len__(self):
                return 10_000
            def __getitem__(self, i):
                time.sleep(0.01)
                return i

        result = []
        def run():
            it = iter(DataLoader(Slow(), num_workers=2, timeout=20))
            next(it)
            victim = it._workers[0].pid
            start = time.monotonic()
            os.kill(victim, signal.SIGKILL)
            try:
                for _ in it:
                    pass
            except RuntimeError as e:
                result.append((victim, time.monotonic() - start, str(e), str(e.__cause__)))
        t = threading.Thread(target=run)
        t.start()
        t.join()
        assert not signal_handling._SIGCHLD_handler_set
        print(repr(result[0]))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    victim, elapsed, msg, cause = eval(done.stdout)
    assert msg == f"DataLoader worker (pid(s) {victim}) exited unexpectedly"
    assert cause == f"DataLoader worker (pid {victim}) is killed by signal: Killed. "
    assert elapsed < DETECTION_LIMIT, f"took {elapsed:.2f} s"


# ---- the pid table and the check the SIGCHLD handler runs ----------------------------------


def dead_child(how):
    """Fork a child that dies as told; return its pid once it is a zombie (not reaped)."""
    pid = os.fork()
    if pid == 0:
        try:
            if how == "exit 0":
                os._exit(0)
            if how == "exit 3":
                os._exit(3)
            signal.signal(signal.SIGBUS, signal.SIG_DFL)  # pytest's faulthandler would print first
            os.kill(os.getpid(), signal.SIGBUS)
        finally:
            os._exit(99)
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # wait for the death, leave the zombie
    return pid


@pytest.mark.parametrize("how, message", [
    ("exit 0", None),
    ("exit 3", "DataLoader worker (pid {}) exited unexpectedly with exit code 3. Details are lost due to "
               "multiprocessing. Rerunning with num_workers=0 may give better error trace."),
    ("SIGBUS", "DataLoader worker (pid {}) is killed by signal: Bus error. It is possible that dataloader's "
               "workers are out of shared memory. Please try to raise your shared memory limit."),
])
def test_error_if_any_worker_fails(how, message):
    pid = dead_child(how)
    key = object()  # registered after the death: the SIGCHLD it sent found nothing to report
    signal_handling._set_worker_pids(id(key), (pid,))
    try:
        if message is None:
            signal_handling._error_if_any_worker_fails()
        else:
            with pytest.raises(RuntimeError) as info:
                signal_handling._error_if_any_worker_fails()
            assert str(info.value) == message.format(pid)
            signal_handling._error_if_any_worker_fails()  # reported once: the set was cleared
        # WNOWAIT: the child is still there for multiprocessing (or anyone) to reap
        assert os.waitpid(pid, os.WNOHANG)[0] == pid
    finally:
        signal_handling._remove_worker_pids(id(key))


def test_worker_pid_table_errors_are_pytorchs():
    with pytest.raises(TypeError, match=r"^_set_worker_pids expects a tuple for child_pids, but got list\.$"):
        signal_handling._set_worker_pids(1, [1])
    signal_handling._set_worker_pids(1, (os.getpid(),))
    try:
        with pytest.raises(ValueError, match=r"^_set_worker_pids should be called only once for each "
                                             r"_BaseDataLoaderIter\.$"):
            signal_handling._set_worker_pids(1, (2,))
    finally:
        signal_handling._remove_worker_pids(1)
    with pytest.raises(ValueError, match=r"^Cannot find worker information for _BaseDataLoaderIter with id 1$"):
        signal_handling._remove_worker_pids(1)


def test_iterators_register_their_workers_until_shutdown():
    it = iter(DataLoader(range(20), num_workers=2, timeout=T))
    assert signal_handling._worker_pids[id(it)] == {w.pid for w in it._workers}
    key = id(it)
    list(it)  # the epoch ends: workers stop on purpose, and their exits are no error
    assert key not in signal_handling._worker_pids


# ---- shared memory when the main process is killed ----------------------------------------


def shm_files(prefix):
    return sorted(f for f in os.listdir(shared_memory.SHM_DIR) if f.startswith(prefix))


def gone(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return "zombie" in f.read()
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("strategy", sorted(shared_memory.get_all_sharing_strategies()))
def test_sigkill_of_the_main_process_mid_epoch_leaves_nothing_in_dev_shm(strategy):
    # The main process is slower than its workers, so prefetched batches (prefetch_factor 2
    # x 2 workers) sit in the result queue, made but never mapped, when it is killed.
    script = textwrap.dedent(f"""
        import os, time, torch
        from torch.utils.data import DataLoader, Dataset
        from torch.utils.data._utils import shared_memory
        shared_memory.set_sharing_strategy({strategy!r})

        class Quick(Dataset):
            def __len__(self):
                return 100_000
            def __getitem__(self, i):
                time.sleep(0.002)
                return torch.full((256,), float(i))

        it = iter(DataLoader(Quick(), batch_size=4, num_workers=2))
        for i, batch in enumerate(it):
            assert batch[0, 0].item() == 4 * i
            if i == 3:
                print(' '.join(str(w.pid) for w in it._workers), flush=True)
            time.sleep(0.05)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        assert line, child.stderr.read()
        workers = [int(p) for p in line.split()]
        prefix = f"torch_anatomy_dl_{child.pid}_"
        time.sleep(0.3)  # let the workers fill the queue
        assert child.poll() is None
        named_in_flight = shm_files(prefix)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
    # The workers notice their main process is gone within MP_STATUS_CHECK_INTERVAL and exit.
    deadline = time.monotonic() + 15
    while not all(gone(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(w) for w in workers), "workers outlived their main process"
    assert shm_files(prefix) == []
    if strategy == "file_descriptor":
        assert named_in_flight == []  # the segments never had a name for longer than a call
    else:
        assert named_in_flight  # the file_system strategy does leave names while batches wait


def test_file_descriptor_strategy_sends_an_unlinked_segment():
    # The worker's and the main process's halves, in one process, calling the reducer
    # directly (registering it with ForkingPickler here would change every later test).
    batch = shared_memory.empty_shared_fd((2, 3), torch.float32)  # in a worker
    batch.copy_(torch.arange(6.0).view(2, 3))
    assert shm_files(f"torch_anatomy_{os.getpid()}_") == []  # unlinked before it was returned
    rebuild, args = shared_memory.reduce_tensor_fd(batch)  # what is pickled: a DupFd, not a name
    assert rebuild is shared_memory.rebuild_shared_tensor_fd and args[1:] == (torch.float32, (2, 3))
    received = rebuild(*args)  # in the main process
    assert received.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    batch[1, 2] = 50.0  # one set of pages, two mappings
    assert received[1, 2].item() == 50.0
    with open("/proc/self/maps") as f:
        maps = [m.split() for m in f]
    addr = received.data_ptr()
    owner = [m for m in maps if int(m[0].split("-")[0], 16) <= addr < int(m[0].split("-")[1], 16)]
    assert owner[0][-1] == "(deleted)" and os.path.basename(owner[0][-2]).startswith("torch_anatomy_")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="file_descriptor needs /proc/self/fd")
def test_set_sharing_strategy():
    assert shared_memory.get_sharing_strategy() == "file_descriptor"  # PyTorch's default on Linux
    with pytest.raises(ValueError, match="Unknown sharing strategy 'shm'"):
        shared_memory.set_sharing_strategy("shm")
    shared_memory.set_sharing_strategy("file_system")
    try:
        it = iter(DataLoader(torch.arange(8.0), batch_size=2, num_workers=2, timeout=T))
        assert [b.tolist() for b in it] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]
    finally:
        shared_memory.set_sharing_strategy("file_descriptor")


class _NumThreads(torch.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.get_num_threads()


def test_workers_run_with_one_intra_op_thread():
    # As PyTorch's worker loop: parallelism comes from the workers, and a forked worker must
    # not use the OpenMP pool its parent created.
    loader = torch.utils.data.DataLoader(_NumThreads(), batch_size=2, num_workers=2, timeout=30)
    assert [b.tolist() for b in loader] == [[1, 1], [1, 1]]
