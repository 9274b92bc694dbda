"""test/autograd/test_gradcheck_ops.py - every formula of tools/autograd/derivatives.yaml against
finite differences.

Each entry of OPS names an operator, the call that reaches it, the inputs it takes and the
name PyTorch gives its backward node (checked against PyTorch 2.x: type(op(x).grad_fn).__name__).
For each one: gradcheck in float64 on contiguous inputs, on non-contiguous ones (transposed,
sliced, expanded) and, where the entry says so, through the in-place variant on a non-leaf
clone. A representative set also passes gradgradcheck (the formulas are themselves
differentiable). Guide: docs/source/internals/autograd.rst.
"""

import pytest

import torch
from torch.autograd import gradcheck, gradgradcheck

f64 = torch.float64


def leaf(*shape, low=None, layout="contiguous"):
    """A float64 leaf that requires grad, laid out as asked (same values whatever the layout)."""
    if layout == "transposed" and len(shape) >= 2:
        t = torch.randn(*shape[:-2], shape[-1], shape[-2], dtype=f64).transpose(-1, -2)
    elif layout == "sliced" and len(shape) >= 1:
        t = torch.randn(*shape[:-1], shape[-1] * 2, dtype=f64)[..., ::2]
    else:
        t = torch.randn(tuple(shape), dtype=f64)
    if low is not None:
        t = t.abs() + low  # keep away from a singularity (log, sqrt, 1/x ...)
    return t.requires_grad_()


def pos(*shape, layout="contiguous"):
    return leaf(*shape, low=0.5, layout=layout)


IDX = torch.tensor([0, 2])
MASK = torch.tensor([[True, False, True, False], [False, False, True, True], [True, True, False, False]])


