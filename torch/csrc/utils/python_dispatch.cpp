// torch/csrc/utils/python_dispatch.cpp - the dispatcher seen from Python: torch._C._dispatch_dump,
// _dispatch_dump_table, _dispatch_has_kernel_for_dispatch_key, _dispatch_keys; the boxed call
// behind torch.ops (_get_operation_overload), and torch.library's registrations from Python
// (_dispatch_library: schemas, and kernels written in Python).
// Mirrors PyTorch's torch/csrc/utils/python_dispatch.cpp. Guide: docs/source/internals/dispatch.rst.
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/DispatchKeySet.h>
#include <torch/csrc/jit/python/pybind_utils.h>
#include <torch/library.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <list>
#include <memory>

namespace py = pybind11;

namespace torch::impl::dispatch {
namespace {

c10::OperatorHandle findOrThrow(const std::string& name) {
  // "aten::add.Tensor" or "aten::empty" (no overload)
  const auto ns_end = name.find("::");
  const auto dot = name.find('.', ns_end == std::string::npos ? 0 : ns_end);
  const std::string op = dot == std::string::npos ? name : name.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : name.substr(dot + 1);
  auto handle = c10::Dispatcher::singleton().findOp(c10::OperatorName{op, overload});
  TORCH_CHECK(handle.has_value(), "could not find operator ", name);
  return *handle;
}

// [marker: python_kernel]
// A kernel written in Python: the dispatcher calls it boxed; it takes the GIL, hands the
// arguments to the function as Python objects, and pushes what the function returns as the
// schema's returns.
c10::KernelFunction::BoxedFunctor pythonKernel(c10::OperatorName op_name, py::object func) {
  auto holder = std::make_shared<py::object>(std::move(func));
  return [op_name = std::move(op_name), holder](c10::DispatchKeySet, c10::Stack* stack) {
    py::gil_scoped_acquire gil;
    auto handle = c10::Dispatcher::singleton().findSchema(op_name);
    TORCH_CHECK(handle.has_value(), "no schema for ", c10::toString(op_name));
    const auto& schema = handle->schema();
    const size_t n = schema.arguments.size();
    py::tuple args(n);
    for (size_t i = 0; i < n; ++i) args[i] = torch::jit::toPyObject(torch::jit::peek(*stack, i, n));
    torch::jit::drop(*stack, n);
    py::object result = (*holder)(*args);
    const auto& returns = schema.returns;
    if (returns.empty()) return;
    const std::string name = c10::toString(op_name);
    if (returns.size() == 1) {
      stack->push_back(torch::jit::toIValue(result, returns[0], name));
      return;
    }
    TORCH_CHECK(py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result), name,
                "(): the Python kernel must return a tuple of ", returns.size(), " values");
    py::sequence seq = py::reinterpret_borrow<py::sequence>(result);
    TORCH_CHECK(py::len(seq) == returns.size(), name, "(): the Python kernel returned ", py::len(seq),
                " values, the schema says ", returns.size());
    for (size_t i = 0; i < returns.size(); ++i) stack->push_back(torch::jit::toIValue(seq[i], returns[i], name));
  };
}
// [end marker: python_kernel]

// Holds a guard for the length of a `with` block.
template <class Guard>
struct PythonGuard {
  std::unique_ptr<Guard> guard;
  void enter() { guard = std::make_unique<Guard>(); }
  void exit(py::args) { guard.reset(); }
};

}  // namespace

