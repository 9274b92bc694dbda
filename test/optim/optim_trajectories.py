"""test/optim/optim_trajectories.py - the optimizer runs that test_optimizers.py checks against PyTorch.

Guide: docs/source/internals/python_layer.rst

Each case builds two parameters (a 2x3 and a 3-vector) in float32 or float64, gives them
gradients from a fixed formula for STEPS steps (the vector gets no gradient at step 1,
so its state lags one step behind: optimizers skip a parameter whose .grad is None), and
records the final parameters and the optimizer's state.

The same code runs under this project's torch (the tests) and under real PyTorch, which
wrote reference_trajectories.py:

    cd /tmp && /path/to/pytorch/python /path/to/test/optim/optim_trajectories.py \\
        > /path/to/test/optim/reference_trajectories.py

Only exact IEEE operations (mul, add, sub) make the gradients, so both runs feed the
optimizers bit-identical inputs.
"""

STEPS = 4

# (case name, optimizer class name, keyword arguments, options of the second param group
# or None for a single group)
CASES = [
    ("sgd", "SGD", {"lr": 0.1}, None),
    ("sgd_momentum", "SGD", {"lr": 0.1, "momentum": 0.9}, None),
    ("sgd_dampening_weight_decay", "SGD", {"lr": 0.05, "momentum": 0.8, "dampening": 0.5, "weight_decay": 0.01}, None),
    ("sgd_nesterov", "SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}, None),
    ("sgd_maximize", "SGD", {"lr": 0.1, "momentum": 0.5, "maximize": True}, None),
    ("sgd_two_groups", "SGD", {"lr": 0.1, "momentum": 0.9}, {"lr": 0.01, "momentum": 0.5}),
    ("adam", "Adam", {"lr": 0.01}, None),
    ("adam_weight_decay_amsgrad", "Adam", {"lr": 0.02, "weight_decay": 0.1, "amsgrad": True}, None),
    ("adam_betas_eps_maximize", "Adam", {"lr": 0.05, "betas": (0.8, 0.9), "eps": 1e-3, "maximize": True}, None),
    ("adam_two_groups", "Adam", {"lr": 0.01}, {"lr": 0.1, "betas": (0.5, 0.6)}),
    ("adamw", "AdamW", {"lr": 0.01}, None),
    ("adamw_weight_decay_amsgrad", "AdamW", {"lr": 0.02, "weight_decay": 0.5, "amsgrad": True}, None),
    ("adamw_maximize", "AdamW", {"lr": 0.05, "betas": (0.7, 0.95), "maximize": True}, None),
    ("adagrad", "Adagrad", {"lr": 0.1}, None),
    ("adagrad_decay_accumulator", "Adagrad",
     {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1, "initial_accumulator_value": 0.5}, None),
    ("adagrad_eps_maximize", "Adagrad", {"lr": 0.2, "eps": 1e-3, "maximize": True}, None),
    ("rmsprop", "RMSprop", {"lr": 0.01}, None),
    ("rmsprop_centered_momentum", "RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.9}, None),
    ("rmsprop_alpha_weight_decay", "RMSprop", {"lr": 0.02, "alpha": 0.9, "eps": 1e-4, "weight_decay": 0.1}, None),
    ("rmsprop_maximize_momentum", "RMSprop", {"lr": 0.01, "momentum": 0.5, "maximize": True}, None),
]

DTYPES = ("float32", "float64")


def initial_params(torch, dtype):
    p0 = torch.tensor([[0.5, -1.25, 2.0], [0.3, -0.7, 1.1]], dtype=dtype, requires_grad=True)
    p1 = torch.tensor([0.1, -0.2, 0.3], dtype=dtype, requires_grad=True)
    return p0, p1


def set_grads(torch, params, step):
    """grad = p*p - 0.25*p + c*(step+1), with c fixed per element; none for p1 at step 1."""
    offsets = ([[0.125, -0.5, 0.75], [-0.25, 0.375, -0.0625]], [0.5, -0.25, 0.125])
    for i, (p, c) in enumerate(zip(params, offsets)):
        if i == 1 and step == 1:
            p.grad = None
            continue
        d = p.detach()
        p.grad = d.mul(d).sub(d.mul(0.25)).add(torch.tensor(c, dtype=d.dtype).mul(step + 1))


def run(torch, case, dtype_name):
    """Run one case; return {"params": [list, list], "state": {index: {key: value}}}."""
    _, cls_name, kwargs, second_group = case
    dtype = getattr(torch, dtype_name)
    p0, p1 = initial_params(torch, dtype)
    cls = getattr(torch.optim, cls_name)
    if second_group is None:
        opt = cls([p0, p1], **kwargs)
    else:
        opt = cls([{"params": [p0]}, dict(second_group, params=[p1])], **kwargs)
    for step in range(STEPS):
        set_grads(torch, (p0, p1), step)
        opt.step()
    state = {}
    for index, s in opt.state_dict()["state"].items():
        state[index] = {k: (v.tolist() if isinstance(v, torch.Tensor) else v) for k, v in s.items()}
    return {"params": [p0.tolist(), p1.tolist()], "state": state}


if __name__ == "__main__":
    import torch

    print('"""test/optim/reference_trajectories.py - what real PyTorch computes for optim_trajectories.CASES.')
    print()
    print(f"Written by optim_trajectories.py (see there) under PyTorch {torch.__version__}, CPU,")
    print("single-tensor (for-loop) implementations. Do not edit by hand.")
    print('"""')
    print()
    print("REFERENCE = {")
    for case in CASES:
        for dtype_name in DTYPES:
            print(f"    ({case[0]!r}, {dtype_name!r}): {run(torch, case, dtype_name)!r},")
    print("}")
