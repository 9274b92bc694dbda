"""The operator code generator: native_functions.yaml -> C++ API, registrations, Python bindings.

Mirrors PyTorch's torchgen package (tools/codegen before PyTorch 1.12).
Guide: docs/source/internals/generated_code.rst.
"""
