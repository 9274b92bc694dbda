"""How a worker hands a batch tensor to the main process without copying its bytes.

Mirrors what PyTorch spreads over torch/multiprocessing/reductions.py (reduce_tensor,
rebuild_storage_filename, rebuild_storage_fd), torch/multiprocessing/__init__.py (the
sharing strategies), torch/csrc/StorageSharing.cpp (_share_filename_cpu_, _share_fd_cpu_)
and aten/src/ATen/MapAllocator.cpp. Guide: docs/source/internals/python_layer.rst

The mechanism, end to end (the "file_system" sharing strategy of PyTorch):

1. In a worker, ``default_collate`` asks ``empty_shared`` for the batch tensor. That makes a
   file in /dev/shm (a RAM-backed tmpfs: the "file" is just named shared pages) and maps it
   with the legacy ``torch.FloatStorage.from_file(name, shared=True, size)``: a storage
   whose DataPtr comes from THMapAllocator (aten/src/TH/THAllocator.cpp, mmap MAP_SHARED).
   The samples are copied into it once, as the stack is built.
2. The worker puts the batch on a multiprocessing.Queue. The queue pickles with
   ``multiprocessing.reduction.ForkingPickler``; ``init_reductions`` (called in each worker)
   registers ``reduce_tensor`` there, so a tensor is pickled as (file name, dtype, shape)
   - a few dozen bytes - instead of its data. A tensor that is not already in a shared
   file (a sample returned as is with batch_size=None, a view) is first copied into one.
3. The main process unpickles by calling ``rebuild_shared_tensor``: it maps the same file
   (``from_file`` again: the same physical pages, no copy) and unlinks its name at once.
   The pages live on while either process maps them; when the main process drops the
   batch, the storage's deleter unmaps them and the kernel frees them.
4. Files left behind by a worker that dies, or by batches never read before shutdown, all
   start with the iterator's prefix; the main process removes them when it shuts the
   workers down (PyTorch runs torch_shm_manager for this), and a worker whose main process
   died removes its own.

Between steps 1 and 3 the batch has a name, and the name outlives both processes if they
are killed (SIGKILL, the OOM killer) before step 3. So DataLoader workers use, as PyTorch
does by default on Linux, the "file_descriptor" strategy: ``empty_shared_fd`` unlinks the
file the moment it has mapped it and keeps an open descriptor instead, and
``reduce_tensor_fd`` sends that descriptor (multiprocessing's DupFd: a Unix socket and
SCM_RIGHTS). The receiver maps it (``rebuild_shared_tensor_fd``) and closes it. A segment
is then held only by descriptors and mappings, which the kernel drops with the processes
holding them, however they end: nothing is ever left in /dev/shm.
"""

import glob
import math
import os
import sys
import tempfile
from multiprocessing.reduction import DupFd, ForkingPickler

import torch

SHM_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()

# The legacy typed storage class that can map a file for each dtype it knows.
_STORAGE_FOR_DTYPE = {
    torch.uint8: torch.ByteStorage,
    torch.int8: torch.CharStorage,
    torch.int16: torch.ShortStorage,
    torch.int32: torch.IntStorage,
    torch.int64: torch.LongStorage,
    torch.float32: torch.FloatStorage,
    torch.float64: torch.DoubleStorage,
    torch.float16: torch.HalfStorage,
    torch.bool: torch.BoolStorage,
}

# PyTorch's defaults (torch/multiprocessing/__init__.py): descriptors where the receiver can
# map one. This tree maps a received descriptor through /proc/self/fd (from_file takes a
# path), so it needs Linux's /proc as well.
_all_sharing_strategies = {"file_system"}
if sys.platform.startswith("linux") and os.path.isdir("/proc/self/fd"):
    _all_sharing_strategies.add("file_descriptor")
_sharing_strategy = "file_descriptor" if "file_descriptor" in _all_sharing_strategies else "file_system"
# The strategy this process sends with: set in a worker by init_reductions, from the
# strategy its main process had when it made the iterator.
_strategy_in_use = "file_system"


def get_sharing_strategy():
    """How DataLoader workers send batch tensors: "file_descriptor" or "file_system"."""
    return _sharing_strategy


def set_sharing_strategy(new_strategy):
    """Choose how the workers of iterators made from now on send batch tensors."""
    global _sharing_strategy
    if new_strategy not in _all_sharing_strategies:
        raise ValueError(f"Unknown sharing strategy {new_strategy!r}; expected one of "
                         f"{sorted(_all_sharing_strategies)}")
    _sharing_strategy = new_strategy


def get_all_sharing_strategies():
    return set(_all_sharing_strategies)


# Set in each worker by init_reductions: every file it makes starts with this prefix.
_file_prefix = None
_file_counter = 0


def _new_filename():
    global _file_counter
    _file_counter += 1
    prefix = _file_prefix or f"torch_anatomy_{os.getpid()}_"
    return os.path.join(SHM_DIR, f"{prefix}{os.getpid()}_{_file_counter}")


def empty_shared(shape, dtype):
    """An uninitialised CPU tensor in a new shared-memory file, or None if this dtype or an
    empty shape cannot be shared this way (the caller then uses ordinary memory)."""
    storage_cls = _STORAGE_FOR_DTYPE.get(dtype)
    numel = math.prod(shape)
    if storage_cls is None or numel == 0:
        return None
    filename = _new_filename()
    storage = storage_cls.from_file(filename, True, numel)  # THMapAllocator, MAP_SHARED
    tensor = storage._legacy_tensor().view(tuple(shape))
    tensor._shm_filename = filename  # a Python attribute: it stays with the tensor object
    return tensor


