"""Tests for torch.optim.lr_scheduler: lr sequences against PyTorch's, state_dict, resuming, errors, warnings.

Guide: docs/source/internals/python_layer.rst
"""

import math
import re
import warnings

import pytest
import torch
from torch.optim import lr_scheduler as L

import lr_scheduler_sequences as seqs
from reference_lr_sequences import REFERENCE


def sgd(lr=0.1, groups=1):
    params = [torch.zeros(2, requires_grad=True) for _ in range(groups)]
    return torch.optim.SGD([{"params": [p]} for p in params], lr=lr)


# ---- sequences ------------------------------------------------------------------------

@pytest.mark.parametrize("case", seqs.CASES, ids=[c[0] for c in seqs.CASES])
def test_lr_sequence_matches_pytorch_exactly(case):
    # Python float arithmetic on both sides: the sequences agree to the last bit.
    assert seqs.run(torch, case) == REFERENCE[case[0]]


def test_cosine_annealing_recursion_stays_on_the_closed_form():
    base, eta_min, t_max = 0.1, 0.001, 7
    opt = sgd(base)
    sched = L.CosineAnnealingLR(opt, T_max=t_max, eta_min=eta_min)
    for t in range(1, 3 * t_max):
        opt.step()
        sched.step()
        closed = eta_min + (base - eta_min) * (1 + math.cos(math.pi * t / t_max)) / 2
        assert sched.get_last_lr()[0] == pytest.approx(closed, rel=1e-12, abs=1e-15)


def test_step_with_epoch_uses_closed_form_and_warns():
    opt = sgd(0.1)
    sched = L.StepLR(opt, step_size=2)
    opt.step()
    with pytest.warns(UserWarning, match=re.escape("The epoch parameter in `scheduler.step()` was not necessary")):
        sched.step(5)
    assert sched.last_epoch == 5
    assert sched.get_last_lr() == [0.0010000000000000002]  # 0.1 * 0.1 ** (5 // 2), as PyTorch gives


def test_multistep_closed_form_counts_repeated_milestones():
    opt = sgd(1.0)
    sched = L.MultiStepLR(opt, milestones=[2, 4, 4], gamma=0.5)
    opt.step()
    with pytest.warns(UserWarning):
        sched.step(4)
    assert sched.get_last_lr() == [0.125]


# ---- the optimizer side ---------------------------------------------------------------

def test_scheduler_records_initial_lr_in_param_groups_and_writes_lr():
    opt = sgd(0.1, groups=2)
    opt.param_groups[1]["lr"] = 0.5
    sched = L.ExponentialLR(opt, gamma=0.5)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert sched.base_lrs == [0.1, 0.5]
    opt.step()
    sched.step()
    assert [g["lr"] for g in opt.param_groups] == [0.05, 0.25]
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.5]


def test_get_last_lr_is_a_copy_of_the_groups_lr():
    opt = sgd(0.1)
    sched = L.StepLR(opt, step_size=1)
    last = sched.get_last_lr()
    last[0] = 123.0
    assert opt.param_groups[0]["lr"] == 0.1


def test_tensor_lr_is_filled_in_place():
    p = torch.zeros(2, requires_grad=True)
    opt = torch.optim.SGD([p], lr=torch.tensor(0.1))
    lr_t = opt.param_groups[0]["lr"]
    sched = L.ExponentialLR(opt, 0.5)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] is lr_t
    assert lr_t.item() == 0.05000000074505806  # float32(0.1) * 0.5, as PyTorch gives
    assert sched.get_last_lr()[0] is not lr_t  # a clone


def test_two_chained_schedulers_compose():
    opt = sgd(1.0)
    s1 = L.ExponentialLR(opt, gamma=0.5)
    s2 = L.StepLR(opt, step_size=2, gamma=0.1)
    lrs = []
    for _ in range(4):
        opt.step()
        s1.step()
        s2.step()
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs == pytest.approx([0.5, 0.025, 0.0125, 0.000625], rel=1e-12)


# ---- state_dict and resuming ----------------------------------------------------------

def test_state_dict_holds_everything_but_the_optimizer():
    opt = sgd()
    sched = L.StepLR(opt, 3)
    assert sorted(sched.state_dict()) == ['_get_lr_called_within_step', '_is_initial', '_last_lr', '_step_count',
                                          'base_lrs', 'gamma', 'last_epoch', 'step_size']
    sched = L.ReduceLROnPlateau(sgd())
    assert sorted(sched.state_dict()) == ['_last_lr', 'best', 'cooldown', 'cooldown_counter', 'default_min_lr', 'eps',
                                          'factor', 'last_epoch', 'min_lrs', 'mode', 'mode_worse', 'num_bad_epochs',
                                          'patience', 'threshold', 'threshold_mode']


def test_state_dict_round_trip_continues_the_same_sequence():
    opt = sgd(0.1)
    sched = L.CosineAnnealingLR(opt, T_max=6, eta_min=0.01)
    for _ in range(3):
        opt.step()
        sched.step()
    saved_sched, saved_opt = sched.state_dict(), opt.state_dict()
    expected = []
    for _ in range(4):
        opt.step()
        sched.step()
        expected.append(sched.get_last_lr())

    opt2 = sgd(0.1)
    sched2 = L.CosineAnnealingLR(opt2, T_max=6, eta_min=0.01)
    opt2.load_state_dict(saved_opt)
    sched2.load_state_dict(saved_sched)
    got = []
    for _ in range(4):
        opt2.step()
        sched2.step()
        got.append(sched2.get_last_lr())
    assert got == expected


