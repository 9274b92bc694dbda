"""torch.random: seeding and the state of the default CPU generator.

Mirrors PyTorch's torch/random.py. Guide: docs/source/internals/one_call.rst.

``torch.default_generator`` is the C++ default generator (at::detail::getDefaultCPUGenerator(),
aten/src/ATen/CPUGeneratorImpl.cpp) seen from Python: reseeding it here changes what every
random operator called without ``generator=`` draws next.
"""

import torch

__all__ = ["manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state"]


def manual_seed(seed):
    """Seed the default CPU generator and every CUDA device's; returns the CPU one."""
    seed = int(seed)
    if torch.cuda._is_compiled():
        # Queued until CUDA starts, so seeding never initialises CUDA by itself.
        torch.cuda.manual_seed_all(seed)
    return torch.default_generator.manual_seed(seed)


def seed():
    """Seed the default generator from a non-deterministic source; returns the seed."""
    return torch.default_generator.seed()


def initial_seed():
    """The seed the default generator last started from."""
    return torch.default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a torch.uint8 tensor."""
    return torch.default_generator.get_state()


def set_rng_state(new_state):
    """Restore a state returned by get_rng_state()."""
    torch.default_generator.set_state(new_state)
