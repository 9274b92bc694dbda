"""tools/autograd - generators of the autograd layer from derivatives.yaml.

Mirrors PyTorch's tools/autograd. Guide: docs/source/internals/autograd.rst.
"""
