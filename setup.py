"""setup.py - build Torch Anatomy: CMake configures and builds c10, ATen and torch._C.

Mirrors PyTorch's setup.py (which drives CMake through tools/setup_helpers/cmake.py).
Guide: docs/source/internals/building.rst.

    pip install -e . -v --no-build-isolation      (what `make build` runs)

Environment switches, with PyTorch's names:
    DEBUG=1              -O0 -g3 and frame pointers, for stepping through in gdb
    REL_WITH_DEB_INFO=1  -O2 -g
    USE_CUDA=0|1         build the CUDA parts (default: on when nvcc is found)
    USE_NUMA=1           bind CPU allocations to NUMA nodes (needs libnuma)
    BUILD_TEST=0         skip the C++ GoogleTest suites
    MAX_JOBS=N           parallel compile jobs (default: all CPUs)

Everything is built in build/ (one tree: switching DEBUG rebuilds, as in PyTorch). The
libraries land in torch/lib and the extension in torch/, so the source tree is the
installed package.
"""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD_DIR = os.path.join(ROOT, "build")


def env_flag(name, default=None):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.upper() in ("1", "ON", "YES", "TRUE", "Y")


def build_type():
    if env_flag("DEBUG", False):
        return "Debug"
    if env_flag("REL_WITH_DEB_INFO", False):
        return "RelWithDebInfo"
    return "Release"


def cmake_args():
    """The configure arguments, from the environment switches."""
    args = [
        "-G", "Ninja",
        f"-DCMAKE_BUILD_TYPE={build_type()}",
        f"-DPython_EXECUTABLE={sys.executable}",
    ]
    use_cuda = env_flag("USE_CUDA")
    if use_cuda is None:
        use_cuda = shutil.which("nvcc") is not None
    args.append(f"-DUSE_CUDA={'ON' if use_cuda else 'OFF'}")
    args.append(f"-DUSE_NUMA={'ON' if env_flag('USE_NUMA', False) else 'OFF'}")
    args.append(f"-DBUILD_TEST={'ON' if env_flag('BUILD_TEST', True) else 'OFF'}")
    if os.environ.get("CMAKE_CUDA_ARCHITECTURES"):
        args.append(f"-DCMAKE_CUDA_ARCHITECTURES={os.environ['CMAKE_CUDA_ARCHITECTURES']}")
    return args


def run_cmake():
    """Configure (only when the switches changed) and build incrementally."""
    os.makedirs(BUILD_DIR, exist_ok=True)
    args = cmake_args()
    stamp = os.path.join(BUILD_DIR, ".setup_cmake_args")
    previous = open(stamp).read() if os.path.exists(stamp) else None
    configured = os.path.exists(os.path.join(BUILD_DIR, "build.ninja"))
    if not configured or previous != "\n".join(args):
        subprocess.check_call(["cmake", "-S", ROOT, "-B", BUILD_DIR] + args)
        with open(stamp, "w") as f:
            f.write("\n".join(args))
    jobs = os.environ.get("MAX_JOBS", str(os.cpu_count() or 1))
    subprocess.check_call(["cmake", "--build", BUILD_DIR, "--", "-j", jobs])
    # Editors and clangd find the compile flags at the root, as in PyTorch.
    link = os.path.join(ROOT, "compile_commands.json")
    if not os.path.lexists(link):
        os.symlink(os.path.join("build", "compile_commands.json"), link)


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
