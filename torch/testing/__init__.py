"""torch.testing - assert_close and make_tensor, the comparisons and test inputs PyTorch's own
tests (and many users') are written with. Mirrors PyTorch's torch/testing/__init__.py.
Guide: docs/source/internals/python_layer.rst.
"""
from torch.testing._comparison import assert_close
from torch.testing._creation import make_tensor

__all__ = ["assert_close", "make_tensor"]
