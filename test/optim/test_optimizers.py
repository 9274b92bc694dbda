"""Tests for torch.optim's optimizers: trajectories against PyTorch's, state_dict, param groups, hooks, errors.

Guide: docs/source/internals/python_layer.rst

Parameters here are plain tensors with requires_grad=True (what nn.Parameter is, minus
the Module bookkeeping).
"""

import copy
import re
import warnings

import pytest
import torch
from torch.optim.optimizer import Optimizer, required

import optim_trajectories as traj
from reference_trajectories import REFERENCE

O = torch.optim


def leaf(*values, dtype=torch.float32):
    return torch.tensor(list(values), dtype=dtype, requires_grad=True)


# ---- trajectories against PyTorch -----------------------------------------------------
#
# The update formulas and their order of operations are PyTorch's, but a few of
# PyTorch's CPU kernels round differently from this project's: add(alpha=), addcmul and
# lerp are computed with a fused multiply-add (one rounding where this project rounds
# twice), and the reference build's float sqrt is not always correctly rounded. So the
# results agree to a few units in the last place, not always to the last bit.
# Largest differences seen over these cases: 1.6e-6 relative (float32, an element near
# zero) and 6e-16 relative (float64).
TOLERANCE = {"float32": dict(rel=1e-5, abs=1e-6), "float64": dict(rel=1e-13, abs=1e-14)}

# Cases that need more. foreach=True here runs the for-loop update, as does every setting:
# PyTorch's foreach ASGD computes eta = lr / (1 + lambd * lr * step) ** alpha from the float32
# step tensor in float32 (its for-loop does it in Python floats), so its float64 parameters
# differ by up to 1.2e-7 relative from the for-loop's.
CASE_TOLERANCE = {("asgd_foreach", "float64"): dict(rel=1e-6, abs=1e-7)}

# LBFGS reduces (dot products, sums, max) on every iteration and feeds the results back
# (the step length, the history's 1 / y.s): this project's float reductions add in another
# order than PyTorch's, so L-BFGS runs drift apart by more than the pointwise updates do.
# Largest differences seen: 3e-3 relative / 3e-4 absolute (float32; the parameters and
# losses within 2.3e-5 relative) and 1e-11 relative / 1.4e-12 absolute (float64).
LBFGS_TOLERANCE = {"float32": dict(rel=1e-3, abs=1e-3), "float64": dict(rel=1e-10, abs=1e-11)}


def _flat(x):
    if isinstance(x, list):
        for y in x:
            yield from _flat(y)
    else:
        yield x


def _assert_close(got, ref, tol, what):
    """got == ref, through nested dicts and lists: numbers within tol, the rest (None, and
    the ints that count steps and evaluations) exactly."""
    if isinstance(ref, dict):
        assert list(got) == list(ref), what  # the same keys, in the same order
        for key in ref:
            _assert_close(got[key], ref[key], tol, f"{what}[{key!r}]")
    elif isinstance(ref, list):
        assert isinstance(got, list) and len(got) == len(ref), what
        for i, (g, r) in enumerate(zip(got, ref)):
            _assert_close(g, r, tol, f"{what}[{i}]")
    elif isinstance(ref, float):
        assert got == pytest.approx(ref, **tol), what
    else:
        assert got == ref and type(got) is type(ref), what


@pytest.mark.parametrize("dtype_name", traj.DTYPES)
@pytest.mark.parametrize("case", traj.CASES, ids=[c[0] for c in traj.CASES])
def test_trajectory_matches_pytorch(case, dtype_name):
    got = traj.run(torch, case, dtype_name)
    ref = REFERENCE[(case[0], dtype_name)]
    tol = CASE_TOLERANCE.get((case[0], dtype_name), TOLERANCE[dtype_name])
    _assert_close(got["params"], ref["params"], tol, "params")
    # the same state, under the same keys, for the same parameters ("step" a count: exact)
    assert got["state"].keys() == ref["state"].keys()
    for index, ref_state in ref["state"].items():
        assert list(got["state"][index]) == list(ref_state)
        for key, value in ref_state.items():
            if key == "step":
                assert got["state"][index][key] == value
            else:
                _assert_close(got["state"][index][key], value, tol, f"state[{index}][{key!r}]")


@pytest.mark.parametrize("dtype_name", traj.DTYPES)
@pytest.mark.parametrize("case", traj.LBFGS_CASES, ids=[c[0] for c in traj.LBFGS_CASES])
def test_lbfgs_trajectory_matches_pytorch(case, dtype_name):
    got = traj.run_lbfgs(torch, case, dtype_name)
    ref = REFERENCE[(case[0], dtype_name)]
    # params, the loss each step() returned, and the state: the history, the counters
    # (func_evals, n_iter: exact) and the line search's last step length
    _assert_close(got, ref, LBFGS_TOLERANCE[dtype_name], case[0])


def test_sgd_by_hand():
    # p = 1, grad = 2p; lr 0.1, momentum 0.5: buf1 = 2, p1 = 0.8; buf2 = 0.5*2 + 1.6 = 2.6, p2 = 0.54
    p = leaf(1.0, dtype=torch.float64)
    opt = O.SGD([p], lr=0.1, momentum=0.5)
    for _ in range(2):
        opt.zero_grad()
        (p * p).sum().backward()
        opt.step()
    assert p.item() == pytest.approx(0.54, rel=1e-15)
    assert opt.state[p]["momentum_buffer"].item() == pytest.approx(2.6, rel=1e-15)


def test_adam_first_step_moves_each_element_by_about_lr():
    # with bias correction, step 1 is lr * g / (|g| + eps'): the sign of the gradient times lr
    p = leaf(1.0, -2.0, 3.0, dtype=torch.float64)
    p.grad = torch.tensor([0.5, -4.0, 1e-3], dtype=torch.float64)
    O.Adam([p], lr=0.1).step()
    assert p.tolist() == pytest.approx([0.9, -1.9, 2.9], abs=1e-6)


