"""torch.backends.cpu: what the CPU kernels may use.

Mirrors PyTorch's torch/backends/cpu/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

import os

__all__ = ["get_cpu_capability"]

_CAPABILITIES = ("DEFAULT", "AVX2", "AVX512")


def _detect():
    # ATen's cpuinfo check (aten/src/ATen/native/DispatchStub.cpp), from the kernel's CPU flags;
    # ATEN_CPU_CAPABILITY may lower it, as in PyTorch.
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        flags = []
    flags = set(flags)
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        best = "AVX512"
    elif {"avx2", "fma"} <= flags:
        best = "AVX2"
    else:
        best = "DEFAULT"
    wanted = os.environ.get("ATEN_CPU_CAPABILITY", "").upper()
    if wanted in _CAPABILITIES and _CAPABILITIES.index(wanted) < _CAPABILITIES.index(best):
        return wanted
    return best


def get_cpu_capability() -> str:
    r"""The CPU capability as a string: "DEFAULT", "AVX2" or "AVX512" on x86."""
    return _detect()
