# test/th/test_examples.py - seed 000's worked examples (docs/examples/), built by CMake
# into build/docs/examples: the macro-generic Vector, ctypes, extern "C", hello_ext.
# Guides: docs/source/internals/macro_generic.rst, python_meets_c.rst.
import ctypes
import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "docs", "examples")
BUILT = os.path.join(ROOT, "build", "docs", "examples")


def built(*parts):
    path = os.path.join(BUILT, *parts)
    if not os.path.exists(path):
        pytest.fail(f"{path} is not built: run make build")
    return path


def test_macro_generic_vector_makes_one_function_per_type():
    out = subprocess.run([built("macro_generic", "macro_generic_add")], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "FloatVector_add:  2 2.25 0" in out.stdout
    assert "DoubleVector_add: 0.30000000000000004 2e+300" in out.stdout


def test_macro_generic_symbols_are_float_and_double_vector_add():
    nm = subprocess.run(["nm", built("macro_generic", "macro_generic_add")], capture_output=True, text=True)
    symbols = {line.split()[-1] for line in nm.stdout.splitlines() if " T " in line}
    assert {"FloatVector_add", "DoubleVector_add"} <= symbols
    assert "Vector_add" not in symbols


def test_ctypes_calls_my_function():
    fun = ctypes.CDLL(built("lib", "libfun.so"))
    fun.myFunction.argtypes = [ctypes.c_int]
    assert [fun.myFunction(n) for n in (0, 1, 2, 3, 16, 24, 1024)] == [0, 1, 1, 0, 1, 0, 1]
    with pytest.raises(ctypes.ArgumentError):
        fun.myFunction("16")  # argtypes makes ctypes check the argument


def test_function_py_runs_as_in_the_seed():
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, "ctypes", "function.py"), built("lib", "libfun.so")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "myFunction(16) = 1\n"


def test_extern_c_wrapper_drives_a_cpp_class():
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, "extern_c", "foo.py"), built("lib", "libfoo.so")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "Hello\n"
    lib = ctypes.CDLL(built("lib", "libfoo.so"))
    assert hasattr(lib, "Foo_new") and hasattr(lib, "Foo_bar")
    with pytest.raises(AttributeError):
        lib.bar  # the C++ member function has no C name


def greet_from(folder):
    code = f"import sys; sys.path.insert(0, {folder!r}); import hello_ext; print(hello_ext.greet())"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_greet_with_pybind11():
    out = greet_from(built("greet", "pybind11"))
    assert out.returncode == 0, out.stderr
    assert out.stdout == "hello, world\n"


def test_greet_with_boost_python():
    folder = os.path.join(BUILT, "greet", "boost")
    if not glob.glob(os.path.join(folder, "hello_ext*.so")):
        pytest.skip("Boost.Python is not installed (apt-get install libboost-python-dev), so the example is not built")
    out = greet_from(folder)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "hello, world\n"
