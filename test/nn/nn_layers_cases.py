"""Shared cases for test_transformer.py and test_layers_more.py: the layers of
torch/nn/modules/{transformer,activation,conv,...}.py run on fixed inputs and weights.
Guide: docs/source/internals/programs/nn_layers.rst.

Each case builds its inputs and parameters from numpy RandomState (so they do not depend
on the framework's generator), runs a layer, and returns named tensors (outputs and input
gradients). The tests run the cases with this tree's torch and compare with
nn_layers_fixtures.json, which holds the same cases' results under PyTorch 2.13. To
regenerate the fixtures, run this file with PyTorch 2.13 as the imported torch (from a
directory where ``import torch`` finds PyTorch, not this tree):

    python test/nn/nn_layers_cases.py test/nn/nn_layers_fixtures.json
"""

import json
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def rand(seed, *shape, dtype=np.float32):
    return torch.tensor(np.random.RandomState(seed).standard_normal(shape).astype(dtype))


def leaf(seed, *shape):
    return rand(seed, *shape).requires_grad_()


def fill(module, seed):
    """Every floating-point entry of module's state_dict set from RandomState(seed), through load_state_dict."""
    rs = np.random.RandomState(seed)
    state = {}
    for name, value in module.state_dict().items():
        if value.is_floating_point():
            state[name] = torch.tensor((0.5 * rs.standard_normal(tuple(value.shape))).astype(np.float32))
        else:
            state[name] = value
    module.load_state_dict(state)
    return module


def backward(out, *leaves, seed=99):
    """Reduce out against fixed weights and return the leaves' gradients."""
    (out * rand(seed, *out.shape)).sum().backward()
    return [t.grad for t in leaves]


def run_with_grads(fn, *inputs):
    out = fn(*inputs)
    grads = backward(out, *inputs)
    result = {"out": out}
    for i, g in enumerate(grads):
        result[f"grad{i}"] = g
    return result


# ---- attention ----
@case
def sdpa_plain():
    q, k, v = leaf(1, 2, 3, 4, 8), leaf(2, 2, 3, 5, 8), leaf(3, 2, 3, 5, 6)
    return run_with_grads(F.scaled_dot_product_attention, q, k, v)


@case
def sdpa_bool_mask_dead_row():
    q, k, v = leaf(4, 2, 4, 8), leaf(5, 2, 6, 8), leaf(6, 2, 6, 8)
    mask = torch.tensor(np.random.RandomState(7).rand(4, 6) > 0.4)
    mask[2] = False  # a row that sees nothing gives zeros
    return run_with_grads(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=mask), q, k, v)


@case
def sdpa_float_mask_causal_scale():
    q, k, v = leaf(8, 1, 2, 5, 4), leaf(9, 1, 2, 5, 4), leaf(10, 1, 2, 5, 4)
    mask = rand(11, 5, 5)
    return run_with_grads(
        lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=mask, is_causal=True, scale=0.3), q, k, v)


@case
def sdpa_causal_rect_gqa():
    q, k, v = leaf(12, 1, 4, 3, 4), leaf(13, 1, 2, 5, 4), leaf(14, 1, 2, 5, 4)
    return run_with_grads(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, is_causal=True, enable_gqa=True),
                          q, k, v)


@case
def mha_need_weights():
    torch.manual_seed(0)
    m = fill(nn.MultiheadAttention(8, 2, dropout=0.0), 20)
    q, k, v = leaf(21, 3, 2, 8), leaf(22, 4, 2, 8), leaf(23, 4, 2, 8)
    out, w = m(q, k, v)
    gq, gk, gv = backward(out, q, k, v)
    return {"out": out, "weights": w, "gq": gq, "gk": gk, "gv": gv}


@case
def mha_self_masks_batch_first():
    m = fill(nn.MultiheadAttention(8, 4, batch_first=True), 24)
    x = leaf(25, 2, 5, 8)
    kpm = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
    am = rand(26, 5, 5)
    out, w = m(x, x, x, key_padding_mask=kpm, attn_mask=am, average_attn_weights=False)
    out2, none = m(x, x, x, key_padding_mask=kpm, attn_mask=am, need_weights=False)
    assert none is None
    (gx,) = backward(out + out2, x)
    return {"out": out, "weights": w, "out_sdpa": out2, "gx": gx}


