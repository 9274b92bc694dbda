// torch/csrc/Dtype.cpp - the torch.dtype objects (torch.promote_types is generated from the YAML).
// Mirrors PyTorch's torch/csrc/Dtype.cpp and torch/csrc/utils/tensor_dtypes.cpp.
// Guide: docs/source/internals/tensors.rst.
#include <torch/csrc/Dtype.h>

#include <c10/util/Exception.h>
#include <torch/csrc/utils/python_strings.h>

#include <array>

namespace py = pybind11;

namespace torch {
namespace {

// One object per ScalarType, made once: dtypes compare by identity, like PyTorch's.
std::array<py::object, c10::kNumScalarTypes> dtype_registry;

}  // namespace

py::object getTHPDtype(c10::ScalarType scalar_type) {
  auto& obj = dtype_registry.at(static_cast<size_t>(scalar_type));
  TORCH_CHECK(obj, "no torch.dtype for ScalarType ", c10::toString(scalar_type));
  return obj;
}

c10::ScalarType toScalarType(py::handle obj, const char* fn, const char* arg, int position) {
  TORCH_CHECK_TYPE(py::isinstance<THPDtype>(obj), fn, "(): argument '", arg, "' (position ", position,
                   ") must be torch.dtype, not ", THPUtils_typename(obj));
  return obj.cast<const THPDtype&>().scalar_type;
}

void initDtypeBindings(py::module_& m) {
  py::class_<THPDtype> dtype(m, "dtype");
  dtype.doc() = "torch.dtype: the element type of a tensor (torch.float32, torch.int64, ...).";
  dtype
      // PyTorch's dtypes cannot be constructed from Python; only the built-in ones exist.
      .def(py::init([](const py::args&, const py::kwargs&) -> THPDtype* {
        throw py::type_error("cannot create 'torch.dtype' instances");
      }))
      .def_property_readonly("is_floating_point",
                             [](const THPDtype& self) { return c10::isFloatingType(self.scalar_type); })
      .def_property_readonly("is_complex",
                             [](const THPDtype& self) { return c10::isComplexType(self.scalar_type); })
      .def_property_readonly("is_signed",
                             [](const THPDtype& self) { return c10::isSignedType(self.scalar_type); })
      .def_property_readonly("itemsize",
                             [](const THPDtype& self) { return c10::elementSize(self.scalar_type); })
      .def("to_real", [](const THPDtype& self) { return getTHPDtype(c10::toRealValueType(self.scalar_type)); })
      .def("to_complex", [](const THPDtype& self) { return getTHPDtype(c10::toComplexType(self.scalar_type)); })
      .def("__repr__", [](const THPDtype& self) { return "torch." + self.name; })
      // Pickled by name: unpickling finds torch.<name>, the same object.
      .def("__reduce__", [](const THPDtype& self) { return self.name; });
  dtype.attr("__module__") = "torch";

  // Install torch.float32 and torch.float (the same object), torch.int64 and torch.long, ...
  // PyTorch does this from C++ too (torch/csrc/utils/tensor_dtypes.cpp).
  py::module_ torch_module = py::module_::import("torch");
#define DEFINE_DTYPE(_, scalar)                                                       \
  {                                                                                  \
    const auto scalar_type = c10::ScalarType::scalar;                                \
    auto [primary, legacy] = c10::getDtypeNames(scalar_type);                        \
    py::object obj = py::cast(THPDtype{scalar_type, primary});                       \
    dtype_registry[static_cast<size_t>(scalar_type)] = obj;                          \
    torch_module.attr(primary.c_str()) = obj;                                        \
    if (!legacy.empty()) torch_module.attr(legacy.c_str()) = obj;                    \
  }
  AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(DEFINE_DTYPE)
#undef DEFINE_DTYPE

  // Releasing the objects before the interpreter finalises keeps shutdown clean.
  py::module_::import("atexit").attr("register")(py::cpp_function([] {
    for (auto& obj : dtype_registry) obj = py::object();
  }));
}

}  // namespace torch
