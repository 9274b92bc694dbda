"""torch.utils - helpers used across the package (hooks, ...).

Mirrors PyTorch's torch/utils/__init__.py.
"""