# (id, function, input maker(layout) -> tuple of inputs, PyTorch's node name). The name is None
# where PyTorch's Python binding does not reach the overload named (it wraps a Python number
# into a tensor, so x.add(2) records AddBackward0 there); the gradient is checked all the same.
OPS = [
    # ---- binary arithmetic (broadcasting: the second input is a row) ----
    ("add.Tensor", lambda a, b: torch.add(a, b, alpha=2), lambda l: (leaf(3, 4, layout=l), leaf(4)), "AddBackward0"),
    ("add.Scalar", lambda a: a.add(2), lambda l: (leaf(3, 4, layout=l),), None),
    ("sub.Tensor", lambda a, b: torch.sub(a, b, alpha=3), lambda l: (leaf(3, 4, layout=l), leaf(4)), "SubBackward0"),
    ("sub.Scalar", lambda a: a.sub(2), lambda l: (leaf(3, 4, layout=l),), None),
    ("mul.Tensor", torch.mul, lambda l: (leaf(3, 4, layout=l), leaf(3, 1)), "MulBackward0"),
    ("mul.Scalar", lambda a: a.mul(3), lambda l: (leaf(3, 4, layout=l),), None),
    ("div.Tensor", torch.div, lambda l: (leaf(3, 4, layout=l), pos(4)), "DivBackward0"),
    ("div.Scalar", lambda a: a.div(3), lambda l: (leaf(3, 4, layout=l),), None),
    ("div.Tensor_mode", lambda a, b: torch.div(a, b, rounding_mode="floor"), lambda l: (leaf(3, 4, layout=l), pos(4)),
     "DivBackward2"),
    ("div.Scalar_mode", lambda a: torch.div(a, 0.7, rounding_mode="trunc"), lambda l: (leaf(3, 4, layout=l),),
     None),
    ("remainder.Scalar", lambda a: torch.remainder(a, 0.7), lambda l: (leaf(3, 4, layout=l),), "RemainderBackward0"),
    ("remainder.Tensor", torch.remainder, lambda l: (leaf(3, 4, layout=l), pos(4)), "RemainderBackward1"),
    ("fmod.Scalar", lambda a: torch.fmod(a, 0.7), lambda l: (leaf(3, 4, layout=l),), "FmodBackward0"),
    ("fmod.Tensor", torch.fmod, lambda l: (leaf(3, 4, layout=l), pos(4)), "FmodBackward1"),
    ("pow.Tensor_Scalar", lambda a: a.pow(3), lambda l: (leaf(3, 4, layout=l),), "PowBackward0"),
    ("pow.Tensor_Tensor", torch.pow, lambda l: (pos(3, 4, layout=l), leaf(4)), "PowBackward1"),
    ("pow.Scalar", lambda e: torch.pow(2.5, e), lambda l: (leaf(3, 4, layout=l),), "PowBackward2"),
    ("maximum", torch.maximum, lambda l: (leaf(3, 4, layout=l), leaf(4)), "MaximumBackward0"),
    ("minimum", torch.minimum, lambda l: (leaf(3, 4, layout=l), leaf(4)), "MinimumBackward0"),
    ("atan2", torch.atan2, lambda l: (leaf(3, 4, layout=l), pos(4)), "Atan2Backward0"),
    ("where.self", lambda a, b: torch.where(MASK, a, b), lambda l: (leaf(3, 4, layout=l), leaf(4)), "WhereBackward0"),
    ("clamp", lambda a: a.clamp(-0.5, 0.5), lambda l: (leaf(3, 4, layout=l),), "ClampBackward1"),
    ("clamp.Tensor", lambda a, lo, hi: a.clamp(lo, hi), lambda l: (leaf(3, 4, layout=l), leaf(4) - 1, leaf(4) + 1),
     "ClampBackward0"),
    ("clamp_min", lambda a: a.clamp_min(0.1), lambda l: (leaf(3, 4, layout=l),), "ClampMinBackward0"),
    ("clamp_max", lambda a: a.clamp_max(0.1), lambda l: (leaf(3, 4, layout=l),), "ClampMaxBackward0"),
    ("masked_fill.Scalar", lambda a: a.masked_fill(MASK, 2.0), lambda l: (leaf(3, 4, layout=l),), "MaskedFillBackward0"),
    ("masked_fill.Tensor", lambda a, v: a.masked_fill(MASK, v), lambda l: (leaf(3, 4, layout=l), leaf()),
     "MaskedFillBackward1"),
    ("lerp.Scalar", lambda a, b: torch.lerp(a, b, 0.3), lambda l: (leaf(3, 4, layout=l), leaf(4)), "LerpBackward0"),
    ("lerp.Tensor", torch.lerp, lambda l: (leaf(3, 4, layout=l), leaf(4), leaf(3, 1)), "LerpBackward1"),
    ("addcmul", lambda a, b, c: torch.addcmul(a, b, c, value=0.5), lambda l: (leaf(3, 4, layout=l), leaf(4), leaf(3, 4)),
     "AddcmulBackward0"),
    ("addcdiv", lambda a, b, c: torch.addcdiv(a, b, c, value=0.5), lambda l: (leaf(3, 4, layout=l), leaf(4), pos(3, 4)),
     "AddcdivBackward0"),
    # ---- unary ----
    ("neg", torch.neg, lambda l: (leaf(3, 4, layout=l),), "NegBackward0"),
    ("abs", torch.abs, lambda l: (leaf(3, 4, layout=l),), "AbsBackward0"),
    ("exp", torch.exp, lambda l: (leaf(3, 4, layout=l),), "ExpBackward0"),
    ("log", torch.log, lambda l: (pos(3, 4, layout=l),), "LogBackward0"),
    ("log1p", torch.log1p, lambda l: (pos(3, 4, layout=l),), "Log1PBackward0"),
    ("sqrt", torch.sqrt, lambda l: (pos(3, 4, layout=l),), "SqrtBackward0"),
    ("rsqrt", torch.rsqrt, lambda l: (pos(3, 4, layout=l),), "RsqrtBackward0"),
    ("sin", torch.sin, lambda l: (leaf(3, 4, layout=l),), "SinBackward0"),
    ("cos", torch.cos, lambda l: (leaf(3, 4, layout=l),), "CosBackward0"),
    ("tan", lambda a: torch.tan(a * 0.3), lambda l: (leaf(3, 4, layout=l),), "TanBackward0"),
    ("tanh", torch.tanh, lambda l: (leaf(3, 4, layout=l),), "TanhBackward0"),
    ("sigmoid", torch.sigmoid, lambda l: (leaf(3, 4, layout=l),), "SigmoidBackward0"),
    ("erf", torch.erf, lambda l: (leaf(3, 4, layout=l),), "ErfBackward0"),
    ("sign", torch.sign, lambda l: (leaf(3, 4, layout=l),), "SignBackward0"),
    ("floor", torch.floor, lambda l: (leaf(3, 4, layout=l),), "FloorBackward0"),
    ("ceil", torch.ceil, lambda l: (leaf(3, 4, layout=l),), "CeilBackward0"),
    ("round", torch.round, lambda l: (leaf(3, 4, layout=l),), "RoundBackward0"),
    ("round.decimals", lambda a: torch.round(a, decimals=1), lambda l: (leaf(3, 4, layout=l),), "RoundBackward1"),
    ("trunc", torch.trunc, lambda l: (leaf(3, 4, layout=l),), "TruncBackward0"),
    ("reciprocal", torch.reciprocal, lambda l: (pos(3, 4, layout=l),), "ReciprocalBackward0"),
    ("relu", torch.relu, lambda l: (leaf(3, 4, layout=l),), "ReluBackward0"),
    ("gelu", lambda a: torch._C._nn.gelu(a), lambda l: (leaf(3, 4, layout=l),), "GeluBackward0"),
    ("gelu.tanh", lambda a: torch._C._nn.gelu(a, approximate="tanh"), lambda l: (leaf(3, 4, layout=l),),
     "GeluBackward0"),
    ("silu", lambda a: torch._C._nn.silu(a), lambda l: (leaf(3, 4, layout=l),), "SiluBackward0"),
    ("nan_to_num", torch.nan_to_num, lambda l: (leaf(3, 4, layout=l),), "NanToNumBackward0"),
    # ---- copies, views ----
    ("clone", torch.clone, lambda l: (leaf(3, 4, layout=l),), "CloneBackward0"),
    ("_to_copy", lambda a: a.to(f64, copy=True), lambda l: (leaf(3, 4, layout=l),), "ToCopyBackward0"),
    ("t", torch.t, lambda l: (leaf(3, 4, layout=l),), "TBackward0"),
    ("transpose.int", lambda a: a.transpose(0, 1), lambda l: (leaf(3, 4, layout=l),), "TransposeBackward0"),
    ("permute", lambda a: a.permute(1, 0), lambda l: (leaf(3, 4, layout=l),), "PermuteBackward0"),
    ("select.int", lambda a: a.select(1, 2), lambda l: (leaf(3, 4, layout=l),), "SelectBackward0"),
    ("slice.Tensor", lambda a: a[:, 1:3], lambda l: (leaf(3, 4, layout=l),), "SliceBackward0"),
    ("unsqueeze", lambda a: a.unsqueeze(1), lambda l: (leaf(3, 4, layout=l),), "UnsqueezeBackward0"),
    ("squeeze", lambda a: a.unsqueeze(0).squeeze(), lambda l: (leaf(3, 4, layout=l),), "SqueezeBackward0"),
    ("squeeze.dim", lambda a: a.unsqueeze(1).squeeze(1), lambda l: (leaf(3, 4, layout=l),), "SqueezeBackward1"),
    ("squeeze.dims", lambda a: a.unsqueeze(0).squeeze((0,)), lambda l: (leaf(3, 4, layout=l),), "SqueezeBackward2"),
    ("diagonal", lambda a: a.diagonal(1), lambda l: (leaf(3, 4, layout=l),), "DiagonalBackward0"),
    ("unfold", lambda a: a.unfold(1, 2, 1), lambda l: (leaf(3, 4, layout=l),), "UnfoldBackward0"),
    ("split.Tensor", lambda a: a.split(3, 1), lambda l: (leaf(3, 4, layout=l),), "SplitBackward0"),
    ("split_with_sizes", lambda a: a.split([1, 3], 1), lambda l: (leaf(3, 4, layout=l),), "SplitWithSizesBackward0"),
    ("unbind.int", lambda a: a.unbind(1), lambda l: (leaf(3, 4, layout=l),), "UnbindBackward0"),
    ("view", lambda a: a.contiguous().view(12), lambda l: (leaf(3, 4, layout=l),), "ViewBackward0"),
    ("expand", lambda a: a.expand(3, 4), lambda l: (leaf(1, 4, layout=l),), "ExpandBackward0"),
    ("as_strided", lambda a: a.contiguous().as_strided((2, 2), (1, 2), 1), lambda l: (leaf(3, 4, layout=l),),
     "AsStridedBackward0"),
    # ---- reductions ----
    ("sum", torch.sum, lambda l: (leaf(3, 4, layout=l),), "SumBackward0"),
    ("sum.dim_IntList", lambda a: a.sum(1), lambda l: (leaf(3, 4, layout=l),), "SumBackward1"),
    ("mean", torch.mean, lambda l: (leaf(3, 4, layout=l),), "MeanBackward0"),
    ("mean.dim", lambda a: a.mean(0, keepdim=True), lambda l: (leaf(3, 4, layout=l),), "MeanBackward1"),
    ("prod", torch.prod, lambda l: (leaf(3, 4, layout=l),), "ProdBackward0"),
    ("prod.dim_int", lambda a: a.prod(1), lambda l: (leaf(3, 4, layout=l),), "ProdBackward1"),
    ("max.dim", lambda a: a.max(1)[0], lambda l: (leaf(3, 4, layout=l),), "MaxBackward0"),
    ("max", torch.max, lambda l: (leaf(3, 4, layout=l),), "MaxBackward1"),
    ("min.dim", lambda a: a.min(0, keepdim=True)[0], lambda l: (leaf(3, 4, layout=l),), "MinBackward0"),
    ("min", torch.min, lambda l: (leaf(3, 4, layout=l),), "MinBackward1"),
    ("amax", lambda a: a.amax(1), lambda l: (leaf(3, 4, layout=l),), "AmaxBackward0"),
    ("amin", lambda a: a.amin((0, 1)), lambda l: (leaf(3, 4, layout=l),), "AminBackward0"),
    ("var.correction", lambda a: a.var(1, correction=0), lambda l: (leaf(3, 4, layout=l),), "VarBackward0"),
    ("std.correction", lambda a: a.std(), lambda l: (leaf(3, 4, layout=l),), "StdBackward0"),
    ("var_mean.correction", lambda a: torch.var_mean(a, 1), lambda l: (leaf(3, 4, layout=l),), "VarMeanBackward0"),
    ("std_mean.correction", lambda a: torch.std_mean(a, 0, keepdim=True), lambda l: (leaf(3, 4, layout=l),),
     "StdMeanBackward0"),
    ("logsumexp", lambda a: a.logsumexp(1), lambda l: (leaf(3, 4, layout=l),), "LogsumexpBackward0"),
    ("cumsum", lambda a: a.cumsum(1), lambda l: (leaf(3, 4, layout=l),), "CumsumBackward0"),
    ("cumprod", lambda a: a.cumprod(1), lambda l: (leaf(3, 4, layout=l),), "CumprodBackward0"),
    ("_softmax", lambda a: a.softmax(1), lambda l: (leaf(3, 4, layout=l),), "SoftmaxBackward0"),
    ("_log_softmax", lambda a: a.log_softmax(0), lambda l: (leaf(3, 4, layout=l),), "LogSoftmaxBackward0"),
    ("sort", lambda a: a.sort(1)[0], lambda l: (leaf(3, 4, layout=l),), "SortBackward0"),
    ("sort.stable", lambda a: a.sort(stable=True, dim=0, descending=True)[0], lambda l: (leaf(3, 4, layout=l),),
     "SortBackward1"),
    ("topk", lambda a: a.topk(2, 1)[0], lambda l: (leaf(3, 4, layout=l),), "TopkBackward0"),
    # ---- linear algebra ----
    ("mm", torch.mm, lambda l: (leaf(3, 4, layout=l), leaf(4, 2)), "MmBackward0"),
    ("bmm", torch.bmm, lambda l: (leaf(2, 3, 4, layout=l), leaf(2, 4, 2)), "BmmBackward0"),
    ("addmm", lambda a, b, c: torch.addmm(a, b, c, beta=0.5, alpha=2), lambda l: (leaf(2), leaf(3, 4, layout=l), leaf(4, 2)),
     "AddmmBackward0"),
    ("mv", torch.mv, lambda l: (leaf(3, 4, layout=l), leaf(4)), "MvBackward0"),
    ("dot", torch.dot, lambda l: (leaf(4, layout=l), leaf(4)), "DotBackward0"),
    # ---- indexing ----
    ("index.Tensor", lambda a: a[IDX], lambda l: (leaf(3, 4, layout=l),), "IndexBackward0"),
    ("index.Tensor.repeated", lambda a: a[:, torch.tensor([1, 1, 3])], lambda l: (leaf(3, 4, layout=l),),
     "IndexBackward0"),
    ("index_put", lambda a, v: torch.index_put(a, (IDX,), v), lambda l: (leaf(3, 4, layout=l), leaf(4)),
     "IndexPutBackward0"),
    ("index_put.accumulate", lambda a, v: torch.index_put(a, (IDX,), v, True), lambda l: (leaf(3, 4, layout=l), leaf(2, 4)),
     "IndexPutBackward0"),
    ("index_select", lambda a: a.index_select(1, IDX), lambda l: (leaf(3, 4, layout=l),), "IndexSelectBackward0"),
    ("gather", lambda a: a.gather(1, torch.tensor([[0, 0], [1, 3], [2, 2]])), lambda l: (leaf(3, 4, layout=l),),
     "GatherBackward0"),
    ("scatter.src", lambda a, s: a.scatter(0, torch.tensor([[0, 2, 1, 0]]), s), lambda l: (leaf(3, 4, layout=l), leaf(1, 4)),
     "ScatterBackward0"),
    ("scatter.value", lambda a: a.scatter(1, torch.tensor([[0], [3], [1]]), 2.0), lambda l: (leaf(3, 4, layout=l),),
     "ScatterBackward1"),
    ("scatter_add", lambda a, s: a.scatter_add(0, torch.tensor([[0, 0, 1, 2], [0, 1, 1, 2]]), s),
     lambda l: (leaf(3, 4, layout=l), leaf(2, 4)), "ScatterAddBackward0"),
    ("index_add", lambda a, s: a.index_add(0, IDX, s, alpha=2), lambda l: (leaf(3, 4, layout=l), leaf(2, 4)),
     "IndexAddBackward0"),
    ("index_fill.int_Scalar", lambda a: a.index_fill(1, IDX, 2.0), lambda l: (leaf(3, 4, layout=l),),
     "IndexFillBackward0"),
    ("index_fill.int_Tensor", lambda a, v: a.index_fill(1, IDX, v), lambda l: (leaf(3, 4, layout=l), leaf()),
     "IndexFillBackward1"),
    ("masked_select", lambda a: a.masked_select(MASK), lambda l: (leaf(3, 4, layout=l),), "MaskedSelectBackward0"),
    ("masked_scatter", lambda a, s: a.masked_scatter(MASK, s), lambda l: (leaf(3, 4, layout=l), leaf(2, 5)),
     "MaskedScatterBackward0"),
    ("take", lambda a: a.take(torch.tensor([[0, 5], [11, 5]])), lambda l: (leaf(3, 4, layout=l),), "TakeBackward0"),
    # ---- joining, repeating, reordering ----
    ("cat", lambda a, b: torch.cat([a, b], 1), lambda l: (leaf(3, 4, layout=l), leaf(3, 2)), "CatBackward0"),
    ("stack", lambda a, b: torch.stack([a, b], 1), lambda l: (leaf(3, 4, layout=l), leaf(3, 4)), "StackBackward0"),
    ("repeat", lambda a: a.repeat(2, 1, 3), lambda l: (leaf(3, 4, layout=l),), "RepeatBackward0"),
    ("flip", lambda a: a.flip(0, 1), lambda l: (leaf(3, 4, layout=l),), "FlipBackward0"),
    ("roll", lambda a: a.roll(1, 1), lambda l: (leaf(3, 4, layout=l),), "RollBackward0"),
    ("roll.flat", lambda a: a.roll(5), lambda l: (leaf(3, 4, layout=l),), "RollBackward0"),
    ("tril", lambda a: a.tril(), lambda l: (leaf(3, 4, layout=l),), "TrilBackward0"),
    ("triu", lambda a: a.triu(1), lambda l: (leaf(3, 4, layout=l),), "TriuBackward0"),
]

