"""test/cpp_extensions/test_torch_library.py - custom operators defined from Python: torch.library's
Library/define/impl, custom_op with its inferred schema, register_fake, register_autograd,
opcheck, torch.ops' boxed calls and their errors, torch._check. Values and messages checked
against PyTorch 2.13. Mirrors PyTorch's test/test_custom_ops.py. Guide: docs/source/internals/cpp_extensions.rst.
"""

import itertools

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck

_names = itertools.count()


def fresh(prefix="op"):
    """A namespace no other test used: operators stay registered for the whole process."""
    return f"testlib{next(_names)}"


def test_library_define_and_impl_in_python():
    ns = fresh()
    lib = torch.library.Library(ns, "DEF")
    lib.define("twice(Tensor x, float s=1.0) -> Tensor")
    lib.impl("twice", lambda x, s: x * 2 * s, "CPU")
    op = getattr(torch.ops, ns).twice
    x = torch.arange(3.0)
    np.testing.assert_array_equal(op(x).numpy(), [0, 2, 4])
    np.testing.assert_array_equal(op(x, s=0.5).numpy(), [0, 1, 2])
    np.testing.assert_array_equal(op.default(x, 3).numpy(), [0, 6, 12])
    assert str(op) == f"{ns}.twice" and str(op.default) == f"{ns}.twice.default"
    assert op.default._schema == "twice(Tensor x, float s=1.0) -> Tensor"


def test_a_library_going_away_takes_its_registrations():
    ns = fresh()
    lib = torch.library.Library(ns, "DEF")
    lib.define("gone(Tensor x) -> Tensor")
    assert torch._C._get_operation_overload_names(f"{ns}::gone") == [""]
    lib._destroy()
    assert torch._C._get_operation_overload_names(f"{ns}::gone") == []


def test_missing_kernel_names_the_backend():
    ns = fresh()
    torch.library.define(f"{ns}::nokernel", "(Tensor x) -> Tensor")
    with pytest.raises(NotImplementedError, match=f"Could not run '{ns}::nokernel' with arguments from the 'CPU' "
                                                   "backend"):
        getattr(torch.ops, ns).nokernel(torch.ones(1))


