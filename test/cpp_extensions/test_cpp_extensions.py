"""test/cpp_extensions/test_cpp_extensions.py - torch.utils.cpp_extension: building C++
extensions just in time and ahead of time, the pybind11 casters, the C++ API extensions use,
caching and rebuilding, and build errors. Mirrors PyTorch's test/test_cpp_extensions_jit.py.
Guide: docs/source/internals/cpp_extensions.rst.

Every extension is built once per session (conftest.extensions_dir); the tests that only
check the build machinery use tiny sources without torch's headers, which compile in seconds.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import torch
from torch.utils import cpp_extension

# One extension exercising the C++ API surface extensions use: casters, factories with
# TensorOptions, accessors, the deprecated .data<T>() / .type(), AT_DISPATCH, TORCH_CHECK.
API_SOURCE = r"""
#include <torch/extension.h>
#include <vector>

torch::Tensor scaled_add(torch::Tensor a, torch::Tensor b, torch::Scalar alpha) {
  TORCH_CHECK(a.sizes() == b.sizes(), "scaled_add: shapes differ: ", a.sizes(), " vs ", b.sizes());
  return a + alpha * b;
}

// Sums each row with an accessor, in the tensor's own dtype.
torch::Tensor row_sums(torch::Tensor x) {
  TORCH_CHECK(x.dim() == 2, "row_sums expects a 2-D tensor");
  auto out = torch::zeros({x.size(0)}, x.options());
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "row_sums", [&] {
    auto in = x.accessor<scalar_t, 2>();
    auto o = out.accessor<scalar_t, 1>();
    for (int64_t i = 0; i < in.size(0); ++i) {
      scalar_t acc = 0;
      for (int64_t j = 0; j < in.size(1); ++j) acc += in[i][j];
      o[i] = acc;
    }
  });
  return out;
}

// The deprecated spellings old extensions use: .type() and .data<T>().
double first_element(torch::Tensor x) {
  double value = 0;
  AT_DISPATCH_FLOATING_TYPES(x.type(), "first_element", ([&] { value = static_cast<double>(x.data<scalar_t>()[0]); }));
  return value;
}

std::string type_string(torch::Tensor x) { return x.type().toString(); }

torch::Tensor make(std::vector<int64_t> sizes, c10::ScalarType dtype, bool requires_grad) {
  return torch::ones(sizes, torch::dtype(dtype).requires_grad(requires_grad));
}

// at::'s factories take TensorOptions too (without requires_grad: that is torch::'s).
torch::Tensor ones_like_options(torch::Tensor x) { return at::ones({2, 3}, x.options()); }
torch::Tensor at_factory_with_requires_grad() { return at::zeros({2}, at::requires_grad()); }

std::vector<int64_t> shape_of(torch::IntArrayRef sizes) { return sizes.vec(); }

torch::Tensor maybe_add(torch::Tensor a, std::optional<torch::Tensor> b) {
  return b.has_value() ? a + *b : a.clone();
}

torch::Tensor sum_all(std::vector<torch::Tensor> xs) {
  auto total = torch::zeros_like(xs.at(0));
  for (const auto& x : xs) total = total + x;
  return total;
}

torch::Tensor identity(torch::Tensor x) { return x; }

c10::Device device_of(torch::Tensor x) { return x.device(); }
c10::ScalarType dtype_of(torch::Tensor x) { return x.scalar_type(); }

// Autograd from C++: y = sum(x^2), dy/dx through torch::autograd::grad.
torch::Tensor grad_of_square_sum(torch::Tensor x) {
  auto leaf = x.detach().requires_grad_(true);
  auto y = (leaf * leaf).sum();
  return torch::autograd::grad({y}, {leaf})[0];
}

// Operators of the dispatcher, registered when the module loads.
torch::Tensor myadd_cpu(const torch::Tensor& a, const torch::Tensor& b) { return a + b; }

TORCH_LIBRARY(api_ops, m) {
  m.def(TORCH_SELECTIVE_SCHEMA("api_ops::myadd(Tensor a, Tensor b) -> Tensor"));
  m.def("scale(Tensor x, float s=2.0) -> Tensor");
  m.def("twice(Tensor[] xs) -> Tensor[]");
  m.def("stats(Tensor x, int dim, bool keepdim=False) -> (Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(api_ops, CPU, m) {
  m.impl(TORCH_SELECTIVE_NAME("api_ops::myadd"), TORCH_FN(myadd_cpu));
  m.impl("scale", [](const torch::Tensor& x, double s) { return x * s; });
  m.impl("twice", [](std::vector<torch::Tensor> xs) {
    for (auto& x : xs) x = x * 2;
    return xs;
  });
  m.impl("stats", [](const torch::Tensor& x, int64_t dim, bool keepdim) {
    return std::make_tuple(x.mean(dim, keepdim), x.amax(dim, keepdim));
  });
}

// A C++ caller of an operator, through the dispatcher, by its schema's name.
torch::Tensor call_myadd(torch::Tensor a, torch::Tensor b) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("api_ops::myadd", "")
                       .typed<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>();
  return op.call(a, b);
}