LAYOUTS = ["contiguous", "transposed", "sliced"]


def _first_output(out):
    return out[0] if isinstance(out, (tuple, list)) else out


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name,fn,make,node", OPS, ids=[op[0] for op in OPS])
def test_gradcheck(name, fn, make, node, layout):
    torch.manual_seed(0)
    inputs = make(layout)
    assert gradcheck(fn, inputs)


# Where this tree's Python argument parser picks another overload than PyTorch's for the
# same call (the node is then right for the overload reached, but not the one PyTorch reaches).
PYTHON_BINDING_DIFFERENCES = {
    "remainder.Scalar": "torch.remainder(t, 0.7) reaches remainder.Tensor here, remainder.Scalar in PyTorch",
    "fmod.Scalar": "torch.fmod(t, 0.7) reaches fmod.Tensor here, fmod.Scalar in PyTorch",
    "remainder.Scalar_Tensor": "torch.remainder(2.0, t) reaches remainder.Tensor here, remainder.Scalar_Tensor "
                               "(no formula) in PyTorch",
}


@pytest.mark.parametrize("name,fn,make,node", OPS, ids=[op[0] for op in OPS])
def test_node_name_matches_pytorch(name, fn, make, node):
    torch.manual_seed(0)
    out = _first_output(fn(*make("contiguous")))
    if node is None:
        pytest.skip("PyTorch reaches another overload from Python")
    actual = type(out.grad_fn).__name__
    if actual != node and name in PYTHON_BINDING_DIFFERENCES:
        pytest.xfail(PYTHON_BINDING_DIFFERENCES[name])
    assert actual == node


