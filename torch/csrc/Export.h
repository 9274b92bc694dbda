// torch/csrc/Export.h - TORCH_PYTHON_API: what libtorch_python.so exports to extensions.
// Mirrors PyTorch's torch/csrc/Export.h. Guide: docs/source/internals/cpp_extensions.rst.
//
// The Python bindings are compiled with hidden symbols, like every library here
// (c10/macros/Export.h). A C++ extension needs a few of them: THPVariable_Wrap and the
// tensor type behind torch/csrc/utils/pybind.h's casters, the dtype and device converters,
// and initModule, which the torch._C stub (torch/csrc/stub.c) calls. Those are marked.
#pragma once

#include <c10/macros/Export.h>

#ifdef THP_BUILD_MAIN_LIB
#define TORCH_PYTHON_API C10_EXPORT
#else
#define TORCH_PYTHON_API C10_IMPORT
#endif
