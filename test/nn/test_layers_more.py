# test/nn/test_layers_more.py - Hardtanh/ReLU6/Softplus/Mish, F.normalize, GroupNorm, InstanceNorm*,
# ConvTranspose1d/2d, conv padding modes, interpolate/Upsample, PixelShuffle, Embedding(max_norm).
# Mirrors parts of PyTorch's test/test_nn.py. Guide: docs/source/internals/programs/nn_layers.rst.
#
# Values and input gradients against PyTorch 2.13 on the fixed weights and inputs of
# nn_layers_cases.py (recorded in nn_layers_fixtures.json); gradients with gradcheck in float64.

import json
import os
import warnings

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck

import nn_layers_cases as cases

with open(os.path.join(os.path.dirname(__file__), "nn_layers_fixtures.json")) as f:
    FIXTURES = json.load(f)

LAYER_CASES = [
    "activations", "normalize_cases", "group_norm_cases", "instance_norm_cases", "conv_transpose2d_cases",
    "conv_transpose1d_cases", "conv_padding_modes", "interpolate_nearest", "interpolate_linear",
    "pixel_shuffle_cases", "embedding_max_norm", "pad_modes",
]


@pytest.mark.parametrize("name", LAYER_CASES)
def test_matches_pytorch(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = cases.CASES[name]()
    expected = FIXTURES["cases"][name]
    assert sorted(got) == sorted(expected)
    for key, want in expected.items():
        assert got[key] is not None, f"{name}: {key} missing (no gradient reached it)"
        have = np.array(got[key].detach().tolist(), dtype=np.float64)
        np.testing.assert_allclose(have, np.array(want, dtype=np.float64), rtol=1e-5, atol=1e-5,
                                   err_msg=f"{name}: {key}")


def test_nearest_index_rounding_is_float32():
    # PyTorch's kernel takes floor(dst * float32(1 / 1.7)), the reciprocal rounded once; with
    # 1 / float32(1.7) output 17 would read source 9 instead of 10. A size of 67 uses
    # float32(40) / 67. Recorded from PyTorch 2.13.
    x = torch.arange(40.0).view(1, 1, 40)
    assert [int(v) for v in F.interpolate(x, scale_factor=1.7).flatten().tolist()] == [
        0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 9, 10, 10, 11, 11, 12, 12, 13, 14, 14, 15, 15, 16, 17, 17, 18,
        18, 19, 20, 20, 21, 21, 22, 22, 23, 24, 24, 25, 25, 26, 27, 27, 28, 28, 29, 30, 30, 31, 31, 32, 32, 33, 34, 34,
        35, 35, 36, 37, 37, 38, 38, 39]
    assert [int(v) for v in F.interpolate(x, size=67).flatten().tolist()] == [
        0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 9, 10, 10, 11, 11, 12, 13, 13, 14, 14, 15, 16, 16, 17, 17, 18,
        19, 19, 20, 20, 21, 22, 22, 23, 23, 24, 25, 25, 26, 26, 27, 28, 28, 29, 29, 30, 31, 31, 32, 32, 33, 34, 34, 35,
        35, 36, 37, 37, 38, 38, 39]


def test_state_dict_keys_match_pytorch():
    facts = FIXTURES["facts"]
    keys = lambda m: [[k, list(v.shape)] for k, v in m.state_dict().items()]  # noqa: E731
    assert keys(nn.InstanceNorm2d(3, affine=True, track_running_stats=True)) == facts["keys_instancenorm"]
    assert keys(nn.ConvTranspose2d(4, 6, 3, groups=2)) == facts["keys_convT"]
    # PyTorch 2.13's keyword-only bias=False keeps the weight only
    assert keys(nn.InstanceNorm1d(3, affine=True, bias=False)) == [["weight", [3]]]
    assert keys(nn.GroupNorm(2, 4, bias=False)) == [["weight", [4]]]
    assert repr(nn.GroupNorm(2, 4, bias=False)) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=False)"


