"""The loop each DataLoader worker process runs, and get_worker_info().

Mirrors PyTorch's torch/utils/data/_utils/worker.py. Guide: docs/source/internals/python_layer.rst

A worker reads ``(idx, indices)`` tasks from its own index queue, fetches and collates
the batch, and puts ``(idx, batch)`` on the result queue shared by all workers. Errors
travel as an ExceptionWrapper, the end of an IterableDataset as
_IterableDatasetStopIteration, and ``None`` on the index queue means "exit".
"""

import os
import queue
import random
from dataclasses import dataclass

import torch

from . import HAS_NUMPY, MP_STATUS_CHECK_INTERVAL, ExceptionWrapper, shared_memory, signal_handling


class ManagerWatchdog:
    """Notices when the main process has died (the worker is then re-parented)."""

    def __init__(self):
        self.manager_pid = os.getppid()
        self.manager_dead = False

    def is_alive(self):
        if not self.manager_dead:
            self.manager_dead = os.getppid() != self.manager_pid
        return not self.manager_dead


_worker_info = None


class WorkerInfo:
    """Information about the current DataLoader worker process: id, num_workers, seed, dataset."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        return super().__setattr__(key, val)

    def __repr__(self):
        items = [f"{k}={getattr(self, k)}" for k in self.__keys]
        return f"{self.__class__.__name__}({', '.join(items)})"


def get_worker_info():
    r"""The WorkerInfo of the current DataLoader worker process, or None in the main process.

    Its attributes: ``id`` (0 to num_workers - 1), ``num_workers``, ``seed`` (base_seed + id,
    the seed of this worker's torch and random generators) and ``dataset`` (this process's
    copy of the dataset, e.g. to shard an IterableDataset by worker id).
    """
    return _worker_info


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    r"""Sent by a worker when its copy of an IterableDataset is exhausted."""

    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    r"""Sent to persistent workers when a new epoch starts: rebuild the fetcher."""

    seed: int = None


def _generate_state(base_seed, worker_id):
    """numpy's seed for a worker: SeedSequence's hashing of (worker_id, base_seed), written
    out in Python as PyTorch does, so numpy's worker seeds match PyTorch's."""
    INIT_A = 0x43B0D7E5
    MULT_A = 0x931E8875
    INIT_B = 0x8B51F9DD
    MULT_B = 0x58F38DED
    MIX_MULT_L = 0xCA01F9DD
    MIX_MULT_R = 0x4973F715
    XSHIFT = 4 * 8 // 2
    MASK32 = 0xFFFFFFFF

    entropy = [worker_id, base_seed & MASK32, base_seed >> 32, 0]
    pool = [0] * 4

    hash_const_A = INIT_A

    def hash(value):
        nonlocal hash_const_A
        value = (value ^ hash_const_A) & MASK32
        hash_const_A = (hash_const_A * MULT_A) & MASK32
        value = (value * hash_const_A) & MASK32
        value = (value ^ (value >> XSHIFT)) & MASK32
        return value

    def mix(x, y):
        result_x = (MIX_MULT_L * x) & MASK32
        result_y = (MIX_MULT_R * y) & MASK32
        result = (result_x - result_y) & MASK32
        result = (result ^ (result >> XSHIFT)) & MASK32
        return result

    for i in range(len(pool)):
        pool[i] = hash(entropy[i])
    for i_src in range(len(pool)):
        for i_dst in range(len(pool)):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash(pool[i_src]))

    hash_const_B = INIT_B
    state = []
    for i_dst in range(4):
        data_val = pool[i_dst]
        data_val = (data_val ^ hash_const_B) & MASK32
        hash_const_B = (hash_const_B * MULT_B) & MASK32
        data_val = (data_val * hash_const_B) & MASK32
        data_val = (data_val ^ (data_val >> XSHIFT)) & MASK32
        state.append(data_val)
    return state


def _worker_loop(dataset_kind, dataset, index_queue, data_queue, done_event, auto_collation,
                 collate_fn, drop_last, base_seed, init_fn, worker_id, num_workers,
                 persistent_workers, shm_prefix, sharing_strategy="file_system"):
    # Made first, so that the exit path below can always ask it whether the main process died.
    watchdog = ManagerWatchdog()
    try:
        # A fatal signal prints this worker's stack before killing it; the main process
        # reports the death itself (signal_handling.py).
        signal_handling._set_worker_signal_handlers()

        # Batches leave through shared memory (see shared_memory.py), sent the way the main
        # process's sharing strategy says (passed along: a spawned worker starts afresh).
        shared_memory.init_reductions(shm_prefix, sharing_strategy)

        # One intra-op thread, as PyTorch's worker loop sets: the workers already run in
        # parallel, and a forked child must not enter an OpenMP region whose thread pool the
        # parent created (libgomp's pool does not survive fork; the child can hang in it).
        torch.set_num_threads(1)

        # Each worker's generators start from base_seed + worker_id, so two workers never
        # draw the same "random" augmentations, and a seeded loader repeats itself.
        seed = base_seed + worker_id
        random.seed(seed)
        torch.manual_seed(seed)
        if HAS_NUMPY:
            import numpy as np

            np.random.seed(_generate_state(base_seed, worker_id))

        global _worker_info
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)

        from torch.utils.data import _DatasetKind

        init_exception = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            # Reported with the first task, so the main process raises it from __next__.
            init_exception = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")

        # When an IterableDataset is exhausted, the worker keeps answering tasks (with
        # nothing) until it is told to exit or, if persistent, to resume.
        iteration_end = False

        while watchdog.is_alive():
            try:
                r = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if isinstance(r, _ResumeIteration):
                # Acknowledge the main process
                data_queue.put((r, None))
                iteration_end = False
                fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
                continue
            elif r is None:
                # Received the final signal
                assert done_event.is_set() or iteration_end
                break
            elif done_event.is_set() or iteration_end:
                # `done_event` is set. But I haven't received the final signal
                # (None) yet. I will keep continuing until get it, and skip the
                # processing steps.
                continue
            idx, index = r
            if init_exception is not None:
                data = init_exception
                init_exception = None
            else:
                try:
                    data = fetcher.fetch(index)
                except Exception as e:
                    if isinstance(e, StopIteration) and dataset_kind == _DatasetKind.Iterable:
                        data = _IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        # It is important that we don't store exc_info in a variable.
                        # `ExceptionWrapper` does the correct thing.
                        data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data, idx, index, r  # save memory
    except KeyboardInterrupt:
        # Main process will raise KeyboardInterrupt anyways.
        pass
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
    elif not watchdog.is_alive():
        # The main process died (e.g. SIGKILL) without telling us to stop. Nobody will ever
        # read the result queue: do not wait at exit for its feeder thread to flush a pipe
        # that may be full. Under the file_system strategy, batches this worker made that
        # the main process never mapped still have names in /dev/shm; no one else will
        # remove them (PyTorch's torch_shm_manager does it for its file_system strategy).
        data_queue.cancel_join_thread()
        shared_memory.remove_leftover_files(f"{shm_prefix}{os.getpid()}_")