# Expanded (stride 0) inputs: the leaf is a row, the operator sees it broadcast to 3 rows.
EXPANDED = ["add.Tensor", "mul.Tensor", "div.Tensor", "pow.Tensor_Tensor", "maximum", "atan2", "where.self", "exp",
            "sum.dim_IntList", "prod.dim_int", "cumprod", "_softmax", "var.correction", "mm", "index.Tensor", "gather",
            "cat", "sort", "max.dim", "masked_select"]


@pytest.mark.parametrize("name", EXPANDED)
def test_gradcheck_expanded_input(name):
    torch.manual_seed(0)
    _, fn, make, _ = next(op for op in OPS if op[0] == name)
    first, *rest = make("contiguous")
    row = first.detach()[:1].clone().requires_grad_()
    assert gradcheck(lambda r, *others: fn(r.expand(first.shape), *others), (row, *rest))


def test_prod_and_cumprod_with_zeros():
    x = torch.tensor([[2.0, 0.0, 3.0, 0.5], [1.5, 2.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0]], dtype=f64, requires_grad=True)
    assert gradcheck(torch.prod, (x,))
    assert gradcheck(lambda t: t.prod(1), (x,))
    assert gradcheck(lambda t: t.cumprod(1), (x,))
    assert gradcheck(lambda t: t.cumprod(0), (x,))