def rebuild_shared_tensor(filename, dtype, shape):
    """Main process: map the worker's file (the same pages, no copy) and unlink its name."""
    storage = _STORAGE_FOR_DTYPE[dtype].from_file(filename, True, math.prod(shape))
    os.unlink(filename)  # the mapping outlives the name; nothing is left in /dev/shm
    return storage._legacy_tensor().view(tuple(shape))


def reduce_tensor(tensor):
    """ForkingPickler reducer: send a CPU tensor as a shared file's name, not its bytes."""
    if tensor.device.type != "cpu" or tensor.requires_grad:
        return type(tensor).__reduce_ex__(tensor, 2)
    filename = tensor.__dict__.pop("_shm_filename", None)  # each file is sent once
    if filename is None:
        shared = empty_shared(tuple(tensor.shape), tensor.dtype)
        if shared is None:  # a dtype without a legacy storage, or no elements: plain pickle
            return type(tensor).__reduce_ex__(tensor, 2)
        shared.copy_(tensor)
        filename = shared.__dict__.pop("_shm_filename")
    return (rebuild_shared_tensor, (filename, tensor.dtype, tuple(tensor.shape)))


# ---- the "file_descriptor" strategy -------------------------------------------------------


class _SharedFd:
    """The open descriptor of an unlinked segment, closed when the tensor holding it goes
    (a batch that is never sent must not keep its descriptor open for the worker's life)."""

    def __init__(self, fd):
        self.fd = fd

    def close(self, _close=os.close):  # bound now: __del__ may run as the interpreter exits
        if self.fd >= 0:
            _close(self.fd)
            self.fd = -1

    def __del__(self):
        self.close()


def empty_shared_fd(shape, dtype):
    """empty_shared, except that the file has no name by the time this returns: it is
    created, sized and mapped, then unlinked, and an open descriptor is kept to send
    (PyTorch: _share_fd_cpu_, MapAllocator with ALLOCATOR_MAPPED_KEEPFD | _UNLINK)."""
    storage_cls = _STORAGE_FOR_DTYPE.get(dtype)
    numel = math.prod(shape)
    if storage_cls is None or numel == 0:
        return None
    while True:
        filename = _new_filename()
        try:  # O_EXCL: never share pages with a stale file that happens to have this name
            fd = os.open(filename, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            break
        except FileExistsError:
            continue
    holder = _SharedFd(fd)
    try:
        storage = storage_cls.from_file(filename, True, numel)  # sizes and maps the file
    finally:
        os.unlink(filename)  # from here on only the descriptor and the mapping hold the pages
    tensor = storage._legacy_tensor().view(tuple(shape))
    tensor._shm_fd = holder
    return tensor


def rebuild_shared_tensor_fd(dup_fd, dtype, shape):
    """Main process: receive the worker's descriptor, map it (same pages, no copy), close it."""
    fd = dup_fd.detach()  # connects to the worker and receives a descriptor of the segment
    try:
        # from_file takes a path; /proc/self/fd/N opens the very file behind descriptor N,
        # name or no name. The mapping keeps the pages; the descriptor is not needed after.
        storage = _STORAGE_FOR_DTYPE[dtype].from_file(f"/proc/self/fd/{fd}", True, math.prod(shape))
    finally:
        os.close(fd)
    return storage._legacy_tensor().view(tuple(shape))


def reduce_tensor_fd(tensor):
    """ForkingPickler reducer: send a CPU tensor as a descriptor of its unlinked segment."""
    if tensor.device.type != "cpu" or tensor.requires_grad:
        return type(tensor).__reduce_ex__(tensor, 2)
    holder = tensor.__dict__.pop("_shm_fd", None)  # each segment is sent once
    if holder is None:
        shared = empty_shared_fd(tuple(tensor.shape), tensor.dtype)
        if shared is None:  # a dtype without a legacy storage, or no elements: plain pickle
            return type(tensor).__reduce_ex__(tensor, 2)
        shared.copy_(tensor)
        holder = shared.__dict__.pop("_shm_fd")
    # DupFd duplicates the descriptor and keeps the copy until the receiver asks for it over
    # a Unix socket (multiprocessing's resource_sharer, the same path PyTorch uses). If the
    # main process dies first, the copy closes when this worker exits.
    dup_fd = DupFd(holder.fd)
    holder.close()
    return (rebuild_shared_tensor_fd, (dup_fd, tensor.dtype, tuple(tensor.shape)))


def new_shared(shape, dtype):
    """A new shared tensor, made the way this worker's strategy will send it."""
    if _strategy_in_use == "file_descriptor":
        return empty_shared_fd(shape, dtype)
    return empty_shared(shape, dtype)


def init_reductions(file_prefix, strategy="file_system"):
    """Called at the start of each worker process (PyTorch registers at import time)."""
    global _file_prefix, _strategy_in_use
    if strategy not in _all_sharing_strategies:
        raise ValueError(f"Unknown sharing strategy {strategy!r}")
    _file_prefix = file_prefix
    _strategy_in_use = strategy
    ForkingPickler.register(torch.Tensor, reduce_tensor_fd if strategy == "file_descriptor" else reduce_tensor)


def remove_leftover_files(file_prefix):
    """Remove every shared file a set of workers made that the main process never mapped."""
    for path in glob.glob(os.path.join(SHM_DIR, glob.escape(file_prefix) + "*")):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
