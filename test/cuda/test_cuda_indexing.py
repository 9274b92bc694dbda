"""The CUDA indexing operators, each checked against its CPU twin: scatter_add and scatter's
reduce= (atomics), index_select, index_add_ (atomics), masked_fill, masked_select, nonzero, take,
advanced indexing t[idx] and t[mask], index_put_ with accumulate (atomics), and embedding with
its backward.

Mirrors the CUDA parts of PyTorch's test/test_indexing.py, test/test_scatter_gather_ops.py and
test/test_nn.py (test_embedding_*). The kernels are aten/src/ATen/native/cuda/IndexKernel.cu and
ScatterGatherKernel.cu over ATen/cuda/Atomic.cuh. Guide: docs/source/internals/cuda_training.rst.
Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_indexing.py
"""

import pytest

import torch
import torch.nn.functional as F
from cuda_testing import _id, assert_same

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

# Every dtype the atomics handle: native atomicAdd (int32, int64, float, double), the
# compare-and-swap loop on a 32-bit word for one- and two-byte types, two adds for complex.
DTYPES = [torch.float32, torch.float64, torch.int32, torch.int64, torch.int16, torch.int8, torch.uint8,
          torch.float16, torch.bfloat16, torch.complex64]


def values(*shape, dtype=torch.float32, seed=0):
    """Small integers (exact in every dtype, so sums in any order agree), as dtype."""
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 4, shape, generator=g).to(dtype)


def indices(n, high, seed=1):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, high, (n,), generator=g)


@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
def test_scatter_add_with_repeated_indices_matches_cpu(dtype):
    """Many index entries name the same element: every addition must land (atomics)."""
    self, src = values(5, 6, dtype=dtype), values(40, 6, dtype=dtype, seed=2)
    index = indices(40 * 6, 5).view(40, 6)
    assert_same(self.cuda().scatter_add(0, index.cuda(), src.cuda()), self.scatter_add(0, index, src))
    assert_same(self.cuda().scatter_add(1, (index[:5] % 6).cuda(), src[:5].cuda()),
                self.scatter_add(1, index[:5] % 6, src[:5]))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32, torch.int64, torch.int16], ids=_id)
@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_reduce_matches_cpu(dtype, reduce):
    self, src = values(4, 3, dtype=dtype) + 1, values(12, 3, dtype=dtype, seed=3) % 2 + 1
    index = indices(36, 4).view(12, 3)
    assert_same(self.cuda().scatter(0, index.cuda(), src.cuda(), reduce=reduce),
                self.scatter(0, index, src, reduce=reduce))
    assert_same(self.cuda().scatter_(0, index.cuda(), 2, reduce=reduce), self.clone().scatter_(0, index, 2, reduce=reduce))


def test_scatter_multiply_of_complex_is_refused():
    z = torch.zeros(3, dtype=torch.complex64, device="cuda")
    with pytest.raises(NotImplementedError, match="multiply"):
        z.scatter_(0, torch.tensor([0], device="cuda"), torch.ones(1, dtype=torch.complex64, device="cuda"),
                   reduce="multiply")


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16], ids=_id)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select_matches_cpu(dtype, dim):
    x = values(4, 5, 6, dtype=dtype)
    idx = indices(7, x.shape[dim], seed=4)
    assert_same(x.cuda().index_select(dim, idx.cuda()), x.index_select(dim, idx))
    assert_same(x.cuda().index_select(dim, idx.int().cuda()), x.index_select(dim, idx.int()))
    assert_same(x[:, ::2].cuda().index_select(dim, (idx % 3).cuda()), x[:, ::2].index_select(dim, idx % 3))


def test_index_select_of_scalar_and_errors():
    assert_same(torch.tensor(5.0, device="cuda").index_select(0, torch.tensor([0], device="cuda")),
                torch.tensor(5.0).index_select(0, torch.tensor([0])))
    with pytest.raises(RuntimeError, match="Expected dtype int32 or int64 for index"):
        torch.ones(3, device="cuda").index_select(0, torch.ones(1, device="cuda"))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.float16], ids=_id)
def test_index_add_with_repeated_indices_matches_cpu(dtype):
    self, src = values(5, 4, dtype=dtype), values(30, 4, dtype=dtype, seed=2)
    idx = indices(30, 5)
    assert_same(self.cuda().index_add_(0, idx.cuda(), src.cuda(), alpha=2), self.clone().index_add_(0, idx, src, alpha=2))
    t = values(4, 5, dtype=dtype)
    assert_same(t.cuda().index_add(1, (idx[:4] % 5).cuda(), src[:4].t().contiguous().cuda()[:, :4]),
                t.index_add(1, idx[:4] % 5, src[:4].t().contiguous()[:, :4]))
    strided = values(5, 8, dtype=dtype)[:, ::2]
    dev = values(5, 8, dtype=dtype).cuda()[:, ::2]
    assert_same(dev.index_add_(0, idx[:6].cuda(), src[:6].cuda()), strided.clone().index_add_(0, idx[:6], src[:6]))


