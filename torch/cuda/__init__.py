"""torch.cuda: NVIDIA GPUs - devices, streams, events and the caching allocator.

Mirrors PyTorch's torch/cuda/__init__.py. Guide: docs/source/internals/c10_cuda.rst.

CUDA is initialised lazily: importing torch touches no GPU. The first call that needs one
runs ``_lazy_init()``, which asks ``torch._C._cuda_init()`` and raises PyTorch's error when
CUDA cannot be used:

* a build without CUDA (``torch._C._has_cuda`` is False):
  ``AssertionError: Torch not compiled with CUDA enabled``;
* a CUDA build on a machine without a driver or a GPU: ``RuntimeError`` ("Found no NVIDIA
  driver on your system ..." / "No CUDA GPUs are available").

``is_available()`` and ``device_count()`` never raise: they answer False and 0 instead.
"""

import threading

import torch
from torch.cuda import memory
from torch.cuda.memory import *  # noqa: F401,F403  (torch.cuda.memory_allocated ..., as in PyTorch)
from torch.cuda.streams import Event, ExternalStream, Stream
from torch.cuda.random import (  # noqa: F401  (torch.cuda.manual_seed ..., as in PyTorch)
    get_rng_state,
    get_rng_state_all,
    initial_seed,
    manual_seed,
    manual_seed_all,
    seed,
    seed_all,
    set_rng_state,
    set_rng_state_all,
)

__all__ = [
    "BoolStorage",
    "ByteStorage",
    "CharStorage",
    "CudaError",
    "DoubleStorage",
    "Event",
    "ExternalStream",
    "FloatStorage",
    "HalfStorage",
    "IntStorage",
    "LongStorage",
    "OutOfMemoryError",
    "ShortStorage",
    "Stream",
    "StreamContext",
    "check_error",
    "current_device",
    "current_stream",
    "default_stream",
    "device",
    "device_count",
    "get_rng_state",
    "get_rng_state_all",
    "initial_seed",
    "manual_seed",
    "manual_seed_all",
    "seed",
    "seed_all",
    "set_rng_state",
    "set_rng_state_all",
    "init",
    "is_available",
    "is_initialized",
    "set_device",
    "set_stream",
    "stream",
    "synchronize",
] + memory.__all__

_initialized = False
_tls = threading.local()
_initialization_lock = threading.Lock()
_cudart = getattr(torch._C, "_cudart", None)

OutOfMemoryError = torch._C.OutOfMemoryError


def _is_compiled():
    """True if torch._C was built with CUDA (USE_CUDA=1)."""
    return torch._C._has_cuda


def is_available():
    """True if this build has CUDA and a GPU is visible. Never raises."""
    if not _is_compiled():
        return False
    # cudaGetDeviceCount: 0 when the driver is missing or there is no GPU.
    return torch._C._cuda_getDeviceCount() > 0


def device_count():
    """The number of visible GPUs (0 without CUDA, a driver or a GPU). Never raises."""
    if not _is_compiled():
        return 0
    return torch._C._cuda_getDeviceCount()


def is_initialized():
    """Whether PyTorch's CUDA state has been initialised."""
    return _initialized


def init():
    """Initialise CUDA now rather than at first use (does nothing if already done)."""
    _lazy_init()


def _lazy_init():
    """Initialise CUDA once; called before anything needs a GPU (also from C++)."""
    global _initialized
    if _initialized or hasattr(_tls, "is_initializing"):
        return
    with _initialization_lock:
        # Double-checked: another thread may have finished while this one waited.
        if _initialized:
            return
        if not _is_compiled():
            raise AssertionError("Torch not compiled with CUDA enabled")
        # Raises if the driver is missing, no GPU is found, or any other error occurs.
        torch._C._cuda_init()
        global default_generators
        if torch._C._cuda_hasKernels():
            default_generators = tuple(torch._C._cuda_defaultGenerator(i) for i in range(device_count()))
        # Calls made before CUDA was up (torch.manual_seed seeds every device) run now, in
        # order; a failing one says where it was queued from.
        _tls.is_initializing = True
        try:
            for call, origin in _queued_calls:
                try:
                    call()
                except Exception as e:
                    raise DeferredCudaCallError(f"CUDA call failed lazily at initialization with error: {e}\n\n"
                                                f"CUDA call was originally invoked at:\n\n{''.join(origin)}") from e
        finally:
            delattr(_tls, "is_initializing")
        _initialized = True


# Work that needs CUDA initialised, asked for before it is (torch.cuda.manual_seed at the
# top of a script): run now if CUDA is up, else queued for _lazy_init. Seeding calls replace
# an earlier queued seed rather than piling up, as in PyTorch.
_queued_calls = []
_queued_seed = {}
default_generators = ()


