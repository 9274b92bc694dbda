# test/th/test_th_ops.py - operators whose CPU kernel is a legacy TH function
# (native_functions.yaml "legacy TH" -> aten/src/ATen/LegacyTHFunctionsCPU.cpp ->
# THTensor_(fill) / THTensor_(sumall)), side by side with their native counterparts.
# Guide: docs/source/internals/th_storage.rst.
import pytest
import torch


def test_th_fill_matches_native_fill_on_strided_views():
    a = torch.zeros(3, 4)
    b = torch.zeros(3, 4)
    torch._th_fill_(a[:, 1::2], 5)  # a non-contiguous view: TH walks the strides
    b[:, 1::2].fill_(5)
    assert a.tolist() == b.tolist()
    assert a[0].tolist() == [0.0, 5.0, 0.0, 5.0]


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                                   torch.float32, torch.float64])
def test_th_sum_matches_native_sum(dtype):
    t = torch.arange(12).reshape(3, 4).to(dtype)
    view = t.t()[1:]
    got = torch._th_sum(view)
    want = torch.sum(view)
    assert got.dim() == 0
    assert got.dtype == want.dtype
    assert got.item() == want.item()


def test_th_sum_accumulates_in_accreal():
    # 2**24 + 1 is no float32, but THFloatTensor_sumall adds in double (accreal).
    t = torch.tensor([16777216.0, 1.0, -16777216.0])
    assert torch._th_sum(t).item() == 1.0


def test_th_ops_reject_types_th_had_no_math_for():
    with pytest.raises(RuntimeError, match="_th_sum not supported on CPUType for Bool"):
        torch._th_sum(torch.tensor([True]))
    with pytest.raises(RuntimeError, match="_th_fill_ not supported on CPUType for Half"):
        torch._th_fill_(torch.zeros(2, dtype=torch.float16), 1)