def test_lambda_lr_state_dict_saves_callable_objects_not_functions():
    class Decay:
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, epoch):
            return self.rate ** epoch

    opt = sgd(1.0, groups=2)
    sched = L.LambdaLR(opt, [lambda e: 1.0, Decay(0.5)])
    sd = sched.state_dict()
    assert sd["lr_lambdas"] == [None, {"rate": 0.5}]
    sd["lr_lambdas"][1] = {"rate": 0.25}
    sched.load_state_dict(sd)
    assert sched.lr_lambdas[1].rate == 0.25
    assert "lr_lambdas" in sd  # load_state_dict puts the key back


def test_plateau_state_dict_round_trip():
    opt = sgd(1.0)
    sched = L.ReduceLROnPlateau(opt, mode="max", patience=0, factor=0.5)
    for m in (1.0, 0.5, 0.4):
        sched.step(m)
    sched2 = L.ReduceLROnPlateau(sgd(1.0))
    sched2.load_state_dict(sched.state_dict())
    assert (sched2.mode, sched2.best, sched2.mode_worse, sched2.last_epoch) == ("max", 1.0, -math.inf, 3)


def test_resuming_with_last_epoch_uses_initial_lr():
    opt = sgd(0.01)
    opt.param_groups[0]["initial_lr"] = 0.1
    sched = L.StepLR(opt, 2, last_epoch=2)
    assert sched.last_epoch == 3
    assert sched.base_lrs == [0.1]
    assert sched.get_last_lr() == [0.01]


def test_plateau_accepts_a_zero_dim_tensor_metric():
    opt = sgd(1.0)
    sched = L.ReduceLROnPlateau(opt, patience=0)
    sched.step(torch.tensor(1.0))
    sched.step(torch.tensor(2.0))
    assert sched.best == 1.0
    assert opt.param_groups[0]["lr"] == 0.1


# ---- errors and warnings --------------------------------------------------------------

ERRORS = [
    ("not_an_optimizer", lambda: L.StepLR(object(), 3), TypeError, "object is not an Optimizer"),
    ("resume_without_initial_lr", lambda: L.StepLR(sgd(), 3, last_epoch=4), KeyError,
     "param 'initial_lr' is not specified in param_groups[0] when resuming scheduler with last_epoch >= 0."),
    ("lambda_count", lambda: L.LambdaLR(sgd(), [lambda e: 1, lambda e: 2]), ValueError,
     "Expected 1 lr_lambdas, but got 2"),
    ("plateau_factor", lambda: L.ReduceLROnPlateau(sgd(), factor=1.0), ValueError, "Factor should be < 1.0."),
    ("plateau_not_an_optimizer", lambda: L.ReduceLROnPlateau(None), TypeError, "NoneType is not an Optimizer"),
    ("plateau_mode", lambda: L.ReduceLROnPlateau(sgd(), mode="avg"), ValueError, "mode avg is unknown!"),
    ("plateau_threshold_mode", lambda: L.ReduceLROnPlateau(sgd(), threshold_mode="pct"), ValueError,
     "threshold mode pct is unknown!"),
    ("plateau_min_lr_count", lambda: L.ReduceLROnPlateau(sgd(), min_lr=[0.1, 0.2]), ValueError,
     "expected 1 min_lrs, got 2"),
]


@pytest.mark.parametrize("make,exc,message", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_error(make, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        make()


def test_plateau_raises_when_groups_were_added_and_min_lr_was_a_list():
    opt = sgd(1.0)
    sched = L.ReduceLROnPlateau(opt, min_lr=[0.0], patience=0)
    opt.add_param_group({"params": [torch.zeros(1, requires_grad=True)]})
    sched.step(1.0)
    with pytest.raises(RuntimeError, match=re.escape(
            "The number of param groups in the `optimizer` (2) differs from when `ReduceLROnPlateau` was "
            "initialized (1), usually due to a new param group being added to the optimizer.")):
        sched.step(2.0)


def test_plateau_extends_a_scalar_min_lr_to_added_groups():
    opt = sgd(1.0)
    sched = L.ReduceLROnPlateau(opt, min_lr=0.5, patience=0)
    opt.add_param_group({"params": [torch.zeros(1, requires_grad=True)], "lr": 2.0})
    sched.step(1.0)
    sched.step(2.0)
    assert [g["lr"] for g in opt.param_groups] == [0.5, 0.5]


def test_warns_when_scheduler_steps_before_optimizer():
    opt = sgd()
    sched = L.StepLR(opt, 2)
    with pytest.warns(UserWarning, match=re.escape("Detected call of `lr_scheduler.step()` before `optimizer.step()`")):
        sched.step()


def test_no_warning_in_the_right_order():
    opt = sgd()
    sched = L.StepLR(opt, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()


def test_get_lr_outside_step_warns():
    sched = L.StepLR(sgd(), 2)
    with pytest.warns(UserWarning, match=re.escape(
            "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.")):
        sched.get_lr()


def test_base_class_get_lr_is_abstract():
    with pytest.raises(NotImplementedError):
        L.LRScheduler(sgd())


def test_cosine_annealing_resumed_continues_the_recursion_from_the_current_lr():
    opt = sgd(0.05)
    opt.param_groups[0]["initial_lr"] = 0.1
    sched = L.CosineAnnealingLR(opt, T_max=10, last_epoch=3)
    assert sched.last_epoch == 4 and sched.get_last_lr() == [0.05]  # the initial step keeps the lr
    opt.step()
    sched.step()
    assert sched.get_last_lr() == [(1 + math.cos(math.pi * 5 / 10)) / (1 + math.cos(math.pi * 4 / 10)) * 0.05]
