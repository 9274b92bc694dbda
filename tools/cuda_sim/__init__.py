"""tools/cuda_sim - build-time helpers that let the tree's CUDA sources run on the simulated device.

Mirrors the role of PyTorch's torch/utils/hipify (CUDA sources rewritten for another backend).
Guide: docs/source/internals/cuda_simulated_device.rst
"""
