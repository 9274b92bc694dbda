# test/nn/test_module.py - nn.Module and nn.Parameter: registration, traversal, state_dict, modes, hooks, repr.
# Mirrors PyTorch's test/nn/test_module_hooks.py and the Module parts of test/test_nn.py.
# Guide: docs/source/internals/python_layer.rst.
#
# Error texts and reprs are PyTorch 2.13's, copied from the reference run on the same calls.
from collections import OrderedDict

import numpy as np
import pytest
import torch
import torch.nn as nn
from torch.nn.modules.module import _IncompatibleKeys


def close(a, b):
    return np.allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-9)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(4, 2)
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("scratch", torch.ones(2), persistent=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


# ---- Parameter ----

def test_parameter_requires_grad_by_default_and_aliases_its_data():
    data = torch.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert isinstance(p, torch.Tensor) and p.requires_grad and p.is_leaf
    assert p.data_ptr() == data.data_ptr()
    assert not nn.Parameter(data, requires_grad=False).requires_grad


def test_parameter_repr_and_operations_give_plain_tensors():
    assert repr(nn.Parameter(torch.tensor([1.0, 2.0]))) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    assert repr(nn.Parameter(torch.ones(2), requires_grad=False)) == "Parameter containing:\ntensor([1., 1.])"
    assert repr(nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"
    assert type(nn.Parameter(torch.ones(2)) * 2) is torch.Tensor


def test_parameter_deepcopy_is_a_new_parameter_with_the_same_values():
    import copy
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    q = copy.deepcopy(p)
    assert type(q) is nn.Parameter and q.requires_grad and q.data_ptr() != p.data_ptr()
    assert q.tolist() == [1.0, 2.0]


# ---- registration by attribute ----

def test_attributes_route_to_parameters_buffers_and_modules():
    net = Net()
    assert list(net._parameters) == [] and list(net._modules) == ["fc1", "act", "fc2"]
    assert list(net._buffers) == ["steps", "scratch"]
    assert net.fc1.weight is net.fc1._parameters["weight"]
    net.fc1.bias = None
    assert net.fc1._parameters["bias"] is None
    net.extra = 3
    assert net.__dict__["extra"] == 3
    del net.act
    assert "act" not in net._modules


def test_registration_errors_match_pytorch():
    m = nn.Linear(3, 2)
    with pytest.raises(TypeError, match=r"^cannot assign 'torch.FloatTensor' as parameter 'weight' \(torch.nn.Parameter or None expected\)$"):
        m.weight = torch.ones(2, 3)
    with pytest.raises(KeyError, match=r'parameter name can\\\'t contain "\."'):
        m.register_parameter("a.b", None)
    with pytest.raises(KeyError, match=r'parameter name can\\\'t be empty string ""'):
        m.register_parameter("", None)
    with pytest.raises(TypeError, match=r"^parameter name should be a string. Got int$"):
        m.register_parameter(3, None)
    with pytest.raises(KeyError, match=r"attribute 'in_features' already exists"):
        m.register_parameter("in_features", None)
    with pytest.raises(TypeError, match=r"^cannot assign 'torch.FloatTensor' object to parameter 'x' \(torch.nn.Parameter or None required\)$"):
        m.register_parameter("x", torch.ones(1))
    with pytest.raises(TypeError, match=r"^cannot assign 'int' object to buffer 'x' \(torch Tensor or None required\)$"):
        m.register_buffer("x", 3)
    with pytest.raises(KeyError, match=r'buffer name can\\\'t contain "\."'):
        m.register_buffer("a.b", None)
    with pytest.raises(TypeError, match=r"^int is not a Module subclass$"):
        m.add_module("x", 3)
    with pytest.raises(KeyError, match=r'module name can\\\'t contain "\.", got: a.b'):
        m.add_module("a.b", nn.ReLU())
    with pytest.raises(AttributeError, match=r"^'Linear' object has no attribute 'nothing'$"):
        m.nothing


def test_assigning_before_init_raises():
    class NoInit(nn.Module):
        def __init__(self, what):
            if what == "param":
                self.w = nn.Parameter(torch.ones(1))
            elif what == "module":
                self.l = nn.Linear(1, 1)
            else:
                self.register_buffer("b", torch.ones(1))

    with pytest.raises(AttributeError, match=r"^cannot assign parameters before Module.__init__\(\) call$"):
        NoInit("param")
    with pytest.raises(AttributeError, match=r"^cannot assign module before Module.__init__\(\) call$"):
        NoInit("module")
    with pytest.raises(AttributeError, match=r"^cannot assign buffer before Module.__init__\(\) call$"):
        NoInit("buffer")


def test_missing_forward_raises_not_implemented():
    with pytest.raises(NotImplementedError, match=r'^Module \[Module\] is missing the required "forward" function$'):
        nn.Module()(1)


# ---- traversal ----

def test_named_parameters_buffers_children_modules():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [n for n, _ in net.named_parameters(prefix="net")] == [
        "net.fc1.weight", "net.fc1.bias", "net.fc2.weight", "net.fc2.bias"]
    assert list(net.named_parameters(recurse=False)) == []
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch"]
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "fc2"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "fc2"]
    assert list(net.modules())[0] is net
    assert len(list(net.parameters())) == 4 and len(list(net.buffers())) == 2


def test_shared_modules_and_parameters_are_listed_once_unless_asked():
    shared = nn.Linear(2, 2)
    seq = nn.Sequential(shared, nn.ReLU(), shared)
    assert [n for n, _ in seq.named_modules()] == ["", "0", "1"]
    assert [n for n, _ in seq.named_modules(remove_duplicate=False)] == ["", "0", "1", "2"]
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias"]
    assert [n for n, _ in seq.named_parameters(remove_duplicate=False)] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_get_submodule_and_parameter():
    seq = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1)))
    assert seq.get_submodule("1.1") is seq[1][1]
    assert seq.get_parameter("1.1.bias") is seq[1][1].bias
    with pytest.raises(AttributeError, match="Sequential has no attribute `5`"):
        seq.get_submodule("5")


