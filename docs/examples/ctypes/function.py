"""function.py - seed 000: call myFunction (function.c, built into libfun.so) through ctypes.

Guide: docs/source/internals/python_meets_c.rst. Run: python function.py path/to/libfun.so
"""
import ctypes
import sys

NUM = 16
# [marker: ctypes_call]
fun = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "./libfun.so")
fun.myFunction.argtypes = [ctypes.c_int]
fun.myFunction.restype = ctypes.c_int
returnValue = fun.myFunction(NUM)
# [end marker: ctypes_call]
print(f"myFunction({NUM}) = {returnValue}")