REPRS = {
    "hardtanh": lambda: nn.Hardtanh(-2.0, 3.0, inplace=True),
    "relu6": lambda: nn.ReLU6(),
    "softplus": lambda: nn.Softplus(beta=2, threshold=10),
    "mish": lambda: nn.Mish(),
    "groupnorm": lambda: nn.GroupNorm(2, 4),
    "instancenorm1d": lambda: nn.InstanceNorm1d(3),
    "instancenorm2d": lambda: nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
    "convT2d": lambda: nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, bias=False),
    "convT1d": lambda: nn.ConvTranspose1d(2, 3, 4, dilation=2),
    "conv2d_reflect": lambda: nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"),
    "upsample": lambda: nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
    "upsample_size": lambda: nn.Upsample(size=(3, 4)),
    "pixelshuffle": lambda: nn.PixelShuffle(2),
    "pixelunshuffle": lambda: nn.PixelUnshuffle(3),
    "embedding": lambda: nn.Embedding(5, 3, max_norm=1.0),
}


@pytest.mark.parametrize("name", sorted(REPRS))
def test_repr(name):
    assert repr(REPRS[name]()) == FIXTURES["facts"]["reprs"][name]


def test_exports():
    for name in ["Hardtanh", "ReLU6", "Softplus", "Mish", "MultiheadAttention", "GroupNorm", "InstanceNorm1d",
                 "InstanceNorm2d", "InstanceNorm3d", "ConvTranspose1d", "ConvTranspose2d", "Upsample",
                 "PixelShuffle", "PixelUnshuffle", "Transformer", "TransformerEncoder", "TransformerDecoder",
                 "TransformerEncoderLayer", "TransformerDecoderLayer"]:
        assert getattr(nn, name) is getattr(nn.modules, name)
        assert name in nn.modules.__all__
    # as in PyTorch, the attention's out projection class is reached through its module only
    assert not hasattr(nn, "NonDynamicallyQuantizableLinear")


def test_embedding_max_norm_renormalises_in_place_without_grad():
    emb = cases.fill(nn.Embedding(4, 3, max_norm=0.5), 3)
    before = emb.weight.detach().clone()
    out = emb(torch.tensor([1, 1]))
    after = emb.weight.detach()
    # untouched rows keep their values; the looked-up row now has norm <= max_norm
    np.testing.assert_array_equal(after[[0, 2, 3]].numpy(), before[[0, 2, 3]].numpy())
    assert float(after[1].norm()) <= 0.5 + 1e-6
    assert emb.weight.grad is None
    out.sum().backward()
    np.testing.assert_allclose(emb.weight.grad[1].numpy(), [2.0, 2.0, 2.0])


def test_instance_norm_eval_uses_running_stats():
    m = nn.InstanceNorm1d(2, track_running_stats=True)
    m.running_mean.fill_(1.0)
    m.running_var.fill_(4.0)
    m.eval()
    x = torch.tensor([[[1.0, 3.0, 5.0], [1.0, 1.0, 1.0]]])
    np.testing.assert_allclose(m(x).numpy(), ((x - 1.0) / np.sqrt(4.0 + 1e-5)).numpy(), rtol=1e-6)


def test_instance_norm_feature_mismatch_warns():
    with pytest.warns(UserWarning, match="^input's size at dim=1 does not match num_features. You can silence this "
                                         "warning by not passing in num_features, which is not used because "
                                         "affine=False$"):
        nn.InstanceNorm1d(3)(torch.randn(2, 4, 4))


