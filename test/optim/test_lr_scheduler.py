"""Tests for torch.optim.lr_scheduler: lr sequences against PyTorch's, state_dict, resuming, errors, warnings.

Guide: docs/source/internals/python_layer.rst
"""

import copy
import math
import re
import warnings

import pytest
import torch
from torch.optim import lr_scheduler as L

import lr_scheduler_sequences as seqs
from reference_lr_sequences import MOMENTUM_REFERENCE, REFERENCE


def sgd(lr=0.1, groups=1):
    params = [torch.zeros(2, requires_grad=True) for _ in range(groups)]
    return torch.optim.SGD([{"params": [p]} for p in params], lr=lr)


# ---- sequences ------------------------------------------------------------------------

@pytest.mark.parametrize("case", seqs.CASES, ids=[c[0] for c in seqs.CASES])
def test_lr_sequence_matches_pytorch_exactly(case):
    # Python float arithmetic on both sides: the sequences agree to the last bit.
    assert seqs.run(torch, case) == REFERENCE[case[0]]


@pytest.mark.parametrize("case", [c for c in seqs.CASES if c[0] in seqs.MOMENTUM_CASES],
                         ids=seqs.MOMENTUM_CASES)
def test_cycled_momentum_matches_pytorch_exactly(case):
    # CyclicLR and OneCycleLR move SGD's momentum (Adam's beta1) against the lr
    assert seqs.run(torch, case, record_momentum=True) == MOMENTUM_REFERENCE[case[0]]


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


# ---- the schedulers that are not chainable, and those made of schedulers ----------------

def sgdm(lr=0.1, groups=1):
    params = [torch.zeros(2, requires_grad=True) for _ in range(groups)]
    return torch.optim.SGD([{"params": [p]} for p in params], lr=lr, momentum=0.9)


def _steps(opt, sched, n):
    lrs = []
    for _ in range(n):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    return lrs


@pytest.mark.parametrize("make", [
    lambda o: L.MultiplicativeLR(o, lambda e: 0.9),
    lambda o: L.ConstantLR(o, factor=0.5, total_iters=3),
    lambda o: L.LinearLR(o, start_factor=0.2, total_iters=4),
    lambda o: L.PolynomialLR(o, total_iters=6, power=2.0),
    lambda o: L.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.01),
    lambda o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.95),
    lambda o: L.OneCycleLR(o, max_lr=0.5, total_steps=20, three_phase=True),
    lambda o: L.SequentialLR(o, [L.LinearLR(o, total_iters=2), L.ExponentialLR(o, 0.9)], milestones=[3]),
    lambda o: L.ChainedScheduler([L.ConstantLR(o, total_iters=2), L.ExponentialLR(o, 0.9)]),
], ids=["MultiplicativeLR", "ConstantLR", "LinearLR", "PolynomialLR", "CosineAnnealingWarmRestarts", "CyclicLR",
        "OneCycleLR", "SequentialLR", "ChainedScheduler"])
def test_new_schedulers_state_dict_round_trip_continues_the_same_sequence(make):
    opt = sgdm(0.1, groups=2)
    sched = make(opt)
    _steps(opt, sched, 4)
    saved_sched, saved_opt = copy.deepcopy(sched.state_dict()), copy.deepcopy(opt.state_dict())
    expected = _steps(opt, sched, 6)
    expected_momentum = [g["momentum"] for g in opt.param_groups]

    opt2 = sgdm(0.1, groups=2)
    sched2 = make(opt2)
    opt2.load_state_dict(saved_opt)
    sched2.load_state_dict(saved_sched)
    assert _steps(opt2, sched2, 6) == expected
    assert [g["momentum"] for g in opt2.param_groups] == expected_momentum


def test_sequential_and_chained_state_dicts_hold_the_inner_schedulers_states():
    opt = sgdm()
    inner = [L.ConstantLR(opt, factor=0.5, total_iters=2), L.ExponentialLR(opt, gamma=0.9)]
    seq = L.SequentialLR(opt, inner, milestones=[2])
    sd = seq.state_dict()
    assert sorted(sd) == ['_last_lr', '_milestones', '_schedulers', 'last_epoch']
    assert sd["_schedulers"] == [s.state_dict() for s in inner]
    chained = L.ChainedScheduler(inner)
    assert sorted(chained.state_dict()) == ['_last_lr', '_schedulers']
    sd = chained.state_dict()
    chained.load_state_dict(sd)
    assert "_schedulers" in sd  # load_state_dict puts the key back


