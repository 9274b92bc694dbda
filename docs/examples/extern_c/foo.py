"""foo.py - seed 000: the C++ class Foo (foo.cpp), driven from Python through its extern "C" wrapper.

Guide: docs/source/internals/python_meets_c.rst. Run: python foo.py path/to/libfoo.so
"""
import ctypes
import sys
from ctypes import cdll

lib = cdll.LoadLibrary(sys.argv[1] if len(sys.argv) > 1 else "./libfoo.so")
# A Foo* is an address: declare it, or ctypes truncates it to a 32-bit int.
lib.Foo_new.restype = ctypes.c_void_p
lib.Foo_bar.argtypes = [ctypes.c_void_p]
lib.Foo_delete.argtypes = [ctypes.c_void_p]


# [marker: Foo]
class Foo(object):
    def __init__(self):
        self.obj = lib.Foo_new()

    def bar(self):
        lib.Foo_bar(self.obj)

    def __del__(self):
        lib.Foo_delete(self.obj)
# [end marker: Foo]


f = Foo()
f.bar()  # and you will see "Hello" on the screen
