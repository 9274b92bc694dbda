"""The torch package of Torch Anatomy: a miniature of PyTorch's source tree that works.

Mirrors PyTorch's torch/__init__.py. Guide: docs/source/internals/source_tree.rst.

``import torch`` loads the C++ extension ``torch._C`` (built from ``torch/csrc``, linked
against ``torch/lib/libtorch_cpu.so`` and ``torch/lib/libc10.so``) and re-exports what
it binds: devices, dtypes, storages. The dtype objects (``torch.float32`` ...) are put
on this module by ``torch._C`` itself while it loads (``torch/csrc/Dtype.cpp``).
"""

__version__ = "2.13.0a0+anatomy"


# [marker: load_simulated_cuda]
def _cuda_simulated():
    """Whether this process asked for the simulated CUDA device (TORCH_CUDA_SIMULATE=N)."""
    import os

    return os.environ.get("TORCH_CUDA_SIMULATE", "") not in ("", "0")


def _cuda_lib_dir():
    """Where this process takes its CUDA libraries from: torch/lib/simulated for the simulated
    device, torch/lib otherwise (the nvcc build)."""
    import os

    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib")
    return os.path.join(lib, "simulated") if _cuda_simulated() else lib


def _load_simulated_cuda():
    """With TORCH_CUDA_SIMULATE=N, load the simulated CUDA device before torch._C.

    torch/lib/simulated/libcudart.so.<major> implements CUDA's runtime API on the CPU, under
    the real runtime's soname: loaded first (RTLD_GLOBAL), it is the libcudart that
    libc10_cuda and torch._C then bind to. Guide: docs/source/internals/cuda_simulated_device.rst.
    """
    import ctypes
    import glob
    import os

    if not _cuda_simulated():
        return
    here = _cuda_lib_dir()
    runtimes = sorted(glob.glob(os.path.join(here, "libcudart.so.*")))
    if not runtimes:
        raise RuntimeError(
            "TORCH_CUDA_SIMULATE is set, but this build has no simulated CUDA device "
            "(torch/lib/simulated/libcudart.so.*): it is built with USE_CUDA=1")
    ctypes.CDLL(runtimes[0], mode=ctypes.RTLD_GLOBAL)


def _load_cuda_kernels():
    """Load libtorch_cuda.so, whose static initializers register the CUDA operators.

    From the directory _cuda_lib_dir() names; a build without CUDA has neither. Before
    torch._C: _C links libtorch_cuda.so (the legacy CUDA storages call THC), and both builds
    of it have that soname, so the one loaded here is the one _C binds to.
    """
    import ctypes
    import os

    path = os.path.join(_cuda_lib_dir(), "libtorch_cuda.so")
    if os.path.exists(path):
        ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


_load_simulated_cuda()
_load_cuda_kernels()
# [end marker: load_simulated_cuda]

# Importing _C also installs torch.float32, torch.int64, ... on this module.
from torch import _C  # noqa: E402
from torch._C import device, dtype  # noqa: E402
from torch._C import OutOfMemoryError  # noqa: E402

from torch import storage  # noqa: E402
from torch.storage import UntypedStorage  # noqa: E402

# torch.Tensor (torch/_tensor.py) over the C++ torch._C.TensorBase; registering it makes
# C++ hand out its tensors as torch.Tensor (torch/csrc/autograd/python_variable.cpp).
from torch._C import Size, layout, memory_format  # noqa: E402
from torch._tensor import Tensor  # noqa: E402

Tensor.__module__ = "torch"  # printed as <class 'torch.Tensor'>, as in PyTorch
_C._set_tensor_class(Tensor)

# The legacy typed storages (torch/csrc/generic/Storage.cpp over aten/src/TH) and the
# legacy tensor type names; guide: finding_thstorage.rst.
from torch.storage import (  # noqa: E402
    ByteStorage, CharStorage, ShortStorage, IntStorage, LongStorage,
    FloatStorage, DoubleStorage, HalfStorage, BoolStorage,
)
from torch._legacy_tensor_types import (  # noqa: E402
    ByteTensor, CharTensor, ShortTensor, IntTensor, LongTensor,
    FloatTensor, DoubleTensor, HalfTensor, BoolTensor,
)

