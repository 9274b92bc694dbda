"""The torch package of Torch Anatomy: a miniature of PyTorch's source tree that works.

Mirrors PyTorch's torch/__init__.py. Guide: docs/source/internals/source_tree.rst.

``import torch`` loads the C++ extension ``torch._C`` (built from ``torch/csrc``, linked
against ``torch/lib/libtorch_cpu.so`` and ``torch/lib/libc10.so``) and re-exports what
it binds: devices, dtypes, storages. The dtype objects (``torch.float32`` ...) are put
on this module by ``torch._C`` itself while it loads (``torch/csrc/Dtype.cpp``).
"""

__version__ = "2.13.0a0+anatomy"

# Importing _C also installs torch.float32, torch.int64, ... on this module.
from torch import _C  # noqa: E402
from torch._C import device, dtype, promote_types  # noqa: E402
from torch._C import OutOfMemoryError  # noqa: E402

from torch import storage  # noqa: E402
from torch.storage import UntypedStorage  # noqa: E402

from torch import cpu, cuda  # noqa: E402
from torch import __config__  # noqa: E402


def typename(obj):
    """The fully qualified type name of obj: ``torch.storage.UntypedStorage``."""
    if isinstance(obj, type):
        cls = obj
    else:
        cls = type(obj)
    module = cls.__module__
    if module in (None, "builtins"):
        return cls.__qualname__
    return f"{module}.{cls.__qualname__}"


__all__ = [
    "device",
    "dtype",
    "promote_types",
    "typename",
    "UntypedStorage",
    "OutOfMemoryError",
]
