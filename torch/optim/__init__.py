"""torch.optim - optimization algorithms that update parameters from their .grad.

Mirrors PyTorch's torch/optim/__init__.py. Guide: docs/source/internals/python_layer.rst

Each optimizer is a subclass of :class:`Optimizer` (optimizer.py) with the update written
as a loop over the parameters of a group (PyTorch's single-tensor implementation), using
ordinary in-place tensor operators. ``lr_scheduler`` changes ``param_groups[i]["lr"]``
between steps.
"""

from torch.optim import lr_scheduler as lr_scheduler
from torch.optim.adagrad import Adagrad as Adagrad
from torch.optim.adam import Adam as Adam
from torch.optim.adamw import AdamW as AdamW
from torch.optim.optimizer import Optimizer as Optimizer
from torch.optim.rmsprop import RMSprop as RMSprop
from torch.optim.sgd import SGD as SGD

del adagrad  # noqa: F821
del adam  # noqa: F821
del adamw  # noqa: F821
del sgd  # noqa: F821
del optimizer  # noqa: F821
del rmsprop  # noqa: F821

__all__ = [
    "Adagrad",
    "Adam",
    "AdamW",
    "lr_scheduler",
    "Optimizer",
    "RMSprop",
    "SGD",
]
