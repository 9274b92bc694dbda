"""torch.backends.cpu: what the CPU kernels may use.

Mirrors PyTorch's torch/backends/cpu/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

import torch

__all__ = ["get_cpu_capability"]


def get_cpu_capability() -> str:
    r"""Return cpu capability as a string value: the build of the CPU kernels that runs.

    This tree builds its CPU kernels twice, "DEFAULT" (any x86-64) and "AVX2" (with FMA), and
    runs the best one the CPU supports; ``ATEN_CPU_CAPABILITY=default`` (read once, when the
    first kernel runs) picks "DEFAULT". PyTorch also builds "AVX512".
    """
    return torch._C._get_cpu_capability()
