// torch/csrc/Exceptions.cpp - translate c10::Error and its subclasses for Python.
// Mirrors PyTorch's torch/csrc/Exceptions.cpp. Guide: docs/source/internals/source_tree.rst.
//
// A TORCH_CHECK deep in c10 throws a C++ exception; pybind11 catches it at the binding
// boundary and calls the translator below, which picks the Python exception by the C++
// type. Python sees the message only; TORCH_SHOW_CPP_STACKTRACES=1 adds the C++ stack.
#include <torch/csrc/Exceptions.h>

#include <c10/util/Exception.h>

#include <cstdlib>

namespace py = pybind11;

namespace torch {
namespace {

bool show_cpp_stacktraces() {
  static const bool value = [] {
    const char* env = std::getenv("TORCH_SHOW_CPP_STACKTRACES");
    return env != nullptr && std::string(env) == "1";
  }();
  return value;
}

const char* message_of(const c10::Error& e) {
  return show_cpp_stacktraces() ? e.what() : e.what_without_backtrace();
}

PyObject* THPException_OutOfMemoryError = nullptr;

}  // namespace

PyWarningHandler::PyWarningHandler() : prev_handler_(c10::WarningUtils::get_warning_handler()) {
  c10::WarningUtils::set_warning_handler(&internal_handler_);
}

PyWarningHandler::~PyWarningHandler() noexcept(false) {
  c10::WarningUtils::set_warning_handler(prev_handler_);
  if (internal_handler_.buffer.empty()) {
    return;
  }
  for (const auto& warning : internal_handler_.buffer) {
    std::string msg = warning.msg();
    if (!warning.verbatim()) {
      msg += " (Triggered internally at " + std::string(warning.source_location().file) + ":" +
             std::to_string(warning.source_location().line) + ".)";
    }
    if (PyErr_WarnEx(PyExc_UserWarning, msg.c_str(), 1) < 0) {
      if (in_exception_) {
        PyErr_Clear();  // the C++ exception already in flight wins
      } else {
        throw py::error_already_set();  // e.g. warnings.simplefilter("error")
      }
    }
  }
}

void initExceptions(py::module_& m) {
  THPException_OutOfMemoryError =
      PyErr_NewExceptionWithDoc("torch.OutOfMemoryError",
                                "Exception raised when device is out of memory",
                                PyExc_RuntimeError, nullptr);
  m.add_object("OutOfMemoryError", py::handle(THPException_OutOfMemoryError));

  // [marker: translator]
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) {
        std::rethrow_exception(p);
      }
    } catch (const c10::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, message_of(e));
    } catch (const c10::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, message_of(e));
    } catch (const c10::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, message_of(e));
    } catch (const c10::NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, message_of(e));
    } catch (const c10::OutOfMemoryError& e) {
      PyErr_SetString(THPException_OutOfMemoryError, message_of(e));
    } catch (const c10::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, message_of(e));
    }
  });
  // [end marker: translator]
}

}  // namespace torch