_linalg = torch._C._linalg


@pytest.mark.parametrize("p", [1, 2, 3, float("inf")])
def test_norm_orders(p):
    torch.manual_seed(0)
    x = leaf(3, 4)
    assert gradcheck(lambda t: t.norm(p), (x,))
    assert gradcheck(lambda t: t.norm(p, 0), (x,))
    assert gradcheck(lambda t: torch.norm(t, p, dim=1, keepdim=True), (x,))
    assert gradcheck(lambda t: torch.norm(t, p, dim=1, dtype=f64), (x,))


@pytest.mark.parametrize("p", [1, 2, 3, float("inf")])
def test_linalg_vector_norm_orders(p):
    torch.manual_seed(0)
    x = leaf(3, 4)
    assert gradcheck(lambda t: _linalg.linalg_vector_norm(t, p), (x,))
    assert gradcheck(lambda t: _linalg.linalg_vector_norm(t, p, [1], True), (x,))
    assert type(_linalg.linalg_vector_norm(x, p).grad_fn).__name__ == "LinalgVectorNormBackward0"


def test_split_with_unused_outputs():
    torch.manual_seed(0)
    x = leaf(3, 4)
    assert gradcheck(lambda t: t.split(1, 0)[1] * 2, (x,))
    assert gradcheck(lambda t: t.unbind(1)[3], (x,))