@case
def mha_kdim_bias_kv_zero_attn():
    m = fill(nn.MultiheadAttention(6, 3, kdim=4, vdim=5, add_bias_kv=True, add_zero_attn=True), 27)
    q, k, v = leaf(28, 2, 3, 6), leaf(29, 4, 3, 4), leaf(30, 4, 3, 5)
    am = torch.tensor(np.random.RandomState(31).rand(2, 4) > 0.7)
    out, w = m(q, k, v, attn_mask=am)
    gq, gk, gv = backward(out, q, k, v)
    return {"out": out, "weights": w, "gq": gq, "gk": gk, "gv": gv}


@case
def mha_unbatched_causal():
    m = fill(nn.MultiheadAttention(4, 2, bias=False), 32)
    x = leaf(33, 5, 4)
    mask = nn.Transformer.generate_square_subsequent_mask(5)
    out, _ = m(x, x, x, attn_mask=mask, is_causal=True, need_weights=False)
    out_w, w = m(x, x, x, attn_mask=mask)
    (gx,) = backward(out, x)
    return {"out": out, "out_w": out_w, "weights": w, "gx": gx}


@case
def square_subsequent_mask():
    return {"mask": nn.Transformer.generate_square_subsequent_mask(4)}


# ---- transformer layers ----
@case
def encoder_layer_post_norm_relu():
    layer = fill(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0), 40)
    src = leaf(41, 5, 2, 8)
    kpm = torch.tensor([[False] * 5, [False, False, False, False, True]]).t().contiguous().t()
    return run_with_grads(lambda s: layer(s, src_key_padding_mask=kpm), src)


@case
def encoder_layer_pre_norm_gelu_batch_first():
    layer = fill(nn.TransformerEncoderLayer(8, 2, dim_feedforward=12, dropout=0.0, activation="gelu",
                                            batch_first=True, norm_first=True, layer_norm_eps=1e-6), 42)
    src = leaf(43, 2, 4, 8)
    mask = rand(44, 4, 4)
    return run_with_grads(lambda s: layer(s, src_mask=mask), src)


@case
def encoder_stack_causal_callable():
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, activation=torch.tanh, bias=False)
    enc = fill(nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8), enable_nested_tensor=False), 45)
    src = leaf(46, 4, 3, 8)
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    return run_with_grads(lambda s: enc(s, mask=mask), src)


@case
def decoder_layer_masks():
    layer = fill(nn.TransformerDecoderLayer(8, 4, dim_feedforward=16, dropout=0.0, batch_first=True), 47)
    tgt, mem = leaf(48, 2, 3, 8), leaf(49, 2, 5, 8)
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(3)
    mkpm = torch.tensor([[False, False, False, False, True], [False, True, False, False, False]])
    out = layer(tgt, mem, tgt_mask=tgt_mask, memory_key_padding_mask=mkpm, tgt_is_causal=True)
    g_tgt, g_mem = backward(out, tgt, mem)
    return {"out": out, "g_tgt": g_tgt, "g_mem": g_mem}


@case
def transformer_full():
    model = fill(nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=12,
                                dropout=0.0, norm_first=True), 50)
    src, tgt = leaf(51, 5, 2, 8), leaf(52, 3, 2, 8)
    tgt_mask = model.generate_square_subsequent_mask(3)
    skpm = torch.tensor([[False, False, False, True, True], [False] * 5])
    out = model(src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=skpm, memory_key_padding_mask=skpm)
    g_src, g_tgt = backward(out, src, tgt)
    return {"out": out, "g_src": g_src, "g_tgt": g_tgt}


@case
def transformer_seeded_init():
    # PyTorch's init calls in PyTorch's order: a seeded model has PyTorch's weights
    torch.manual_seed(3)
    model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=12)
    return {k: v for k, v in model.state_dict().items() if k.endswith("weight") or k.endswith("bias")}


@case
def mha_seeded_init():
    torch.manual_seed(4)
    m = nn.MultiheadAttention(6, 2, kdim=3, vdim=5, add_bias_kv=True)
    return dict(m.state_dict())


# ---- activations ----
def _act_input(seed):
    x = rand(seed, 3, 7) * 4
    x[0, :4] = torch.tensor([-1.0, 1.0, 25.0, -30.0])
    return x.requires_grad_()


@case
def activations():
    out = {}
    fns = {
        "hardtanh": lambda t: F.hardtanh(t, -1.5, 2.0),
        "relu6": lambda t: nn.ReLU6()(t * 3),
        "softplus": lambda t: F.softplus(t),
        "softplus_beta": lambda t: nn.Softplus(beta=2.0, threshold=5.0)(t),
        "mish": lambda t: nn.Mish()(t),
        "hardtanh_mod": lambda t: nn.Hardtanh()(t),
    }
    for i, (name, fn) in enumerate(fns.items()):
        x = _act_input(60 + i)
        y = fn(x)
        (g,) = backward(y, x)
        out[name] = y
        out[name + "_grad"] = g
    return out