# ---- state_dict ----

def test_state_dict_keys_order_and_sharing():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["steps", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]  # own entries first
    assert not sd["fc1.weight"].requires_grad and type(sd["fc1.weight"]) is torch.Tensor
    assert sd["fc1.weight"].data_ptr() == net.fc1.weight.data_ptr()
    assert net.state_dict(keep_vars=True)["fc1.weight"] is net.fc1.weight
    assert list(net.state_dict(prefix="m."))[0] == "m.steps"
    assert sd._metadata[""] == {"version": 1} and sd._metadata["fc1"] == {"version": 1}


def test_state_dict_round_trip_copies_values():
    a, b = Net(), Net()
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert result == _IncompatibleKeys([], [])
    for (na, pa), (nb, pb) in zip(a.named_parameters(), b.named_parameters()):
        assert na == nb and pa.tolist() == pb.tolist() and pa.data_ptr() != pb.data_ptr()


def test_load_state_dict_errors_match_pytorch():
    m = nn.Linear(3, 2)
    with pytest.raises(RuntimeError) as e:
        m.load_state_dict({"weight": torch.ones(2, 3)})
    assert str(e.value) == 'Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: "bias". '
    with pytest.raises(RuntimeError) as e:
        m.load_state_dict({"weight": torch.ones(2, 3), "bias": torch.ones(2), "extra": torch.ones(1)})
    assert str(e.value) == 'Error(s) in loading state_dict for Linear:\n\tUnexpected key(s) in state_dict: "extra". '
    with pytest.raises(RuntimeError) as e:
        m.load_state_dict({"weight": torch.ones(3, 3), "bias": torch.ones(2)})
    assert str(e.value) == (
        "Error(s) in loading state_dict for Linear:\n\tsize mismatch for weight: copying a param with shape "
        "torch.Size([3, 3]) from checkpoint, the shape in current model is torch.Size([2, 3]).")
    s = nn.Sequential(nn.Linear(1, 2), nn.Linear(2, 1))
    with pytest.raises(RuntimeError) as e:
        s.load_state_dict({"0.weight": torch.ones(2, 1), "1.bias": torch.ones(3)})
    assert str(e.value) == (
        'Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: "0.bias", "1.weight". '
        "\n\tsize mismatch for 1.bias: copying a param with shape torch.Size([3]) from checkpoint, "
        "the shape in current model is torch.Size([1]).")
    with pytest.raises(TypeError, match=r"^Expected state_dict to be dict-like, got <class 'list'>.$"):
        m.load_state_dict([1])


def test_load_state_dict_not_strict_reports_keys():
    m = nn.Linear(3, 2)
    result = m.load_state_dict({"weight": torch.full((2, 3), 7.0), "extra": torch.ones(1)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["extra"]
    assert repr(result) == "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=['extra'])"
    assert m.weight.tolist() == [[7.0] * 3] * 2


def test_non_persistent_buffer_is_not_saved_nor_expected():
    net = Net()
    assert "scratch" not in net.state_dict()
    net.load_state_dict(Net().state_dict())


# ---- modes, gradients, conversions ----

def test_train_eval_reach_every_descendant():
    net = nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.Dropout()))
    net.eval()
    assert not net.training and not net[1][0].training
    assert net.train() is net and net[1][0].training
    with pytest.raises(ValueError, match="^training mode is expected to be boolean$"):
        net.train("yes")


