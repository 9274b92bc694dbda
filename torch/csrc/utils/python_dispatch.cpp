// torch/csrc/utils/python_dispatch.cpp - the dispatcher seen from Python: torch._C._dispatch_dump,
// _dispatch_dump_table, _dispatch_has_kernel_for_dispatch_key, _dispatch_keys.
// Mirrors PyTorch's torch/csrc/utils/python_dispatch.cpp. Guide: docs/source/internals/dispatch.rst.
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/DispatchKeySet.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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

}  // namespace

void initDispatchBindings(py::module_& m) {
  // Every registration of one operator (schema, kernels by key, where each came from).
  m.def("_dispatch_dump", [](const std::string& name) { return findOrThrow(name).dumpState(); });
  // The computed dispatch table: which kernel each runtime key runs.
  m.def("_dispatch_dump_table", [](const std::string& name) { return findOrThrow(name).dumpComputedTable(); });
  m.def("_dispatch_has_kernel_for_dispatch_key", [](const std::string& name, const std::string& key) {
    auto handle = findOrThrow(name);
    const auto table = handle.dumpComputedTable();
    return table.find(key + ": kernel") != std::string::npos ||
           table.find(key + ": default backend kernel") != std::string::npos ||
           table.find(key + ": math kernel") != std::string::npos;
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
