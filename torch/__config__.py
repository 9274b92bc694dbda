"""torch.__config__: how this build was configured.

Mirrors PyTorch's torch/__config__.py. Guide: docs/source/internals/building.rst.
"""

import torch


def show():
    """The build configuration, as text (aten/src/ATen/Version.cpp: at::show_config)."""
    return torch._C._show_config()