class DeferredCudaCallError(Exception):
    pass


def _lazy_call(callable, **kwargs):
    if is_initialized():
        callable()
        return
    import traceback
    origin = traceback.format_stack()
    kind = "seed_all" if kwargs.get("seed_all") else "seed" if kwargs.get("seed") else None
    if kind is not None:
        if kind in _queued_seed:
            _queued_calls.remove(_queued_seed[kind])
        _queued_seed[kind] = (callable, origin)
        _queued_calls.append(_queued_seed[kind])
    else:
        _queued_calls.append((callable, origin))


class CudaError(RuntimeError):
    """A CUDA runtime error code, with the runtime's message: ``out of memory (2)``."""

    def __init__(self, code):
        msg = _cudart.cudaGetErrorString(code) if _cudart is not None else "CUDA error"
        super().__init__(f"{msg} ({code})")


def check_error(res):
    """Raise CudaError if ``res`` (a cudaError_t) is not cudaSuccess."""
    if res != 0:
        raise CudaError(res)


def get_device_properties(device=None):
    """The properties of a device (cudaGetDeviceProperties): name, major, minor, total_memory,
    multi_processor_count, ... The current device when ``device`` is None."""
    _lazy_init()
    device = _get_device_index(device, optional=True)
    if device < 0 or device >= device_count():
        raise AssertionError("Invalid device id")
    return torch._C._get_device_properties(device)


def get_device_name(device=None):
    """The name of a device: "Simulated CUDA device (CPU)" on the simulated device."""
    return get_device_properties(device).name


def get_device_capability(device=None):
    """The (major, minor) compute capability of a device."""
    prop = get_device_properties(device)
    return prop.major, prop.minor


def _get_device_index(device, optional=False):
    """An int device index from an int, a "cuda:1" string or a torch.device, which must be a
    CUDA one (torch._utils._get_device_index with PyTorch's torch/cuda/_utils.py check)."""
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device) and device.type != "cuda":
        raise ValueError(f"Expected a cuda device, but got: {device}")
    if device is not None and not isinstance(device, torch.device):
        return int(device)
    return torch._utils._get_device_index(device, optional)


if hasattr(torch._C, "_cuda_exchangeDevice"):
    _exchange_device = torch._C._cuda_exchangeDevice
    _maybe_exchange_device = torch._C._cuda_maybeExchangeDevice
else:

    def _exchange_device(device):
        if device < 0:
            return -1
        raise RuntimeError("PyTorch was compiled without CUDA support")

    def _maybe_exchange_device(device):
        if device < 0:
            return -1
        raise RuntimeError("PyTorch was compiled without CUDA support")


class device:
    """Context manager that makes ``device`` current (a no-op for None or a negative int)."""

    def __init__(self, device):
        self.idx = -1 if device is None else _get_device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self):
        self.prev_idx = _exchange_device(self.idx)

    def __exit__(self, type, value, traceback):
        self.idx = _maybe_exchange_device(self.prev_idx)
        return False


def current_device():
    """The index of the current device of this thread."""
    _lazy_init()
    return torch._C._cuda_getDevice()


def set_device(device):
    """Make ``device`` current for this thread (a no-op for a negative index)."""
    device = _get_device_index(device)
    if device >= 0:
        _lazy_init()
        torch._C._cuda_setDevice(device)


def synchronize(device=None):
    """Wait for all the work of every stream of ``device`` (default: current) to finish."""
    _lazy_init()
    with torch.cuda.device(device):
        return torch._C._cuda_synchronize()


def _stream_from_tuple(streamdata):
    return Stream(stream_id=streamdata[0], device_index=streamdata[1], device_type=streamdata[2])


def current_stream(device=None):
    """This thread's current Stream on ``device`` (the default stream until changed)."""
    _lazy_init()
    return _stream_from_tuple(torch._C._cuda_getCurrentStream(_get_device_index(device, optional=True)))


def default_stream(device=None):
    """The default (NULL) Stream of ``device``."""
    _lazy_init()
    return _stream_from_tuple(torch._C._cuda_getDefaultStream(_get_device_index(device, optional=True)))


def _set_stream_by_id(stream_id, device_index, device_type):
    torch._C._cuda_setStream(stream_id=stream_id, device_index=device_index, device_type=device_type)


def set_stream(stream):
    """Make ``stream`` current on its device (prefer the ``stream`` context manager)."""
    if stream is None:
        return
    _lazy_init()
    _set_stream_by_id(stream.stream_id, stream.device_index, stream.device_type)


