// hello.cpp - seed 000, "C++ file include module and Expose": the module hello_ext with
// Boost.Python. Built only where Debian's libboost-python-dev is installed.
// Guide: docs/source/internals/python_meets_c.rst.
#include <boost/python.hpp>

char const* greet()
{
   return "hello, world";
}

BOOST_PYTHON_MODULE(hello_ext)
{
    using namespace boost::python;
    def("greet", greet);
}