from torch import cpu, cuda  # noqa: E402
from torch import __config__  # noqa: E402


def typename(obj):
    """The fully qualified type name of obj: ``torch.storage.UntypedStorage``; for a tensor,
    its legacy type name (``torch.FloatTensor``), as PyTorch's typename gives."""
    if isinstance(obj, Tensor):
        return obj.type()
    if isinstance(obj, type):
        cls = obj
    else:
        cls = type(obj)
    module = cls.__module__
    if module in (None, "builtins"):
        return cls.__qualname__
    return f"{module}.{cls.__qualname__}"


def get_default_dtype():
    """The dtype of floating-point tensors made without one (torch.float32 unless changed)."""
    return _C._get_default_dtype()


def set_default_dtype(d):
    """Make d (a floating-point dtype) the default for torch.tensor([1.5]), torch.zeros(2), ..."""
    _C._set_default_dtype(d)


def is_tensor(obj):
    """True if obj is a torch.Tensor (or a subclass)."""
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


from torch._tensor_str import set_printoptions  # noqa: E402

__all__ = [
    "Tensor",
    "Size",
    "get_default_dtype",
    "set_default_dtype",
    "set_printoptions",
    "is_tensor",
    "device",
    "dtype",
    "promote_types",
    "typename",
    "UntypedStorage",
    "OutOfMemoryError",
]

# [marker: variable_functions]
# The operators as torch.* functions: torch._C._VariableFunctions is generated from
# native_functions.yaml (build/torch/csrc/autograd/generated/python_torch_functions.cpp).
# As in PyTorch, names starting with "_" are exported but left out of __all__.
for __name in dir(_C._VariableFunctions):
    if __name.startswith("__"):
        continue
    __obj = getattr(_C._VariableFunctions, __name)
    globals()[__name] = __obj
    if not __name.startswith("_"):
        __all__.append(__name)
del __name, __obj
# [end marker: variable_functions]

from torch import overrides  # noqa: E402

# torch.Generator and the default generator (torch/csrc/Generator.cpp), seeding (torch/random.py).
from torch._C import Generator, default_generator  # noqa: E402
# The intra-op (OpenMP, at::parallel_for) and inter-op thread counts: aten/src/ATen/Parallel.h.
from torch._C import get_num_interop_threads, get_num_threads, set_num_interop_threads, set_num_threads  # noqa: E402
from torch.random import manual_seed, seed, initial_seed, get_rng_state, set_rng_state  # noqa: E402

