"""torch.optim - optimization algorithms that update parameters from their .grad.

Mirrors PyTorch's torch/optim/__init__.py. Guide: docs/source/internals/python_layer.rst

Each optimizer is a subclass of :class:`Optimizer` (optimizer.py) with the update written
as a loop over the parameters of a group (PyTorch's single-tensor implementation), using
ordinary in-place tensor operators; ``foreach=True`` and ``fused=True`` are accepted and run
the same loop (see ``optimizer._single_tensor_only``). ``LBFGS`` (lbfgs.py) is the odd one
out: one ``step(closure)`` runs a whole inner loop over all parameters as one flat vector.
``lr_scheduler`` changes ``param_groups[i]["lr"]`` between steps.

Not here: PyTorch's ``SparseAdam`` (this project has no sparse tensors), ``Rprop``,
``Adafactor``, ``Muon`` and ``swa_utils``.
"""

from torch.optim import lr_scheduler as lr_scheduler
from torch.optim.adadelta import Adadelta as Adadelta
from torch.optim.adagrad import Adagrad as Adagrad
from torch.optim.adam import Adam as Adam
from torch.optim.adamax import Adamax as Adamax
from torch.optim.adamw import AdamW as AdamW
from torch.optim.asgd import ASGD as ASGD
from torch.optim.lbfgs import LBFGS as LBFGS
from torch.optim.nadam import NAdam as NAdam
from torch.optim.optimizer import Optimizer as Optimizer
from torch.optim.radam import RAdam as RAdam
from torch.optim.rmsprop import RMSprop as RMSprop
from torch.optim.sgd import SGD as SGD

del adadelta  # noqa: F821
del adagrad  # noqa: F821
del adam  # noqa: F821
del adamw  # noqa: F821
del sgd  # noqa: F821
del radam  # noqa: F821
del rmsprop  # noqa: F821
del optimizer  # noqa: F821
del nadam  # noqa: F821
del lbfgs  # noqa: F821
del adamax  # noqa: F821
del asgd  # noqa: F821

__all__ = [
    "Adadelta",
    "Adagrad",
    "Adam",
    "Adamax",
    "AdamW",
    "ASGD",
    "LBFGS",
    "lr_scheduler",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "SGD",
]