# ---- in-place variants, on a non-leaf clone ----
INPLACE = [
    ("add_", lambda a, b: a.clone().add_(b, alpha=2), lambda: (leaf(3, 4), leaf(4)), "AddBackward0"),
    ("sub_", lambda a, b: a.clone().sub_(b), lambda: (leaf(3, 4), leaf(4)), "SubBackward0"),
    ("mul_", lambda a, b: a.clone().mul_(b), lambda: (leaf(3, 4), leaf(4)), "MulBackward0"),
    ("div_", lambda a, b: a.clone().div_(b), lambda: (leaf(3, 4), pos(4)), "DivBackward0"),
    ("div_.mode", lambda a: a.clone().div_(0.7, rounding_mode="floor"), lambda: (leaf(3, 4),), None),
    ("pow_.Scalar", lambda a: a.clone().pow_(2), lambda: (leaf(3, 4),), "PowBackward0"),
    ("pow_.Tensor", lambda a, b: a.clone().pow_(b), lambda: (pos(3, 4), leaf(4)), "PowBackward1"),
    ("remainder_", lambda a, b: a.clone().remainder_(b), lambda: (leaf(3, 4), pos(4)), "RemainderBackward1"),
    ("fmod_", lambda a, b: a.clone().fmod_(b), lambda: (leaf(3, 4), pos(4)), "FmodBackward1"),
    ("atan2_", lambda a, b: a.clone().atan2_(b), lambda: (leaf(3, 4), pos(4)), "Atan2Backward0"),
    ("clamp_", lambda a: a.clone().clamp_(-0.5, 0.5), lambda: (leaf(3, 4),), "ClampBackward1"),
    ("clamp_.Tensor", lambda a, lo: a.clone().clamp_(lo), lambda: (leaf(3, 4), leaf(4)), "ClampBackward0"),
    ("clamp_min_", lambda a: a.clone().clamp_min_(0.0), lambda: (leaf(3, 4),), "ClampMinBackward0"),
    ("masked_fill_", lambda a, v: a.clone().masked_fill_(MASK, v), lambda: (leaf(3, 4), leaf()), "MaskedFillBackward1"),
    ("lerp_", lambda a, b, w: a.clone().lerp_(b, w), lambda: (leaf(3, 4), leaf(4), leaf(3, 4)), "LerpBackward1"),
    ("addcmul_", lambda a, b, c: a.clone().addcmul_(b, c), lambda: (leaf(3, 4), leaf(4), leaf(3, 4)), "AddcmulBackward0"),
    ("addcdiv_", lambda a, b, c: a.clone().addcdiv_(b, c), lambda: (leaf(3, 4), leaf(4), pos(3, 4)), "AddcdivBackward0"),
    ("addmm_", lambda a, b, c: a.clone().addmm_(b, c), lambda: (leaf(3, 2), leaf(3, 4), leaf(4, 2)), "AddmmBackward0"),
    ("exp_", lambda a: a.clone().exp_(), lambda: (leaf(3, 4),), "ExpBackward0"),
    ("sqrt_", lambda a: a.clone().sqrt_(), lambda: (pos(3, 4),), "SqrtBackward0"),
    ("sin_", lambda a: a.clone().sin_(), lambda: (leaf(3, 4),), "SinBackward0"),
    ("abs_", lambda a: a.clone().abs_(), lambda: (leaf(3, 4),), "AbsBackward0"),
    ("reciprocal_", lambda a: a.clone().reciprocal_(), lambda: (pos(3, 4),), "ReciprocalBackward0"),
    ("sigmoid_", lambda a: a.clone().sigmoid_(), lambda: (leaf(3, 4),), "SigmoidBackward0"),
    ("relu_", lambda a: a.clone().relu_(), lambda: (leaf(3, 4),), "ReluBackward0"),
    ("round_", lambda a: a.clone().round_(), lambda: (leaf(3, 4),), "RoundBackward0"),
    ("nan_to_num_", lambda a: a.clone().nan_to_num_(), lambda: (leaf(3, 4),), "NanToNumBackward0"),
    ("gelu_", lambda a: torch._C._nn.gelu_(a.clone()), lambda: (leaf(3, 4),), "GeluBackward0"),
    ("silu_", lambda a: torch._C._nn.silu_(a.clone()), lambda: (leaf(3, 4),), "SiluBackward0"),
    ("index_put_", lambda a, v: a.clone().index_put_((IDX,), v, accumulate=True), lambda: (leaf(3, 4), leaf(4)),
     "IndexPutBackward0"),
    ("scatter_", lambda a, s: a.clone().scatter_(0, torch.tensor([[2, 0, 1, 1]]), s), lambda: (leaf(3, 4), leaf(1, 4)),
     "ScatterBackward0"),
    ("scatter_add_", lambda a, s: a.clone().scatter_add_(1, torch.tensor([[0, 0], [1, 3], [2, 2]]), s),
     lambda: (leaf(3, 4), leaf(3, 2)), "ScatterAddBackward0"),
    ("index_add_", lambda a, s: a.clone().index_add_(1, IDX, s), lambda: (leaf(3, 4), leaf(3, 2)), "IndexAddBackward0"),
    ("index_fill_", lambda a: a.clone().index_fill_(0, IDX, -1.0), lambda: (leaf(3, 4),), "IndexFillBackward0"),
    ("masked_scatter_", lambda a, s: a.clone().masked_scatter_(MASK, s), lambda: (leaf(3, 4), leaf(7)),
     "MaskedScatterBackward0"),
    ("tril_", lambda a: a.clone().tril_(-1), lambda: (leaf(3, 4),), "TrilBackward0"),
    ("triu_", lambda a: a.clone().triu_(), lambda: (leaf(3, 4),), "TriuBackward0"),
    ("zero_", lambda a: a.clone().zero_(), lambda: (leaf(3, 4),), "ZeroBackward0"),
    ("copy_", lambda a, b: a.clone().copy_(b), lambda: (leaf(3, 4), leaf(4)), None),
    ("inplace_on_view", lambda a, b: _write_through_view(a, b), lambda: (leaf(3, 4), leaf(4)), None),
]