@case
def normalize_cases():
    x = leaf(70, 3, 4, 2)
    r = run_with_grads(lambda t: F.normalize(t) + F.normalize(t, p=1.0, dim=-1), x)
    r["zero"] = F.normalize(torch.zeros(2, 3))
    return r


# ---- normalization ----
@case
def group_norm_cases():
    m = fill(nn.GroupNorm(2, 6, eps=1e-3), 71)
    x = leaf(72, 2, 6, 3, 2)
    r = run_with_grads(m, x)
    x2 = leaf(73, 3, 4, 5)
    r2 = run_with_grads(lambda t: F.group_norm(t, 4), x2)
    r["out_noaffine"], r["grad_noaffine"] = r2["out"], r2["grad0"]
    return r


@case
def instance_norm_cases():
    m = nn.InstanceNorm2d(3, affine=True, track_running_stats=True, momentum=0.2)
    fill(m, 74)
    x = leaf(75, 2, 3, 4, 5)
    r = run_with_grads(m, x)
    r["running_mean"], r["running_var"] = m.running_mean.clone(), m.running_var.clone()
    m.eval()
    r["eval_out"] = m(rand(76, 2, 3, 4, 5))
    m1 = nn.InstanceNorm1d(4)
    r["unbatched_1d"] = m1(rand(77, 4, 6))
    r["norm3d"] = nn.InstanceNorm3d(2)(rand(78, 1, 2, 2, 3, 2))
    return r


# ---- convolutions ----
@case
def conv_transpose2d_cases():
    m = fill(nn.ConvTranspose2d(4, 6, (3, 2), stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2,
                                dilation=(1, 2)), 80)
    x = leaf(81, 2, 4, 3, 4)
    r = run_with_grads(m, x)
    m2 = fill(nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, bias=False), 82)
    x2 = leaf(83, 1, 3, 4, 4)
    y2 = m2(x2, output_size=[8, 8])
    (g2,) = backward(y2, x2)
    r["out_size"], r["grad_size"] = y2, g2
    r["unbatched"] = m2(rand(84, 3, 2, 3))
    return r


@case
def conv_transpose1d_cases():
    m = fill(nn.ConvTranspose1d(3, 4, 3, stride=3, padding=2, output_padding=1, dilation=2), 85)
    x = leaf(86, 2, 3, 5)
    r = run_with_grads(m, x)
    w, b = rand(87, 3, 2, 2), rand(88, 2)
    r["functional"] = F.conv_transpose1d(rand(89, 1, 3, 4), w, b, stride=2, padding=1)
    return r


@case
def conv_padding_modes():
    r = {}
    for i, mode in enumerate(["reflect", "replicate", "circular"]):
        m2 = fill(nn.Conv2d(2, 3, (3, 2), padding=(1, 2), padding_mode=mode, stride=(1, 2)), 90 + i)
        x2 = leaf(93 + i, 1, 2, 4, 5)
        y2 = m2(x2)
        (g2,) = backward(y2, x2)
        m1 = fill(nn.Conv1d(2, 2, 3, padding="same", padding_mode=mode, dilation=2), 96 + i)
        x1 = leaf(99 + i, 2, 2, 6)
        y1 = m1(x1)
        (g1,) = backward(y1, x1)
        r.update({f"{mode}_2d": y2, f"{mode}_2d_grad": g2, f"{mode}_1d": y1, f"{mode}_1d_grad": g1})
    return r


# ---- resampling ----
@case
def interpolate_nearest():
    x = rand(110, 1, 2, 5, 7)
    x3 = rand(111, 2, 1, 6)
    return {
        "size": F.interpolate(x, size=(3, 11)),
        "scale": F.interpolate(x, scale_factor=1.7),
        "scale_down": F.interpolate(x, scale_factor=(0.6, 0.45)),
        "recompute": F.interpolate(x, scale_factor=1.7, recompute_scale_factor=True),
        "double": F.interpolate(x, scale_factor=2),
        "exact": F.interpolate(x, size=(4, 9), mode="nearest-exact"),
        "1d": F.interpolate(x3, size=13),
        "3d": F.interpolate(rand(112, 1, 1, 2, 3, 2), scale_factor=(1.5, 1, 2)),
        "upsample": nn.Upsample(scale_factor=3)(x3),
    }


