/* torch/csrc/stub.c - the torch._C extension module: one function, which hands over to
 * libtorch_python.so. Mirrors PyTorch's torch/csrc/stub.c. Guide: docs/source/internals/building.rst.
 *
 * Python finds torch/_C*.so and calls PyInit__C; everything else lives in libtorch_python.so
 * (torch/csrc/Module.cpp's initModule), which extensions link as well. */
#include <Python.h>

extern PyObject* initModule(void);

PyMODINIT_FUNC PyInit__C(void) {
  return initModule();
}
