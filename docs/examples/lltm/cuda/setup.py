"""docs/examples/lltm/cuda/setup.py - build the CUDA LLTM ahead of time (the tutorial's setup.py).

    python setup.py build_ext --inplace        # nvcc for a GPU
    TORCH_CUDA_SIMULATE=1 python setup.py build_ext --inplace   # for the simulated device

Guide: docs/source/internals/cpp_extensions.rst.
"""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="lltm_cuda",
    ext_modules=[CUDAExtension("lltm_cuda", ["lltm_cuda.cpp", "lltm_cuda_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