def test_custom_op_infers_the_schema():
    ns = fresh()

    @torch.library.custom_op(f"{ns}::scale", mutates_args=())
    def scale(x: torch.Tensor, n: int, y: float, z: list[int], w: torch.Tensor | None) -> tuple[torch.Tensor,
                                                                                                torch.Tensor]:
        return x * n * y, x.sum(z) if w is None else w

    assert scale._opoverload._schema == (
        "scale(Tensor x, SymInt n, float y, SymInt[] z, Tensor? w) -> (Tensor, Tensor)")
    a, b = scale(torch.ones(2, 3), 2, 0.5, [1], None)
    np.testing.assert_array_equal(a.numpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(b.numpy(), [3, 3])


def test_infer_schema_marks_mutated_arguments():
    def f(x: torch.Tensor, out: torch.Tensor) -> None:
        ...

    assert torch.library.infer_schema(f, mutates_args={"out"}) == "(Tensor x, Tensor(a0!) out) -> ()"
    with pytest.raises(ValueError, match="infer_schema\\(func\\): Parameter x must have a type annotation."):
        torch.library.infer_schema(lambda x: x, mutates_args=())


def make_cube(ns):
    @torch.library.custom_op(f"{ns}::cube", mutates_args=())
    def cube(x: torch.Tensor) -> torch.Tensor:
        return x * x * x

    return cube


def test_custom_op_without_autograd_formula_raises_in_backward():
    cube = make_cube(fresh())
    x = torch.randn(3, requires_grad=True)
    y = cube(x)
    assert y.requires_grad
    with pytest.raises(RuntimeError, match=r"Trying to backward through testlib\d+\.cube\.default but no autograd "
                                           r"formula was registered. Please use register_autograd to add one."):
        y.sum().backward()


def test_register_autograd_with_setup_context_and_gradcheck():
    cube = make_cube(fresh())

    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x

    cube.register_autograd(backward, setup_context=setup_context)
    x = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
    cube(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * x.detach().numpy() ** 2)
    assert gradcheck(cube, (torch.randn(4, dtype=torch.float64, requires_grad=True),))


def test_register_fake_runs_on_meta_tensors_and_opcheck_passes():
    cube = make_cube(fresh())

    @cube.register_fake
    def _(x):
        return torch.empty_like(x)

    out = cube(torch.empty(2, 5, device="meta"))
    assert out.device.type == "meta" and out.shape == (2, 5)
    cube.register_autograd(lambda ctx, g: g, setup_context=lambda ctx, inputs, output: None)
    result = torch.library.opcheck(cube, (torch.randn(3),))
    assert result == {"test_schema": "SUCCESS", "test_autograd_registration": "SUCCESS",
                      "test_faketensor": "SUCCESS"}


def test_opcheck_catches_an_undeclared_mutation_and_a_wrong_fake():
    ns = fresh()
    lib = torch.library.Library(ns, "DEF")
    lib.define("sneaky(Tensor x) -> Tensor")

    def sneaky(x):
        x.add_(1)
        return x.clone()

    lib.impl("sneaky", sneaky, "CPU")
    lib.impl("sneaky", lambda x: torch.empty(7, device="meta"), "Meta")
    op = getattr(torch.ops, ns).sneaky.default
    results = torch.library.opcheck(op, (torch.zeros(2),), test_utils=("test_schema", "test_faketensor"),
                                    raise_exception=False)
    assert "was modified in place but the schema does not mark it as mutated" in str(results["test_schema"])
    assert "the fake kernel returned shape (7,)" in str(results["test_faketensor"])
    with pytest.raises(torch.library.OpCheckError, match="opcheck\\(op, ...\\): test_schema failed with"):
        torch.library.opcheck(op, (torch.zeros(2),), test_utils="test_schema")


def test_register_kernel_per_device():
    ns = fresh()

    @torch.library.custom_op(f"{ns}::which", mutates_args=(), device_types="cpu")
    def which(x: torch.Tensor) -> torch.Tensor:
        return x + 1

    np.testing.assert_array_equal(which(torch.zeros(2)).numpy(), [1, 1])


def test_boxed_call_errors_match_pytorch():
    ns = fresh()
    torch.library.define(f"{ns}::foo", "(Tensor x, SymInt n) -> Tensor")
    torch.library.impl(f"{ns}::foo", "cpu", lambda x, n: x * n)
    op = getattr(torch.ops, ns).foo
    x = torch.ones(2)
    decl = f"{ns}::foo(Tensor x, SymInt n) -> Tensor"
    with pytest.raises(RuntimeError) as info:
        op(1, 2)
    assert str(info.value) == (f"{ns}::foo() Expected a value of type 'Tensor' for argument 'x' but instead found "
                               f"type 'int'.\nPosition: 0\nValue: 1\nDeclaration: {decl}\n"
                               "Cast error details: Unable to cast 1 to Tensor")
    with pytest.raises(RuntimeError, match=f"^{ns}::foo\\(\\) is missing value for argument 'n'. Declaration: "):
        op(x)
    with pytest.raises(RuntimeError, match=f"^{ns}::foo\\(\\) expected at most 2 argument\\(s\\) but received 3 "
                                           "argument\\(s\\)"):
        op(x, 2, 3)
    # PyTorch checks the schema's arguments first: an unknown keyword leaves 'n' missing.
    with pytest.raises(RuntimeError, match=f"^{ns}::foo\\(\\) is missing value for argument 'n'"):
        op(x, m=2)
    np.testing.assert_array_equal(op(x=x, n=3).numpy(), [3, 3])
    with pytest.raises(AttributeError, match=f"'_OpNamespace' '{ns}' object has no attribute 'bar'"):
        getattr(torch.ops, ns).bar


def test_torch_ops_aten_reaches_the_aten_operators():
    x = torch.tensor([1.0, 2.0])
    np.testing.assert_array_equal(torch.ops.aten.add.Tensor(x, x).numpy(), [2, 4])
    np.testing.assert_array_equal(torch.ops.aten.mul(x, 3).numpy(), [3, 6])
    assert "Tensor" in torch.ops.aten.add.overloads()


def test_torch_check():
    torch._check(True)
    with pytest.raises(RuntimeError, match=r"^Expected cond to be True, but got False. \(Could this error message "):
        torch._check(False)
    with pytest.raises(RuntimeError, match="^boom$"):
        torch._check(False, lambda: "boom")
    with pytest.raises(TypeError, match="message must be a callable"):
        torch._check(False, "x")
    with pytest.raises(IndexError):
        torch._check_index(False)
    with pytest.raises(ValueError):
        torch._check_value(False)