def test_training_a_linear_model_reduces_the_loss():
    torch.manual_seed(0)
    x = torch.randn(64, 3)
    y = x.matmul(torch.tensor([[1.5], [-2.0], [0.5]])) + 0.25
    for cls, kwargs in [(O.SGD, {"lr": 0.1, "momentum": 0.9}), (O.Adam, {"lr": 0.1}), (O.AdamW, {"lr": 0.1}),
                        (O.Adagrad, {"lr": 0.5}), (O.RMSprop, {"lr": 0.05}), (O.Adamax, {"lr": 0.1}),
                        (O.NAdam, {"lr": 0.1}), (O.RAdam, {"lr": 0.1}), (O.Adadelta, {"lr": 5.0}),
                        (O.ASGD, {"lr": 0.1}), (O.LBFGS, {"max_iter": 4})]:
        w = torch.zeros(3, 1, requires_grad=True)
        b = torch.zeros(1, requires_grad=True)
        opt = cls([w, b], **kwargs)

        def closure():
            opt.zero_grad()
            loss = ((x.matmul(w) + b - y) ** 2).mean()
            loss.backward()
            return loss

        first = closure().item()
        for _ in range(150):
            loss = opt.step(closure)
        assert loss.item() < 0.05 * first, cls.__name__


# ---- the step -------------------------------------------------------------------------

def test_step_runs_without_recording_autograd_history():
    p = leaf(1.0, 2.0)
    p.grad = torch.ones(2)
    O.Adam([p]).step()
    assert p.is_leaf and p.grad_fn is None and p.requires_grad


def test_step_restores_grad_mode():
    p = leaf(1.0)
    p.grad = torch.ones(1)
    O.SGD([p], lr=0.1).step()
    assert torch.is_grad_enabled()
    with torch.no_grad():
        O.SGD([p], lr=0.1).step()
        assert not torch.is_grad_enabled()


def test_step_calls_closure_with_grad_enabled_and_returns_its_loss():
    p = leaf(3.0)
    opt = O.SGD([p], lr=0.1)
    seen = []

    def closure():
        seen.append(torch.is_grad_enabled())
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    with torch.no_grad():
        loss = opt.step(closure)
    assert seen == [True]
    assert loss.item() == 9.0
    assert p.item() == pytest.approx(2.4)


@pytest.mark.parametrize("cls", [O.SGD, O.Adam, O.AdamW, O.RMSprop, O.Adamax, O.NAdam, O.RAdam, O.Adadelta, O.ASGD])
def test_parameter_without_grad_is_skipped_and_gets_no_state(cls):
    a, b = leaf(1.0, 2.0), leaf(3.0)
    a.grad = torch.ones(2)
    opt = cls([a, b], lr=0.1, momentum=0.9) if cls in (O.SGD, O.RMSprop) else cls([a, b], lr=0.1)
    opt.step()
    assert b.tolist() == [3.0]
    assert b not in opt.state
    assert a in opt.state


def test_adagrad_makes_its_state_in_the_constructor():
    p = leaf(1.0, 2.0)
    opt = O.Adagrad([p], initial_accumulator_value=0.25)
    assert opt.state[p]["step"].item() == 0.0
    assert opt.state[p]["sum"].tolist() == [0.25, 0.25]


def test_step_state_is_a_cpu_scalar_tensor_in_the_scalar_dtype():
    p = leaf(1.0)
    p.grad = torch.ones(1)
    opt = O.Adam([p])
    opt.step()
    opt.step()
    step = opt.state[p]["step"]
    assert isinstance(step, torch.Tensor) and step.dim() == 0
    assert step.dtype == torch.float32 and step.device.type == "cpu" and step.item() == 2.0

    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        q = torch.tensor([1.0], requires_grad=True)
        q.grad = torch.ones(1)
        opt = O.RMSprop([q])
        opt.step()
        assert opt.state[q]["step"].dtype == torch.float64
    finally:
        torch.set_default_dtype(previous)


def test_tensor_lr():
    p = leaf(1.0, 2.0)
    p.grad = torch.ones(2)
    O.SGD([p], lr=torch.tensor(0.5)).step()
    assert p.tolist() == [0.5, 1.5]


def test_complex_parameters_with_sgd():
    p = torch.tensor([1 + 2j, -1j], requires_grad=True)
    p.grad = torch.tensor([2 + 0j, 1 + 1j])
    O.SGD([p], lr=0.5).step()
    assert p.tolist() == [1j * 2, -0.5 - 1.5j]


def test_complex_parameters_are_refused_by_adam():
    p = torch.tensor([1 + 2j], requires_grad=True)
    p.grad = torch.tensor([1 + 0j])
    with pytest.raises(RuntimeError, match="complex parameters are not supported in this project"):
        O.Adam([p]).step()


# ---- zero_grad ------------------------------------------------------------------------

def test_zero_grad_sets_grads_to_none_by_default():
    p = leaf(1.0)
    p.grad = torch.ones(1)
    O.SGD([p]).zero_grad()
    assert p.grad is None


def test_zero_grad_set_to_none_false_zeroes_in_place():
    p = leaf(1.0, 2.0)
    p.grad = torch.ones(2)
    g = p.grad
    O.SGD([p]).zero_grad(set_to_none=False)
    assert p.grad is g
    assert g.tolist() == [0.0, 0.0]


# ---- param groups ---------------------------------------------------------------------

def test_param_groups_take_defaults_and_override_them():
    a, b = leaf(1.0), leaf(2.0)
    opt = O.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.1}], lr=0.1)
    assert opt.param_groups[0]["lr"] == 0.1 and opt.param_groups[0]["momentum"] == 0
    assert opt.param_groups[1]["lr"] == 0.5 and opt.param_groups[1]["momentum"] == 0.1
    assert opt.param_groups[1]["params"] == [b]  # a single tensor becomes a list
    a.grad, b.grad = torch.ones(1), torch.ones(1)
    opt.step()
    assert a.item() == pytest.approx(0.9) and b.item() == pytest.approx(1.5)


def test_add_param_group_appends_a_group_and_its_params_get_state():
    a, b = leaf(1.0), leaf(2.0)
    opt = O.Adam([a], lr=0.1)
    opt.add_param_group({"params": [b], "lr": 0.2})
    assert len(opt.param_groups) == 2 and opt.param_groups[1]["betas"] == (0.9, 0.999)
    b.grad = torch.ones(1)
    opt.step()
    assert list(opt.state[b]) == ["step", "exp_avg", "exp_avg_sq"]


