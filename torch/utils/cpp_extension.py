"""torch.utils.cpp_extension: build C++ and CUDA extensions against this torch.

Mirrors PyTorch's torch/utils/cpp_extension.py. Guide: docs/source/internals/cpp_extensions.rst.

Two ways in, as in PyTorch:

* ahead of time, from a ``setup.py``: ``CppExtension``/``CUDAExtension`` describe the module
  (sources, and torch's headers and libraries) and ``BuildExtension`` compiles it;
* just in time, from Python: ``load(name, sources)`` (or ``load_inline`` with the sources
  as strings) writes a ``build.ninja`` into a build directory, runs Ninja, and imports the
  result. A second ``load`` of unchanged sources and flags finds the build up to date and
  only imports; a changed source or flag builds the module again, under a new version name
  (``lltm_v1``), because a process cannot import two different modules by one name.

Both compile every C++ source with the same command line (``_cxx_command``), so what the
guide shows for one is true of the other. A ``.cu`` source is compiled by nvcc for a GPU;
on the simulated CUDA device (``TORCH_CUDA_SIMULATE=N``) it is first rewritten by
tools/cuda_sim/translate.py, as the build does with ATen's own kernels, and then compiled by
the C++ compiler against the simulated runtime, so a CUDA extension runs without a GPU.
"""

import fcntl
import hashlib
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import warnings
from typing import Dict, List, Optional, Union

import torch

__all__ = [
    "BuildExtension",  # noqa: F822 - made on first use by the module __getattr__ (setuptools is imported late)
    "CppExtension", "CUDAExtension", "include_paths", "library_paths", "load",
    "load_inline", "verify_ninja_availability", "is_ninja_available", "get_compiler_abi_compatibility_and_version",
    "check_compiler_ok_for_platform", "LIB_EXT", "CUDA_HOME", "TORCH_LIB_PATH",
]

LIB_EXT = ".so"
_TORCH_PATH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_LIB_PATH = os.path.join(_TORCH_PATH, "lib")
# The oldest GCC this tree's headers compile with (they use C++17).
MINIMUM_GCC_VERSION = (9, 0, 0)
# PyTorch's extensions and torch itself must agree on std::string's layout.
ABI_FLAG = "-D_GLIBCXX_USE_CXX11_ABI=1"


# [marker: build_paths]
def _build_paths() -> dict:
    """Where this build keeps its headers, libraries and tools: TorchPaths.json, written by
    the build next to TorchConfig.cmake (torch/share/cmake/Torch)."""
    path = os.path.join(_TORCH_PATH, "share", "cmake", "Torch", "TorchPaths.json")
    if not os.path.exists(path):
        raise RuntimeError(f"{path} is missing: build torch first (make build)")
    with open(path) as f:
        return json.load(f)


def _find_cuda_home() -> Optional[str]:
    nvcc = shutil.which("nvcc")
    if os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH"):
        return os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    return "/usr/local/cuda" if os.path.exists("/usr/local/cuda") else None


CUDA_HOME = _find_cuda_home()


def _cuda_simulated() -> bool:
    """Does this process run CUDA on the simulated device? Then CUDA sources are translated."""
    return bool(os.environ.get("TORCH_CUDA_SIMULATE"))


def include_paths(device_type: str = "cpu") -> List[str]:
    """The include directories of torch's headers (with CUDA's for device_type 'cuda')."""
    paths = list(_build_paths()["include_dirs"])
    if device_type == "cuda":
        paths += [p for p in _build_paths()["cuda_include_dirs"] if p]
        if CUDA_HOME and os.path.join(CUDA_HOME, "include") not in paths:
            paths.append(os.path.join(CUDA_HOME, "include"))
    return paths


def library_paths(device_type: str = "cpu") -> List[str]:
    """The directories of torch's libraries (and, for 'cuda', of the CUDA runtime this process
    uses: the simulated one under TORCH_CUDA_SIMULATE)."""
    paths = [TORCH_LIB_PATH]
    if device_type == "cuda":
        if _cuda_simulated():
            paths.insert(0, _build_paths()["cuda_sim_library_dir"])
        else:
            # The toolkit the build found (its include directory's sibling lib), then CUDA_HOME's.
            candidates = [os.path.join(os.path.dirname(p), "lib") for p in _build_paths()["cuda_include_dirs"] if p]
            if CUDA_HOME:
                candidates += [os.path.join(CUDA_HOME, sub) for sub in ("lib64", "lib")]
            paths += [p for p in candidates if os.path.exists(os.path.join(p, "libcudart.so"))][:1]
    return paths