class StreamContext:
    """Context manager that makes ``stream`` current; restores the previous streams on exit."""

    def __init__(self, stream):
        self.stream = stream
        self.src_prev_stream = None
        self.dst_prev_stream = None

    def __enter__(self):
        cur_stream = self.stream
        if cur_stream is None:
            return
        self.src_prev_stream = current_stream(None)
        # A stream of another device: remember that device's current stream too.
        if self.src_prev_stream.device != cur_stream.device:
            with device(cur_stream.device):
                self.dst_prev_stream = current_stream(cur_stream.device)
        set_stream(cur_stream)

    def __exit__(self, type, value, traceback):
        cur_stream = self.stream
        if cur_stream is None:
            return
        if self.src_prev_stream.device != cur_stream.device:
            set_stream(self.dst_prev_stream)
        set_stream(self.src_prev_stream)


def stream(stream):
    """``with torch.cuda.stream(s):`` runs the block with ``s`` as the current stream."""
    return StreamContext(stream)


def _sleep(cycles):
    """Keep the current stream busy for about ``cycles`` nanoseconds (tests use it)."""
    _lazy_init()
    torch._C._cuda_sleep(cycles)


# The legacy typed CUDA storages: torch.cuda.FloatStorage ... torch.cuda.BoolStorage. Their C++
# bases (torch._C.CudaFloatStorageBase ...) are torch/csrc/generic/Storage.cpp compiled once
# more per type over THC's functions (torch/csrc/cuda/Storage.cpp), as in PyTorch 1.x, whose
# torch/cuda/__init__.py defined these classes the same way. PyTorch 2.x keeps the names as
# TypedStorage subclasses. Guide: docs/source/internals/th_storage.rst (THC).
def _dummy_type(name):
    """A stand-in base class for a build without CUDA: making an instance raises what every
    CUDA call raises there (torch.cuda._lazy_init: "Torch not compiled with CUDA enabled")."""

    def init_err(self, *args, **kwargs):
        _lazy_init()
        raise RuntimeError(f"Tried to instantiate dummy base class {name}")

    return type(name, (object,), {"__init__": init_err})


if not hasattr(torch._C, "CudaFloatStorageBase"):
    for _name in ("Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double", "Bool"):
        setattr(torch._C, f"Cuda{_name}StorageBase", _dummy_type(f"Cuda{_name}StorageBase"))
    del _name


class _CudaBase:
    """What the CUDA storages add to torch.storage._LegacyStorage: they live on one GPU."""

    is_sparse = False

    def get_device(self):
        """The index of the GPU the memory is on."""
        return self.device.index

    def cpu(self):
        """A copy in CPU memory, of the same element type (THFloatStorage_copyCuda)."""
        return getattr(torch, type(self).__name__)(self.size()).copy_(self)

    def clone(self):
        """A copy on the same GPU (not on the current one)."""
        with device(self.get_device()):
            return type(self)(self.size()).copy_(self)


class ByteStorage(_CudaBase, torch._C.CudaByteStorageBase, torch.storage._LegacyStorage):
    pass


class CharStorage(_CudaBase, torch._C.CudaCharStorageBase, torch.storage._LegacyStorage):
    pass


class ShortStorage(_CudaBase, torch._C.CudaShortStorageBase, torch.storage._LegacyStorage):
    pass


class IntStorage(_CudaBase, torch._C.CudaIntStorageBase, torch.storage._LegacyStorage):
    pass


class LongStorage(_CudaBase, torch._C.CudaLongStorageBase, torch.storage._LegacyStorage):
    pass


class HalfStorage(_CudaBase, torch._C.CudaHalfStorageBase, torch.storage._LegacyStorage):
    pass


class FloatStorage(_CudaBase, torch._C.CudaFloatStorageBase, torch.storage._LegacyStorage):
    pass


class DoubleStorage(_CudaBase, torch._C.CudaDoubleStorageBase, torch.storage._LegacyStorage):
    pass


class BoolStorage(_CudaBase, torch._C.CudaBoolStorageBase, torch.storage._LegacyStorage):
    pass


# Broadcast, scatter, gather and reduce across devices (torch.cuda.comm.broadcast ...). PyTorch
# loads it on `import torch.cuda.comm`; here it comes with torch.cuda too. Pure Python: importing
# it touches no GPU.
from torch.cuda import comm  # noqa: E402,F401

# torch.cuda.amp (autocast, GradScaler: the deprecated CUDA spellings of torch.amp), as PyTorch's
# torch.cuda imports it.
from torch.cuda import amp  # noqa: E402,F401