def test_adagrad_added_group_starts_from_the_defaults_initial_accumulator_value():
    a, b = leaf(1.0), leaf(2.0)
    opt = O.Adagrad([a], initial_accumulator_value=0.5)
    opt.add_param_group({"params": [b], "initial_accumulator_value": 9.0})
    b.grad = torch.zeros(1)
    opt.step()
    assert opt.state[b]["sum"].tolist() == [0.5]  # PyTorch reads self.defaults here


def test_named_parameters_are_kept_as_param_names():
    a, b = leaf(1.0), leaf(2.0)
    opt = O.SGD([("weight", a), ("bias", b)], lr=0.1)
    assert opt.param_groups[0]["params"] == [a, b]
    assert opt.param_groups[0]["param_names"] == ["weight", "bias"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["weight", "bias"]


def test_duplicate_parameters_in_a_group_warn():
    p = leaf(1.0)
    with pytest.warns(UserWarning, match=re.escape(
            "optimizer contains a parameter group with duplicate parameters; in future, this will cause an error")):
        O.SGD([p, p])


def test_repr_lists_each_group_sorted():
    assert repr(O.SGD([leaf(1.0)], lr=0.1)) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n    foreach: None\n"
        "    fused: None\n    lr: 0.1\n    maximize: False\n    momentum: 0\n    nesterov: False\n"
        "    weight_decay: 0\n)")


# ---- state_dict -----------------------------------------------------------------------

def test_state_dict_layout_is_pytorchs():
    # Written down from PyTorch 2.13 for the same optimizer: keys in the same order, tensors
    # replaced by positions counted across the groups, state only for stepped parameters.
    p0, p1, p2 = leaf(0.0, 0.0), leaf(0.0, 0.0, 0.0), leaf(0.0)
    opt = O.Adam([{"params": [p0, p1]}, {"params": [p2], "lr": 0.1, "amsgrad": True}], lr=0.01)
    p0.grad, p2.grad = torch.ones(2), torch.ones(1)
    opt.step()
    sd = opt.state_dict()
    assert sd["param_groups"] == [
        {'lr': 0.01, 'betas': (0.9, 0.999), 'eps': 1e-08, 'weight_decay': 0, 'amsgrad': False, 'maximize': False,
         'foreach': None, 'capturable': False, 'differentiable': False, 'fused': None,
         'decoupled_weight_decay': False, 'params': [0, 1]},
        {'lr': 0.1, 'amsgrad': True, 'betas': (0.9, 0.999), 'eps': 1e-08, 'weight_decay': 0, 'maximize': False,
         'foreach': None, 'capturable': False, 'differentiable': False, 'fused': None,
         'decoupled_weight_decay': False, 'params': [2]}]
    assert list(sd["param_groups"][0]) == ['lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'maximize', 'foreach',
                                           'capturable', 'differentiable', 'fused', 'decoupled_weight_decay', 'params']
    assert list(sd["state"]) == [0, 2]
    assert list(sd["state"][2]) == ["step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"]
    assert sd["state"][0]["exp_avg"] is opt.state[p0]["exp_avg"]  # not copied


