"""torch.utils._device: the default device of factories (torch.set_default_device, ``with torch.device(...)``).

Mirrors PyTorch's torch/utils/_device.py. Guide: docs/source/internals/programs/amp_backends.rst.

PyTorch puts a DeviceContext, a TorchFunctionMode, on the thread's torch function mode stack;
its __torch_function__ adds ``device=`` to the calls of the functions in _device_constructors()
that name none. This tree has no function modes: the stack lives here, one per thread, and its
top device is handed to the C++ argument parser (torch/csrc/utils/python_arg_parser.cpp), which
gives it to the same functions when their call names no device. The pushes and pops follow
PyTorch's, quirks included: at most one DeviceContext entered through set_default_device or
``DeviceContext.__enter__`` sits on the stack, remembering the one it replaced.
"""

import functools
import threading

import torch

__all__ = ["DeviceContext", "set_device", "device_decorator"]

CURRENT_DEVICE = None

# The per-thread mode stack (PyTorch's torch function mode stack is thread-local too).
_tls = threading.local()


def _stack():
    stack = getattr(_tls, "stack", None)
    if stack is None:
        stack = _tls.stack = []
    return stack


def _sync():
    # The parser reads only the top of the stack: the mode PyTorch would ask first.
    stack = _stack()
    torch._C._set_default_device_override(stack[-1].device if stack else None)


def _len_torch_function_stack():
    return len(_stack())


def _push_mode(mode):
    _stack().append(mode)
    _sync()


def _pop_mode():
    stack = _stack()
    if not stack:
        raise RuntimeError("trying to pop from empty mode stack")
    mode = stack.pop()
    _sync()
    return mode


def _get_current_function_mode_stack():
    return list(_stack())


def _device_constructors():
    """The functions that get the default device (PyTorch's list; *_like keep their input's)."""
    names = [
        "empty", "empty_permuted", "empty_strided", "empty_quantized", "ones", "arange", "bartlett_window",
        "blackman_window", "eye", "full", "hamming_window", "hann_window", "kaiser_window", "linspace",
        "logspace", "rand", "randn", "randint", "randperm", "range", "sparse_coo_tensor",
        "sparse_compressed_tensor", "sparse_csr_tensor", "sparse_csc_tensor", "sparse_bsr_tensor",
        "sparse_bsc_tensor", "tril_indices", "triu_indices", "zeros", "asarray", "tensor", "as_tensor",
        "scalar_tensor",
    ]
    return {getattr(torch, name) for name in names if hasattr(torch, name)}


class DeviceContext:
    """Makes ``device`` the default of factories while entered (torch.set_default_device enters one)."""

    def __init__(self, device):
        self.device = torch.device(device)
        self.prev_mode = None

    def __enter__(self):
        global CURRENT_DEVICE
        self.old_device = CURRENT_DEVICE
        CURRENT_DEVICE = self.device
        # This context goes to the bottom of the stack, replacing (and remembering) any
        # DeviceContext already there, so that leaving an inner `with` cannot pop it.
        cur_stack = [_pop_mode() for _ in range(_len_torch_function_stack())]
        _push_mode(self)
        for mode in reversed(cur_stack):
            if isinstance(mode, DeviceContext):
                self.prev_mode = mode
            else:
                _push_mode(mode)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        global CURRENT_DEVICE
        CURRENT_DEVICE = self.old_device
        cur_stack = []
        for _ in range(_len_torch_function_stack() - 1):
            mode = _pop_mode()
            if isinstance(mode, DeviceContext):
                raise AssertionError("Found nested DeviceContext on the mode stack where none expected")
            cur_stack.append(mode)
        if _len_torch_function_stack() > 0:
            mode = _pop_mode()
            if not isinstance(mode, DeviceContext):
                raise AssertionError("Expected a DeviceContext at the bottom of the mode stack")
        if self.prev_mode is not None:
            _push_mode(self.prev_mode)
        for mode in reversed(cur_stack):
            _push_mode(mode)


# `with torch.device(d):` (torch/csrc/Device.cpp's __enter__/__exit__) pushes a DeviceContext
# on top of the stack and pops the top when it ends, as PyTorch's THPDevice_enter/_exit do.
def _device_enter(device):
    _push_mode(DeviceContext(device))


def _device_exit(device):
    _pop_mode()


def device_decorator(device, func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with device:
            return func(*args, **kwargs)

    return wrapper


def set_device(device):
    """Decorate a function so that it runs with ``device`` as the default device."""
    return lambda func: device_decorator(torch.device(device), func)