void initDispatchBindings(py::module_& m) {
  // torch.ops.myops.lltm.default: a handle on the operator, called boxed.
  py::class_<c10::OperatorHandle>(m, "_OperatorHandle")
      .def_property_readonly("name", [](const c10::OperatorHandle& op) { return op.operator_name().name; })
      .def_property_readonly("overload_name",
                             [](const c10::OperatorHandle& op) { return op.operator_name().overload_name; })
      .def_property_readonly("schema", [](const c10::OperatorHandle& op) { return op.schema().schema_str; })
      .def_property_readonly("arguments",
                             [](const c10::OperatorHandle& op) {
                               py::list out;
                               for (const auto& a : op.schema().arguments) {
                                 out.append(py::make_tuple(a.name, a.type, a.default_value, a.kwarg_only));
                               }
                               return out;
                             })
      .def_property_readonly("returns",
                             [](const c10::OperatorHandle& op) {
                               py::list out;
                               for (const auto& r : op.schema().returns) out.append(py::make_tuple(r.name, r.type));
                               return out;
                             })
      .def("__call__", [](const c10::OperatorHandle& op, py::args args, py::kwargs kwargs) {
        return torch::jit::invokeOperatorFromPython(op, args, kwargs);
      });
  m.def("_get_operation_overload", [](const std::string& name, const std::string& overload) -> py::object {
    auto op = c10::Dispatcher::singleton().findSchema(c10::OperatorName{name, overload});
    if (!op.has_value()) return py::none();
    return py::cast(*op);
  });
  m.def("_get_operation_overload_names", [](const std::string& name) {
    std::vector<std::string> overloads;
    for (const auto& op : c10::Dispatcher::singleton().getAllOpNames()) {
      if (op.name == name && c10::Dispatcher::singleton().findSchema(op).has_value()) {
        overloads.push_back(op.overload_name);
      }
    }
    return overloads;
  });

  // torch.library.Library(ns, "DEF" | "IMPL" | "FRAGMENT", dispatch_key): a torch::Library
  // driven from Python. Its registrations last until reset() (or the object goes away).
  py::class_<torch::Library>(m, "_DispatchModule")
      .def("define",
           [](torch::Library& lib, const std::string& schema) {
             lib.def(schema.c_str());
             return schema.substr(0, schema.find('('));
           })
      .def("impl", [](torch::Library& lib, const std::string& name, const std::string& key, py::object func) {
        auto handle = c10::parseOperatorName(lib.ns(), name);
        lib.impl(name.c_str(), torch::dispatch(c10::parseDispatchKey(key),
                                               torch::CppFunction::makeFromBoxedFunctor(
                                                   pythonKernel(std::move(handle), std::move(func)))));
      });
  m.def("_dispatch_library", [](const std::string& kind, const std::string& ns, const std::string& key,
                                const std::string& file, uint32_t line) {
    const auto k = kind == "DEF" ? torch::Library::DEF : kind == "IMPL" ? torch::Library::IMPL : torch::Library::FRAGMENT;
    TORCH_CHECK(kind == "DEF" || kind == "IMPL" || kind == "FRAGMENT", "Unknown library kind: ", kind);
    std::optional<c10::DispatchKey> dispatch_key;
    if (!key.empty()) dispatch_key = c10::parseDispatchKey(key);
    // The file name must outlive the library: torch::Library keeps a const char*.
    static std::list<std::string> files;
    files.push_back(file);
    return std::make_unique<torch::Library>(k, ns, dispatch_key, files.back().c_str(), line);
  });

  // `with torch._C._AutoDispatchBelowAutograd():` - the autograd kernel of a custom operator
  // written in Python calls the operator again below autograd (ATen/core/LegacyTypeDispatch.h).
  using BelowAutograd = PythonGuard<at::AutoDispatchBelowAutograd>;
  py::class_<BelowAutograd>(m, "_AutoDispatchBelowAutograd")
      .def(py::init<>())
      .def("__enter__", &BelowAutograd::enter)
      .def("__exit__", &BelowAutograd::exit);
  using BelowADInplaceOrView = PythonGuard<at::AutoDispatchBelowADInplaceOrView>;
  py::class_<BelowADInplaceOrView>(m, "_AutoDispatchBelowADInplaceOrView")
      .def(py::init<>())
      .def("__enter__", &BelowADInplaceOrView::enter)
      .def("__exit__", &BelowADInplaceOrView::exit);

  // Every registration of one operator (schema, kernels by key, where each came from).
  m.def("_dispatch_dump", [](const std::string& name) { return findOrThrow(name).dumpState(); });
  // The computed dispatch table: which kernel each runtime key runs.
  m.def("_dispatch_dump_table", [](const std::string& name) { return findOrThrow(name).dumpComputedTable(); });
  m.def("_dispatch_has_kernel_for_dispatch_key", [](const std::string& name, const std::string& key) {
    auto handle = findOrThrow(name);
    const auto table = handle.dumpComputedTable();
    return table.find(key + ": kernel") != std::string::npos ||
           table.find(key + ": default backend kernel") != std::string::npos ||
           table.find(key + ": math kernel") != std::string::npos ||
           table.find(key + ": autograd kernel") != std::string::npos;
  });
  m.def("_dispatch_get_all_op_names", [] {
    std::vector<std::string> names;
    for (const auto& op : c10::Dispatcher::singleton().getAllOpNames()) names.push_back(c10::toString(op));
    return names;
  });
  // The thread-local include/exclude sets, printed as DispatchKeySets.
  m.def("_dispatch_tls_local_include_set",
        [] { return c10::toString(c10::impl::tls_local_dispatch_key_set().included_); });
  m.def("_dispatch_tls_local_exclude_set",
        [] { return c10::toString(c10::impl::tls_local_dispatch_key_set().excluded_); });
}

}  // namespace torch::impl::dispatch
