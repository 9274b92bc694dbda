"""torch.cuda.manual_seed and friends: the default generators of the CUDA devices.

Mirrors PyTorch's torch/cuda/random.py. Guide: docs/source/internals/cuda_simulated_device.rst.

Each device has one default generator (``torch.cuda.default_generators[i]``, an
at::CUDAGeneratorImpl: a Philox seed and offset). Seeding before CUDA is initialised is
queued (``torch.cuda._lazy_call``) and applied when CUDA starts, so a script may seed first.
"""

import torch

__all__ = ["get_rng_state", "get_rng_state_all", "set_rng_state", "set_rng_state_all", "manual_seed",
           "manual_seed_all", "seed", "seed_all", "initial_seed"]


def _generator(device):
    torch.cuda._lazy_init()
    if device is None or device == "cuda":
        idx = torch.cuda.current_device()
    elif isinstance(device, int):
        idx = device
    else:
        idx = torch.device(device).index
        idx = torch.cuda.current_device() if idx is None else idx
    return torch.cuda.default_generators[idx]


def get_rng_state(device="cuda"):
    """The generator state of a CUDA device as a torch.uint8 tensor (on the CPU)."""
    return _generator(device).get_state()


def get_rng_state_all():
    return [get_rng_state(i) for i in range(torch.cuda.device_count())]


def set_rng_state(new_state, device="cuda"):
    def cb():
        _generator(device).set_state(new_state.clone())

    torch.cuda._lazy_call(cb)


def set_rng_state_all(new_states):
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


def manual_seed(seed):
    """Seed the current CUDA device's generator (queued until CUDA starts)."""
    seed = int(seed)

    def cb():
        _generator(None).manual_seed(seed)

    torch.cuda._lazy_call(cb, seed=True)


def manual_seed_all(seed):
    """Seed every CUDA device's generator (queued until CUDA starts)."""
    seed = int(seed)

    def cb():
        for i in range(torch.cuda.device_count()):
            torch.cuda.default_generators[i].manual_seed(seed)

    torch.cuda._lazy_call(cb, seed_all=True)


def seed():
    """Seed the current device's generator from a non-deterministic source."""
    def cb():
        _generator(None).seed()

    torch.cuda._lazy_call(cb)


def seed_all():
    """Seed every device's generator with one non-deterministic seed."""
    def cb():
        random_seed = _generator(0).seed()
        for i in range(1, torch.cuda.device_count()):
            torch.cuda.default_generators[i].manual_seed(random_seed)

    torch.cuda._lazy_call(cb)


def initial_seed():
    """The seed of the current device's generator."""
    return _generator(None).initial_seed()
