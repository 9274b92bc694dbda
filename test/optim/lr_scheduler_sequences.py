"""test/optim/lr_scheduler_sequences.py - the scheduler runs that test_lr_scheduler.py checks against PyTorch.

Guide: docs/source/internals/python_layer.rst

Each case makes an SGD with momentum 0.9 (or, where its options say so, an Adam) over two
param groups (lr 0.1 and 0.05), attaches one scheduler and records get_last_lr() after
construction and after each of EPOCHS steps (ReduceLROnPlateau is stepped with the listed
metric values; a case with "step_epochs" passes those epochs to step()). For the
MOMENTUM_CASES, which cycle the momentum, it also records each group's momentum (Adam's
beta1). SequentialLR and ChainedScheduler cases build their inner schedulers in make().
The same code runs under this project's torch (the tests) and under real PyTorch, which
wrote reference_lr_sequences.py:

    cd /tmp && /path/to/pytorch/python /path/to/test/optim/lr_scheduler_sequences.py \\
        > /path/to/test/optim/reference_lr_sequences.py
"""

EPOCHS = 12

PLATEAU_METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.8, 0.8, 0.85, 0.7999, 0.81, 0.82]

# (case name, scheduler class name, keyword arguments); lr_lambda cases are built in make()
CASES = [
    ("step_lr", "StepLR", {"step_size": 3}),
    ("step_lr_gamma", "StepLR", {"step_size": 2, "gamma": 0.5}),
    ("multi_step_lr", "MultiStepLR", {"milestones": [2, 5, 5, 9], "gamma": 0.3}),
    ("exponential_lr", "ExponentialLR", {"gamma": 0.9}),
    ("cosine_annealing_lr", "CosineAnnealingLR", {"T_max": 5}),
    ("cosine_annealing_lr_eta_min", "CosineAnnealingLR", {"T_max": 4, "eta_min": 0.01}),
    ("lambda_lr", "LambdaLR", {}),
    ("lambda_lr_per_group", "LambdaLR", {}),
    ("plateau_min", "ReduceLROnPlateau", {"patience": 1}),
    ("plateau_max_abs_cooldown", "ReduceLROnPlateau",
     {"mode": "max", "factor": 0.5, "patience": 0, "threshold": 0.01, "threshold_mode": "abs", "cooldown": 2}),
    ("plateau_min_lr", "ReduceLROnPlateau", {"factor": 0.2, "patience": 0, "min_lr": [0.01, 0.004]}),
    ("plateau_eps", "ReduceLROnPlateau", {"factor": 0.5, "patience": 0, "min_lr": 0.03, "eps": 0.01}),
    ("multiplicative_lr", "MultiplicativeLR", {}),
    ("multiplicative_lr_per_group", "MultiplicativeLR", {}),
    ("constant_lr", "ConstantLR", {}),
    ("constant_lr_factor", "ConstantLR", {"factor": 0.5, "total_iters": 4}),
    ("linear_lr", "LinearLR", {}),
    ("linear_lr_decay", "LinearLR", {"start_factor": 1.0, "end_factor": 0.1, "total_iters": 8}),
    ("polynomial_lr", "PolynomialLR", {}),
    ("polynomial_lr_power", "PolynomialLR", {"total_iters": 8, "power": 2.0}),
    ("cosine_warm_restarts", "CosineAnnealingWarmRestarts", {"T_0": 3}),
    ("cosine_warm_restarts_mult_eta_min", "CosineAnnealingWarmRestarts", {"T_0": 2, "T_mult": 2, "eta_min": 0.001}),
    ("cosine_warm_restarts_fractional_epochs", "CosineAnnealingWarmRestarts", {"T_0": 2, "T_mult": 2},
     {"step_epochs": [0.25, 0.5, 1.0, 1.75, 2.0, 2.5, 3.9, 5.5, 6.0, 6.1, 13.0, 20.5]}),
    ("cosine_warm_restarts_epoch_then_none", "CosineAnnealingWarmRestarts", {"T_0": 3},
     {"step_epochs": [1, 2, 7, None, None, 0.5, None, None, 4, None, None, None]}),
    ("cyclic_lr", "CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3}),
    ("cyclic_lr_triangular2", "CyclicLR",
     {"base_lr": [0.01, 0.005], "max_lr": [0.1, 0.2], "step_size_up": 2, "step_size_down": 3, "mode": "triangular2",
      "base_momentum": [0.8, 0.85], "max_momentum": 0.95}),
    ("cyclic_lr_exp_range", "CyclicLR",
     {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 2, "mode": "exp_range", "gamma": 0.9}),
    ("cyclic_lr_scale_fn_no_momentum", "CyclicLR",
     {"base_lr": 0.02, "max_lr": 0.2, "step_size_up": 2, "scale_mode": "iterations", "cycle_momentum": False}),
    ("cyclic_lr_adam_beta1", "CyclicLR", {"base_lr": 0.001, "max_lr": 0.01, "step_size_up": 4}, {"optimizer": "Adam"}),
    ("one_cycle_lr", "OneCycleLR", {"max_lr": 0.5, "total_steps": 12}),
    ("one_cycle_lr_three_phase_linear", "OneCycleLR",
     {"max_lr": [0.5, 0.2], "epochs": 3, "steps_per_epoch": 4, "pct_start": 0.25, "three_phase": True,
      "anneal_strategy": "linear", "div_factor": 10.0, "final_div_factor": 100.0}),
    ("one_cycle_lr_adam_beta1", "OneCycleLR",
     {"max_lr": 0.01, "total_steps": 20, "base_momentum": 0.8, "max_momentum": [0.9, 0.95]}, {"optimizer": "Adam"}),
    ("one_cycle_lr_no_momentum", "OneCycleLR", {"max_lr": 1.0, "total_steps": 15, "cycle_momentum": False}),
    ("sequential_lr", "SequentialLR", {}),
    ("sequential_lr_three", "SequentialLR", {}),
    ("chained_scheduler", "ChainedScheduler", {}),
    ("chained_scheduler_three", "ChainedScheduler", {}),
]

# the cases whose scheduler cycles the momentum (or beta1): that is recorded too
MOMENTUM_CASES = [c[0] for c in CASES if c[1] in ("CyclicLR", "OneCycleLR") and c[2].get("cycle_momentum", True)]


def options(case):
    return case[3] if len(case) > 3 else {}


def make(torch, case):
    name, cls_name, kwargs = case[:3]
    p0 = torch.zeros(2, requires_grad=True)
    p1 = torch.zeros(3, requires_grad=True)
    groups = [{"params": [p0]}, {"params": [p1], "lr": 0.05}]
    if options(case).get("optimizer") == "Adam":
        opt = torch.optim.Adam(groups, lr=0.1)
    else:
        opt = torch.optim.SGD(groups, lr=0.1, momentum=0.9)
    L = torch.optim.lr_scheduler
    cls = getattr(L, cls_name)
    if name == "lambda_lr":
        kwargs = {"lr_lambda": lambda epoch: 0.95 ** epoch}
    elif name == "lambda_lr_per_group":
        kwargs = {"lr_lambda": [lambda epoch: 1.0 / (epoch + 1), lambda epoch: epoch * 0.5 + 1]}
    elif name == "multiplicative_lr":
        kwargs = {"lr_lambda": lambda epoch: 0.9}
    elif name == "multiplicative_lr_per_group":
        kwargs = {"lr_lambda": [lambda epoch: 0.5 if epoch % 3 == 0 else 1.0, lambda epoch: 1.0 + epoch / 10]}
    elif name == "cyclic_lr_scale_fn_no_momentum":
        kwargs = dict(kwargs, scale_fn=lambda x: 1.0 / (1.0 + x))
    elif name == "sequential_lr":
        kwargs = {"schedulers": [L.ConstantLR(opt, factor=0.1, total_iters=3), L.ExponentialLR(opt, gamma=0.9)],
                  "milestones": [3]}
    elif name == "sequential_lr_three":
        kwargs = {"schedulers": [L.LinearLR(opt, start_factor=0.25, total_iters=2), L.StepLR(opt, step_size=2),
                                 L.CosineAnnealingLR(opt, T_max=4, eta_min=0.001)],
                  "milestones": [2, 6]}
    elif name == "chained_scheduler":
        kwargs = {"schedulers": [L.ConstantLR(opt, factor=0.1, total_iters=4), L.ExponentialLR(opt, gamma=0.9)]}
    elif name == "chained_scheduler_three":
        kwargs = {"schedulers": [L.LinearLR(opt, start_factor=0.5, total_iters=3), L.MultiStepLR(opt, [4, 8]),
                                 L.PolynomialLR(opt, total_iters=10)],
                  "optimizer": opt}
    if cls_name == "SequentialLR":
        return opt, cls(opt, **kwargs)
    if cls_name == "ChainedScheduler":
        return opt, cls(**kwargs)
    return opt, cls(opt, **kwargs)


def momentums(opt):
    return [g["betas"][0] if "betas" in g else g["momentum"] for g in opt.param_groups]


def run(torch, case, record_momentum=False):
    """get_last_lr() after construction and after each step: a list of EPOCHS + 1 lists (with
    record_momentum: each group's momentum instead)."""
    opt, sched = make(torch, case)
    record = (lambda: momentums(opt)) if record_momentum else (lambda: list(sched.get_last_lr()))
    seq = [record()]
    step_epochs = options(case).get("step_epochs")
    for epoch in range(EPOCHS):
        opt.step()
        if case[1] == "ReduceLROnPlateau":
            sched.step(PLATEAU_METRICS[epoch])
        elif step_epochs is not None:
            sched.step(step_epochs[epoch])
        else:
            sched.step()
        seq.append(record())
    return seq


if __name__ == "__main__":
    import torch

    print('"""test/optim/reference_lr_sequences.py - what real PyTorch computes for lr_scheduler_sequences.CASES.')
    print()
    print(f"Written by lr_scheduler_sequences.py (see there) under PyTorch {torch.__version__}, CPU.")
    print("Do not edit by hand.")
    print('"""')
    print()
    print("REFERENCE = {")
    for case in CASES:
        print(f"    {case[0]!r}: {run(torch, case)!r},")
    print("}")
    print()
    print("MOMENTUM_REFERENCE = {")
    for case in CASES:
        if case[0] in MOMENTUM_CASES:
            print(f"    {case[0]!r}: {run(torch, case, record_momentum=True)!r},")
    print("}")
