// hello.cpp - the seed's "greet" module (docs/examples/greet/boost/hello.cpp) with pybind11,
// the library torch/csrc uses for torch._C. Guide: docs/source/internals/python_meets_c.rst.
#include <pybind11/pybind11.h>

char const* greet()
{
   return "hello, world";
}

PYBIND11_MODULE(hello_ext, m)
{
    m.def("greet", &greet);
}