def _write_through_view(a, b):
    c = a.clone()
    c[1].mul_(b)
    return c


@pytest.mark.parametrize("name,fn,make,node", INPLACE, ids=[op[0] for op in INPLACE])
def test_inplace_gradcheck(name, fn, make, node):
    torch.manual_seed(0)
    inputs = make()
    assert gradcheck(fn, inputs)
    if node is not None:
        assert type(fn(*inputs).grad_fn).__name__ == node


# ---- second derivatives: the formulas are recorded under create_graph=True ----
GRADGRAD = ["mul.Tensor", "div.Tensor", "pow.Tensor_Tensor", "pow.Tensor_Scalar", "exp", "log", "sin", "tanh",
            "sigmoid", "sqrt", "atan2", "gelu", "gelu.tanh", "silu", "maximum", "clamp", "where.self", "lerp.Tensor",
            "addcdiv", "prod", "prod.dim_int", "cumprod", "cumsum", "_softmax", "_log_softmax", "logsumexp",
            "var.correction", "std.correction", "amax", "max.dim", "mm", "addmm", "index.Tensor", "gather",
            "index_put", "cat", "stack", "split.Tensor", "repeat", "unfold", "diagonal", "masked_scatter"]


@pytest.mark.parametrize("name", GRADGRAD)
def test_gradgradcheck(name):
    torch.manual_seed(0)
    _, fn, make, _ = next(op for op in OPS if op[0] == name)
    assert gradgradcheck(fn, make("contiguous"))


