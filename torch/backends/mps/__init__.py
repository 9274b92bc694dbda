"""torch.backends.mps: Apple's Metal Performance Shaders backend.

Mirrors PyTorch's torch/backends/mps/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
This tree has no MPS device: it is neither built nor available.
"""

__all__ = ["get_core_count", "get_name", "is_built", "is_available", "is_macos13_or_newer", "is_macos_or_newer"]


def is_built():
    """Whether PyTorch was built with MPS support (never, in this tree)."""
    return False


def is_available():
    """Whether MPS can be used now."""
    return False


def is_macos_or_newer(major, minor):
    return False


def is_macos13_or_newer(minor=0):
    return False


def get_name():
    return ""


def get_core_count():
    return 0
