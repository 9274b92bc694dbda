# test/nn/test_transformer.py - Transformer, its encoder/decoder layers, MultiheadAttention and
# F.scaled_dot_product_attention / F.multi_head_attention_forward.
# Mirrors parts of PyTorch's test/test_transformers.py and test/test_nn.py.
# Guide: docs/source/internals/programs/nn_layers.rst.
#
# Values and input gradients against PyTorch 2.13 on the fixed weights and inputs of
# nn_layers_cases.py (recorded in nn_layers_fixtures.json); gradients with gradcheck in float64.

import json
import os
import pickle
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

ATTENTION_CASES = [
    "sdpa_plain", "sdpa_bool_mask_dead_row", "sdpa_float_mask_causal_scale", "sdpa_causal_rect_gqa",
    "mha_need_weights", "mha_self_masks_batch_first", "mha_kdim_bias_kv_zero_attn", "mha_unbatched_causal",
    "square_subsequent_mask", "encoder_layer_post_norm_relu", "encoder_layer_pre_norm_gelu_batch_first",
    "encoder_stack_causal_callable", "decoder_layer_masks", "transformer_full", "transformer_seeded_init",
    "mha_seeded_init",
]


def check_case(name):
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


@pytest.mark.parametrize("name", ATTENTION_CASES)
def test_matches_pytorch(name):
    check_case(name)


def test_fixture_cases_are_all_tested():
    import test_layers_more
    assert sorted(ATTENTION_CASES + test_layers_more.LAYER_CASES) == sorted(cases.CASES)


# ---- state dicts, reprs, pickling ----
def state_keys(module):
    return [[k, list(v.shape)] for k, v in module.state_dict().items()]


def test_state_dict_keys_match_pytorch():
    facts = FIXTURES["facts"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=12)
    assert state_keys(model) == facts["keys_transformer"]
    assert state_keys(nn.MultiheadAttention(6, 3, kdim=4, vdim=5, add_bias_kv=True, bias=False)) == \
        facts["keys_mha_kdim"]


@pytest.mark.parametrize("name", ["mha", "encoder_layer", "decoder"])
def test_repr(name):
    modules = {
        "mha": lambda: nn.MultiheadAttention(8, 2),
        "encoder_layer": lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16),
        "decoder": lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, dim_feedforward=8), 2),
    }
    assert repr(modules[name]()) == FIXTURES["facts"]["reprs"][name]


def test_pickle_multihead_attention_round_trip():
    m = cases.fill(nn.MultiheadAttention(8, 2, kdim=6, add_bias_kv=True, batch_first=True), 5)
    blob = pickle.dumps(m)
    # the out projection pickles under PyTorch's class path
    assert b"NonDynamicallyQuantizableLinear" in blob and b"torch.nn.modules.linear" in blob
    m2 = pickle.loads(blob)
    assert type(m2.out_proj) is torch.nn.modules.linear.NonDynamicallyQuantizableLinear
    assert m2.batch_first and not m2._qkv_same_embed_dim
    q, k = cases.rand(6, 2, 3, 8), cases.rand(7, 2, 4, 6)
    v = cases.rand(8, 2, 4, 8)
    out1, w1 = m(q, k, v)
    out2, w2 = m2(q, k, v)
    np.testing.assert_array_equal(out1.detach().numpy(), out2.detach().numpy())
    np.testing.assert_array_equal(w1.detach().numpy(), w2.detach().numpy())
    assert list(m2.state_dict()) == list(m.state_dict())


def test_setstate_of_old_pickle_defaults_to_packed_projection():
    m = nn.MultiheadAttention(4, 2)
    state = m.__dict__.copy()
    del state["_qkv_same_embed_dim"]
    m2 = nn.MultiheadAttention.__new__(nn.MultiheadAttention)
    m2.__setstate__(state)
    assert m2._qkv_same_embed_dim is True


def test_encoder_layers_are_deep_copies():
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)
    enc = nn.TransformerEncoder(layer, 3, enable_nested_tensor=False)
    assert enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight
    np.testing.assert_array_equal(enc.layers[0].linear1.weight.detach().numpy(),
                                  enc.layers[2].linear1.weight.detach().numpy())


def test_generate_square_subsequent_mask_dtype():
    m = nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64)
    assert m.dtype == torch.float64
    assert m.tolist() == [[0.0, float("-inf"), float("-inf")], [0.0, 0.0, float("-inf")], [0.0, 0.0, 0.0]]


# ---- warnings and errors ----
def test_nested_tensor_warning():
    with pytest.warns(UserWarning, match=r"enable_nested_tensor is True, but self.use_nested_tensor is False "
                                         r"because encoder_layer.norm_first was True"):
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, norm_first=True, batch_first=True), 1)
    assert enc.enable_nested_tensor and not enc.use_nested_tensor
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, batch_first=True), 1)
    assert enc.use_nested_tensor