def test_cyclic_lr_state_dict_saves_a_callable_object_scale_fn_not_a_function():
    class Halving:
        def __init__(self):
            self.base = 0.5

        def __call__(self, x):
            return self.base ** x

    sched = L.CyclicLR(sgdm(), 0.01, 0.1, scale_fn=Halving())
    sd = sched.state_dict()
    assert "_scale_fn_ref" not in sd and sd["_scale_fn_custom"] == {"base": 0.5}
    sd["_scale_fn_custom"] = {"base": 0.25}
    sched.load_state_dict(sd)
    assert sched.scale_fn(2) == 0.0625
    sched = L.CyclicLR(sgdm(), 0.01, 0.1, scale_fn=lambda x: 1.0)
    assert sched.state_dict()["_scale_fn_custom"] is None
    sched = L.CyclicLR(sgdm(), 0.01, 0.1, mode="triangular2")
    sd = sched.state_dict()
    assert "_scale_fn_ref" not in sd
    sched.load_state_dict(sd)
    assert sched.scale_fn(3) == 0.25  # rebuilt from the mode


def test_cyclic_lr_sets_the_base_lr_and_the_momentum_range_on_construction():
    opt = sgdm(1.0, groups=2)
    sched = L.CyclicLR(opt, base_lr=[0.01, 0.02], max_lr=0.1, base_momentum=0.7, max_momentum=[0.9, 0.95])
    assert [g["lr"] for g in opt.param_groups] == [0.01, 0.02] == sched.get_last_lr()
    assert [g["momentum"] for g in opt.param_groups] == [0.9, 0.95]
    assert [(g["base_momentum"], g["max_momentum"]) for g in opt.param_groups] == [(0.7, 0.9), (0.7, 0.95)]
    assert sched.base_lrs == [0.01, 0.02]


def test_cyclic_lr_cycles_adams_beta1():
    p = torch.zeros(2, requires_grad=True)
    opt = torch.optim.Adam([p], lr=0.1, betas=(0.5, 0.99))
    sched = L.CyclicLR(opt, 0.001, 0.01, step_size_up=2)
    assert opt.param_groups[0]["betas"] == (0.9, 0.99)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["betas"] == (pytest.approx(0.85, rel=1e-15), 0.99)


def test_one_cycle_lr_keeps_its_range_in_the_groups_and_ends_at_min_lr():
    opt = sgdm()
    sched = L.OneCycleLR(opt, max_lr=1.0, total_steps=10, div_factor=4.0, final_div_factor=5.0)
    group = opt.param_groups[0]
    assert (group["initial_lr"], group["max_lr"], group["min_lr"]) == (0.25, 1.0, 0.05)
    assert sched.get_last_lr() == [0.25]
    lrs = _steps(opt, sched, 9)
    assert max(lr for [lr] in lrs) == 1.0
    assert lrs[-1] == [0.05]


def test_one_cycle_lr_raises_past_total_steps():
    opt = sgdm()
    sched = L.OneCycleLR(opt, max_lr=0.1, total_steps=2)
    _steps(opt, sched, 2)
    with pytest.raises(ValueError, match=re.escape("Tried to step 3 times. The specified number of total steps is 2")):
        _steps(opt, sched, 1)


def test_cosine_warm_restarts_restart_at_the_initial_lr():
    opt = sgdm(0.1)
    sched = L.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
    lrs = [lr for [lr] in _steps(opt, sched, 9)]
    assert lrs[2] == 0.1 and lrs[8] == 0.1  # epochs 3 and 3 + 6
    assert sched.T_i == 12 and sched.T_cur == 0


def test_sequential_lr_undoes_the_inner_schedulers_initial_steps():
    opt = sgdm(1.0)
    warmup = L.ConstantLR(opt, factor=0.5, total_iters=2)
    decay = L.ExponentialLR(opt, gamma=0.5)
    assert opt.param_groups[0]["lr"] == 0.5  # each constructor took its initial step
    sched = L.SequentialLR(opt, [warmup, decay], milestones=[2])
    assert (warmup.last_epoch, decay.last_epoch) == (0, -1)
    assert sched.get_last_lr() == [0.5]
    assert [lr for [lr] in _steps(opt, sched, 4)] == [0.5, 1.0, 0.5, 0.25]


def test_chained_scheduler_multiplies_the_schedulers_factors():
    opt = sgdm(1.0)
    sched = L.ChainedScheduler([L.ConstantLR(opt, factor=0.5, total_iters=2), L.ExponentialLR(opt, gamma=0.5)])
    assert sched.optimizer is opt and sched.get_last_lr() == [0.5]
    assert [lr for [lr] in _steps(opt, sched, 3)] == [0.25, 0.25, 0.125]


