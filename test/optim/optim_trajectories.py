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
optimizers bit-identical inputs. A case may add a fifth element, a dict of run options:
``steps`` (instead of STEPS).

LBFGS_CASES run torch.optim.LBFGS with a closure: the Rosenbrock function of the nine
elements of the same two parameters (its gradient, from backward(), again only exact
operations; the loss is a sum), a few step() calls each, recording the parameters, the
loss each step() returned and the optimizer's state.
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
    # foreach=True and fused=True against PyTorch's foreach and fused implementations
    ("sgd_momentum_foreach", "SGD", {"lr": 0.1, "momentum": 0.9, "foreach": True}, None),
    ("sgd_nesterov_fused", "SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1, "fused": True},
     None),
    ("adam_foreach_two_groups", "Adam", {"lr": 0.01, "foreach": True}, {"lr": 0.1, "betas": (0.5, 0.6)}),
    ("adam_fused_amsgrad", "Adam", {"lr": 0.02, "weight_decay": 0.1, "amsgrad": True, "fused": True}, None),
    ("adamw_fused", "AdamW", {"lr": 0.05, "maximize": True, "fused": True}, None),
    ("adagrad_fused", "Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1, "fused": True}, None),
    ("rmsprop_foreach", "RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.9, "foreach": True}, None),
    ("adamax", "Adamax", {"lr": 0.02}, None),
    ("adamax_betas_eps_weight_decay", "Adamax", {"lr": 0.05, "betas": (0.8, 0.9), "eps": 1e-3, "weight_decay": 0.1},
     None),
    ("adamax_maximize_two_groups", "Adamax", {"lr": 0.02, "maximize": True}, {"lr": 0.1, "betas": (0.5, 0.6)}),
    ("adamax_foreach", "Adamax", {"lr": 0.02, "foreach": True}, None),
    ("nadam", "NAdam", {"lr": 0.02}, None),
    ("nadam_momentum_decay_weight_decay", "NAdam",
     {"lr": 0.02, "betas": (0.8, 0.95), "momentum_decay": 0.05, "weight_decay": 0.1}, None),
    ("nadam_decoupled_maximize", "NAdam",
     {"lr": 0.05, "weight_decay": 0.2, "decoupled_weight_decay": True, "maximize": True}, None),
    ("nadam_two_groups_foreach", "NAdam", {"lr": 0.02, "foreach": True}, {"lr": 0.05, "momentum_decay": 0.1}),
    # RAdam is plain momentum until rho_t > 5 (step 6 with beta2 = 0.999): 8 steps see both
    ("radam", "RAdam", {"lr": 0.02}, None, {"steps": 8}),
    ("radam_weight_decay_eps", "RAdam", {"lr": 0.02, "betas": (0.8, 0.99), "eps": 1e-3, "weight_decay": 0.1},
     None, {"steps": 8}),
    ("radam_decoupled_maximize", "RAdam",
     {"lr": 0.05, "weight_decay": 0.2, "decoupled_weight_decay": True, "maximize": True}, None, {"steps": 8}),
    ("radam_two_groups_foreach", "RAdam", {"lr": 0.02, "foreach": True}, {"lr": 0.05, "betas": (0.5, 0.9)},
     {"steps": 8}),
    ("adadelta", "Adadelta", {}, None),
    ("adadelta_rho_eps_weight_decay", "Adadelta", {"lr": 0.5, "rho": 0.5, "eps": 1e-3, "weight_decay": 0.1}, None),
    ("adadelta_maximize_two_groups", "Adadelta", {"maximize": True}, {"lr": 2.0, "rho": 0.95}),
    ("adadelta_foreach", "Adadelta", {"lr": 0.5, "foreach": True}, None),
    ("asgd", "ASGD", {"lr": 0.05}, None),
    # t0 = 1: the average starts moving after the first steps (mu = 1 / (t - t0))
    ("asgd_averaging", "ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 1, "weight_decay": 0.1}, None,
     {"steps": 6}),
    ("asgd_maximize_two_groups", "ASGD", {"lr": 0.02, "t0": 2, "maximize": True}, {"lr": 0.1, "lambd": 0.1}),
    ("asgd_foreach", "ASGD", {"lr": 0.05, "t0": 0, "foreach": True}, None),
]

# (case name, keyword arguments, number of step() calls)
LBFGS_CASES = [
    ("lbfgs_fixed_step", {"lr": 0.05, "max_iter": 5}, 3),
    ("lbfgs_default_one_step", {"max_iter": 6}, 1),
    ("lbfgs_strong_wolfe", {"line_search_fn": "strong_wolfe", "max_iter": 10}, 2),
    ("lbfgs_strong_wolfe_short_history", {"line_search_fn": "strong_wolfe", "history_size": 3, "max_iter": 8}, 2),
    ("lbfgs_strong_wolfe_max_eval", {"line_search_fn": "strong_wolfe", "max_iter": 40, "max_eval": 15}, 1),
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


def plain(torch, value):
    """value with each tensor replaced by its tolist(), through lists and dicts."""
    if isinstance(value, torch.Tensor):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(torch, v) for v in value]
    if isinstance(value, dict):
        return {k: plain(torch, v) for k, v in value.items()}
    return value


def run(torch, case, dtype_name):
    """Run one case; return {"params": [list, list], "state": {index: {key: value}}}."""
    _, cls_name, kwargs, second_group = case[:4]
    steps = case[4].get("steps", STEPS) if len(case) > 4 else STEPS
    dtype = getattr(torch, dtype_name)
    p0, p1 = initial_params(torch, dtype)
    cls = getattr(torch.optim, cls_name)
    if second_group is None:
        opt = cls([p0, p1], **kwargs)
    else:
        opt = cls([{"params": [p0]}, dict(second_group, params=[p1])], **kwargs)
    for step in range(steps):
        set_grads(torch, (p0, p1), step)
        opt.step()
    state = {index: plain(torch, s) for index, s in opt.state_dict()["state"].items()}
    return {"params": [p0.tolist(), p1.tolist()], "state": state}


def rosenbrock_closure(torch, opt, params):
    """The closure LBFGS calls: zero the grads, the Rosenbrock function of the parameters'
    elements x (sum of 100 (x[i+1] - x[i]^2)^2 + (x[i] - 1)^2), backward, return the loss."""
    def closure():
        opt.zero_grad()
        x = torch.cat([p.view(-1) for p in params])
        a, b = x[:-1], x[1:]
        t1 = b - a * a
        t2 = a - 1
        loss = (t1 * t1 * 100 + t2 * t2).sum()
        loss.backward()
        return loss
    return closure


def run_lbfgs(torch, case, dtype_name):
    """Run one LBFGS case; return {"params", "losses" (one per step()), "state"}."""
    _, kwargs, steps = case
    params = initial_params(torch, getattr(torch, dtype_name))
    opt = torch.optim.LBFGS(params, **kwargs)
    closure = rosenbrock_closure(torch, opt, params)
    losses = [opt.step(closure).item() for _ in range(steps)]
    state = {index: plain(torch, s) for index, s in opt.state_dict()["state"].items()}
    return {"params": [p.tolist() for p in params], "losses": losses, "state": state}


if __name__ == "__main__":
    import torch

    print('"""test/optim/reference_trajectories.py - what real PyTorch computes for optim_trajectories.CASES')
    print("and LBFGS_CASES.")
    print()
    print(f"Written by optim_trajectories.py (see there) under PyTorch {torch.__version__}, CPU,")
    print("single-tensor (for-loop) implementations unless a case asks for foreach or fused.")
    print("Do not edit by hand.")
    print('"""')
    print()
    print("REFERENCE = {")
    for case in CASES:
        for dtype_name in DTYPES:
            print(f"    ({case[0]!r}, {dtype_name!r}): {run(torch, case, dtype_name)!r},")
    for case in LBFGS_CASES:
        for dtype_name in DTYPES:
            print(f"    ({case[0]!r}, {dtype_name!r}): {run_lbfgs(torch, case, dtype_name)!r},")
    print("}")
