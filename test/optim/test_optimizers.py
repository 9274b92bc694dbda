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
# zero) and 1.4e-15 relative (float64).
TOLERANCE = {"float32": dict(rel=1e-5, abs=1e-6), "float64": dict(rel=1e-13, abs=1e-14)}


def _flat(x):
    if isinstance(x, list):
        for y in x:
            yield from _flat(y)
    else:
        yield x


@pytest.mark.parametrize("dtype_name", traj.DTYPES)
@pytest.mark.parametrize("case", traj.CASES, ids=[c[0] for c in traj.CASES])
def test_trajectory_matches_pytorch(case, dtype_name):
    got = traj.run(torch, case, dtype_name)
    ref = REFERENCE[(case[0], dtype_name)]
    tol = TOLERANCE[dtype_name]
    for g, r in zip(got["params"], ref["params"]):
        assert list(_flat(g)) == pytest.approx(list(_flat(r)), **tol)
    # the same state, under the same keys, for the same parameters
    assert got["state"].keys() == ref["state"].keys()
    for index, ref_state in ref["state"].items():
        assert list(got["state"][index]) == list(ref_state)
        for key, value in ref_state.items():
            if key == "step":
                assert got["state"][index][key] == value  # a count: exact
            else:
                assert list(_flat(got["state"][index][key])) == pytest.approx(list(_flat(value)), **tol)


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
                        (O.Adagrad, {"lr": 0.5}), (O.RMSprop, {"lr": 0.05})]:
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


@pytest.mark.parametrize("cls", [O.SGD, O.Adam, O.AdamW, O.RMSprop])
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
], ids=["SGD", "Adam", "AdamW", "Adagrad", "RMSprop"])
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


@pytest.mark.parametrize("cls", [O.SGD, O.Adam, O.AdamW, O.Adagrad, O.RMSprop])
def test_foreach_is_not_implemented_here(cls):
    with pytest.raises(RuntimeError, match=re.escape(
            "foreach=True is not implemented in this project: only the single-tensor (for-loop) implementation")):
        cls([leaf(1.0)], foreach=True)


@pytest.mark.parametrize("cls", [O.SGD, O.Adam, O.Adagrad])
def test_fused_is_not_implemented_here(cls):
    with pytest.raises(RuntimeError, match=re.escape("fused=True is not implemented in this project")):
        cls([leaf(1.0)], fused=True)
