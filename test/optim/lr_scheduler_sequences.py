"""test/optim/lr_scheduler_sequences.py - the scheduler runs that test_lr_scheduler.py checks against PyTorch.

Guide: docs/source/internals/python_layer.rst

Each case makes an SGD over two param groups (lr 0.1 and 0.05), attaches one scheduler
and records get_last_lr() after construction and after each of EPOCHS steps
(ReduceLROnPlateau is stepped with the listed metric values). The same code runs under
this project's torch (the tests) and under real PyTorch, which wrote
reference_lr_sequences.py:

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
]


def make(torch, case):
    name, cls_name, kwargs = case
    p0 = torch.zeros(2, requires_grad=True)
    p1 = torch.zeros(3, requires_grad=True)
    opt = torch.optim.SGD([{"params": [p0]}, {"params": [p1], "lr": 0.05}], lr=0.1, momentum=0.9)
    cls = getattr(torch.optim.lr_scheduler, cls_name)
    if name == "lambda_lr":
        kwargs = {"lr_lambda": lambda epoch: 0.95 ** epoch}
    elif name == "lambda_lr_per_group":
        kwargs = {"lr_lambda": [lambda epoch: 1.0 / (epoch + 1), lambda epoch: epoch * 0.5 + 1]}
    return opt, cls(opt, **kwargs)


def run(torch, case):
    """get_last_lr() after construction and after each step: a list of EPOCHS + 1 lists."""
    opt, sched = make(torch, case)
    lrs = [list(sched.get_last_lr())]
    for epoch in range(EPOCHS):
        opt.step()
        if case[1] == "ReduceLROnPlateau":
            sched.step(PLATEAU_METRICS[epoch])
        else:
            sched.step()
        lrs.append(list(sched.get_last_lr()))
    return lrs


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
