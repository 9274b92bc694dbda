"""torch.backends.opt_einsum: whether torch.einsum asks the opt_einsum package for a contraction order.

Mirrors PyTorch's torch/backends/opt_einsum/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
torch.einsum here contracts left to right; ``enabled`` and ``strategy`` follow PyTorch's
defaults (True and "auto" when opt_einsum is installed, False and None when not).
"""

import sys
from contextlib import contextmanager
from functools import lru_cache as _lru_cache

from torch.backends import PropModule, __allow_nonbracketed_mutation

try:
    import opt_einsum as _opt_einsum  # type: ignore[import]
except ImportError:
    _opt_einsum = None


@_lru_cache
def is_available():
    """Whether the opt_einsum package could be imported."""
    return _opt_einsum is not None


def get_opt_einsum():
    """The opt_einsum package if it is available, else None."""
    return _opt_einsum


def _set_enabled(_enabled):
    if not is_available() and _enabled:
        raise ValueError(
            f"opt_einsum is not available, so setting `enabled` to {_enabled} will not reap "
            "the benefits of calculating an optimal path for einsum. torch.einsum will "
            "fall back to contracting from left to right. To enable this optimal path "
            "calculation, please install opt-einsum.")
    setattr(sys.modules[__name__], "enabled", _enabled)


def _set_strategy(_strategy):
    if not is_available():
        raise ValueError(
            f"opt_einsum is not available, so setting `strategy` to {_strategy} will not be meaningful. "
            "torch.einsum will bypass path calculation and simply contract from left to right. "
            "Please install opt_einsum or unset `strategy`.")
    if not sys.modules[__name__].enabled:
        raise ValueError(
            f"opt_einsum is not enabled, so setting a `strategy` to {_strategy} will not be meaningful. "
            "torch.einsum will bypass path calculation and simply contract from left to right. "
            "Please set `enabled` to `True` as well or unset `strategy`.")
    if _strategy not in ["auto", "greedy", "optimal"]:
        raise ValueError(f"`strategy` must be one of the following: [auto, greedy, optimal] but is {_strategy}")
    setattr(sys.modules[__name__], "strategy", _strategy)


def set_flags(_enabled=None, _strategy=None):
    module = sys.modules[__name__]
    orig_flags = (module.enabled, None if not is_available() else module.strategy)
    if _enabled is not None:
        _set_enabled(_enabled)
    if _strategy is not None:
        _set_strategy(_strategy)
    return orig_flags


@contextmanager
def flags(enabled=None, strategy=None):
    with __allow_nonbracketed_mutation():
        orig_flags = set_flags(enabled, strategy)
    try:
        yield
    finally:
        with __allow_nonbracketed_mutation():
            set_flags(*orig_flags)


# As in PyTorch, enabled and strategy are plain attributes of the module (assignments are not
# checked); set_flags and flags() check them.
class OptEinsumModule(PropModule):
    pass


enabled = bool(is_available())
strategy = "auto" if is_available() else None
sys.modules[__name__] = OptEinsumModule(sys.modules[__name__], __name__)
