"""tools/gdb - gdb support: the project's gdbinit and a helper that runs gdb on Python.

Guide: docs/source/internals/debugger.rst.
"""