def test_linear_and_polynomial_lr_closed_forms():
    opt = sgdm(1.0)
    sched = L.LinearLR(opt, start_factor=0.25, end_factor=0.75, total_iters=4)
    opt.step()
    with pytest.warns(UserWarning, match="The epoch parameter"):
        sched.step(2)
    assert sched.get_last_lr() == [0.5]
    opt = sgdm(1.0)
    sched = L.PolynomialLR(opt, total_iters=4, power=2.0)
    opt.step()
    with pytest.warns(UserWarning, match="The epoch parameter"):
        sched.step(3)
    assert sched.get_last_lr() == [0.0625]


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
    ("multiplicative_count", lambda: L.MultiplicativeLR(sgd(), [lambda e: 1, lambda e: 2]), ValueError,
     "Expected 1 lr_lambdas, but got 2"),
    ("multiplicative_not_callable", lambda: L.MultiplicativeLR(sgd(), 0.9), TypeError,
     "lr_lambda should be a function, but got float"),
    ("constant_factor", lambda: L.ConstantLR(sgd(), factor=1.5), ValueError,
     "Constant multiplicative factor expected to be between 0 and 1."),
    ("constant_factor_negative", lambda: L.ConstantLR(sgd(), factor=-0.1), ValueError,
     "Constant multiplicative factor expected to be between 0 and 1."),
    ("linear_start", lambda: L.LinearLR(sgd(), start_factor=0), ValueError,
     "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."),
    ("linear_end", lambda: L.LinearLR(sgd(), end_factor=1.5), ValueError,
     "Ending multiplicative factor expected to be between 0 and 1."),
    ("sequential_empty", lambda: L.SequentialLR(sgd(), [], milestones=[]), ValueError,
     "SequentialLR expects at least one scheduler, but got no scheduler."),
    ("sequential_milestones", lambda: _two(lambda o, a, b: L.SequentialLR(o, [a, b], milestones=[2, 4])), ValueError,
     "Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone "
     "points, but got number of schedulers 2 and the number of milestones to be equal to 2"),
    ("sequential_not_a_scheduler", lambda: _two(lambda o, a, b: L.SequentialLR(o, [a, object()], milestones=[2])),
     TypeError, "SequentialLR at index 1 should have `optimizer` as its attribute."),
    ("sequential_plateau",
     lambda: _two(lambda o, a, b: L.SequentialLR(o, [a, L.ReduceLROnPlateau(o)], milestones=[2])), ValueError,
     "SequentialLR does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs to be specified "
     "when calling `step`, but got one at index 1 in the given schedulers sequence."),
    ("sequential_other_optimizer",
     lambda: _two(lambda o, a, b: L.SequentialLR(o, [a, L.StepLR(sgd(), 2)], milestones=[2])), ValueError,
     "SequentialLR expects all schedulers to belong to the same optimizer, but got scheduler StepLR at index 1 has "
     "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n    foreach: None\n    fused: None\n"
     "    initial_lr: 0.1\n    lr: 0.1\n    maximize: False\n    momentum: 0\n    nesterov: False\n"
     "    weight_decay: 0\n), which is different from SGD."),
    ("chained_empty", lambda: L.ChainedScheduler([]), ValueError,
     "ChainedScheduler expects at least one scheduler to be chained, but got no scheduler."),
    ("chained_plateau", lambda: _two(lambda o, a, b: L.ChainedScheduler([L.ReduceLROnPlateau(o)], optimizer=o)),
     ValueError, "ChainedScheduler does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs "
     "to be specified when calling `step`, but got one at index 0 in the given schedulers sequence."),
    ("chained_other_optimizer", lambda: _two(lambda o, a, b: L.ChainedScheduler([a, L.StepLR(sgd(), 2)])),
     ValueError, "ChainedScheduler expects all schedulers to belong to the same optimizer, but got scheduler "
     "StepLR at index 1 has SGD ("),
    ("cyclic_not_an_optimizer", lambda: L.CyclicLR(None, 0.01, 0.1), TypeError, "NoneType is not an Optimizer"),
    ("cyclic_mode", lambda: L.CyclicLR(sgdm(), 0.01, 0.1, mode="sawtooth"), ValueError,
     "mode is invalid and scale_fn is None"),
    ("cyclic_base_lr_count", lambda: L.CyclicLR(sgdm(), [0.01, 0.02], 0.1), ValueError,
     "base_lr must have the same length as optimizer.param_groups. base_lr has 2 values, param_groups has 1."),
    ("cyclic_max_lr_count", lambda: L.CyclicLR(sgdm(), 0.01, [0.1, 0.2, 0.3]), ValueError,
     "max_lr must have the same length as optimizer.param_groups. max_lr has 3 values, param_groups has 1."),
    ("cyclic_no_momentum", lambda: L.CyclicLR(torch.optim.Adagrad([torch.zeros(1, requires_grad=True)]), 0.01, 0.1),
     ValueError, "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    ("cyclic_momentum_count", lambda: L.CyclicLR(sgdm(), 0.01, 0.1, base_momentum=[0.8, 0.85]), ValueError,
     "base_momentum must have the same length as optimizer.param_groups. base_momentum has 2 values, "
     "param_groups has 1."),
    ("warm_restarts_t0", lambda: L.CosineAnnealingWarmRestarts(sgd(), T_0=0), ValueError,
     "Expected positive integer T_0, but got 0"),
    ("warm_restarts_t0_float", lambda: L.CosineAnnealingWarmRestarts(sgd(), T_0=2.0), ValueError,
     "Expected positive integer T_0, but got 2.0"),
    ("warm_restarts_t_mult", lambda: L.CosineAnnealingWarmRestarts(sgd(), T_0=2, T_mult=0), ValueError,
     "Expected integer T_mult >= 1, but got 0"),
    ("warm_restarts_eta_min", lambda: L.CosineAnnealingWarmRestarts(sgd(), T_0=2, eta_min="0"), ValueError,
     "Expected float or int eta_min, but got 0 of type <class 'str'>"),
    ("warm_restarts_negative_epoch", lambda: L.CosineAnnealingWarmRestarts(sgd(), 2).step(-1), ValueError,
     "Expected non-negative epoch, but got -1"),
    ("one_cycle_not_an_optimizer", lambda: L.OneCycleLR("sgd", max_lr=0.1, total_steps=10), TypeError,
     "str is not an Optimizer"),
    ("one_cycle_no_steps", lambda: L.OneCycleLR(sgdm(), max_lr=0.1), ValueError,
     "You must define either total_steps OR (epochs AND steps_per_epoch)"),
    ("one_cycle_total_steps", lambda: L.OneCycleLR(sgdm(), max_lr=0.1, total_steps=0), ValueError,
     "Expected positive integer total_steps, but got 0"),
    ("one_cycle_epochs", lambda: L.OneCycleLR(sgdm(), max_lr=0.1, epochs=-1, steps_per_epoch=3), ValueError,
     "Expected positive integer epochs, but got -1"),
    ("one_cycle_steps_per_epoch", lambda: L.OneCycleLR(sgdm(), max_lr=0.1, epochs=2, steps_per_epoch=1.5),
     ValueError, "Expected positive integer steps_per_epoch, but got 1.5"),
    ("one_cycle_pct_start", lambda: L.OneCycleLR(sgdm(), max_lr=0.1, total_steps=10, pct_start=1.5), ValueError,
     "Expected float between 0 and 1 pct_start, but got 1.5"),
    ("one_cycle_pct_start_int", lambda: L.OneCycleLR(sgdm(), max_lr=0.1, total_steps=10, pct_start=1), ValueError,
     "Expected float between 0 and 1 pct_start, but got 1"),
    ("one_cycle_anneal_strategy", lambda: L.OneCycleLR(sgdm(), max_lr=0.1, total_steps=10, anneal_strategy="exp"),
     ValueError, "anneal_strategy must be one of 'cos' or 'linear', instead got exp"),
    ("one_cycle_no_momentum",
     lambda: L.OneCycleLR(torch.optim.Adagrad([torch.zeros(1, requires_grad=True)]), max_lr=0.1, total_steps=10),
     ValueError, "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    ("one_cycle_max_lr_count", lambda: L.OneCycleLR(sgdm(), max_lr=[0.1, 0.2], total_steps=10), ValueError,
     "max_lr must have the same length as optimizer.param_groups. max_lr has 2 values, param_groups has 1."),
    ("one_cycle_momentum_counts",
     lambda: L.OneCycleLR(sgdm(), max_lr=0.1, total_steps=10, base_momentum=[0.1, 0.2], max_momentum=[0.1, 0.2, 0.3]),
     ValueError, "max_momentum must have the same length as optimizer.param_groups. max_momentum has 3 values, "
     "param_groups has 1."),
]


def _two(make):
    """make(optimizer, a StepLR on it, another StepLR on it)."""
    opt = sgd()
    return make(opt, L.StepLR(opt, 2), L.StepLR(opt, 3))


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