void call_with_wrong_signature() {
  c10::Dispatcher::singleton().findSchemaOrThrow("api_ops::myadd", "").typed<torch::Tensor(const torch::Tensor&)>();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("call_myadd", &call_myadd);
  m.def("call_with_wrong_signature", &call_with_wrong_signature);
  m.def("scaled_add", &scaled_add);
  m.def("row_sums", &row_sums);
  m.def("first_element", &first_element);
  m.def("type_string", &type_string);
  m.def("make", &make);
  m.def("shape_of", &shape_of);
  m.def("ones_like_options", &ones_like_options);
  m.def("at_factory_with_requires_grad", &at_factory_with_requires_grad);
  m.def("maybe_add", &maybe_add, py::arg("a"), py::arg("b") = py::none());
  m.def("sum_all", &sum_all);
  m.def("identity", &identity);
  m.def("device_of", &device_of);
  m.def("dtype_of", &dtype_of);
  m.def("grad_of_square_sum", &grad_of_square_sum);
}
"""


@pytest.fixture(scope="module")
def api(extensions_dir, tmp_path_factory):
    source = tmp_path_factory.mktemp("api") / "api_ext.cpp"
    source.write_text(API_SOURCE)
    return cpp_extension.load(name="api_ext", sources=[str(source)])


def test_include_and_library_paths_hold_the_headers_and_libraries():
    headers = ["torch/extension.h", "torch/torch.h", "torch/all.h", "ATen/ATen.h", "ATen/Operators.h",
               "c10/core/TensorImpl.h", "torch/library.h", "torch/csrc/autograd/generated/variable_factories.h"]
    for header in headers:
        assert any(os.path.exists(os.path.join(p, header)) for p in cpp_extension.include_paths()), header
    libs = os.listdir(cpp_extension.library_paths()[0])
    for lib in ["libc10.so", "libtorch_cpu.so", "libtorch_python.so"]:
        assert lib in libs
    assert cpp_extension.LIB_EXT == ".so"


def test_tensor_and_scalar_cross_the_boundary(api):
    a, b = torch.arange(6.0).reshape(2, 3), torch.ones(2, 3)
    out = api.scaled_add(a, b, 2.5)
    np.testing.assert_array_equal(out.numpy(), a.numpy() + 2.5)
    assert api.scaled_add(a, b, 2).dtype == torch.float32  # an int Scalar keeps the float result


def test_a_tensor_keeps_its_python_object_through_an_extension(api):
    x = torch.ones(3)
    x.tag = "mine"
    assert api.identity(x) is x  # THPVariable_Wrap finds the object in the TensorImpl's slot
    y = api.maybe_add(x, None)  # a clone: a new TensorImpl, a new object
    assert y is not x and not hasattr(y, "tag")


def test_torch_check_in_an_extension_is_a_runtime_error(api):
    with pytest.raises(RuntimeError, match=r"scaled_add: shapes differ: \[2, 3\] vs \[3\]"):
        api.scaled_add(torch.ones(2, 3), torch.ones(3), 1)


def test_accessors_and_dispatch(api):
    x = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    np.testing.assert_array_equal(api.row_sums(x).numpy(), x.numpy().sum(1))
    # A transposed (non-contiguous) input: the accessor follows its strides.
    np.testing.assert_array_equal(api.row_sums(x.t()).numpy(), x.numpy().T.sum(1))
    with pytest.raises(RuntimeError, match='"row_sums" not implemented for \'Long\''):
        api.row_sums(torch.ones(2, 2, dtype=torch.long))


def test_deprecated_data_and_type(api):
    assert api.first_element(torch.tensor([2.5, 1.0], dtype=torch.float64)) == 2.5
    assert api.type_string(torch.ones(1)) == "CPUFloatType"
    assert api.type_string(torch.ones(1, dtype=torch.float64)) == "CPUDoubleType"


def test_factories_with_tensor_options(api):
    t = api.make([2, 3], torch.float64, True)
    assert t.shape == (2, 3) and t.dtype == torch.float64 and t.requires_grad and t.is_leaf
    assert not api.make([1], torch.int32, False).requires_grad


def test_aten_factories_with_tensor_options(api):
    t = api.ones_like_options(torch.zeros(1, dtype=torch.float64))
    assert t.shape == (2, 3) and t.dtype == torch.float64 and t.sum().item() == 6
    with pytest.raises(RuntimeError, match="at::zeros: requires_grad is not supported by ATen factory functions; "
                                           "use torch::zeros"):
        api.at_factory_with_requires_grad()


def test_int_lists_optionals_lists_devices_dtypes(api):
    assert api.shape_of([2, 3, 4]) == [2, 3, 4]
    assert api.shape_of(torch.Size([5])) == [5]
    x = torch.ones(2)
    assert torch.equal(api.maybe_add(x, torch.ones(2)), torch.full((2,), 2.0))
    assert torch.equal(api.sum_all([x, x, x]), torch.full((2,), 3.0))
    assert api.device_of(x) == torch.device("cpu")
    assert api.dtype_of(x.double()) is torch.float64
    with pytest.raises(TypeError):
        api.shape_of("not a list")


def test_autograd_from_cpp(api):
    x = torch.tensor([1.0, -2.0, 3.0])
    np.testing.assert_array_equal(api.grad_of_square_sum(x).numpy(), 2 * x.numpy())


# ---- operators registered by an extension ----------------------------------------------------

def test_torch_library_operators_of_an_extension(api):
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([10.0, 20.0])
    np.testing.assert_array_equal(torch.ops.api_ops.myadd(a, b).numpy(), [11, 22])
    np.testing.assert_array_equal(torch.ops.api_ops.scale(a).numpy(), [2, 4])  # the schema's default
    np.testing.assert_array_equal(torch.ops.api_ops.scale(a, s=0.5).numpy(), [0.5, 1])
    out = torch.ops.api_ops.twice([a, b])
    assert isinstance(out, list) and [t.tolist() for t in out] == [[2, 4], [20, 40]]
    mean, amax = torch.ops.api_ops.stats(torch.tensor([[1.0, 5.0], [3.0, 3.0]]), 1)
    assert mean.tolist() == [3.0, 3.0] and amax.tolist() == [5.0, 3.0]
    np.testing.assert_array_equal(api.call_myadd(a, b).numpy(), [11, 22])
    assert "CPU: registered at api_ext.cpp" in torch._C._dispatch_dump("api_ops::myadd")


def test_typed_handle_checks_the_signature(api):
    with pytest.raises(RuntimeError, match="Tried to access or call an operator with a wrong signature"):
        api.call_with_wrong_signature()


def test_an_extension_operator_without_a_cuda_kernel(api):
    with pytest.raises(NotImplementedError, match="Could not run 'api_ops::myadd' with arguments from the 'Meta' "
                                                  "backend"):
        torch.ops.api_ops.myadd(torch.empty(1, device="meta"), torch.empty(1, device="meta"))


# ---- load_inline ---------------------------------------------------------------------------

def test_load_inline_writes_the_bindings(extensions_dir):
    module = cpp_extension.load_inline(
        name="inline_ext",
        cpp_sources="torch::Tensor sin_add(torch::Tensor x, torch::Tensor y) { return x.sin() + y.sin(); }",
        functions=["sin_add"])
    x, y = torch.randn(4), torch.randn(4)
    np.testing.assert_allclose(module.sin_add(x, y).numpy(), np.sin(x.numpy()) + np.sin(y.numpy()), rtol=1e-6)
    main = os.path.join(extensions_dir, "inline_ext", "main.cpp")
    assert 'm.def("sin_add", &sin_add, "sin_add");' in open(main).read()


def test_load_inline_rejects_functions_of_another_type(extensions_dir):
    with pytest.raises(ValueError, match="Expected 'functions' to be a list or dict"):
        cpp_extension.load_inline(name="bad_functions", cpp_sources="", functions=3)


# ---- caching, rebuilding, errors (tiny sources: no torch headers) ----------------------------

TINY = """
#include <pybind11/pybind11.h>
int answer() {{ return {value}; }}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {{ m.def("answer", &answer); }}
"""


def test_unchanged_sources_load_without_rebuilding_and_an_edit_rebuilds(tmp_path, extensions_dir):
    source = tmp_path / "tiny.cpp"
    source.write_text(TINY.format(value=1))
    first = cpp_extension.load(name="tiny_ext", sources=[str(source)])
    assert first.answer() == 1
    library = os.path.join(extensions_dir, "tiny_ext", "tiny_ext.so")
    built_at = os.path.getmtime(library)

    again = cpp_extension.load(name="tiny_ext", sources=[str(source)])
    assert again.answer() == 1
    assert os.path.getmtime(library) == built_at  # ninja found nothing to do

    source.write_text(TINY.format(value=2))
    edited = cpp_extension.load(name="tiny_ext", sources=[str(source)])
    assert edited.__name__ == "tiny_ext_v1"  # a new module name: the old one stays imported
    assert edited.answer() == 2 and first.answer() == 1
    # New flags are a change too.
    flagged = cpp_extension.load(name="tiny_ext", sources=[str(source)], extra_cflags=["-O2"])
    assert flagged.__name__ == "tiny_ext_v2" and flagged.answer() == 2


def test_a_failing_build_names_the_extension_and_shows_the_compiler_error(tmp_path, extensions_dir):
    source = tmp_path / "broken.cpp"
    source.write_text("int broken( { return 0; }\n")
    with pytest.raises(RuntimeError) as info:
        cpp_extension.load(name="broken_ext", sources=[str(source)])
    message = str(info.value)
    assert message.startswith("Error building extension 'broken_ext'")
    assert "broken.cpp" in message and "error" in message


def test_verbose_load_prints_the_steps(tmp_path, extensions_dir, capfd):
    source = tmp_path / "loud.cpp"
    source.write_text(TINY.format(value=7))
    module = cpp_extension.load(name="loud_ext", sources=[str(source)], verbose=True)
    assert module.answer() == 7
    err = capfd.readouterr().err
    assert "Emitting ninja build file" in err and "Building extension module loud_ext" in err
    assert "Loading extension module loud_ext" in err


def test_build_directory_and_extra_include_paths(tmp_path, extensions_dir):
    include = tmp_path / "inc"
    include.mkdir()
    (include / "value.h").write_text("#define TINY_VALUE 42\n")
    source = tmp_path / "with_header.cpp"
    source.write_text('#include <pybind11/pybind11.h>\n#include "value.h"\n'
                      "int answer() { return TINY_VALUE; }\n"
                      'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("answer", &answer); }\n')
    build = tmp_path / "build"
    build.mkdir()
    module = cpp_extension.load(name="with_header", sources=[str(source)], extra_include_paths=[str(include)],
                                build_directory=str(build))
    assert module.answer() == 42
    assert (build / "build.ninja").exists() and (build / "with_header.so").exists()


def test_compiler_check():
    ok, version = cpp_extension.get_compiler_abi_compatibility_and_version()
    assert ok and version >= cpp_extension.MINIMUM_GCC_VERSION


# ---- ahead of time: setup.py with BuildExtension ------------------------------------------------

def test_setup_py_builds_an_extension(tmp_path, extensions_dir):
    (tmp_path / "tiny.cpp").write_text(TINY.format(value=5))
    (tmp_path / "setup.py").write_text(textwrap.dedent("""
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CppExtension
        setup(name="tiny_aot", ext_modules=[CppExtension("tiny_aot", ["tiny.cpp"])],
              cmdclass={"build_ext": BuildExtension.with_options(no_python_abi_suffix=True)})
    """))
    result = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "tiny_aot.so").exists()  # no_python_abi_suffix: not tiny_aot.cpython-311-...so
    check = subprocess.run([sys.executable, "-c", "import torch, tiny_aot; print(tiny_aot.answer())"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert check.stdout.strip() == "5", check.stderr
    # The compile line is BuildExtension's: C++17, the ABI flag, the extension's name.
    assert "-std=c++17" in result.stdout and "-DTORCH_EXTENSION_NAME=tiny_aot" in result.stdout


# A package whose _C defines operators only: TORCH_LIBRARY blocks and an empty module, as
# PyTorch's extension template (extension-cpp) builds it; importing the package registers them.
OPS_ONLY_SOURCE = r"""
#include <Python.h>
#include <ATen/ATen.h>
#include <torch/library.h>

at::Tensor triple(const at::Tensor& x) { return x * 3; }

TORCH_LIBRARY(opsonly, m) { m.def("triple(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(opsonly, CPU, m) { m.impl("triple", TORCH_FN(triple)); }

extern "C" PyObject* PyInit__C(void) {
  static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_C", nullptr, -1, nullptr};
  return PyModule_Create(&module_def);
}
"""


def test_a_package_whose_c_module_only_registers_operators(tmp_path, extensions_dir):
    (tmp_path / "opsonly").mkdir()
    (tmp_path / "opsonly" / "__init__.py").write_text("from . import _C  # noqa: F401\n")
    (tmp_path / "ops.cpp").write_text(OPS_ONLY_SOURCE)
    (tmp_path / "setup.py").write_text(textwrap.dedent("""
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CppExtension
        setup(name="opsonly", packages=["opsonly"], ext_modules=[CppExtension("opsonly._C", ["ops.cpp"])],
              cmdclass={"build_ext": BuildExtension})
    """))
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    code = "import torch, opsonly; print(torch.ops.opsonly.triple(torch.tensor([1.0, 2.0])).tolist())"
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert run.stdout.strip() == "[3.0, 6.0]", run.stderr[-2000:]
