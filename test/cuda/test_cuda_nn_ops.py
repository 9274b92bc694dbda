"""The CUDA operators of a training step beyond the matrix products and indexing: softmax and
log_softmax, im2col and col2im (so convolution and its backward), max_pool2d with indices,
avg_pool2d and adaptive_avg_pool2d with their backwards, batch and layer normalization (Welford
statistics), each checked against its CPU twin, forward and backward.

Mirrors the CUDA parts of PyTorch's test/test_nn.py (test_softmax_*, test_Conv2d_*,
test_MaxPool2d_*, test_BatchNorm*) run on ``device="cuda"``. The kernels are
aten/src/ATen/native/cuda/SoftMax.cu, Im2Col.cu, DilatedMaxPool2d.cu, AveragePool2d.cu and
Normalization.cu.
Guide: docs/source/internals/cuda_training.rst.

Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_nn_ops.py
"""

import pytest

import torch
import torch.nn.functional as F
from cuda_testing import _id, assert_same

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
TOL = {torch.float32: (1e-5, 1e-6), torch.float64: (1e-12, 1e-14), torch.float16: (2e-3, 1e-3),
       torch.bfloat16: (1.6e-2, 1e-2)}


def randn(*shape, dtype=torch.float32, seed=0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)


def close(got, want, dtype=torch.float32, factor=1.0):
    rtol, atol = TOL[dtype]
    assert_same(got, want, rtol=rtol * factor, atol=atol * factor)


def forward_backward(fn, *cpu_inputs, seed=5):
    """fn on CPU copies and on CUDA copies of the inputs, then backward of the same random
    gradient: (output, input grads) for each device."""
    results = []
    for device in ("cpu", "cuda"):
        inputs = [x.detach().to(device).requires_grad_(x.is_floating_point()) for x in cpu_inputs]
        out = fn(*inputs)
        grad = randn(*out.shape, dtype=out.dtype, seed=seed).to(device)
        out.backward(grad)
        results.append((out.detach(), [x.grad for x in inputs if x.is_floating_point()]))
    return results


# ---------------------------------------------------------------------------------------
# softmax, log_softmax
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("shape,dim", [((1,), 0), ((5, 7), 1), ((5, 7), 0), ((3, 1024), -1), ((2, 1500), 1),
                                       ((2, 3, 4, 5), 1), ((2, 3, 4, 5), 3), ((33, 40), -1), ((), 0)])
def test_softmax_matches_cpu(fn, shape, dim, dtype):
    """Rows of at most 1024 along the last dim go to one warp; everything else to the spatial kernel."""
    x = randn(*shape, dtype=dtype, scale=4.0)
    close(fn(x.cuda(), dim), fn(x, dim), dtype)


@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax], ids=["softmax", "log_softmax"])
def test_softmax_special_values(fn):
    """Large inputs do not overflow (the row's max is subtracted first); a row of -inf is NaN
    for softmax (0/0) and log_softmax; a NaN spreads over its row only."""
    inf, nan = float("inf"), float("nan")
    x = torch.tensor([[1000.0, 1001.0, 999.0], [-inf, -inf, -inf], [0.0, nan, 1.0], [-inf, 0.0, 1.0]])
    for dim in (1, 0):
        close(fn(x.cuda(), dim), fn(x, dim))
        close(fn(x.t().contiguous().cuda(), 1 - dim), fn(x.t().contiguous(), 1 - dim))


def test_softmax_of_non_contiguous_input_and_half_to_float():
    x = randn(6, 40, seed=2)[:, ::2]
    close(torch.softmax(x.cuda(), 1), torch.softmax(x, 1))
    h = randn(4, 9, dtype=torch.float16)
    got = torch._softmax(h.cuda(), 1, True)
    assert got.dtype == torch.float32
    close(got, torch.softmax(h.float(), 1), torch.float16)
    with pytest.raises(RuntimeError, match="conversion is supported for Half type only"):
        torch._softmax(torch.ones(2, device="cuda"), 0, True)


@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax], ids=["softmax", "log_softmax"])
def test_softmax_backward_matches_cpu(fn):
    (c_out, c_grads), (d_out, d_grads) = forward_backward(lambda x: fn(x, dim=1), randn(8, 50, scale=3.0))
    close(d_out, c_out)
    close(d_grads[0], c_grads[0])