def test_zero_grad_and_requires_grad_():
    m = nn.Linear(2, 1)
    m(torch.ones(1, 2)).sum().backward()
    assert m.weight.grad.tolist() == [[1.0, 1.0]]
    m.zero_grad(set_to_none=False)
    assert m.weight.grad.tolist() == [[0.0, 0.0]]
    m.zero_grad()
    assert m.weight.grad is None
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())


def test_to_double_keeps_parameter_type_and_converts_buffers():
    net = Net()
    w_before = net.fc1.weight.flatten().tolist()
    w0 = net.fc1.weight
    assert net.to(torch.float64) is net
    assert net.fc1.weight is w0  # the same Parameter object, now float64 (param.data = ...)
    assert net.fc1.weight.dtype == torch.float64 and type(net.fc1.weight) is nn.Parameter
    assert net.fc1.weight.requires_grad and net.steps.dtype == torch.float64
    assert net.fc1.weight.flatten().tolist() == pytest.approx(w_before)
    assert net(torch.ones(1, 3, dtype=torch.float64)).dtype == torch.float64
    net.float()
    assert net.fc2.bias.dtype == torch.float32
    w = net.fc1.weight
    net.to("cpu")
    assert net.fc1.weight is w
    with pytest.raises(TypeError, match=r"^nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.int64$"):
        net.to(torch.int64)


def test_apply_visits_children_then_self():
    seen = []
    nn.Sequential(nn.Linear(1, 1), nn.ReLU()).apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Sequential"]


# ---- hooks ----

def test_forward_pre_hook_and_forward_hook_can_replace_values():
    m = nn.Identity()
    calls = []
    h1 = m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
    h2 = m.register_forward_hook(lambda mod, args, out: calls.append(out.item()) or out + 1)
    assert m(torch.tensor(3.0)).item() == 7.0 and calls == [6.0]
    h1.remove()
    h2.remove()
    assert m(torch.tensor(3.0)).item() == 3.0


def test_hooks_with_kwargs_and_prepend():
    class Scale(nn.Module):
        def forward(self, x, scale=1.0):
            return x * scale

    m = Scale()
    order = []
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"scale": 10.0}), with_kwargs=True)
    m.register_forward_hook(lambda mod, args, kwargs, out: order.append(("kw", kwargs["scale"])), with_kwargs=True)
    m.register_forward_hook(lambda mod, args, out: order.append("first"), prepend=True)
    assert m(torch.tensor(2.0)).item() == 20.0
    assert order == ["first", ("kw", 10.0)]


def test_forward_pre_hook_with_kwargs_must_return_a_pair():
    m = nn.Linear(3, 2)
    m.register_forward_pre_hook(lambda mod, args, kw: 3, with_kwargs=True)
    with pytest.raises(RuntimeError, match=r"^forward pre-hook must return None or a tuple of \(new_args, new_kwargs\), but got 3.$"):
        m(torch.ones(3))


def linear_with_fixed_weights():
    # The setup of the reference run: W = cos(arange(12)).reshape(3, 4), b = [0.1, -0.2, 0.3], float64.
    m = nn.Linear(4, 3).to(torch.float64)
    with torch.no_grad():
        m.weight.copy_(torch.arange(12, dtype=torch.float64).reshape(3, 4).cos())
        m.bias.copy_(torch.tensor([0.1, -0.2, 0.3], dtype=torch.float64))
    x = torch.tensor([[0.5, -1.0, 2.0, 0.1], [1.5, 0.3, -0.7, -2.0], [0.0, 0.2, 0.4, -0.4]], dtype=torch.float64)
    return m, x


def test_full_backward_hook_sees_pytorchs_grad_input_and_grad_output():
    m, x = linear_with_fixed_weights()
    got = {}
    m.register_full_backward_hook(lambda mod, gi, go: got.update(gi=gi, go=go))
    x.requires_grad_()
    (m(x) ** 2).sum().backward()
    assert len(got["gi"]) == 1 and len(got["go"]) == 1
    # grad_output = 2 * y; grad_input = grad_output @ W  (values from PyTorch 2.13)
    assert got["go"][0].flatten()[:3].tolist() == pytest.approx([-1.7431904572, 2.3704936057, -1.0786404867])
    assert got["gi"][0].flatten()[:4].tolist() == pytest.approx([-3.1357062536, 0.7133515624, 3.9065572417, 3.508092209])
    assert close(got["gi"][0], got["go"][0] @ m.weight.detach())
    assert close(x.grad, got["gi"][0])