@pytest.mark.parametrize("cls,kwargs", [
    (O.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    (O.Adam, {"lr": 0.01, "amsgrad": True}),
    (O.AdamW, {"lr": 0.01}),
    (O.Adagrad, {"lr": 0.1, "lr_decay": 0.01}),
    (O.RMSprop, {"lr": 0.01, "centered": True, "momentum": 0.5}),
    (O.Adamax, {"lr": 0.02, "weight_decay": 0.1}),
    (O.NAdam, {"lr": 0.02, "momentum_decay": 0.05}),
    (O.RAdam, {"lr": 0.02, "betas": (0.9, 0.5)}),
    (O.Adadelta, {"lr": 0.5, "rho": 0.8}),
    (O.ASGD, {"lr": 0.05, "t0": 1}),
    (O.Adam, {"lr": 0.01, "fused": True}),
    (O.SGD, {"lr": 0.1, "momentum": 0.9, "foreach": True}),
], ids=["SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Adamax", "NAdam", "RAdam", "Adadelta", "ASGD", "Adam_fused",
        "SGD_foreach"])
def test_state_dict_round_trip_continues_bit_identically(cls, kwargs):
    params = list(traj.initial_params(torch, torch.float32))
    opt = cls([{"params": params[:1]}, {"params": params[1:], "lr": 0.05}], **kwargs)
    for step in range(2):
        traj.set_grads(torch, params, step)
        opt.step()
    saved = copy.deepcopy(opt.state_dict())

    fresh = [p.detach().clone().requires_grad_(True) for p in params]
    opt2 = cls([{"params": fresh[:1]}, {"params": fresh[1:]}], **kwargs)
    opt2.load_state_dict(saved)
    assert opt2.param_groups[1]["lr"] == 0.05
    assert opt2.param_groups[1]["params"][0] is fresh[1]
    for step in range(2, 4):
        traj.set_grads(torch, params, step)
        traj.set_grads(torch, fresh, step)
        opt.step()
        opt2.step()
    for p, q in zip(params, fresh):
        assert p.tolist() == q.tolist()
    for p, q in zip(params, fresh):
        for key, value in opt.state[p].items():
            assert opt2.state[q][key].tolist() == value.tolist()


def test_load_state_dict_casts_state_to_the_parameter_dtype_but_not_step():
    p = leaf(1.0, 2.0)
    p.grad = torch.ones(2)
    opt = O.Adam([p])
    opt.step()
    sd = opt.state_dict()
    q = leaf(1.0, 2.0, dtype=torch.float64)
    opt2 = O.Adam([q])
    opt2.load_state_dict(sd)
    assert opt2.state[q]["exp_avg"].dtype == torch.float64
    assert opt2.state[q]["step"].dtype == torch.float32


def test_load_state_dict_leaves_the_callers_dict_alone():
    p = leaf(1.0)
    opt = O.SGD([p], lr=0.1)
    sd = opt.state_dict()
    sd["param_groups"][0]["lr"] = 0.5
    O.SGD([leaf(2.0)], lr=0.1).load_state_dict(sd)
    assert sd["param_groups"][0]["params"] == [0]


def test_load_state_dict_converts_a_number_step_to_a_tensor():
    p = leaf(1.0)
    p.grad = torch.ones(1)
    opt = O.Adam([p])
    opt.step()
    sd = opt.state_dict()
    sd["state"][0]["step"] = 1  # as optimizers before PyTorch 1.12 saved it
    opt2 = O.Adam([leaf(1.0)])
    opt2.load_state_dict(sd)
    step = opt2.state[opt2.param_groups[0]["params"][0]]["step"]
    assert isinstance(step, torch.Tensor) and step.item() == 1.0


def test_adamw_always_loads_with_decoupled_weight_decay():
    p = leaf(1.0)
    sd = O.Adam([p]).state_dict()
    opt = O.AdamW([leaf(1.0)])
    opt.load_state_dict(sd)
    assert opt.param_groups[0]["decoupled_weight_decay"] is True


# ---- hooks ----------------------------------------------------------------------------

def test_step_pre_and_post_hooks_run_around_step_and_can_be_removed():
    p = leaf(1.0)
    p.grad = torch.ones(1)
    opt = O.SGD([p], lr=0.1)
    calls = []
    h1 = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", p.item())))
    h2 = opt.register_step_post_hook(lambda o, args, kwargs: calls.append(("post", round(p.item(), 6))))
    opt.step()
    assert calls == [("pre", 1.0), ("post", 0.9)]
    h1.remove()
    h2.remove()
    opt.step()
    assert len(calls) == 2


def test_global_step_hooks_see_every_optimizer():
    from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
    seen = []
    h1 = register_optimizer_step_pre_hook(lambda o, a, k: seen.append(("pre", type(o).__name__)))
    h2 = register_optimizer_step_post_hook(lambda o, a, k: seen.append(("post", type(o).__name__)))
    try:
        O.Adagrad([leaf(1.0)]).step()
        O.RMSprop([leaf(1.0)]).step()
    finally:
        h1.remove()
        h2.remove()
    assert seen == [("pre", "Adagrad"), ("post", "Adagrad"), ("pre", "RMSprop"), ("post", "RMSprop")]


def test_step_pre_hook_returning_something_else_than_args_kwargs_raises():
    opt = O.SGD([leaf(1.0)])
    opt.register_step_pre_hook(lambda *a: 5)
    with pytest.raises(RuntimeError, match=r"must return None or a tuple of \(new_args, new_kwargs\), but got 5\."):
        opt.step()


def test_state_dict_and_load_state_dict_hooks():
    opt = O.SGD([leaf(1.0)], lr=0.1)
    order = []
    opt.register_state_dict_pre_hook(lambda o: order.append("sd pre"))
    opt.register_state_dict_post_hook(lambda o, sd: dict(sd, extra=1))
    sd = opt.state_dict()
    assert sd["extra"] == 1 and order == ["sd pre"]

    def pre(o, sd):
        sd = dict(sd)
        sd["param_groups"] = [dict(sd["param_groups"][0], lr=0.7)]
        return sd

    opt.register_load_state_dict_pre_hook(pre)
    opt.register_load_state_dict_post_hook(lambda o: order.append("load post"))
    opt.load_state_dict(sd)
    assert opt.param_groups[0]["lr"] == 0.7 and order == ["sd pre", "load post"]


# ---- errors ---------------------------------------------------------------------------
# Types and messages as PyTorch 2.13 raises them for the same calls.

p_ = leaf(1.0, 1.0)
q_ = leaf(1.0, 1.0, 1.0)


def _load(dst, src):
    return lambda: dst().load_state_dict(src().state_dict())


def _lbfgs_step(**kwargs):
    p = leaf(1.0, 2.0)
    opt = O.LBFGS([p], **kwargs)
    opt.step(traj.rosenbrock_closure(torch, opt, [p]))


ERRORS = [
    ("tensor_params", lambda: O.SGD(torch.ones(2)), TypeError,
     "params argument given to the optimizer should be an iterable of Tensors or dicts, but got torch.FloatTensor"),
    ("double_tensor_params", lambda: O.SGD(torch.ones(2, dtype=torch.float64)), TypeError,
     "params argument given to the optimizer should be an iterable of Tensors or dicts, but got torch.DoubleTensor"),
    ("empty", lambda: O.SGD([]), ValueError, "optimizer got an empty parameter list"),
    ("param_in_two_groups", lambda: O.SGD([{"params": [p_]}, {"params": [p_, q_]}]), ValueError,
     "some parameters appear in more than one parameter group"),
    ("set_of_params", lambda: O.SGD([{"params": {p_}}]), TypeError,
     "optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets "
     "will change between runs. Please use a list instead."),
    ("not_a_tensor", lambda: O.SGD([p_, 1.0]), TypeError,
     "optimizer can only optimize Tensors, but one of the params is float"),
    ("non_leaf", lambda: O.SGD([p_ * 2]), ValueError, "can't optimize a non-leaf Tensor"),
    ("group_not_a_dict", lambda: O.SGD([p_]).add_param_group("x"), TypeError,
     "param_group must be a dict, but got <class 'str'>"),
    ("required_option", lambda: Optimizer([p_], {"lr": required}), ValueError,
     "parameter group didn't specify a value of required optimization parameter lr"),
    ("some_names_missing", lambda: O.SGD([("a", p_), q_]), ValueError,
     "all optimizer params should be with/without names. Some param names are missing"),
    ("named_group_into_unnamed", lambda: O.SGD([p_]).add_param_group({"params": [("b", q_)]}), ValueError,
     "all optimizer param groups should be with/without names. cannot add param group with names to the optimizer"),
    ("unnamed_group_into_named", lambda: O.SGD([("a", p_)]).add_param_group({"params": [q_]}), ValueError,
     "all optimizer param groups should be with/without names. cannot add param group without names to the "
     "optimizer"),
    ("load_group_count", _load(lambda: O.SGD([p_]), lambda: O.SGD([{"params": [p_]}, {"params": [q_]}])),
     ValueError, "loaded state dict has a different number of parameter groups"),
    ("load_group_size", _load(lambda: O.SGD([p_]), lambda: O.SGD([p_, q_])), ValueError,
     "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"),
    ("base_step", lambda: Optimizer([p_], {}).step(), NotImplementedError, ""),
    ("sgd_lr", lambda: O.SGD([p_], lr=-1), ValueError, "Invalid learning rate: -1"),
    ("sgd_momentum", lambda: O.SGD([p_], momentum=-0.5), ValueError, "Invalid momentum value: -0.5"),
    ("sgd_weight_decay", lambda: O.SGD([p_], weight_decay=-0.1), ValueError, "Invalid weight_decay value: -0.1"),
    ("sgd_nesterov_without_momentum", lambda: O.SGD([p_], nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    ("sgd_nesterov_with_dampening", lambda: O.SGD([p_], momentum=0.9, dampening=0.1, nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    ("sgd_tensor_lr_numel", lambda: O.SGD([p_], lr=torch.tensor([0.1, 0.2])), ValueError,
     "Tensor lr must be 1-element"),
    ("sgd_fused_differentiable", lambda: O.SGD([p_], fused=True, differentiable=True), RuntimeError,
     "`fused` does not support `differentiable`"),
    ("sgd_fused_foreach", lambda: O.SGD([p_], fused=True, foreach=True), RuntimeError,
     "`fused` and `foreach` cannot be `True` together."),
    ("adam_lr", lambda: O.Adam([p_], lr=-1e-3), ValueError, "Invalid learning rate: -0.001"),
    ("adam_eps", lambda: O.Adam([p_], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
    ("adam_beta0", lambda: O.Adam([p_], betas=(1.0, 0.999)), ValueError, "Invalid beta parameter at index 0: 1.0"),
    ("adam_beta1", lambda: O.Adam([p_], betas=(0.9, -0.1)), ValueError, "Invalid beta parameter at index 1: -0.1"),
    ("adam_weight_decay", lambda: O.Adam([p_], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    ("adam_betas_mixed", lambda: O.Adam([p_], betas=(0.9, torch.tensor(0.99))), ValueError,
     "betas must be either both floats or both Tensors"),
    ("adam_betas_int", lambda: O.Adam([p_], betas=(0, 0.99)), ValueError,
     "betas must be either both floats or both Tensors"),
    ("adamw_lr", lambda: O.AdamW([p_], lr=-1e-3), ValueError, "Invalid learning rate: -0.001"),
    ("adagrad_lr", lambda: O.Adagrad([p_], lr=-1), ValueError, "Invalid learning rate: -1"),
    ("adagrad_lr_decay", lambda: O.Adagrad([p_], lr_decay=-1), ValueError, "Invalid lr_decay value: -1"),
    ("adagrad_weight_decay", lambda: O.Adagrad([p_], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    ("adagrad_initial_accumulator_value", lambda: O.Adagrad([p_], initial_accumulator_value=-1), ValueError,
     "Invalid initial_accumulator_value value: -1"),
    ("adagrad_eps", lambda: O.Adagrad([p_], eps=-1), ValueError, "Invalid epsilon value: -1"),
    ("rmsprop_lr", lambda: O.RMSprop([p_], lr=-1), ValueError, "Invalid learning rate: -1"),
    ("rmsprop_eps", lambda: O.RMSprop([p_], eps=-1), ValueError, "Invalid epsilon value: -1"),
    ("rmsprop_momentum", lambda: O.RMSprop([p_], momentum=-1), ValueError, "Invalid momentum value: -1"),
    ("rmsprop_weight_decay", lambda: O.RMSprop([p_], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    ("rmsprop_alpha", lambda: O.RMSprop([p_], alpha=-1), ValueError, "Invalid alpha value: -1"),
    ("adamax_lr", lambda: O.Adamax([p_], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    ("adamax_eps", lambda: O.Adamax([p_], eps=-1e-8), ValueError, "Invalid epsilon value: -1e-08"),
    ("adamax_beta0", lambda: O.Adamax([p_], betas=(1.0, 0.999)), ValueError, "Invalid beta parameter at index 0: 1.0"),
    ("adamax_beta1", lambda: O.Adamax([p_], betas=(0.9, 1.5)), ValueError, "Invalid beta parameter at index 1: 1.5"),
    ("adamax_weight_decay", lambda: O.Adamax([p_], weight_decay=-0.1), ValueError, "Invalid weight_decay value: -0.1"),
    ("adamax_tensor_lr_numel", lambda: O.Adamax([p_], lr=torch.tensor([0.1, 0.2])), ValueError,
     "Tensor lr must be 1-element"),
    ("adamax_fused", lambda: O.Adamax([p_], fused=True), TypeError,
     "Adamax.__init__() got an unexpected keyword argument 'fused'"),
    ("nadam_lr", lambda: O.NAdam([p_], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    ("nadam_eps", lambda: O.NAdam([p_], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
    ("nadam_beta0", lambda: O.NAdam([p_], betas=(-0.1, 0.999)), ValueError, "Invalid beta parameter at index 0: -0.1"),
    ("nadam_beta1", lambda: O.NAdam([p_], betas=(0.9, 1.0)), ValueError, "Invalid beta parameter at index 1: 1.0"),
    ("nadam_weight_decay", lambda: O.NAdam([p_], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    ("nadam_momentum_decay", lambda: O.NAdam([p_], momentum_decay=-0.004), ValueError,
     "Invalid momentum_decay value: -0.004"),
    ("radam_lr", lambda: O.RAdam([p_], lr=-1e-3), ValueError, "Invalid learning rate: -0.001"),
    ("radam_eps", lambda: O.RAdam([p_], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
    ("radam_beta0", lambda: O.RAdam([p_], betas=(1.0, 0.999)), ValueError, "Invalid beta parameter at index 0: 1.0"),
    ("radam_beta1", lambda: O.RAdam([p_], betas=(0.9, -0.5)), ValueError, "Invalid beta parameter at index 1: -0.5"),
    ("radam_weight_decay", lambda: O.RAdam([p_], weight_decay=-0.5), ValueError, "Invalid weight_decay value: -0.5"),
    ("adadelta_lr", lambda: O.Adadelta([p_], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    ("adadelta_rho", lambda: O.Adadelta([p_], rho=1.5), ValueError, "Invalid rho value: 1.5"),
    ("adadelta_rho_negative", lambda: O.Adadelta([p_], rho=-0.1), ValueError, "Invalid rho value: -0.1"),
    ("adadelta_eps", lambda: O.Adadelta([p_], eps=-1e-6), ValueError, "Invalid epsilon value: -1e-06"),
    ("adadelta_weight_decay", lambda: O.Adadelta([p_], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    ("asgd_lr", lambda: O.ASGD([p_], lr=-0.01), ValueError, "Invalid learning rate: -0.01"),
    ("asgd_nan_lr", lambda: O.ASGD([p_], lr=float("nan")), ValueError, "Invalid learning rate: nan"),
    ("asgd_weight_decay", lambda: O.ASGD([p_], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    ("lbfgs_lr", lambda: O.LBFGS([p_], lr=-1), ValueError, "Invalid learning rate: -1"),
    ("lbfgs_tensor_lr_numel", lambda: O.LBFGS([p_], lr=torch.tensor([1.0, 2.0])), ValueError,
     "Tensor lr must be 1-element"),
    ("lbfgs_groups", lambda: O.LBFGS([{"params": [p_]}, {"params": [q_]}]), ValueError,
     "LBFGS doesn't support per-parameter options (parameter groups)"),
    ("lbfgs_line_search_fn", lambda: _lbfgs_step(line_search_fn="wolfe"), RuntimeError,
     "only 'strong_wolfe' is supported"),
    ("lbfgs_no_closure", lambda: O.LBFGS([p_]).step(), TypeError,
     "LBFGS.step() missing 1 required positional argument: 'closure'"),
    ("rmsprop_fused", lambda: O.RMSprop([p_], fused=True), TypeError,
     "RMSprop.__init__() got an unexpected keyword argument 'fused'"),
    ("adam_fused_differentiable", lambda: O.Adam([p_], fused=True, differentiable=True), RuntimeError,
     "`fused` does not support `differentiable`"),
    ("adam_fused_foreach", lambda: O.Adam([p_], fused=True, foreach=True), RuntimeError,
     "`fused` and `foreach` cannot be `True` together."),
    ("adagrad_fused_differentiable", lambda: O.Adagrad([p_], fused=True, differentiable=True), RuntimeError,
     "`fused` does not support `differentiable`"),
    ("adagrad_fused_foreach", lambda: O.Adagrad([p_], fused=True, foreach=True), RuntimeError,
     "`fused` and `foreach` cannot be `True` together."),
    ("adam_foreach_tensor_lr", lambda: O.Adam([p_], lr=torch.tensor(0.01), foreach=True), ValueError,
     "lr as a Tensor is not supported for capturable=False and foreach=True"),
]


@pytest.mark.parametrize("make,exc,message", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_error(make, exc, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc) as info:
            make()
    assert str(info.value) == message


def test_adam_capturable_on_cpu_raises():
    # PyTorch lists ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']; this project has CUDA only.
    p = leaf(1.0)
    p.grad = torch.ones(1)
    with pytest.raises(AssertionError, match=re.escape(
            "If capturable=True, params and state_steps must be on supported devices: ['cuda'].")):
        O.Adam([p], capturable=True).step()


def _with_grad(*values, dtype=torch.float32, device="cpu"):
    p = torch.tensor(list(values), dtype=dtype, device=device, requires_grad=True)
    p.grad = torch.ones_like(p)
    return p


@pytest.mark.parametrize("cls", [O.Adamax, O.RAdam, O.Adadelta])
def test_capturable_on_cpu_raises(cls):
    # PyTorch lists ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla'] (Adadelta: no 'xla');
    # this project has CUDA only.
    with pytest.raises(AssertionError, match=re.escape(
            "If capturable=True, params and state_steps must be on supported devices: ['cuda'].")):
        cls([_with_grad(1.0)], capturable=True).step()


def test_nadam_and_asgd_capturable_on_cpu_name_their_extra_state():
    with pytest.raises(AssertionError, match=re.escape(
            "If capturable=True, params, mu_products and state_steps must be on supported devices: ['cuda'].")):
        O.NAdam([_with_grad(1.0)], capturable=True).step()
    with pytest.raises(AssertionError, match=re.escape(
            "If capturable=True, params, mus, etas, and state_steps must be on supported devices: ['cuda'].")):
        O.ASGD([_with_grad(1.0)], capturable=True).step()


# ---- foreach and fused ----------------------------------------------------------------
# Accepted where PyTorch accepts them; every setting runs the for-loop update
# (torch/optim/optimizer.py, _single_tensor_only), so here they give the same numbers. In
# PyTorch they mostly do too on the CPU, but not all: its foreach NAdam, RAdam and ASGD and
# its fused SGD, Adam, AdamW and Adagrad round differently; the trajectory cases named
# *_foreach and *_fused check this project's numbers against those.

ALL_OPTIMIZERS = [O.SGD, O.Adam, O.AdamW, O.Adagrad, O.RMSprop, O.Adamax, O.NAdam, O.RAdam, O.Adadelta, O.ASGD]
FUSED_OPTIMIZERS = [O.SGD, O.Adam, O.AdamW, O.Adagrad]  # PyTorch's other optimizers take no `fused`


@pytest.mark.parametrize("cls", ALL_OPTIMIZERS)
def test_foreach_defaults_to_none_and_every_setting_gives_the_same_step(cls):
    assert cls([leaf(1.0)]).param_groups[0]["foreach"] is None
    results = []
    for foreach in (None, False, True):
        p0, p1 = traj.initial_params(torch, torch.float64)
        opt = cls([p0, p1], foreach=foreach)
        assert opt.param_groups[0]["foreach"] is foreach
        for step in range(3):
            traj.set_grads(torch, (p0, p1), step)
            opt.step()
        results.append((p0.tolist(), p1.tolist()))
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("cls", FUSED_OPTIMIZERS)
def test_fused_is_accepted_and_gives_the_for_loop_step(cls):
    assert cls([leaf(1.0)]).param_groups[0]["fused"] is None
    results = []
    for fused in (None, False, True):
        p0, p1 = traj.initial_params(torch, torch.float32)
        opt = cls([p0, p1], lr=0.05, fused=fused)
        for step in range(3):
            traj.set_grads(torch, (p0, p1), step)
            opt.step()
        results.append((p0.tolist(), p1.tolist()))
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("cls", [O.Adam, O.AdamW, O.Adagrad])
def test_fused_keeps_step_as_a_float32_on_the_parameters_device(cls):
    # as PyTorch's fused path keeps it, whatever the default dtype
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        p = _with_grad(1.0, 2.0)
        opt = cls([p], fused=True)
        opt.step()
        step = opt.state[p]["step"]
        assert step.dtype == torch.float32 and step.device == p.device and step.item() == 1.0
        q = _with_grad(1.0, 2.0)
        opt = cls([q])
        opt.step()
        assert opt.state[q]["step"].dtype == torch.float64
    finally:
        torch.set_default_dtype(previous)


@pytest.mark.parametrize("cls", FUSED_OPTIMIZERS)
def test_fused_refuses_integer_parameters_at_the_first_step(cls):
    # PyTorch lists ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'];
    # this project has CUDA and the CPU.
    p = torch.tensor([1, 2])
    p.grad = torch.tensor([1, 1])
    opt = cls([p], fused=True)  # the constructor does not look
    with pytest.raises(RuntimeError) as info:
        opt.step()
    assert str(info.value) == ("`fused=True` requires all the params to be floating point Tensors of supported "
                               "devices: ['cuda', 'cpu'] but torch.int64 and cpu")


@pytest.mark.parametrize("cls", [O.Adam, O.AdamW, O.Adagrad, O.RMSprop, O.Adamax, O.NAdam, O.RAdam, O.Adadelta,
                                 O.ASGD])
def test_foreach_with_differentiable_raises_as_pytorchs_foreach_path_does(cls):
    opt = cls([_with_grad(1.0)], foreach=True, differentiable=True)
    with pytest.raises(AssertionError, match="_foreach ops don't support autograd"):
        opt.step()


def test_functional_forms_take_foreach():
    p, g = leaf(1.0, 2.0), torch.tensor([0.5, -0.5])
    exp_avg, exp_inf, step = torch.zeros(2), torch.zeros(2), torch.tensor(0.0)
    from torch.optim.adamax import adamax
    from torch.optim.nadam import nadam
    from torch.optim.radam import radam

    with torch.no_grad():
        adamax([p], [g], [exp_avg], [exp_inf], [step], foreach=True, eps=1e-8, beta1=0.9, beta2=0.999, lr=0.1,
               weight_decay=0.0)
    assert p.tolist() == pytest.approx([0.9, 2.1], rel=1e-6) and step.item() == 1.0
    with pytest.raises(RuntimeError, match="`state_steps` argument must contain a list of singleton tensors"):
        radam([p], [g], [torch.zeros(2)], [torch.zeros(2)], [1], beta1=0.9, beta2=0.999, lr=0.1, weight_decay=0.0,
              eps=1e-8)
    with pytest.raises(RuntimeError, match="`mu_products` argument must contain a list of singleton tensors"):
        nadam([p], [g], [torch.zeros(2)], [torch.zeros(2)], [1.0], [torch.tensor(0.0)], beta1=0.9, beta2=0.999,
              lr=0.1, weight_decay=0.0, momentum_decay=4e-3, eps=1e-8)


# ---- the new optimizers' state --------------------------------------------------------

def test_state_layouts_are_pytorchs():
    # keys and dtypes as PyTorch 2.13 makes them (float64 parameters, default dtype float32)
    p = _with_grad(1.0, 2.0, dtype=torch.float64)
    expected = {
        O.Adamax: ["step", "exp_avg", "exp_inf"],
        O.NAdam: ["step", "mu_product", "exp_avg", "exp_avg_sq"],
        O.RAdam: ["step", "exp_avg", "exp_avg_sq"],
        O.Adadelta: ["step", "square_avg", "acc_delta"],
        O.ASGD: ["step", "eta", "mu", "ax"],
    }
    for cls, keys in expected.items():
        opt = cls([p])
        opt.step()
        state = opt.state[p]
        assert list(state) == keys, cls.__name__
        for key, value in state.items():
            scalar = value.dim() == 0
            assert value.dtype == (torch.float32 if scalar else torch.float64), (cls.__name__, key)
    assert O.NAdam([p]).param_groups[0]["momentum_decay"] == 4e-3


def test_asgd_eta_and_mu_follow_their_formulas():
    # eta = lr / (1 + lambd * lr * t) ** alpha and mu = 1 / max(1, t - t0), kept as float32
    p = _with_grad(1.0, dtype=torch.float64)
    opt = O.ASGD([p], lr=0.1, lambd=0.5, alpha=0.5, t0=2)
    for t in range(1, 6):
        opt.step()
        state = opt.state[p]
        assert state["eta"].item() == pytest.approx(0.1 / (1 + 0.5 * 0.1 * t) ** 0.5, rel=1e-7)
        assert state["mu"].item() == pytest.approx(1 / max(1, t - 2), rel=1e-7)


def test_asgd_average_equals_the_parameter_until_t0():
    p = _with_grad(1.0, -2.0, dtype=torch.float64)
    opt = O.ASGD([p], lr=0.1, t0=3)
    for _ in range(5):  # step t leaves mu = 1 / max(1, t - t0) for the next one
        opt.step()
        assert opt.state[p]["ax"].tolist() == p.tolist()
    opt.step()  # mu is 1/2 now: ax moves halfway to p
    assert opt.state[p]["ax"].tolist() != p.tolist()


def test_radam_takes_momentum_steps_until_the_variance_is_tractable():
    # the first five steps (beta2 = 0.999) move by lr * bias-corrected m: -lr for a constant gradient
    p = _with_grad(0.0, dtype=torch.float64)
    opt = O.RAdam([p], lr=0.1)
    for t in range(1, 6):
        opt.step()
        assert p.item() == pytest.approx(-0.1 * t, rel=1e-12)
    opt.step()  # step 6: rectified, a much smaller step
    assert -0.6 < p.item() < -0.5


def test_nadam_mu_product_accumulates():
    p = _with_grad(1.0)
    opt = O.NAdam([p], momentum_decay=0.004)
    product = 1.0
    for t in range(1, 4):
        opt.step()
        product *= 0.9 * (1.0 - 0.5 * 0.96 ** (t * 0.004))
        assert opt.state[p]["mu_product"].item() == pytest.approx(product, rel=1e-6)


def test_optimizers_take_a_tensor_lr():
    for cls in (O.Adamax, O.NAdam, O.RAdam, O.Adadelta, O.ASGD):
        a, b = _with_grad(1.0, -2.0), _with_grad(1.0, -2.0)
        cls([a], lr=0.01).step()
        cls([b], lr=torch.tensor(0.01)).step()
        assert b.tolist() == pytest.approx(a.tolist(), rel=1e-6), cls.__name__


# ---- capturable, on the (simulated) GPU -----------------------------------------------

@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device (TORCH_CUDA_SIMULATE=1 gives one)")
@pytest.mark.parametrize("cls,kwargs", [
    (O.Adamax, {"lr": 0.02, "weight_decay": 0.1}),
    (O.NAdam, {"lr": 0.02, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    (O.RAdam, {"lr": 0.02}),
    (O.Adadelta, {"lr": 0.5}),
    (O.ASGD, {"lr": 0.05, "t0": 2}),
], ids=["Adamax", "NAdam", "RAdam", "Adadelta", "ASGD"])
def test_capturable_on_cuda_follows_the_cpu_update(cls, kwargs):
    # capturable keeps every scalar (step, bias corrections, eta ...) a tensor on the GPU, in
    # the scalar dtype; float64 here (the default dtype), as float32 bias corrections such as
    # 1 - beta2 ** t lose digits to cancellation (PyTorch's do too).
    def run(device, capturable):
        params = [p.detach().to(device).requires_grad_(True) for p in traj.initial_params(torch, torch.float64)]
        opt = cls(params, capturable=capturable, **kwargs)
        for step in range(8):
            # the same gradients as on the CPU, computed there
            on_cpu = [p.detach().cpu() for p in params]
            traj.set_grads(torch, on_cpu, step)
            for p, q in zip(params, on_cpu):
                p.grad = None if q.grad is None else q.grad.to(device)
            opt.step()
        assert opt.state[params[0]]["step"].device.type == ("cuda" if capturable else "cpu")
        return [p.detach().cpu().tolist() for p in params]

    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        got, want = run("cuda", True), run("cpu", False)
    finally:
        torch.set_default_dtype(previous)
    assert list(_flat(got)) == pytest.approx(list(_flat(want)), rel=1e-12, abs=1e-13)


# ---- LBFGS ----------------------------------------------------------------------------

def _rosenbrock(opt_kwargs, dtype=torch.float64, steps=1):
    params = traj.initial_params(torch, dtype)
    opt = O.LBFGS(params, **opt_kwargs)
    closure = traj.rosenbrock_closure(torch, opt, params)
    losses = [opt.step(closure) for _ in range(steps)]
    return params, opt, closure, losses


def test_lbfgs_with_strong_wolfe_finds_the_rosenbrock_minimum():
    params, opt, closure, _ = _rosenbrock({"line_search_fn": "strong_wolfe", "max_iter": 200}, steps=2)
    assert closure().item() < 1e-9
    assert list(_flat([p.tolist() for p in params])) == pytest.approx([1.0] * 9, abs=1e-5)


def test_lbfgs_step_returns_the_first_loss_and_counts_evaluations():
    params, opt, closure, losses = _rosenbrock({"max_iter": 5})
    first = traj.rosenbrock_closure(torch, O.LBFGS(traj.initial_params(torch, torch.float64)),
                                    traj.initial_params(torch, torch.float64))()
    assert losses[0].item() == first.item()
    state = opt.state[params[0]]
    # without a line search: one evaluation per iteration but the last (and one at the start)
    assert (state["func_evals"], state["n_iter"]) == (5, 5)
    assert len(state["old_dirs"]) == len(state["old_stps"]) == len(state["ro"]) == 4


def test_lbfgs_respects_max_eval_and_history_size():
    params, opt, _, _ = _rosenbrock({"line_search_fn": "strong_wolfe", "max_iter": 100, "max_eval": 12,
                                     "history_size": 2})
    state = opt.state[params[0]]
    assert state["func_evals"] <= 12 + 1  # the line search may finish its last iteration's bracket
    assert len(state["old_dirs"]) == 2 and len(state["al"]) == 2


def test_lbfgs_stops_at_once_at_a_stationary_point():
    p = torch.ones(3, dtype=torch.float64, requires_grad=True)
    opt = O.LBFGS([p])
    closure = traj.rosenbrock_closure(torch, opt, [p])  # (1, 1, 1) is the minimum: zero gradient
    assert opt.step(closure).item() == 0.0
    assert opt.state[p]["func_evals"] == 1 and opt.state[p]["n_iter"] == 0 and "d" not in opt.state[p]


def test_lbfgs_state_lives_under_the_first_parameter():
    params, opt, _, _ = _rosenbrock({"max_iter": 3})
    assert list(opt.state) == [params[0]]
    sd = opt.state_dict()
    assert list(sd["state"]) == [0]
    assert list(sd["state"][0]) == ["func_evals", "n_iter", "al", "d", "t", "old_dirs", "old_stps", "ro", "H_diag",
                                    "prev_flat_grad", "prev_loss"]
    assert sd["param_groups"] == [{"lr": 1, "max_iter": 3, "max_eval": 3, "tolerance_grad": 1e-07,
                                   "tolerance_change": 1e-09, "history_size": 100, "line_search_fn": None,
                                   "params": [0, 1]}]


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_state_dict_round_trip_continues_bit_identically(line_search_fn):
    kwargs = {"line_search_fn": line_search_fn, "max_iter": 4, "history_size": 3}
    params, opt, closure, _ = _rosenbrock(kwargs)
    saved = copy.deepcopy(opt.state_dict())
    fresh = [p.detach().clone().requires_grad_(True) for p in params]
    opt2 = O.LBFGS(fresh, **kwargs)
    opt2.load_state_dict(saved)
    closure2 = traj.rosenbrock_closure(torch, opt2, fresh)
    for _ in range(2):
        assert opt.step(closure).item() == opt2.step(closure2).item()
    for p, q in zip(params, fresh):
        assert p.tolist() == q.tolist()
    assert opt2.state[fresh[0]]["func_evals"] == opt.state[params[0]]["func_evals"]


def test_lbfgs_runs_the_closure_with_grad_enabled():
    p = leaf(2.0, dtype=torch.float64)
    opt = O.LBFGS([p])
    seen = []

    def closure():
        seen.append(torch.is_grad_enabled())
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    with torch.no_grad():
        opt.step(closure)
    assert seen and all(seen)
    assert abs(p.item()) < 1e-6  # a quadratic: the first full step lands on the minimum


def test_lbfgs_default_max_eval_is_five_fourths_of_max_iter():
    assert O.LBFGS([leaf(1.0)]).param_groups[0]["max_eval"] == 25
    assert O.LBFGS([leaf(1.0)], max_iter=7).param_groups[0]["max_eval"] == 8
