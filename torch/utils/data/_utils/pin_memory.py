"""torch.utils.data._utils.pin_memory: copying batches into pinned host memory.

Mirrors PyTorch's torch/utils/data/_utils/pin_memory.py. Guide: docs/source/internals/cuda_simulated_device.rst

A batch in pinned (page-locked) memory can go to a CUDA device with
``.to("cuda", non_blocking=True)`` while the host goes on: the copy is the device's work. With
``DataLoader(pin_memory=True)`` the loader pins each batch before it yields it: in the main
thread when there are no workers, else in a thread of its own (``_pin_memory_loop``) that
sits between the workers' result queue and the main thread, so pinning overlaps the
training step.
"""

import collections
import queue

import torch

from . import MP_STATUS_CHECK_INTERVAL, ExceptionWrapper


def _pin_memory_loop(in_queue, out_queue, device_id, done_event, device):
    # Pinning allocates through the CUDA hooks: use the device the loader was created on.
    torch.set_num_threads(1)
    if device == "cuda" or device is None:
        torch.cuda.set_device(device_id)

    def do_one_step():
        try:
            r = in_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
        except queue.Empty:
            return
        idx, data = r
        if not done_event.is_set() and not isinstance(data, ExceptionWrapper):
            try:
                data = pin_memory(data, device)
            except Exception:  # noqa: BLE001 - re-raised in the main thread, as a worker's error is
                data = ExceptionWrapper(where=f"in pin memory thread for device {device_id}")
        r = (idx, data)
        while not done_event.is_set():
            try:
                out_queue.put(r, timeout=MP_STATUS_CHECK_INTERVAL)
                break
            except queue.Full:
                continue

    # (None, None) from _shutdown_workers wakes the loop to see done_event.
    while not done_event.is_set():
        do_one_step()


def pin_memory(data, device=None):
    """``data`` with every tensor in it pinned: tensors, and mappings, sequences and named
    tuples of them (as collate builds batches); anything else is returned as it is."""
    if isinstance(data, torch.Tensor):
        return data.pin_memory(device)
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        try:
            return type(data)({k: pin_memory(sample, device) for k, sample in data.items()})
        except TypeError:
            # The mapping type may not support __init__(iterable).
            return {k: pin_memory(sample, device) for k, sample in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(pin_memory(sample, device) for sample in data))
    if isinstance(data, tuple):
        return tuple(pin_memory(sample, device) for sample in data)
    if isinstance(data, collections.abc.Sequence):
        try:
            return type(data)([pin_memory(sample, device) for sample in data])
        except TypeError:
            return [pin_memory(sample, device) for sample in data]
    if hasattr(data, "pin_memory"):
        return data.pin_memory()
    return data


__all__ = ["pin_memory"]