def test_cross_entropy_matches_cpu():
    x, y = randn(16, 10, seed=1), torch.randint(0, 10, (16,), generator=torch.Generator().manual_seed(0))
    (c_out, c_grads), (d_out, d_grads) = forward_backward(lambda a: F.cross_entropy(a, y.to(a.device)), x)
    close(d_out, c_out)
    close(d_grads[0], c_grads[0])


# ---------------------------------------------------------------------------------------
# im2col, col2im, convolution
# ---------------------------------------------------------------------------------------

WINDOWS = [dict(kernel_size=(3, 3), dilation=(1, 1), padding=(1, 1), stride=(1, 1)),
           dict(kernel_size=(2, 3), dilation=(2, 1), padding=(0, 2), stride=(2, 3)),
           dict(kernel_size=(1, 1), dilation=(1, 1), padding=(0, 0), stride=(1, 1))]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=_id)
@pytest.mark.parametrize("window", WINDOWS, ids=["3x3", "strided", "1x1"])
def test_im2col_and_col2im_match_cpu(window, dtype):
    x = randn(2, 3, 7, 9, dtype=dtype)
    cols = F.unfold(x.cuda(), **window)
    assert_same(cols, F.unfold(x, **window))
    back = F.fold(cols, (7, 9), **window)
    close(back, F.fold(cols.cpu(), (7, 9), **window), dtype)
    unbatched = F.unfold(x[0].cuda(), **window)
    assert_same(unbatched, F.unfold(x[0], **window))


def test_im2col_errors_match_the_cpu():
    with pytest.raises(RuntimeError, match="kernel size should be greater than zero"):
        F.unfold(torch.ones(1, 1, 4, 4, device="cuda"), (0, 1))
    with pytest.raises(RuntimeError, match="calculated shape of the array of sliding blocks as"):
        F.unfold(torch.ones(1, 1, 2, 2, device="cuda"), 3)


@pytest.mark.parametrize("groups,stride,padding,dilation", [(1, 1, 0, 1), (1, 2, 1, 1), (2, 1, 2, 2), (4, 1, 1, 1)])
def test_conv2d_forward_and_backward_match_cpu(groups, stride, padding, dilation):
    x, w, b = randn(2, 4, 9, 8, seed=1), randn(8, 4 // groups, 3, 3, seed=2), randn(8, seed=3)
    def conv(x, w, b):
        return F.conv2d(x, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups)

    (c_out, c_grads), (d_out, d_grads) = forward_backward(conv, x, w, b)
    close(d_out, c_out, factor=10)
    for got, want in zip(d_grads, c_grads):
        close(got, want, factor=10)


# ---------------------------------------------------------------------------------------
# max_pool2d
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=_id)
@pytest.mark.parametrize("args", [dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1),
                                  dict(kernel_size=3, stride=2, ceil_mode=True), dict(kernel_size=2, dilation=2)])
def test_max_pool2d_matches_cpu(args, dtype):
    """Overlapping windows (stride 1) send several gradients to one pixel: the backward's atomicAdd."""
    x = randn(2, 3, 9, 10, dtype=dtype)
    for batched in (True, False):
        xin = x if batched else x[0]
        out, idx = F.max_pool2d(xin.cuda(), return_indices=True, **args)
        want, want_idx = F.max_pool2d(xin, return_indices=True, **args)
        assert_same(out, want)
        assert_same(idx, want_idx)
    (c_out, c_grads), (d_out, d_grads) = forward_backward(lambda a: F.max_pool2d(a, **args), x)
    close(d_grads[0], c_grads[0], dtype)


def test_max_pool2d_nan_wins_and_errors():
    x = torch.tensor([[[[1.0, float("nan")], [3.0, 2.0]]]])
    assert_same(F.max_pool2d(x.cuda(), 2), F.max_pool2d(x, 2))
    with pytest.raises(RuntimeError, match="pad should be at most half of effective kernel size"):
        F.max_pool2d(torch.ones(1, 1, 4, 4, device="cuda"), 2, padding=2)


@pytest.mark.parametrize("args", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                  dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
                                  dict(kernel_size=3, stride=1, ceil_mode=True, divisor_override=2)])
def test_avg_pool2d_matches_cpu(args):
    x = randn(2, 3, 9, 10)
    (c_out, c_grads), (d_out, d_grads) = forward_backward(lambda a: F.avg_pool2d(a, **args), x)
    close(d_out, c_out)
    close(d_grads[0], c_grads[0])


