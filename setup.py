"""setup.py - build Torch Anatomy: CMake configures and builds c10, ATen and torch._C.

Mirrors PyTorch's setup.py (which drives CMake through tools/setup_helpers/cmake.py).
Guide: docs/source/internals/building.rst.

    pip install -e . -v --no-build-isolation      (what `make build` runs)

Environment switches, with PyTorch's names:
    DEBUG=1              -O0 -g3 and frame pointers, for stepping through in gdb
    REL_WITH_DEB_INFO=1  -O2 -g
    USE_CUDA=0|1         build the CUDA parts (default: on when nvcc is found)
    USE_CUBLAS=0         GPU matrix products on the tree's tiled kernel, not cuBLAS
    USE_NUMA=1           bind CPU allocations to NUMA nodes (needs libnuma)
    BUILD_TEST=0         skip the C++ GoogleTest suites
    MAX_JOBS=N           parallel compile jobs (default: all CPUs)

Everything is built in build/ (one tree: switching DEBUG rebuilds, as in PyTorch). The
libraries land in torch/lib and the extension in torch/, so the source tree is the
installed package.
"""

import os
import shutil
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
from tools.setup_helpers.cmake import run_cmake  # noqa: E402


class CMakeBuild(build_ext):
    """build_ext that hands the whole native build to CMake."""

    def run(self):
        run_cmake()
        if not (self.inplace or getattr(self, "editable_mode", False)):
            # A regular (non-editable) install: copy what CMake wrote into the wheel tree.
            for ext in self.extensions:
                built = os.path.join(ROOT, *ext.name.split(".")[:-1], os.path.basename(self.get_ext_filename(ext.name)))
                target = self.get_ext_fullpath(ext.name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(built, target)
            lib_target = os.path.join(self.build_lib, "torch", "lib")
            shutil.copytree(os.path.join(ROOT, "torch", "lib"), lib_target, dirs_exist_ok=True)

    def copy_extensions_to_source(self):
        # CMake already wrote torch/_C*.so into the source tree.
        pass

    def get_outputs(self):
        return [os.path.join(ROOT, *ext.name.split(".")[:-1], os.path.basename(self.get_ext_filename(ext.name)))
                for ext in self.extensions]


setup(
    name="torch-anatomy",
    version="2.13.0a0",
    description="A small, working, faithful miniature of PyTorch's source tree",
    packages=find_packages(include=["torch", "torch.*"]),
    ext_modules=[Extension("torch._C", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
