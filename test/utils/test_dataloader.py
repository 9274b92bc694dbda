"""DataLoader: batching, order, seeding, argument errors, and worker processes.

Tests torch/utils/data/dataloader.py and _utils/{worker,fetch,shared_memory}.py.
Guide: docs/source/internals/python_layer.rst

Multi-process tests use 2 workers, a few samples, the platform's default start method, and
always a DataLoader ``timeout`` so that a broken worker fails the test instead of hanging it.
"""

import os
import re
import subprocess
import sys

import pytest
import torch
from torch.utils.data import (BatchSampler, DataLoader, Dataset, IterableDataset, SequentialSampler,
                              TensorDataset, get_worker_info)
from torch.utils.data._utils import shared_memory

T = 20  # seconds: the DataLoader timeout of every multi-process test


def gen(seed):
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def drain_until_error(it):
    """Iterate until the loader raises; return (type, message) and keep no traceback, so the
    iterator is freed (and its workers shut down) as soon as the caller drops it."""
    try:
        for _ in it:
            pass
    except Exception as e:
        return type(e), str(e)
    return None, None


def shm_files():
    return sorted(f for f in os.listdir(shared_memory.SHM_DIR) if f.startswith("torch_anatomy_"))


class Squares(Dataset):
    def __init__(self, n=10):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([float(i * i)]), i


class FailsAt(Dataset):
    def __init__(self, bad):
        self.bad = bad

    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == self.bad:
            raise ValueError(f"bad sample {i}")
        return i


