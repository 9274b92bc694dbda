"""docs/examples/lltm/cpp/setup.py - build the C++ LLTM ahead of time (the tutorial's setup.py).

    python setup.py build_ext --inplace        # lltm_cpp*.so next to this file

Guide: docs/source/internals/cpp_extensions.rst.
"""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

setup(
    name="lltm_cpp",
    ext_modules=[CppExtension("lltm_cpp", ["lltm.cpp"])],
    cmdclass={"build_ext": BuildExtension},
)