def test_masked_fill_select_nonzero_take_match_cpu():
    x = torch.randn(4, 6, generator=torch.Generator().manual_seed(0))
    mask = x > 0.2
    assert_same(x.cuda().masked_fill(mask.cuda(), -1.0), x.masked_fill(mask, -1.0))
    assert_same(x.cuda().masked_fill_(mask[0].cuda(), torch.tensor(3.0)), x.clone().masked_fill_(mask[0], 3.0))
    assert_same(x.cuda().masked_select(mask.cuda()), x.masked_select(mask))
    assert_same(x.cuda().nonzero(), x.nonzero())
    assert_same(mask.cuda().nonzero(), mask.nonzero())
    assert_same(torch.zeros(3, 0, device="cuda").nonzero(), torch.zeros(3, 0).nonzero())
    assert_same(torch.zeros(5, device="cuda").nonzero(), torch.zeros(5).nonzero())
    assert_same(torch.tensor(2.0, device="cuda").nonzero(), torch.tensor(2.0).nonzero())
    take = torch.tensor([[0, -1], [5, 23]])
    assert_same(x.cuda().take(take.cuda()), x.take(take))


@pytest.mark.parametrize("key", ["long", "pair", "bool", "slice_and_long", "neg"])
def test_advanced_indexing_matches_cpu(key):
    x = torch.arange(60.0).view(3, 4, 5)
    keys = {
        "long": lambda d: (torch.tensor([2, 0, 2], device=d),),
        "pair": lambda d: (torch.tensor([0, 2], device=d), torch.tensor([3, 1], device=d)),
        "bool": lambda d: (x.to(d) % 7 == 0,),
        "slice_and_long": lambda d: (slice(None), torch.tensor([[1, 3], [0, 0]], device=d)),
        "neg": lambda d: (torch.tensor([-1, -3], device=d),),
    }
    assert_same(x.cuda()[keys[key]("cuda")], x[keys[key]("cpu")])


def test_index_put_with_accumulate_matches_cpu():
    """x[idx] += v with a repeated index: accumulate=True adds both (atomics); plain assignment
    keeps one of them."""
    x = torch.zeros(6)
    idx = torch.tensor([1, 1, 4, 1, 0])
    v = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    assert_same(x.cuda().index_put_((idx.cuda(),), v.cuda(), accumulate=True),
                x.clone().index_put_((idx,), v, accumulate=True))
    y = torch.zeros(3, 4)
    y_dev = y.cuda()
    y_dev[torch.ones(3, 4, device="cuda").bool() & (torch.arange(4, device="cuda") % 2 == 0)] = 7.0
    y[torch.ones(3, 4).bool() & (torch.arange(4) % 2 == 0)] = 7.0
    assert_same(y_dev, y)


@pytest.mark.parametrize("padding_idx,scale", [(None, False), (2, False), (None, True)])
def test_embedding_forward_and_backward_match_cpu(padding_idx, scale):
    g = torch.Generator().manual_seed(0)
    weight = torch.randn(6, 3, generator=g)
    idx = torch.tensor([[0, 2, 2], [5, 2, 1]])
    grads = []
    for device in ("cpu", "cuda"):
        w = weight.detach().to(device).requires_grad_()
        out = F.embedding(idx.to(device), w, padding_idx=padding_idx, scale_grad_by_freq=scale)
        out.backward(torch.arange(18.0, device=device).view(2, 3, 3))
        grads.append((out.detach(), w.grad))
    assert_same(grads[1][0], grads[0][0])
    assert_same(grads[1][1], grads[0][1], rtol=1e-6, atol=1e-6)


def test_nll_loss_with_weight_and_ignore_index_matches_cpu():
    g = torch.Generator().manual_seed(0)
    logp = torch.randn(8, 5, generator=g).log_softmax(1)
    target = torch.tensor([0, 4, 1, -100, 2, 2, 3, 0])
    weight = torch.rand(5, generator=g)
    for reduction in ("mean", "sum", "none"):
        assert_same(F.nll_loss(logp.cuda(), target.cuda(), weight=weight.cuda(), reduction=reduction),
                    F.nll_loss(logp, target, weight=weight, reduction=reduction), rtol=1e-6, atol=1e-6)
