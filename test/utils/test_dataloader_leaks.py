# test/utils/test_dataloader_leaks.py - DataLoader epochs, with and without worker processes,
# repeated many times, must leave the main process as they found it: no growth in memory,
# live tensors, open file descriptors, memory mappings, threads, child processes or
# shared-memory files. Mirrors the leak checks of PyTorch's test/test_dataloader.py.
# Guides: docs/source/internals/python_layer.rst (the DataLoader, its workers, shared memory),
# docs/source/internals/memory.rst (the allocator's counters).
#
# With workers, a batch arrives as a mapping of a shared-memory segment whose descriptor
# came over a socket (torch/utils/data/_utils/shared_memory.py): a batch that is never
# freed shows as a live tensor and a mapping, a descriptor never closed as an open fd, an
# iterator never shut down as threads and children. The allocator's counters see what the
# main process allocates itself (samplers, collate without workers).
#
# SLACK: a growth of up to SLACK in a count is not a leak - a cache may grow once after the
# warm-up epochs, a queue's feeder thread may still be on its way out when the count is
# taken. A leak grows with the epochs: one tensor per epoch over the fewest epochs here (15,
# where each epoch starts two processes) is almost four times the slack.
# test_the_check_fails_on_one_leaked_object_per_epoch shows the check does fail then.
import multiprocessing
import os
import threading

import leak_check
import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data._utils import shared_memory

WARMUP = 3
SLACK = {"allocations": 4, "allocated bytes": 4096, "tensors": 4, "open fds": 4, "mappings": 4,
         "threads": 4, "child processes": 4, "shared-memory files": 4}

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts fds and mappings in /proc")


def process_state():
    """What a DataLoader's workers and shared memory leave in the main process."""
    counts = leak_check.process_resources()
    counts.update({"threads": threading.active_count(),
                   "child processes": len(multiprocessing.active_children()),  # also reaps finished ones
                   "shared-memory files": sum(1 for f in os.listdir(shared_memory.SHM_DIR)
                                              if f.startswith(f"torch_anatomy_dl_{os.getpid()}_"))})
    return counts


def assert_no_leak(epoch, epochs):
    leak_check.assert_no_leak(epoch, epochs, SLACK, WARMUP, extra=process_state, unit="epochs")


def dataset():
    return TensorDataset(torch.arange(64.0).view(16, 4), torch.arange(16))


def test_the_check_fails_on_one_leaked_object_per_epoch():
    batches, fds = [], []
    loader = DataLoader(dataset(), batch_size=4)

    def keeps_a_batch():
        for x, y in loader:
            pass
        batches.append(x)

    def keeps_an_fd():  # what a received descriptor that is never closed looks like
        fds.append(os.open(os.devnull, os.O_RDONLY))

    try:
        for plant in (keeps_a_batch, keeps_an_fd):
            with pytest.raises(AssertionError, match=f"^{plant.__name__} grew"):
                assert_no_leak(plant, epochs=15)
    finally:
        for fd in fds:
            os.close(fd)


def test_epochs_without_workers():
    loader = DataLoader(dataset(), batch_size=4, shuffle=True)

    def epoch_in_this_process():
        for x, y in loader:
            assert x.shape == (4, 4)

    assert_no_leak(epoch_in_this_process, epochs=2000)


def test_epochs_with_two_workers():
    # Each epoch starts two worker processes and shuts them down: queues, pipes, feeder
    # threads, the SIGCHLD pid table, every batch's segment.
    loader = DataLoader(dataset(), batch_size=4, num_workers=2, timeout=20)

    def epoch_with_workers():
        for x, y in loader:
            assert x.shape == (4, 4)

    assert_no_leak(epoch_with_workers, epochs=15)


def test_many_batches_from_two_persistent_workers():
    # The same two workers serve every epoch, so this runs many more batches through the
    # worker -> main handoff (a descriptor per tensor, a mapping per batch) in the same time.
    loader = DataLoader(dataset(), batch_size=4, num_workers=2, persistent_workers=True, timeout=20)

    def epoch_from_persistent_workers():
        for x, y in loader:  # noqa: F821 - runs before `del loader` below
            assert x.shape == (4, 4)

    try:
        assert_no_leak(epoch_from_persistent_workers, epochs=300)
    finally:
        workers = list(loader._iterator._workers)
        del loader
        assert not any(w.is_alive() for w in workers)
