"""tools/setup_helpers/cmake.py - configure and build the native code with CMake + Ninja.

Mirrors PyTorch's tools/setup_helpers/cmake.py. Guide: docs/source/internals/building.rst.
setup.py calls run_cmake() from its build_ext; `make build` calls this module directly
(python -m tools.setup_helpers.cmake) once the package is installed, so a rebuild after
editing one .cpp costs only what Ninja recompiles.
"""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
    args.append(f"-DUSE_CUBLAS={'ON' if env_flag('USE_CUBLAS', True) else 'OFF'}")
    args.append(f"-DUSE_NUMA={'ON' if env_flag('USE_NUMA', False) else 'OFF'}")
    args.append(f"-DUSE_MKLDNN={'ON' if env_flag('USE_MKLDNN', True) else 'OFF'}")
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



if __name__ == "__main__":
    run_cmake()
