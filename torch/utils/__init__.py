"""torch.utils - helpers used across the package (hooks, data, cpp_extension, ...).

Mirrors PyTorch's torch/utils/__init__.py. Guide: docs/source/internals/cpp_extensions.rst
(cmake_prefix_path).
"""

import os as _os

# find_package(Torch) for a C++ program: cmake -DCMAKE_PREFIX_PATH=<this> (TorchConfig.cmake,
# written by the build into torch/share/cmake/Torch).
cmake_prefix_path = _os.path.join(_os.path.dirname(_os.path.dirname(__file__)), "share", "cmake")