class WorkerSeeds(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([info.id, info.seed, info.num_workers])


class ShardedRange(IterableDataset):
    """Each worker yields its own stride of range(n), as PyTorch's docs show."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


# ---- single process ----------------------------------------------------------------------

def test_batches_in_order_with_short_last_batch():
    ds = TensorDataset(torch.arange(10.).view(10, 1), torch.arange(10))
    batches = list(DataLoader(ds, batch_size=4))
    assert [y.tolist() for _, y in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batches[0][0].shape == (4, 1)
    assert len(DataLoader(ds, batch_size=4)) == 3


def test_drop_last_drops_the_short_batch():
    loader = DataLoader(range(10), batch_size=4, drop_last=True)
    assert [b.tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(loader) == 2


def test_shuffle_with_generator_matches_pytorch_order():
    loader = DataLoader(range(10), batch_size=4, shuffle=True, generator=gen(0))
    assert [b.tolist() for b in loader] == [[3, 7, 5, 2], [0, 8, 1, 6], [9, 4]]


def test_shuffle_draws_a_new_order_each_epoch_and_repeats_after_reseed():
    loader = DataLoader(range(8), batch_size=8, shuffle=True)
    torch.manual_seed(1)
    e1, e2 = [b.tolist() for b in loader], [b.tolist() for b in loader]
    torch.manual_seed(1)
    assert e1 != e2 and [b.tolist() for b in loader] == e1


def test_batch_size_none_disables_auto_collation():
    loader = DataLoader(Squares(3), batch_size=None)
    assert [(x.tolist(), i) for x, i in loader] == [([0.0], 0), ([1.0], 1), ([4.0], 2)]


def test_custom_sampler_batch_sampler_and_collate_fn():
    assert [b.tolist() for b in DataLoader(range(5), batch_size=2, sampler=[4, 3, 2, 1, 0])] == [[4, 3], [2, 1], [0]]
    bs = BatchSampler(SequentialSampler(range(5)), 3, False)
    assert [b.tolist() for b in DataLoader(range(5), batch_sampler=bs)] == [[0, 1, 2], [3, 4]]
    assert list(DataLoader(range(4), batch_size=2, collate_fn=sum)) == [1, 5]


def test_iterable_dataset_batches_and_len():
    loader = DataLoader(ShardedRange(5), batch_size=2)
    assert [b.tolist() for b in loader] == [[0, 1], [2, 3], [4]]


def test_get_worker_info_is_none_in_main_process():
    assert get_worker_info() is None


def test_error_in_dataset_propagates_unchanged_without_workers():
    with pytest.raises(ValueError, match="^bad sample 2$"):
        list(DataLoader(FailsAt(2), batch_size=1))


# ---- argument validation (PyTorch's messages) --------------------------------------------

@pytest.mark.parametrize("kwargs, error, message", [
    (dict(num_workers=-1), ValueError,
     "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."),
    (dict(timeout=-1), ValueError, "timeout option should be non-negative"),
    (dict(prefetch_factor=2), ValueError,
     "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable "
     "multiprocessing, otherwise set prefetch_factor to None."),
    (dict(num_workers=1, prefetch_factor=-1), ValueError, "prefetch_factor option should be non-negative"),
    (dict(persistent_workers=True), ValueError, "persistent_workers option needs num_workers > 0"),
    (dict(sampler=[0, 1], shuffle=True), ValueError, "sampler option is mutually exclusive with shuffle"),
    (dict(batch_sampler=[[0]], batch_size=2), ValueError,
     "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"),
    (dict(batch_sampler=[[0]], drop_last=True), ValueError,
     "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"),
    (dict(batch_size=None, drop_last=True), ValueError,
     "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"),
    (dict(multiprocessing_context="fork"), ValueError,
     "multiprocessing_context can only be used with multi-process loading (num_workers > 0), but got num_workers=0"),
    (dict(num_workers=1, multiprocessing_context="nope"), ValueError,
     "multiprocessing_context option should specify a valid start method in"),
    (dict(num_workers=1, multiprocessing_context=3), TypeError,
     "multiprocessing_context option should be a valid context object or a string specifying the start method, "
     "but got multiprocessing_context=3"),
])
def test_argument_errors(kwargs, error, message):
    with pytest.raises(error) as info:
        DataLoader(range(4), **kwargs)
    assert str(info.value).startswith(message)


def test_iterable_dataset_rejects_shuffle_and_samplers():
    with pytest.raises(ValueError, match="^DataLoader with IterableDataset: expected unspecified shuffle option, "
                                         "but got shuffle=True$"):
        DataLoader(ShardedRange(3), shuffle=True)
    with pytest.raises(ValueError, match="^DataLoader with IterableDataset: expected unspecified sampler option"):
        DataLoader(ShardedRange(3), sampler=[0])


def test_settings_cannot_change_after_init():
    loader = DataLoader(range(4))
    with pytest.raises(ValueError, match="^batch_size attribute should not be set after DataLoader is initialized$"):
        loader.batch_size = 2


# ---- worker processes --------------------------------------------------------------------

def test_workers_return_batches_in_sampler_order():
    loader = DataLoader(Squares(10), batch_size=3, num_workers=2, timeout=T)
    batches = list(loader)
    assert [i.tolist() for _, i in batches] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert batches[1][0].tolist() == [[9.0], [16.0], [25.0]]


def test_workers_with_shuffle_give_the_same_batches_as_one_process():
    one = [b.tolist() for b in DataLoader(range(12), batch_size=5, shuffle=True, generator=gen(3))]
    two = [b.tolist() for b in DataLoader(range(12), batch_size=5, shuffle=True, generator=gen(3),
                                          num_workers=2, timeout=T)]
    assert one == two


def test_worker_seeds_are_base_seed_plus_worker_id_as_pytorch():
    # base_seed is one int64 drawn from the loader's generator; PyTorch 2.x gives these numbers.
    out = [b.tolist()[0] for b in DataLoader(WorkerSeeds(), num_workers=2, generator=gen(0), timeout=T)]
    assert out == [[0, 900450186894289455, 2], [1, 900450186894289456, 2]] * 2


def test_torch_rand_in_workers_matches_pytorch():
    class Rand(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return torch.rand(1)

    out = [b.view(-1).tolist() for b in DataLoader(Rand(), batch_size=2, num_workers=2, generator=gen(3), timeout=T)]
    expected = [[0.2876076102256775, 0.686290979385376], [0.7470175623893738, 0.8290408253669739]]
    assert out == expected


def test_worker_init_fn_runs_in_each_worker_with_its_id():
    class InitSeen(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return get_worker_info().dataset.init_id * 100 + i

    def init_fn(worker_id):
        get_worker_info().dataset.init_id = worker_id + 1

    out = [b.item() for b in DataLoader(InitSeen(), num_workers=2, worker_init_fn=init_fn, timeout=T)]
    assert out == [100, 201, 102, 203]


def test_iterable_dataset_sharded_by_worker_info():
    loader = DataLoader(ShardedRange(6), batch_size=2, num_workers=2, timeout=T)
    # worker 0 yields 0, 2, 4 and worker 1 yields 1, 3, 5; batches alternate between workers
    assert [b.tolist() for b in loader] == [[0, 2], [1, 3], [4], [5]]


def test_batches_come_back_in_shared_memory_files():
    before = shm_files()
    loader = DataLoader(Squares(4), batch_size=2, num_workers=2, timeout=T)
    x, _ = next(iter(loader))
    with open("/proc/self/maps") as f:
        maps = [line.split() for line in f]
    addr = x.data_ptr()
    owner = [m for m in maps if int(m[0].split("-")[0], 16) <= addr < int(m[0].split("-")[1], 16)]
    assert owner and os.path.basename(owner[0][5]).startswith("torch_anatomy_dl_")
    assert owner[0][-1] == "(deleted)"  # the name is unlinked as soon as the main process maps it
    assert x.tolist() == [[0.0], [1.0]]
    del loader
    assert shm_files() == before


def test_error_in_worker_is_reraised_with_worker_traceback():
    it = iter(DataLoader(FailsAt(3), batch_size=2, num_workers=2, timeout=T))
    assert next(it).tolist() == [0, 1]
    error, msg = drain_until_error(it)
    assert error is ValueError
    assert msg.startswith("Caught ValueError in DataLoader worker process 1.\nOriginal Traceback (most recent call last):")
    assert "in __getitem__" in msg and msg.rstrip().endswith("ValueError: bad sample 3")
    workers = list(it._workers)
    del it
    assert not any(w.is_alive() for w in workers)
    assert shm_files() == []


def test_error_in_worker_init_fn_is_reported_from_that_worker():
    def init_fn(worker_id):
        if worker_id == 0:
            raise KeyError("no config")

    it = iter(DataLoader(range(4), num_workers=2, worker_init_fn=init_fn, timeout=T))
    error, msg = drain_until_error(it)
    assert error is KeyError and msg.startswith("Caught KeyError in DataLoader worker process 0.")
    assert msg.rstrip().endswith("KeyError: 'no config'")
    del it


def test_workers_exit_when_the_epoch_ends_or_the_iterator_is_dropped():
    it = iter(DataLoader(range(6), num_workers=2, timeout=T))
    workers = list(it._workers)
    assert all(w.is_alive() for w in workers)
    list(it)
    assert not any(w.is_alive() for w in workers)

    it = iter(DataLoader(range(100), num_workers=2, timeout=T))
    next(it)
    workers = list(it._workers)
    del it  # garbage collection shuts the workers down
    assert not any(w.is_alive() for w in workers)


def test_dead_worker_is_detected():
    class Dies(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            os._exit(3)

    try:  # iter() inside: the SIGCHLD handler raises wherever the main thread is
        for _ in DataLoader(Dies(), num_workers=2, timeout=T):
            pass
    except RuntimeError as e:  # strings only: a kept exception would keep the iterator alive
        msg, cause = str(e), (type(e.__cause__), str(e.__cause__))
    else:
        raise AssertionError("no error")
    # Raised inside the result queue's get, the handler's error becomes the cause of
    # "pid(s) ... exited unexpectedly"; raised anywhere else, it arrives as is (PyTorch's words).
    if re.fullmatch(r"DataLoader worker \(pid\(s\) \d+(, \d+)?\) exited unexpectedly", msg):
        assert cause[0] is RuntimeError
        msg = cause[1]
    assert re.fullmatch(r"DataLoader worker \(pid \d+\) exited unexpectedly with exit code 3\. Details are lost due "
                        r"to multiprocessing\. Rerunning with num_workers=0 may give better error trace\.", msg)


def test_timeout_raises():
    class Slow(Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            import time
            time.sleep(1.5)
            return i

    error, msg = drain_until_error(iter(DataLoader(Slow(), num_workers=2, timeout=0.3)))
    assert (error, msg) == (RuntimeError, "DataLoader timed out after 0.3 seconds")


def test_persistent_workers_serve_every_epoch():
    class Pids(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return os.getpid()

    loader = DataLoader(Pids(), batch_size=1, num_workers=2, persistent_workers=True, timeout=T)
    first = [b.item() for b in loader]
    second = [b.item() for b in loader]
    assert first == second and len(set(first)) == 2 and os.getpid() not in first
    assert loader._iterator._workers[0].is_alive()
    workers = list(loader._iterator._workers)
    del loader
    assert not any(w.is_alive() for w in workers)


def test_prefetch_factor_bounds_tasks_in_flight():
    it = iter(DataLoader(range(20), num_workers=2, prefetch_factor=3, timeout=T))
    assert it._tasks_outstanding == 6 and it._send_idx == 6
    next(it)
    assert it._send_idx == 7
    del it


def test_interpreter_exit_with_a_live_iterator_stops_workers_and_leaves_no_files():
    script = (
        "import os, torch\n"
        "from torch.utils.data import DataLoader\n"
        "it = iter(DataLoader(torch.arange(40.).view(20, 2), batch_size=2, num_workers=2, timeout=20))\n"
        "assert next(it).tolist() == [[0.0, 1.0], [2.0, 3.0]]\n"
        "print(os.getpid(), ' '.join(str(w.pid) for w in it._workers))\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    pid, *worker_pids = done.stdout.split()
    assert not [f for f in shm_files() if f.startswith(f"torch_anatomy_dl_{pid}_")]
    for wpid in worker_pids:
        assert not os.path.exists(f"/proc/{wpid}") or "zombie" in open(f"/proc/{wpid}/status").read()