def test_mismatched_mask_types_warn():
    m = nn.MultiheadAttention(4, 2)
    x = torch.zeros(3, 1, 4)
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask is deprecated"):
        m(x, x, x, key_padding_mask=torch.zeros(1, 3, dtype=torch.bool), attn_mask=torch.zeros(3, 3))


def test_constructor_errors():
    with pytest.raises(AssertionError, match="^embed_dim must be divisible by num_heads$"):
        nn.MultiheadAttention(5, 2)
    with pytest.raises(ValueError, match=r"^embed_dim and num_heads must be greater than 0, got embed_dim=0 and "
                                         r"num_heads=2 instead$"):
        nn.MultiheadAttention(0, 2)
    with pytest.raises(RuntimeError, match="^activation should be relu/gelu, not tanh$"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")


def test_forward_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8)
    with pytest.raises(RuntimeError, match="^the batch number of src and tgt must be equal$"):
        model(torch.zeros(3, 2, 4), torch.zeros(3, 1, 4))
    with pytest.raises(RuntimeError, match="^the feature number of src and tgt must be equal to d_model$"):
        model(torch.zeros(3, 2, 5), torch.zeros(3, 2, 5))
    m = nn.MultiheadAttention(4, 2)
    x = torch.zeros(3, 2, 4)
    with pytest.raises(RuntimeError, match=r"^The shape of the 2D attn_mask is torch.Size\(\[3, 2\]\), but should "
                                           r"be \(3, 3\).$"):
        m(x, x, x, attn_mask=torch.zeros(3, 2))
    with pytest.raises(AssertionError, match="^only bool and floating types of attn_mask are supported$"):
        m(x, x, x, attn_mask=torch.zeros(3, 3, dtype=torch.int64))
    with pytest.raises(AssertionError, match="^For batched \\(3-D\\) `query`, expected `key` and `value` to be 3-D "
                                             "but found 2-D and 3-D tensors respectively$"):
        m(x, x[0], x)
    with pytest.raises(RuntimeError, match="^Need attn_mask if specifying the is_causal hint"):
        m(x, x, x, is_causal=True)


def test_sdpa_errors():
    q = torch.zeros(2, 3, 4)
    with pytest.raises(RuntimeError, match=r"^Expected query, key, and value to all be  at least 2 dimensional, but "
                                           r"got query.dim: 1 key.dim: 1 and value.dim: 1 instead.$"):
        F.scaled_dot_product_attention(q[0, 0], q[0, 0], q[0, 0])
    with pytest.raises(RuntimeError, match=r"^Expected query, key, and value to have the same dtype, but got "
                                           r"query.dtype: float key.dtype: float and value.dtype: double instead.$"):
        F.scaled_dot_product_attention(q, q, q.double())
    with pytest.raises(RuntimeError, match=r"^Expected attn_mask dtype to be bool or float or to match query dtype, "
                                           r"but got attn_mask.dtype: long int and  query.dtype: float instead.$"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(3, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="^dropout probability has to be between 0 and 1, but got 1.5$"):
        F.scaled_dot_product_attention(q, q, q, dropout_p=1.5)


def test_sdpa_dropout_keeps_expectation_shape():
    torch.manual_seed(0)
    q = torch.ones(1, 4, 4)
    out = F.scaled_dot_product_attention(q, q, torch.ones(1, 4, 4), dropout_p=0.5)
    # every kept weight is scaled by 2: each output is 2 * (number kept) / 4
    vals = set(round(v * 2) for v in out.flatten().tolist())
    assert vals <= {0, 1, 2, 3, 4}
    assert out.shape == (1, 4, 4)


# ---- gradcheck in float64 ----
def r64(*shape):
    return torch.rand(*shape, dtype=torch.float64).requires_grad_()


def test_gradcheck_sdpa():
    q, k, v = r64(2, 3, 4), r64(2, 5, 4), r64(2, 5, 3)
    mask = torch.rand(3, 5, dtype=torch.float64)
    assert gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=mask, is_causal=True),
                     (q, k, v))
    bmask = torch.tensor([[True, False, True, True, False]] * 2 + [[False] * 5])
    assert gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=bmask, scale=0.7), (q, k, v))


def test_gradcheck_multi_head_attention_forward():
    E, H = 4, 2
    q, k, v = r64(3, 2, E), r64(5, 2, E), r64(5, 2, E)
    w_in, b_in, w_out, b_out = r64(3 * E, E), r64(3 * E), r64(E, E), r64(E)
    kpm = torch.tensor([[False, False, False, False, True], [False] * 5])

    def f(q, k, v, w_in, b_in, w_out, b_out, need_weights):
        return F.multi_head_attention_forward(q, k, v, E, H, w_in, b_in, None, None, False, 0.0, w_out, b_out,
                                              key_padding_mask=kpm, need_weights=need_weights)[0]

    assert gradcheck(lambda *a: f(*a, True), (q, k, v, w_in, b_in, w_out, b_out))
    assert gradcheck(lambda *a: f(*a, False), (q, k, v, w_in, b_in, w_out, b_out))