ERRORS = [
    (lambda: F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(3, 2, 3, 3)), RuntimeError,
     "Given transposed=1, weight of size [3, 2, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, but got 4 "
     "channels instead"),
    (lambda: F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(4, 2, 3, 3), output_padding=1), RuntimeError,
     "output padding must be smaller than either stride or dilation, but got output_padding_height: 1 "
     "output_padding_width: 1 stride_height: 1 stride_width: 1 dilation_height: 1 dilation_width: 1"),
    (lambda: F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(4, 2, 3, 3), groups=3), RuntimeError,
     "Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of size [[4, 2, 3, 3]] "
     "instead"),
    (lambda: F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(4, 2, 3, 3), bias=torch.zeros(3)),
     RuntimeError, "Given transposed=1, weight of size [4, 2, 3, 3], expected bias to be 1-dimensional with 2 "
     "elements, but got bias of size [3] instead"),
    (lambda: F.conv_transpose2d(torch.zeros(5, 5), torch.zeros(4, 2, 3, 3)), RuntimeError,
     "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: [5, 5]"),
    (lambda: F.pixel_shuffle(torch.zeros(5, 5), 2), RuntimeError,
     "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)"),
    (lambda: F.pixel_shuffle(torch.zeros(1, 4, 2, 2), 0), RuntimeError,
     "pixel_shuffle expects a positive upscale_factor, but got 0"),
    (lambda: F.pixel_shuffle(torch.zeros(1, 4, 2, 2), 3), RuntimeError,
     "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but "
     "input.size(-3)=4 is not divisible by 9"),
    (lambda: F.pixel_unshuffle(torch.zeros(1, 1, 5, 4), 2), RuntimeError,
     "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=5 is not divisible "
     "by 2"),
    (lambda: F.pixel_unshuffle(torch.zeros(1, 1, 4, 5), 2), RuntimeError,
     "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=5 is not divisible "
     "by 2"),
    (lambda: F.group_norm(torch.zeros(2, 4, 5, 5), 3), RuntimeError,
     "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 4, 5, 5] "
     "and num_groups=3"),
    (lambda: F.group_norm(torch.zeros(5), 1), RuntimeError,
     "Expected at least 2 dimensions for input tensor but received 1"),
    (lambda: F.group_norm(torch.zeros(2, 4, 5, 5), 2, torch.ones(3)), RuntimeError,
     "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape "
     "[3] and input of shape [2, 4, 5, 5]"),
    (lambda: F.group_norm(torch.zeros(1, 4), 4), ValueError,
     "Expected more than 1 value per channel when training, got input size [1, 4]"),
    (lambda: nn.GroupNorm(3, 4), ValueError, "num_channels (4) must be divisible by num_groups (3)"),
    (lambda: F.instance_norm(torch.zeros(2, 3, 1)), ValueError,
     "Expected more than 1 spatial element when training, got input size torch.Size([2, 3, 1])"),
    (lambda: nn.InstanceNorm1d(3)(torch.zeros(2, 3, 4, 4)), ValueError, "expected 2D or 3D input (got 4D input)"),
    (lambda: nn.InstanceNorm2d(3)(torch.zeros(2, 3)), ValueError, "expected 3D or 4D input (got 2D input)"),
    (lambda: nn.InstanceNorm3d(3)(torch.zeros(2, 3, 4)), ValueError, "expected 4D or 5D input (got 3D input)"),
    (lambda: nn.InstanceNorm1d(3, affine=True)(torch.zeros(2, 4, 4)), ValueError,
     "expected input's size at dim=1 to match num_features (3), but got: 4."),
    (lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=3, scale_factor=2), ValueError,
     "only one of size or scale_factor should be defined"),
    (lambda: F.interpolate(torch.zeros(1, 1, 2, 2)), ValueError, "either size or scale_factor should be defined"),
    (lambda: F.interpolate(torch.zeros(1, 1, 5, 5), size=(3,)), ValueError,
     "Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of "
     "[5, 5] and output size of (3,). Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size "
     "in (o1, o2, ...,oK) format."),
    (lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=3, align_corners=True), ValueError,
     "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"),
    (lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=3, mode="linear"), NotImplementedError,
     "Got 4D input, but linear mode needs 3D input"),
    (lambda: F.interpolate(torch.zeros(2, 2), size=3), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D) for the modes: nearest | linear | bilinear "
     "| bicubic | trilinear | lanczos | area | nearest-exact (got nearest)"),
    (lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=(3.5, 2)), TypeError,
     "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], but got size with "
     "types [<class 'float'>, <class 'int'>]"),
    (lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=3, recompute_scale_factor=True), ValueError,
     "recompute_scale_factor is not meaningful with an explicit size."),
    (lambda: F.interpolate(torch.zeros(1, 1, 5, 5), size=0), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 5, W: 5) output (H: 0, W: 0)"),
    (lambda: F.one_hot(torch.tensor([1.0])), RuntimeError,
     "one_hot is only applicable to index tensor of type LongTensor."),
    (lambda: F.one_hot(torch.tensor([1, 5]), 3), RuntimeError, "Class values must be smaller than num_classes."),
    (lambda: F.one_hot(torch.tensor([1, -1])), RuntimeError, "Class values must be non-negative."),
    (lambda: F.hardtanh(torch.zeros(2), 2, 1), ValueError, "min_val cannot be greater than max_val"),
    (lambda: nn.Hardtanh(2, 1), AssertionError, "max_val (1) must be greater than min_val (2)"),
    (lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect"), ValueError,
     'Only "zeros" padding mode is supported for ConvTranspose2d'),
    (lambda: nn.ConvTranspose2d(2, 2, 3)(torch.zeros(1, 2, 4, 4), output_size=(9, 9)), ValueError,
     "requested an output size of (9, 9), but valid sizes range from [6, 6] to [6, 6] (for an input of "
     "torch.Size([4, 4]))"),
    (lambda: nn.ConvTranspose2d(2, 2, 3)(torch.zeros(1, 2, 4, 4), output_size=(1, 9, 9)), ValueError,
     "ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements (got 3)"),
    (lambda: nn.Upsample(scale_factor=2, align_corners=True)(torch.zeros(1, 1, 2, 2)), ValueError,
     "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"),
    (lambda: F.pad(torch.zeros(1, 2, 3), (3, 0), mode="reflect"), RuntimeError,
     "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (3, 0) at "
     "dimension 2 of input [1, 2, 3]"),
    (lambda: F.pad(torch.zeros(1, 2, 3), (4, 0), mode="circular"), RuntimeError,
     "Padding value causes wrapping around more than once."),
]