# [end marker: build_paths]


# ---- compilers ---------------------------------------------------------------------------

def _cxx() -> str:
    return os.environ.get("CXX", "c++")


def get_compiler_abi_compatibility_and_version(compiler: Optional[str] = None):
    """(ok, version): whether the C++ compiler can build extensions for this torch."""
    compiler = compiler or _cxx()
    try:
        version = subprocess.check_output([compiler, "-dumpfullversion", "-dumpversion"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        warnings.warn(f"Error checking compiler version for {compiler}")
        return False, (0, 0, 0)
    parts = tuple(int(p) for p in re.findall(r"\d+", version)[:3])
    parts = parts + (0,) * (3 - len(parts))
    if not check_compiler_ok_for_platform(compiler):
        warnings.warn(_WRONG_COMPILER_WARNING.format(user_compiler=compiler))
        return False, parts
    if parts < MINIMUM_GCC_VERSION:
        warnings.warn(_ABI_INCOMPATIBILITY_WARNING.format(
            user_compiler=compiler, version=version,
            minimum=".".join(str(p) for p in MINIMUM_GCC_VERSION)))
        return False, parts
    return True, parts


def check_compiler_ok_for_platform(compiler: str) -> bool:
    """On Linux, torch is built with GCC: the compiler must be a GCC (or claim to be one)."""
    which = shutil.which(compiler)
    if which is None:
        return False
    try:
        banner = subprocess.check_output([which, "-v"], stderr=subprocess.STDOUT, text=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return "gcc version" in banner or "clang version" in banner


_WRONG_COMPILER_WARNING = """
                               !! WARNING !!

!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
Your compiler ({user_compiler}) is not compatible with the compiler Pytorch was
built with for this platform, which is g++ on linux. Please
use g++ to compile your extension. Alternatively, you may
compile PyTorch from source using {user_compiler}, and then you can also use
{user_compiler} to compile your extension.
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

                              !! WARNING !!
"""

_ABI_INCOMPATIBILITY_WARNING = """
                               !! WARNING !!

!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
Your compiler ({user_compiler} {version}) may be ABI-incompatible with PyTorch!
Please use a compiler that is ABI-compatible with GCC {minimum} and above.
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

                              !! WARNING !!
"""


def _ninja() -> str:
    """ninja from PATH, or the one pip installed beside this interpreter (a venv not activated)."""
    beside = os.path.join(os.path.dirname(sys.executable), "ninja")
    return shutil.which("ninja") or (beside if os.path.exists(beside) else "ninja")


def is_ninja_available() -> bool:
    try:
        subprocess.check_output([_ninja(), "--version"])
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def verify_ninja_availability() -> None:
    if not is_ninja_available():
        raise RuntimeError("Ninja is required to load C++ extensions (pip install ninja to get it)")


# [marker: command_lines]
# ---- command lines -------------------------------------------------------------------------
# One place says how a source becomes an object file, for load() and BuildExtension alike.

def _common_cflags(name: str, extra_include_paths, device_type: str) -> List[str]:
    """Defines and include directories every source of one extension gets."""
    flags = [f"-DTORCH_EXTENSION_NAME={name}", "-DTORCH_API_INCLUDE_EXTENSION_H", ABI_FLAG]
    # Python's own headers: the module's sources include <Python.h> through pybind11.
    flags.append(f"-isystem{sysconfig.get_paths()['include']}")
    for path in list(extra_include_paths or []) + include_paths(device_type):
        flags.append(f"-isystem{path}")
    return flags


def _cxx_command(common: List[str], extra_cflags: List[str]) -> List[str]:
    """c++ -MMD -MF $out.d <defines, includes> -fPIC -std=c++17 <extra> -c $in -o $out"""
    return [_cxx(), "-MMD", "-MF", "$out.d"] + common + ["-fPIC", "-std=c++17"] + list(extra_cflags)


def _nvcc_command(common: List[str], extra_cuda_cflags: List[str]) -> List[str]:
    """nvcc for a GPU: the architectures torch was built for, unless TORCH_CUDA_ARCH_LIST says."""
    nvcc = os.path.join(CUDA_HOME, "bin", "nvcc") if CUDA_HOME else "nvcc"
    arch_list = os.environ.get("TORCH_CUDA_ARCH_LIST")
    archs = (arch_list.replace(".", "").split(";") if arch_list
             else str(_build_paths().get("cuda_architectures") or "75").split(";"))
    gencode = [f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs if a]
    # nvcc takes -isystem's directory as a separate argument.
    nvcc_common = []
    for flag in common:
        nvcc_common += ["-isystem", flag[len("-isystem"):]] if flag.startswith("-isystem") else [flag]
    return ([nvcc, "--compiler-options", "-fPIC", "-std=c++17", "--expt-relaxed-constexpr",
             "--extended-lambda", "-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__"]
            + nvcc_common + gencode + list(extra_cuda_cflags))


def _cuda_sim_command(common: List[str], extra_cflags: List[str], sim_root: str) -> List[str]:
    """The C++ compiler for a translated .cu: the simulated runtime first, as the build does
    (cmake/CudaSim.cmake)."""
    paths = _build_paths()
    sim_includes = [f"-I{sim_root}"] + [f"-I{p}" for p in paths["cuda_sim_include_dirs"]]
    return (_cxx_command(sim_includes + common, extra_cflags)
            + ["-include", paths["cuda_sim_header"], "-DTORCH_CUDA_SIMULATED=1", "-Wno-unknown-pragmas"])


def _link_flags(name: str, with_cuda: bool, is_standalone: bool, extra_ldflags) -> List[str]:
    libs = ["-lc10", "-ltorch_cpu"]
    if with_cuda:
        libs += ["-lc10_cuda", "-ltorch_cuda", "-lcudart"]
    # Anything loaded into Python may use the casters (THPVariable_Wrap), module or not; only
    # a standalone executable goes without.
    if not is_standalone:
        libs.append("-ltorch_python")
    dirs = [f"-L{d}" for d in library_paths("cuda" if with_cuda else "cpu")]
    return ["-shared"] + dirs + libs + list(extra_ldflags or [])
# [end marker: command_lines]


# [marker: ninja_file]
def _ninja_escape(s: str) -> str:
    return s.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def _write_ninja_file(path: str, *, cflags: List[str], cuda_cflags: Optional[List[str]],
                      cuda_sim_cflags: Optional[List[str]], sources: List[str], objects: List[str],
                      ldflags: Optional[List[str]], library_target: Optional[str]) -> None:
    """A build.ninja that compiles each source to its object and (with library_target) links
    them; written only when its text changes, so an unchanged build stays up to date."""
    def command(flags):
        return " ".join(shlex.quote(f) if f not in ("$in", "$out", "$out.d") else f for f in flags)

    lines = ["ninja_required_version = 1.3", f"cxx = {_cxx()}", ""]
    lines += ["rule compile", f"  command = {command(cflags + ['-c', '$in', '-o', '$out'])}",
              "  depfile = $out.d", "  deps = gcc", ""]
    if cuda_cflags:
        lines += ["rule cuda_compile", f"  command = {command(cuda_cflags + ['-c', '$in', '-o', '$out'])}", ""]
    if cuda_sim_cflags:
        translate = [sys.executable, "-m", "tools.cuda_sim.translate", "$in", "$out"]
        root = _build_paths()["source_root"]
        lines += ["rule cuda_sim_translate",
                  f"  command = cd {shlex.quote(root)} && {command(translate)}",
                  "  description = translating $in for the simulated CUDA device", ""]
        lines += ["rule cuda_sim_compile", f"  command = {command(cuda_sim_cflags + ['-c', '$in', '-o', '$out'])}",
                  "  depfile = $out.d", "  deps = gcc", ""]
    if library_target:
        lines += ["rule link", f"  command = $cxx $in {command(ldflags or [])} -o $out", ""]
    for source, obj in zip(sources, objects):
        if source.endswith(".cu") and cuda_sim_cflags:
            translated = obj[: -len(".o")] + ".cu.cpp"
            lines.append(f"build {_ninja_escape(translated)}: cuda_sim_translate {_ninja_escape(source)}")
            lines.append(f"build {_ninja_escape(obj)}: cuda_sim_compile {_ninja_escape(translated)}")
        elif source.endswith(".cu"):
            lines.append(f"build {_ninja_escape(obj)}: cuda_compile {_ninja_escape(source)}")
        else:
            lines.append(f"build {_ninja_escape(obj)}: compile {_ninja_escape(source)}")
    if library_target:
        lines += ["", f"build {_ninja_escape(library_target)}: link {' '.join(_ninja_escape(o) for o in objects)}",
                  "", f"default {_ninja_escape(library_target)}"]
    _maybe_write(path, "\n".join(lines) + "\n")


def _run_ninja_build(build_directory: str, verbose: bool, error_prefix: str) -> None:
    """ninja -v in build_directory; its output (the compiler's errors) in the exception."""
    command = [_ninja(), "-v"]
    jobs = os.environ.get("MAX_JOBS")
    if jobs:
        command += ["-j", jobs]
    stdout = None if verbose else subprocess.PIPE
    try:
        subprocess.run(command, stdout=stdout, stderr=subprocess.STDOUT, cwd=build_directory, check=True,
                       env=os.environ.copy())
    except subprocess.CalledProcessError as e:
        message = error_prefix
        if e.output:
            message += f": {e.output.decode(errors='replace')}"
        raise RuntimeError(message) from e
# [end marker: ninja_file]


def _object_name(source: str) -> str:
    base = os.path.basename(source)
    if base.endswith(".cu"):
        return base[: -len(".cu")] + ".cuda.o"
    return os.path.splitext(base)[0] + ".o"


# ---- ahead of time: setup.py -----------------------------------------------------------------

def CppExtension(name: str, sources: List[str], *args, **kwargs):
    """A setuptools.Extension for C++ with torch's headers and libraries (PyTorch's spelling)."""
    import setuptools

    kwargs["include_dirs"] = list(kwargs.get("include_dirs", [])) + include_paths()
    kwargs["library_dirs"] = list(kwargs.get("library_dirs", [])) + library_paths()
    kwargs["libraries"] = list(kwargs.get("libraries", [])) + ["c10", "torch_cpu", "torch_python"]
    kwargs["language"] = "c++"
    return setuptools.Extension(name, sources, *args, **kwargs)


def CUDAExtension(name: str, sources: List[str], *args, **kwargs):
    """A setuptools.Extension whose .cu sources nvcc compiles (or, under TORCH_CUDA_SIMULATE,
    the C++ compiler after translation), linked with torch's CUDA libraries."""
    import setuptools

    kwargs["include_dirs"] = list(kwargs.get("include_dirs", [])) + include_paths("cuda")
    kwargs["library_dirs"] = list(kwargs.get("library_dirs", [])) + library_paths("cuda")
    kwargs["libraries"] = list(kwargs.get("libraries", [])) + [
        "c10", "torch_cpu", "torch_python", "c10_cuda", "torch_cuda", "cudart"]
    kwargs["language"] = "c++"
    return setuptools.Extension(name, sources, *args, **kwargs)


def _setuptools_build_ext():
    from setuptools.command.build_ext import build_ext

    return build_ext


def _make_build_extension():
    build_ext = _setuptools_build_ext()

    class BuildExtension(build_ext):
        """setup.py's build_ext for torch extensions (PyTorch's BuildExtension).

        What it adds to setuptools: -std=c++17, the ABI flag and TORCH_EXTENSION_NAME on every
        source; ``extra_compile_args`` as a dict ({'cxx': [...], 'nvcc': [...]}); .cu sources
        compiled by nvcc (or translated for the simulated device); and, with ``use_ninja``
        (the default when Ninja is there), the compiling done by one build.ninja, in parallel,
        with the same command lines as load()."""

        @classmethod
        def with_options(cls, **options):
            class cls_with_options(cls):  # noqa: N801 - PyTorch's name
                def __init__(self, *args, **kwargs):
                    kwargs.update(options)
                    super().__init__(*args, **kwargs)

            return cls_with_options

        def __init__(self, *args, **kwargs):
            self.no_python_abi_suffix = kwargs.pop("no_python_abi_suffix", False)
            self.use_ninja = kwargs.pop("use_ninja", True)
            if self.use_ninja and not is_ninja_available():
                warnings.warn("Attempted to use ninja as the BuildExtension backend but we could not find "
                              "ninja.. Falling back to using the slow distutils backend.")
                self.use_ninja = False
            super().__init__(*args, **kwargs)

        def finalize_options(self):
            super().finalize_options()
            if self.use_ninja:
                self.force = True  # Ninja decides what is out of date

        def get_ext_filename(self, ext_name):
            filename = super().get_ext_filename(ext_name)
            if self.no_python_abi_suffix:
                suffix = sysconfig.get_config_var("EXT_SUFFIX")
                filename = filename[: -len(suffix)] + LIB_EXT
            return filename

        def build_extensions(self):
            get_compiler_abi_compatibility_and_version()
            for ext in self.extensions:
                self._build_one(ext)

        def build_extension(self, ext):
            self._build_one(ext)

        def _build_one(self, ext):
            name = ext.name.split(".")[-1]
            with_cuda = any(s.endswith(".cu") for s in ext.sources) or "cudart" in (ext.libraries or [])
            extra = ext.extra_compile_args
            cxx_extra = extra.get("cxx", []) if isinstance(extra, dict) else list(extra or [])
            nvcc_extra = extra.get("nvcc", []) if isinstance(extra, dict) else []
            defines = [f"-D{k}" + (f"={v}" if v is not None else "") for k, v in (ext.define_macros or [])]
            common = ([f"-DTORCH_EXTENSION_NAME={name}", "-DTORCH_API_INCLUDE_EXTENSION_H", ABI_FLAG,
                       f"-isystem{sysconfig.get_paths()['include']}"]
                      + defines + [f"-I{os.path.abspath(p)}" for p in ext.include_dirs])
            build_temp = os.path.abspath(os.path.join(self.build_temp, name))
            os.makedirs(build_temp, exist_ok=True)
            sources = [os.path.abspath(s) for s in ext.sources]
            objects = [os.path.join(build_temp, _object_name(s)) for s in sources]
            simulated = with_cuda and _cuda_simulated()
            _write_ninja_file(
                os.path.join(build_temp, "build.ninja"),
                cflags=_cxx_command(common, cxx_extra),
                cuda_cflags=_nvcc_command(common, nvcc_extra) if with_cuda and not simulated else None,
                cuda_sim_cflags=_cuda_sim_command(common, cxx_extra, build_temp) if simulated else None,
                sources=sources, objects=objects, ldflags=None, library_target=None)
            if self.use_ninja:
                _run_ninja_build(build_temp, verbose=True, error_prefix="Error compiling objects for extension")
            else:
                self._compile_without_ninja(build_temp)
            target = self.get_ext_fullpath(ext.name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            ldflags = ([f"-L{d}" for d in ext.library_dirs] + [f"-l{lib}" for lib in ext.libraries]
                       + list(ext.extra_link_args or []))
            command = [_cxx()] + objects + ["-shared"] + ldflags + ["-o", target]
            print(" ".join(shlex.quote(c) for c in command), flush=True)
            subprocess.check_call(command)

        def _compile_without_ninja(self, build_temp):
            """The build.ninja's commands, one after another (no Ninja to run them)."""
            rules, builds = {}, []
            with open(os.path.join(build_temp, "build.ninja")) as f:
                rule = None
                for line in f:
                    if line.startswith("rule "):
                        rule = line.split()[1]
                    elif line.startswith("  command = ") and rule:
                        rules[rule] = line[len("  command = "):].rstrip("\n")
                    elif line.startswith("build "):
                        out, rest = line[len("build "):].split(": ", 1)
                        rule_name, source = rest.split()
                        builds.append((rules[rule_name], source.replace("$:", ":"), out.replace("$:", ":")))
            for command, source, out in builds:
                command = command.replace("$out.d", out + ".d").replace("$in", shlex.quote(source))
                command = command.replace("$out", shlex.quote(out))
                print(command, flush=True)
                subprocess.check_call(command, shell=True)

    return BuildExtension


def __getattr__(name):
    # BuildExtension subclasses setuptools' build_ext: it is made on first use, so that
    # `import torch.utils.cpp_extension` does not import setuptools.
    if name == "BuildExtension":
        cls = _make_build_extension()
        globals()["BuildExtension"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- just in time: load() and load_inline() -------------------------------------------------

def _get_build_directory(name: str, verbose: bool) -> str:
    """TORCH_EXTENSIONS_DIR/<name>, or ~/.cache/torch_extensions/py311_cpu/<name>."""
    root = os.environ.get("TORCH_EXTENSIONS_DIR")
    if root is None:
        cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
        variant = "cudasim" if _cuda_simulated() else ("cu" if torch.cuda.is_available() else "cpu")
        root = os.path.join(cache, "torch_extensions", f"py{sys.version_info.major}{sys.version_info.minor}_{variant}")
    if verbose:
        print(f"Using {root} as PyTorch extensions root...", file=sys.stderr)
    build_directory = os.path.join(root, name)
    os.makedirs(build_directory, exist_ok=True)
    return build_directory


# [marker: versioning]
class ExtensionVersioner:
    """A version per extension name, bumped when the hash of its sources and build arguments
    changes: the module of version N is named <name>_vN (the first just <name>)."""

    def __init__(self):
        self.entries: Dict[str, tuple] = {}

    def get_version(self, name: str) -> Optional[int]:
        entry = self.entries.get(name)
        return None if entry is None else entry[0]

    def bump_version_if_changed(self, name: str, source_files, build_arguments, build_directory: str,
                                with_cuda: bool, is_python_module: bool, is_standalone: bool) -> int:
        digest = hashlib.sha256()
        for path in source_files:
            with open(path, "rb") as f:
                digest.update(f.read())
        for arg in build_arguments:
            digest.update(repr(arg).encode())
        digest.update(repr((build_directory, with_cuda, is_python_module, is_standalone)).encode())
        value = digest.hexdigest()
        entry = self.entries.get(name)
        if entry is None:
            self.entries[name] = (0, value)
        elif entry[1] != value:
            self.entries[name] = (entry[0] + 1, value)
        return self.entries[name][0]


JIT_EXTENSION_VERSIONER = ExtensionVersioner()
# [end marker: versioning]


class _FileBaton:
    """One process builds an extension's directory at a time (PyTorch's FileBaton)."""

    def __init__(self, path: str):
        self.path = path
        self.fd = None

    def __enter__(self):
        self.fd = open(self.path, "w")
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        self.fd.close()


def load(name: str, sources: Union[str, List[str]], extra_cflags=None, extra_cuda_cflags=None,
         extra_ldflags=None, extra_include_paths=None, build_directory=None, verbose=False,
         with_cuda: Optional[bool] = None, is_python_module=True, is_standalone=False,
         keep_intermediates=True):
    """Build a C++/CUDA extension just in time and load it.

    Returns the imported module (is_python_module=True), or the path of the library after
    loading it into the process (is_python_module=False: a library of TORCH_LIBRARY blocks,
    whose operators then appear under torch.ops)."""
    if isinstance(sources, str):
        sources = [sources]
    sources = [os.path.abspath(s) for s in sources]
    if is_standalone:
        raise NotImplementedError("load(..., is_standalone=True) (an executable) is not supported by this build")
    return _jit_compile(name, sources, list(extra_cflags or []), list(extra_cuda_cflags or []),
                        list(extra_ldflags or []), list(extra_include_paths or []), build_directory or
                        _get_build_directory(name, verbose), verbose, with_cuda, is_python_module, is_standalone)


def _jit_compile(name, sources, extra_cflags, extra_cuda_cflags, extra_ldflags, extra_include_paths,
                 build_directory, verbose, with_cuda, is_python_module, is_standalone):
    if with_cuda is None:
        with_cuda = any(s.endswith((".cu", ".cuh")) for s in sources)
    version = JIT_EXTENSION_VERSIONER.bump_version_if_changed(
        name, sources, [extra_cflags, extra_cuda_cflags, extra_ldflags, extra_include_paths],
        build_directory, with_cuda, is_python_module, is_standalone)
    if version > 0:
        old = name if version == 1 else f"{name}_v{version - 1}"
        name = f"{name}_v{version}"
        if verbose:
            print(f"The input conditions for extension module {old} have changed. Bumping to version "
                  f"{version} and re-building as {name}...", file=sys.stderr)
    with _FileBaton(os.path.join(build_directory, "lock")):
        _write_ninja_file_and_build_library(name, sources, extra_cflags, extra_cuda_cflags, extra_ldflags,
                                            extra_include_paths, build_directory, verbose, with_cuda,
                                            is_standalone)
    if verbose:
        print(f"Loading extension module {name}...", file=sys.stderr)
    return _import_module_from_library(name, build_directory, is_python_module)


def _write_ninja_file_and_build_library(name, sources, extra_cflags, extra_cuda_cflags, extra_ldflags,
                                        extra_include_paths, build_directory, verbose, with_cuda, is_standalone):
    verify_ninja_availability()
    get_compiler_abi_compatibility_and_version()
    common = _common_cflags(name, extra_include_paths, "cuda" if with_cuda else "cpu")
    simulated = with_cuda and _cuda_simulated()
    if with_cuda and not simulated and not _build_paths()["with_cuda"]:
        raise RuntimeError("This torch was built without CUDA (USE_CUDA=0): cannot build a CUDA extension")
    objects = [os.path.join(build_directory, _object_name(s)) for s in sources]
    if verbose:
        print(f"Emitting ninja build file {build_directory}/build.ninja...", file=sys.stderr)
    _write_ninja_file(
        os.path.join(build_directory, "build.ninja"),
        cflags=_cxx_command(common, extra_cflags),
        cuda_cflags=_nvcc_command(common, extra_cuda_cflags) if with_cuda and not simulated else None,
        cuda_sim_cflags=_cuda_sim_command(common, extra_cflags, build_directory) if simulated else None,
        sources=sources, objects=objects,
        ldflags=_link_flags(name, with_cuda, is_standalone, extra_ldflags),
        library_target=f"{name}{LIB_EXT}")
    if verbose:
        print(f"Building extension module {name}...", file=sys.stderr)
    _run_ninja_build(build_directory, verbose, f"Error building extension '{name}'")


def _import_module_from_library(module_name: str, path: str, is_python_module: bool):
    filepath = os.path.join(path, f"{module_name}{LIB_EXT}")
    if not is_python_module:
        torch.ops.load_library(filepath)
        return filepath
    spec = importlib.util.spec_from_file_location(module_name, filepath)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_inline(name: str, cpp_sources, cuda_sources=None, functions=None, extra_cflags=None,
                extra_cuda_cflags=None, extra_ldflags=None, extra_include_paths=None, build_directory=None,
                verbose=False, with_cuda=None, is_python_module=True, with_pytorch_error_handling=True,
                keep_intermediates=True, use_pch=False):
    """load() with the sources given as strings: they are written to main.cpp (and cuda.cu),
    and with functions= (a name, a list of names, or {name: docstring}) the pybind11 bindings
    are written for you."""
    build_directory = build_directory or _get_build_directory(name, verbose)
    if isinstance(cpp_sources, str):
        cpp_sources = [cpp_sources]
    cuda_sources = cuda_sources or []
    if isinstance(cuda_sources, str):
        cuda_sources = [cuda_sources]
    cpp_sources.insert(0, "#include <torch/extension.h>")
    if functions is not None:
        if isinstance(functions, str):
            functions = [functions]
        if isinstance(functions, list):
            functions = {f: f"{f}" for f in functions}
        elif not isinstance(functions, dict):
            raise ValueError(f"Expected 'functions' to be a list or dict, but was {type(functions)}")
        bindings = [f'm.def("{fn}", &{fn}, "{doc}");' for fn, doc in functions.items()]
        cpp_sources.append("PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n" + textwrap.indent("\n".join(bindings), "  ")
                           + "\n}")
    cpp_source_path = os.path.join(build_directory, "main.cpp")
    _maybe_write(cpp_source_path, "\n".join(cpp_sources))
    sources = [cpp_source_path]
    if cuda_sources:
        cuda_sources.insert(0, "#include <torch/types.h>")
        cuda_sources.insert(1, "#include <cuda.h>")
        cuda_sources.insert(2, "#include <cuda_runtime.h>")
        cuda_source_path = os.path.join(build_directory, "cuda.cu")
        _maybe_write(cuda_source_path, "\n".join(cuda_sources))
        sources.append(cuda_source_path)
    return _jit_compile(name, sources, list(extra_cflags or []), list(extra_cuda_cflags or []),
                        list(extra_ldflags or []), list(extra_include_paths or []), build_directory, verbose,
                        with_cuda, is_python_module, False)


def _maybe_write(path: str, content: str) -> None:
    """Write only a changed file, so that Ninja sees an unchanged one as up to date."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == content:
                return
    with open(path, "w") as f:
        f.write(content)