# ---- no history, and no formula ----
NON_DIFFERENTIABLE = [
    ("eq", lambda a: a.eq(a)),
    ("lt", lambda a: a < 0),
    ("argmax", lambda a: a.argmax()),
    ("argmin", lambda a: a.argmin(1)),
    ("argsort", lambda a: a.argsort(1)),
    ("isnan", torch.isnan),
    ("isfinite", torch.isfinite),
    ("logical_not", torch.logical_not),
    ("all", lambda a: (a > 0).all()),
    ("nonzero", torch.nonzero),
    ("count_nonzero", torch.count_nonzero),
    ("zeros_like", torch.zeros_like),
    ("ones_like", torch.ones_like),
    ("view.dtype", lambda a: a.view(torch.float64)),
    ("view.dtype.other", lambda a: a.view(torch.int64)),
    ("max.dim.indices", lambda a: a.max(1)[1]),
    ("sort.indices", lambda a: a.sort(0)[1]),
    ("topk.indices", lambda a: a.topk(2)[1]),
]


@pytest.mark.parametrize("name,fn", NON_DIFFERENTIABLE, ids=[op[0] for op in NON_DIFFERENTIABLE])
def test_non_differentiable_output_has_no_history(name, fn):
    out = fn(leaf(3, 4))
    assert out.requires_grad is False
    assert out.grad_fn is None


@pytest.mark.parametrize("fn,node", [(lambda a: a.normal_(), "NormalBackward0"), (lambda a: a.uniform_(), "UniformBackward0"),
                                     (lambda a: a.random_(0, 5), "RandomBackward0")], ids=["normal_", "uniform_", "random_"])
def test_random_fill_cuts_the_gradient(fn, node):
    x = leaf(3)
    out = fn(x.clone())
    assert type(out.grad_fn).__name__ == node
    (out * x).sum().backward()
    assert bool((x.grad == out.detach()).all())  # only the product's own path carries a gradient


def test_max_dim_values_get_history_indices_do_not():
    values, indices = leaf(3, 4).max(1)
    assert values.requires_grad and not indices.requires_grad


@pytest.mark.parametrize("fn", [lambda a, b: torch.floor_divide(a, b), lambda a, b: torch.remainder(2.0, b)],
                         ids=["floor_divide", "remainder.Scalar_Tensor"])
def test_operator_without_formula_raises_at_backward(fn, request):
    out = fn(leaf(3, 4), pos(3, 4))
    assert out.requires_grad  # the forward works and records a node ...
    name = request.node.callspec.id
    if type(out.grad_fn).__name__ != "NotImplemented" and name in PYTHON_BINDING_DIFFERENCES:
        pytest.xfail(PYTHON_BINDING_DIFFERENCES[name])
    assert type(out.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::.* is not implemented"):
        out.sum().backward()  # ... which raises when backward reaches it


# ---- what a node saves: grad_fn._saved_* as PyTorch names them (seed 001) ----
SAVED = {
    "add.Tensor": ["_saved_alpha"],
    "mul.Tensor": ["_saved_other", "_saved_self"],
    "div.Tensor_mode": ["_saved_other", "_saved_rounding_mode", "_saved_self"],
    "clamp.Tensor": ["_saved_max", "_saved_min", "_saved_self"],
    "split.Tensor": ["_saved_dim", "_saved_self_sym_sizes", "_saved_split_size"],
    "max.dim": ["_saved_dim", "_saved_indices", "_saved_keepdim", "_saved_self_sym_sizes"],
    "var_mean.correction": ["_saved_correction", "_saved_dim", "_saved_keepdim", "_saved_self"],
    "cumprod": ["_saved_dim", "_saved_result", "_saved_self"],
    "topk": ["_saved_dim", "_saved_indices", "_saved_self_sym_sizes"],
    "index.Tensor": ["_saved_indices", "_saved_self_sym_sizes"],
    "cat": ["_saved_dim"],
}


@pytest.mark.parametrize("name", sorted(SAVED))
def test_saved_attributes_match_pytorch(name):
    torch.manual_seed(0)
    _, fn, make, _ = next(op for op in OPS if op[0] == name)
    out = _first_output(fn(*make("contiguous")))
    assert sorted(a for a in dir(out.grad_fn) if a.startswith("_saved")) == SAVED[name]


def test_saved_values():
    x = leaf(3, 4)
    out = x[:, torch.tensor([0, 2])]
    indices = out.grad_fn._saved_indices
    assert indices[0] is None and indices[1].tolist() == [0, 2]  # Tensor?[]: a tuple, None for ':'
    assert torch.div(x, 2.0, rounding_mode="floor").grad_fn._saved_rounding_mode == "floor"
    values, idx = x.max(1)
    assert values.grad_fn._saved_indices.tolist() == idx.tolist()