@pytest.mark.parametrize("out_size", [(1, 1), (3, 4), (7, 10), (4, 3)])
def test_adaptive_avg_pool2d_matches_cpu(out_size):
    """Output sizes that do and do not divide the input: windows overlap by one row then."""
    x = randn(2, 3, 7, 10)
    (c_out, c_grads), (d_out, d_grads) = forward_backward(lambda a: F.adaptive_avg_pool2d(a, out_size), x)
    close(d_out, c_out)
    close(d_grads[0], c_grads[0])


# ---------------------------------------------------------------------------------------
# batch norm, layer norm
# ---------------------------------------------------------------------------------------

def test_batch_norm_training_and_running_stats_match_cpu():
    cpu_bn, dev_bn = torch.nn.BatchNorm2d(3), torch.nn.BatchNorm2d(3).cuda()
    x = randn(4, 3, 5, 5, seed=2, scale=2.0)
    (c_out, c_grads), (d_out, d_grads) = forward_backward(cpu_bn_or(dev_bn, cpu_bn), x)
    close(d_out, c_out)
    close(d_grads[0], c_grads[0])
    close(dev_bn.running_mean, cpu_bn.running_mean)
    close(dev_bn.running_var, cpu_bn.running_var)
    close(dev_bn.weight.grad, cpu_bn.weight.grad)
    cpu_bn.eval(), dev_bn.eval()
    with torch.no_grad():
        close(dev_bn(x.cuda()), cpu_bn(x))


def cpu_bn_or(dev_module, cpu_module):
    return lambda x: (dev_module if x.is_cuda else cpu_module)(x)


@pytest.mark.parametrize("shape", [(2, 3), (4, 3, 5, 5), (2, 4, 300), (1, 2, 1, 1)])
def test_batch_norm_welford_statistics_match_cpu(shape):
    """Welford's one pass over a channel against the CPU's two, on values with a large common
    offset (where sum(x^2) - n * mean^2 would cancel), for every layout the kernel views as
    (N, C, HW); and a half input with float statistics."""
    x = randn(*shape, seed=3) + 1000.0
    out, mean, invstd = torch.native_batch_norm(x.cuda(), None, None, None, None, True, 0.1, 1e-5)
    want, want_mean, want_invstd = torch.native_batch_norm(x.double(), None, None, None, None, True, 0.1, 1e-5)
    close(out, want.float(), factor=100)
    close(mean, want_mean.float())
    close(invstd, want_invstd.float(), factor=10)
    h = randn(4, 3, 5, dtype=torch.float16)
    out, mean, invstd = torch.native_batch_norm(h.cuda(), None, None, None, None, True, 0.1, 1e-5)
    assert out.dtype == torch.float16 and mean.dtype == torch.float32   # statistics in float, as PyTorch's
    close(out, torch.native_batch_norm(h.float(), None, None, None, None, True, 0.1, 1e-5)[0].half(), torch.float16)


@pytest.mark.parametrize("shape,normalized", [((3, 5, 12), (12,)), ((2, 3, 4, 5), (4, 5)), ((4, 700), (700,)),
                                              ((1, 1), (1,))])
def test_layer_norm_matches_cpu(shape, normalized):
    """One block per row of N elements (N below, at and above the block's 256 threads)."""
    cpu_ln, dev_ln = torch.nn.LayerNorm(normalized), torch.nn.LayerNorm(normalized).cuda()
    with torch.no_grad():
        for p in (cpu_ln.weight, cpu_ln.bias):
            p.copy_(randn(*normalized, seed=7))
        dev_ln.load_state_dict(cpu_ln.state_dict())
    (c_out, c_grads), (d_out, d_grads) = forward_backward(cpu_bn_or(dev_ln, cpu_ln), randn(*shape, seed=4))
    close(d_out, c_out, factor=10)
    close(d_grads[0], c_grads[0], factor=10)
    close(dev_ln.weight.grad, cpu_ln.weight.grad, factor=10)
    close(dev_ln.bias.grad, cpu_ln.bias.grad, factor=10)