@case
def interpolate_linear():
    x = leaf(113, 1, 2, 4, 5)
    r = {}
    y = F.interpolate(x, size=(7, 3), mode="bilinear") + F.interpolate(x, size=(7, 3), mode="bilinear",
                                                                      align_corners=True)
    (g,) = backward(y, x)
    r["bilinear"], r["bilinear_grad"] = y, g
    r["bilinear_scale"] = F.interpolate(x, scale_factor=(1.5, 0.7), mode="bilinear")
    r["upsample_bilinear"] = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)(x)
    x3 = rand(114, 2, 3, 5)
    r["linear"] = F.interpolate(x3, size=8, mode="linear")
    r["linear_ac"] = F.interpolate(x3, scale_factor=0.5, mode="linear", align_corners=True)
    r["trilinear"] = F.interpolate(rand(115, 1, 1, 2, 3, 4), size=(3, 4, 2), mode="trilinear")
    return r


@case
def pixel_shuffle_cases():
    x = leaf(116, 2, 8, 2, 3)
    r = run_with_grads(lambda t: nn.PixelShuffle(2)(t), x)
    r["unshuffle"] = nn.PixelUnshuffle(3)(rand(117, 1, 2, 3, 6))
    r["batched5d"] = F.pixel_shuffle(rand(118, 2, 1, 9, 1, 2), 3)
    return r


@case
def embedding_max_norm():
    torch.manual_seed(0)
    emb = fill(nn.Embedding(6, 3, max_norm=1.0), 119)
    idx = torch.tensor([[0, 2, 2], [5, 0, 1]])
    out = emb(idx)
    emb1 = fill(nn.Embedding(4, 3, max_norm=0.5, norm_type=1.0, padding_idx=1), 120)
    out1 = emb1(torch.tensor([1, 3]))
    return {"out": out, "weight": emb.weight.detach().clone(), "out_l1": out1, "weight_l1": emb1.weight.detach()}


@case
def pad_modes():
    x = rand(121, 1, 2, 3, 4)
    return {
        "reflect": F.pad(x, (2, 1, 1, 2), mode="reflect"),
        "replicate": F.pad(x, (3, 0, 2, 1), mode="replicate"),
        "circular": F.pad(x, (4, 1, 3, 0), mode="circular"),
        "reflect_1d": F.pad(rand(122, 2, 5), (3, 4), mode="reflect"),
    }


# ---- non-tensor facts ----
def _state_keys(module):
    return [[k, list(v.shape)] for k, v in module.state_dict().items()]


def facts():
    """State dict keys and shapes, reprs and error messages, recorded as plain values."""
    out = {}
    out["keys_transformer"] = _state_keys(nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1,
                                                         num_decoder_layers=1, dim_feedforward=12))
    out["keys_mha_kdim"] = _state_keys(nn.MultiheadAttention(6, 3, kdim=4, vdim=5, add_bias_kv=True, bias=False))
    out["keys_instancenorm"] = _state_keys(nn.InstanceNorm2d(3, affine=True, track_running_stats=True))
    out["keys_convT"] = _state_keys(nn.ConvTranspose2d(4, 6, 3, groups=2))
    modules = {
        "mha": nn.MultiheadAttention(8, 2),
        "encoder_layer": nn.TransformerEncoderLayer(8, 2, dim_feedforward=16),
        "decoder": nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, dim_feedforward=8), 2),
        "hardtanh": nn.Hardtanh(-2.0, 3.0, inplace=True),
        "relu6": nn.ReLU6(),
        "softplus": nn.Softplus(beta=2, threshold=10),
        "mish": nn.Mish(),
        "groupnorm": nn.GroupNorm(2, 4),
        "instancenorm1d": nn.InstanceNorm1d(3),
        "instancenorm2d": nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
        "convT2d": nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, bias=False),
        "convT1d": nn.ConvTranspose1d(2, 3, 4, dilation=2),
        "conv2d_reflect": nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"),
        "upsample": nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
        "upsample_size": nn.Upsample(size=(3, 4)),
        "pixelshuffle": nn.PixelShuffle(2),
        "pixelunshuffle": nn.PixelUnshuffle(3),
        "embedding": nn.Embedding(5, 3, max_norm=1.0),
    }
    out["reprs"] = {k: repr(v) for k, v in modules.items()}
    return out


def run_all():
    results = {}
    for name, fn in CASES.items():
        results[name] = {k: v.detach().tolist() for k, v in fn().items()}
    return results


if __name__ == "__main__":
    data = {"cases": run_all(), "facts": facts(), "torch_version": torch.__version__}
    with open(sys.argv[1], "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