@pytest.mark.parametrize("fn,exc,message", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors(fn, exc, message):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == message


def test_conv_padding_mode_error():
    with pytest.raises(ValueError, match=r"^padding_mode must be one of \{.*'circular'.*\}, but got "
                                         r"padding_mode='foo'$"):
        nn.Conv2d(2, 2, 3, padding_mode="foo")


# ---- gradcheck in float64 ----
def r64(*shape, scale=1.0):
    return (torch.rand(*shape, dtype=torch.float64) * scale - scale / 2).requires_grad_()


GRADCHECKS = {
    "hardtanh": (lambda x: F.hardtanh(x, -0.3, 0.4), (r64(3, 4),)),
    "softplus": (lambda x: F.softplus(x, beta=2.0, threshold=3.0), (r64(3, 4, scale=8.0),)),
    "mish": (F.mish, (r64(3, 4, scale=6.0),)),
    "normalize": (lambda x: F.normalize(x, p=3.0, dim=0), (r64(3, 4),)),
    "group_norm": (lambda x, w, b: F.group_norm(x, 2, w, b), (r64(2, 4, 3), r64(4), r64(4))),
    "instance_norm": (lambda x, w, b: F.instance_norm(x, weight=w, bias=b), (r64(2, 3, 4), r64(3), r64(3))),
    "conv_transpose2d": (lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=2,
                                                            dilation=(1, 2)),
                         (r64(1, 4, 3, 2), r64(4, 1, 2, 3), r64(2))),
    "conv_transpose1d": (lambda x, w: F.conv_transpose1d(x, w, stride=3, padding=1), (r64(2, 2, 3), r64(2, 3, 2))),
    "bilinear": (lambda x: F.interpolate(x, size=(5, 3), mode="bilinear"), (r64(1, 1, 3, 4),)),
    "bilinear_ac": (lambda x: F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=True),
                    (r64(1, 2, 2, 3),)),
    "nearest": (lambda x: F.interpolate(x, scale_factor=1.7), (r64(1, 1, 3),)),
    "pixel_shuffle": (lambda x: F.pixel_unshuffle(F.pixel_shuffle(x, 2) * 2, 2), (r64(1, 4, 2, 3),)),
    "pad_reflect": (lambda x: F.pad(x, (2, 1, 1, 1), mode="reflect"), (r64(1, 1, 3, 3),)),
    "pad_circular": (lambda x: F.pad(x, (2, 1), mode="circular"), (r64(1, 2, 3),)),
    "embedding_max_norm": (lambda w: F.embedding(torch.tensor([0, 2, 2]), w, max_norm=10.0), (r64(3, 2),)),
}


@pytest.mark.parametrize("name", sorted(GRADCHECKS))
def test_gradcheck(name):
    fn, inputs = GRADCHECKS[name]
    assert gradcheck(fn, inputs)