def test_layer_norm_without_affine_and_half_input():
    x = randn(6, 10, seed=2) * 3 + 100.0
    out, mean, rstd = torch.native_layer_norm(x.cuda(), [10], None, None, 1e-5)
    want, want_mean, want_rstd = torch.native_layer_norm(x.double(), [10], None, None, 1e-5)
    close(out, want.float(), factor=100)
    assert tuple(mean.shape) == (6, 1) and tuple(rstd.shape) == (6, 1)
    close(mean, want_mean.float())
    close(rstd, want_rstd.float(), factor=10)
    h = randn(3, 8, dtype=torch.float16)
    out, mean, _ = torch.native_layer_norm(h.cuda(), [8], None, None, 1e-5)
    assert out.dtype == torch.float16 and mean.dtype == torch.float32   # statistics in float, as PyTorch's
    close(out, torch.native_layer_norm(h.float(), [8], None, None, 1e-5)[0].half(), torch.float16)
    with pytest.raises(RuntimeError, match=r"Given normalized_shape=\[5\], expected input with shape \[\*, 5\]"):
        torch.native_layer_norm(h.cuda(), [5], None, None, 1e-5)


# ---------------------------------------------------------------------------------------
# gradcheck on CUDA, in double precision
# ---------------------------------------------------------------------------------------

GRADCHECK = {
    "mm": (lambda a, b: a @ b, [(4, 3), (3, 5)]),
    "addmm": (lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2.0), [(5,), (4, 3), (3, 5)]),
    "bmm": (torch.bmm, [(2, 3, 4), (2, 4, 2)]),
    "mv": (torch.mv, [(3, 4), (4,)]),
    "dot": (torch.dot, [(5,), (5,)]),
    "softmax": (lambda x: torch.softmax(x, 1), [(3, 6)]),
    "log_softmax": (lambda x: torch.log_softmax(x, 0), [(3, 6)]),
    "conv2d": (lambda x, w: F.conv2d(x, w, padding=1, stride=2), [(1, 2, 5, 5), (3, 2, 3, 3)]),
    "max_pool2d": (lambda x: F.max_pool2d(x, 2, stride=1), [(1, 2, 4, 4)]),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 3, stride=2, padding=1), [(1, 2, 5, 5)]),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [(1, 2, 5, 4)]),
    "cross_entropy": (lambda x: F.cross_entropy(x, torch.tensor([1, 0, 3], device=x.device)), [(3, 4)]),
    "index_select": (lambda x: x.index_select(0, torch.tensor([2, 0, 2], device=x.device)), [(3, 2)]),
    "index": (lambda x: x[torch.tensor([1, 1, 0], device=x.device)], [(3, 2)]),
    "batch_norm": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), [(4, 3, 2), (3,), (3,)]),
    "layer_norm": (lambda x, w: F.layer_norm(x, (4,), w), [(3, 4), (4,)]),
    "addmv": (lambda s, m, v: torch.addmv(s, m, v, beta=0.5, alpha=2.0), [(3,), (3, 4), (4,)]),
    "baddbmm": (lambda s, a, b: torch.baddbmm(s, a, b, beta=0.5, alpha=2.0), [(3, 2), (2, 3, 4), (2, 4, 2)]),
    "nll_loss": (lambda x: F.nll_loss(x, torch.tensor([1, 0, 3], device=x.device)), [(3, 4)]),
    "nll_loss2d": (lambda x: F.nll_loss(x, torch.tensor([[[1, 0], [2, 1]]], device=x.device)), [(1, 3, 2, 2)]),
    "mse_loss": (F.mse_loss, [(3, 4), (3, 4)]),
    "binary_cross_entropy": (lambda x: F.binary_cross_entropy(torch.sigmoid(x), torch.full_like(x, 0.25)),
                             [(3, 4)]),
    "sort": (lambda x: torch.sort(x, 1)[0], [(3, 5)]),
    "topk": (lambda x: torch.topk(x, 2)[0], [(3, 5)]),
    "kthvalue": (lambda x: torch.kthvalue(x, 2, 0)[0], [(3, 5)]),
    "flip": (lambda x: x.flip(0, 1), [(3, 4)]),
    "roll": (lambda x: x.roll(2, 1), [(3, 4)]),
    "tril": (lambda x: x.tril(-1), [(3, 4)]),
    "triu": (lambda x: x.triu(1), [(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(GRADCHECK))
def test_gradcheck_on_cuda(name):
    fn, shapes = GRADCHECK[name]
    inputs = [randn(*s, dtype=torch.float64, seed=i).cuda().requires_grad_() for i, s in enumerate(shapes)]
    assert torch.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-4)
