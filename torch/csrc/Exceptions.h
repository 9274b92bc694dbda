// torch/csrc/Exceptions.h - how C++ errors become Python exceptions.
// Mirrors PyTorch's torch/csrc/Exceptions.h. Guide: docs/source/internals/source_tree.rst.
#pragma once

#include <c10/util/Exception.h>

#include <pybind11/pybind11.h>

#include <vector>

namespace torch {

// Register the translation c10::Error (and subclasses) -> Python exceptions, and create
// torch._C.OutOfMemoryError (a RuntimeError subclass, exported as torch.OutOfMemoryError).
void initExceptions(pybind11::module_& m);

// [marker: PyWarningHandler]
// While a binding runs C++ (often without the GIL), TORCH_WARN must not touch Python. This
// handler collects the warnings; its destructor, back in the binding with the GIL held,
// issues them as Python UserWarnings. A warning turned into an error by a warnings filter
// becomes the Python exception of the call, as in PyTorch.
class PyWarningHandler {
 public:
  PyWarningHandler();
  ~PyWarningHandler() noexcept(false);
  // A C++ exception is already on its way out: warnings are still issued, their errors dropped.
  void set_in_exception() { in_exception_ = true; }

 private:
  struct InternalHandler : c10::WarningHandler {
    void process(const c10::Warning& warning) override { buffer.push_back(warning); }
    std::vector<c10::Warning> buffer;
  };
  InternalHandler internal_handler_;
  c10::WarningHandler* prev_handler_;
  bool in_exception_ = false;
};
// [end marker: PyWarningHandler]

}  // namespace torch

// Bindings written with the CPython API (torch/csrc/autograd/python_variable.cpp, the
// generated python_torch_functions.cpp) have no pybind11 wrapper around them to catch C++
// exceptions, so each one wraps its body in these, as PyTorch's do: any exception becomes
// the Python exception that pybind11's translators (initExceptions above) pick for it, and
// TORCH_WARNs raised during the call become Python warnings (PyWarningHandler).
#define HANDLE_TH_ERRORS                                \
  try {                                                 \
    torch::PyWarningHandler __enforce_warning_buffer;   \
    try {
#define END_HANDLE_TH_ERRORS_RET(retval)                \
    }                                                   \
    catch (...) {                                       \
      __enforce_warning_buffer.set_in_exception();      \
      throw;                                            \
    }                                                   \
  }                                                     \
  catch (...) {                                         \
    pybind11::detail::try_translate_exceptions();       \
    return retval;                                      \
  }
#define END_HANDLE_TH_ERRORS END_HANDLE_TH_ERRORS_RET(nullptr)