__all__ += ["Generator", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state"]

# torch.return_types (max(dim), sort, topk ...) and the functions written in Python
# (torch/functional.py), as PyTorch exports them.
from torch import return_types  # noqa: E402
from torch import functional  # noqa: E402
from torch.functional import (  # noqa: E402,F811
    block_diag, broadcast_shapes, broadcast_tensors, cartesian_prod, einsum, meshgrid, norm, split, tensordot, unique)
if "broadcast_shapes" not in __all__:
    __all__.append("broadcast_shapes")
# The name of torch._C.TensorBase before PyTorch 2.2, still accepted.
_C._TensorBase = _C.TensorBase

# Autograd (guide: autograd.rst): the C++ engine in torch/csrc/autograd, the grad modes.
from torch._C import is_grad_enabled, is_inference_mode_enabled  # noqa: E402
from torch import autograd  # noqa: E402
from torch import linalg  # noqa: E402
from torch.autograd import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402

__all__ += ["autograd", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
            "is_inference_mode_enabled"]

# torch.save / torch.load in PyTorch's zip format (torch/serialization.py; the rebuild functions a
# pickled tensor names are in torch/_utils.py). Guide: saving_loading.rst.
from torch import _utils  # noqa: E402
from torch.storage import TypedStorage, BFloat16Storage, ComplexFloatStorage, ComplexDoubleStorage  # noqa: E402
from torch.serialization import save, load  # noqa: E402

__all__ += ["save", "load", "TypedStorage"]
# torch.optim (guide: python_layer.rst): optimizers and learning-rate schedulers, in Python.
from torch import optim  # noqa: E402
# torch.nn (guide: python_layer.rst): Module, Parameter, layers, losses, functional, init.
from torch import nn  # noqa: E402
# torch.ops and torch.library (guide: cpp_extensions.rst): operators by namespace and name,
# including those of C++ extensions and those defined from Python.
from torch._ops import ops  # noqa: E402
from torch import library  # noqa: E402


def _check_with(error_type, cond, message=None):
    if cond:
        return
    if message is None:
        text = ("Expected cond to be True, but got False. (Could this error message be improved? If so, please "
                "report an enhancement request to PyTorch.)")
    else:
        if not callable(message):
            raise TypeError("message must be a callable")
        text = str(message())
    raise error_type(text)


def _check(cond, message=None):
    """Raise RuntimeError(message()) unless cond: the check a custom operator's Python code
    (a fake kernel, say) makes of its inputs, as TORCH_CHECK does in C++."""
    _check_with(RuntimeError, cond, message)


def _check_index(cond, message=None):
    _check_with(IndexError, cond, message)


def _check_value(cond, message=None):
    _check_with(ValueError, cond, message)


def _check_type(cond, message=None):
    _check_with(TypeError, cond, message)


# torch.set_default_device / `with torch.device(d):` (torch/utils/_device.py): the device of the
# factories (torch.zeros, torch.tensor ...) whose call names none.
import threading as _threading  # noqa: E402

_GLOBAL_DEVICE_CONTEXT = _threading.local()


def get_default_device() -> "device":
    """The device factories allocate on when given none (cpu unless changed)."""
    from torch.utils._device import DeviceContext, _get_current_function_mode_stack

    def _get_device_with_index(dev):
        if dev.index is not None:
            return dev
        # The device a tensor made now lands on names the index (cuda -> cuda:0).
        return tensor([]).device  # noqa: F821 - put into globals() from _C._VariableFunctions above

    device_mode = next((m for m in reversed(_get_current_function_mode_stack()) if isinstance(m, DeviceContext)),
                       None)
    if device_mode:
        return _get_device_with_index(device_mode.device)
    device_context = getattr(_GLOBAL_DEVICE_CONTEXT, "device_context", None)
    if device_context is not None:
        return _get_device_with_index(device_context.device)
    return device("cpu")


def set_default_device(device) -> None:
    """Make factories without ``device=`` allocate on device (None: back to cpu), in this thread."""
    from torch.utils._device import DeviceContext

    device_context = getattr(_GLOBAL_DEVICE_CONTEXT, "device_context", None)
    if device_context is not None:
        device_context.__exit__(None, None, None)
    if device is None:
        device_context = None
    else:
        device_context = DeviceContext(device)
        device_context.__enter__()
    _GLOBAL_DEVICE_CONTEXT.device_context = device_context


__all__ += ["get_default_device", "set_default_device"]

# torch.backends (flags of cuBLAS, cuDNN ...), torch.amp (autocast, GradScaler) and the autocast
# state functions PyTorch binds from C++. Guide: programs/amp_backends.rst.
from torch import backends  # noqa: E402
from torch import amp  # noqa: E402
from torch.amp import autocast  # noqa: E402
from torch.amp.autocast_mode import (  # noqa: E402
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_cache_enabled,
    is_autocast_cpu_enabled,
    is_autocast_enabled,
    set_autocast_cache_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)


def set_float32_matmul_precision(precision: str) -> None:
    """"highest" (float32 matmuls in float32), "high" (TF32 allowed) or "medium" (bfloat16 allowed)."""
    backends._context.set_float32_matmul_precision(precision)


def get_float32_matmul_precision() -> str:
    """The precision set by set_float32_matmul_precision (or torch.backends.cuda.matmul.allow_tf32)."""
    return backends._context.get_float32_matmul_precision()


__all__ += ["autocast", "set_float32_matmul_precision", "get_float32_matmul_precision"]

# Submodules a bare `import torch` makes reachable, as PyTorch's: torch.utils.data.DataLoader,
# torch.utils.checkpoint.checkpoint.
import torch.utils.data  # noqa: E402
import torch.utils.checkpoint  # noqa: E402

# The profiler (guide: profiler.rst): torch.profiler, which also brings torch.autograd.profiler.
from torch import profiler  # noqa: E402
