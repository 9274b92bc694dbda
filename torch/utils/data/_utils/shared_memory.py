"""How a worker hands a batch tensor to the main process without copying its bytes.

Mirrors what PyTorch spreads over torch/multiprocessing/reductions.py (reduce_tensor,
rebuild_storage_filename), torch/csrc/StorageSharing.cpp (_share_filename_cpu_) and
aten/src/ATen/MapAllocator.cpp. Guide: docs/source/internals/python_layer.rst

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
   workers down (PyTorch runs torch_shm_manager for this).
"""

import glob
import math
import os
import tempfile
from multiprocessing.reduction import ForkingPickler

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


def init_reductions(file_prefix):
    """Called at the start of each worker process (PyTorch registers at import time)."""
    global _file_prefix
    _file_prefix = file_prefix
    ForkingPickler.register(torch.Tensor, reduce_tensor)


def remove_leftover_files(file_prefix):
    """Remove every shared file a set of workers made that the main process never mapped."""
    for path in glob.glob(os.path.join(SHM_DIR, glob.escape(file_prefix) + "*")):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