def test_full_backward_hook_can_replace_grad_input_and_pre_hook_grad_output():
    m, x = linear_with_fixed_weights()
    x.requires_grad_()
    m.register_full_backward_pre_hook(lambda mod, go: (go[0] * 0 + 1,))
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 2,))
    (m(x) ** 2).sum().backward()
    expected = 2 * torch.ones(3, 3, dtype=torch.float64) @ m.weight.detach()
    assert close(x.grad, expected)
    assert m.bias.grad.tolist() == [3.0, 3.0, 3.0]  # the pre-hook's ones reach the parameters too


def test_full_backward_hook_when_no_input_requires_grad_gets_none():
    m, x = linear_with_fixed_weights()
    got = {}
    m.register_full_backward_hook(lambda mod, gi, go: got.update(gi=gi, go=go))
    m(x).sum().backward()
    assert got["gi"] == (None,) and got["go"][0].shape == (3, 3)


def test_full_backward_hook_wrong_count_raises():
    m = nn.Linear(3, 2)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match=r"^Backward hook returned an invalid number of grad_input, got 2, but expected 1$"):
        m(torch.ones(1, 3, requires_grad=True)).sum().backward()


# ---- repr ----

def test_repr_nests_children_with_indentation():
    net = nn.Sequential(OrderedDict(
        [("conv", nn.Sequential(nn.Linear(2, 3), nn.GELU())), ("drop", nn.Dropout(0.1)), ("out", nn.Linear(3, 1, bias=False))]))
    assert repr(net) == (
        "Sequential(\n"
        "  (conv): Sequential(\n"
        "    (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "    (1): GELU(approximate='none')\n"
        "  )\n"
        "  (drop): Dropout(p=0.1, inplace=False)\n"
        "  (out): Linear(in_features=3, out_features=1, bias=False)\n"
        ")")
    assert repr(Net()) == (
        "Net(\n  (fc1): Linear(in_features=3, out_features=4, bias=True)\n  (act): ReLU()\n"
        "  (fc2): Linear(in_features=4, out_features=2, bias=True)\n)")


# ---- containers ----

def test_sequential_indexing_slicing_and_errors():
    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    assert isinstance(seq[-1], nn.Linear) and len(seq[1:]) == 2 and type(seq[1:]) is nn.Sequential
    del seq[0]
    assert list(seq._modules) == ["0", "1"]
    seq.append(nn.Tanh())
    assert list(seq._modules) == ["0", "1", "2"]
    with pytest.raises(IndexError, match="^index 5 is out of range$"):
        seq[5]
    with pytest.raises(ValueError, match=r"^add operator supports only objects of Sequential class, but <class 'int'> is given.$"):
        seq + 3
    assert len(seq + nn.Sequential(nn.ReLU())) == 4


def test_modulelist_repr_groups_repeated_modules():
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
    assert repr(ml) == (
        "ModuleList(\n  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)\n  (3): ReLU()\n)")
    assert [n for n, _ in ml.named_parameters()][:2] == ["0.weight", "0.bias"]
    with pytest.raises(TypeError, match="^ModuleList.extend should be called with an iterable, but got int$"):
        nn.ModuleList(3)


def test_moduledict_and_parameter_containers():
    md = nn.ModuleDict({"a": nn.Linear(1, 1), "b": nn.ReLU()})
    assert list(md.keys()) == ["a", "b"] and "a" in md and len(md) == 2
    assert [n for n, _ in md.named_parameters()] == ["a.weight", "a.bias"]
    pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(2)])
    assert all(type(p) is nn.Parameter for p in pl)
    assert repr(pl) == (
        "ParameterList(\n    (0): Parameter containing: [torch.float32 of size 2x3]\n"
        "    (1): Parameter containing: [torch.float32 of size 2]\n)")
    pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2, 3))})
    assert repr(pd) == "ParameterDict(  (a): Parameter containing: [torch.FloatTensor of size 2x3])"
    assert list(pd.state_dict()) == ["a"]


def test_a_small_model_trains():
    torch.manual_seed(0)
    x = torch.randn(32, 2)
    y = (x[:, 0] * x[:, 1] > 0).to(torch.int64)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    loss_fn = nn.CrossEntropyLoss()
    first = None
    for _ in range(200):
        loss = loss_fn(model(x), y)
        first = first if first is not None else loss.item()
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.sub_(p.grad * 0.5)
    assert loss.item() < first / 3
