"""torch.testing._internal - helpers for the tree's own tests, as in PyTorch's torch/testing/_internal."""
