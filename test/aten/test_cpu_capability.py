"""The two builds of the CPU kernels (DEFAULT and AVX2, aten/src/ATen/native/DispatchStub.h) give
the same bits: the AVX2 build only uses wider registers and a fused multiply-add where the code
asks for one (-ffp-contract=off), so a program's numbers do not depend on the machine's vector
width. Each build runs in its own interpreter (ATEN_CPU_CAPABILITY is read once).
Guide: docs/source/internals/performance.rst ("One kernel, two builds").
"""
import os
import subprocess
import sys

import pytest

import torch

_SCRIPT = r"""
import hashlib, json
import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(0)
def t(*shape, dtype=np.float32):
    return torch.from_numpy(rng.standard_normal(shape).astype(dtype))

x, y, z = t(1013), t(1013), t(1013)
xd = t(37, 29, dtype=np.float64)
m = t(67, 131)
strided = m.t()[::2]
def c(n, dtype=np.complex64):
    return torch.from_numpy((rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype))
cx, cy, cxd = c(515), c(515), c(99, np.complex128)
def grad_of(f, a, g):
    a = a.clone().requires_grad_()
    f(a).backward(g)
    return a.grad
res = {
    "add_alpha": torch.add(x, y, alpha=-0.37), "sub_alpha": torch.sub(xd, xd * 0.5, alpha=3.1),
    "addcmul": torch.addcmul(x, y, z, value=0.3), "addcdiv": torch.addcdiv(x, y, z.abs() + 1, value=-0.7),
    "lerp": torch.lerp(x, y, 0.3), "lerp_t": torch.lerp(x, y, z.sigmoid()),
    "mul_div": x * y / (z.abs() + 0.5), "pow": x.abs().pow(1.7), "atan2": torch.atan2(x, y),
    "sum": m.sum(), "sum_dim": m.sum(1), "sum_strided": strided.sum(0), "sum_d": xd.sum(),
    "mean": m.mean(0), "prod": (x[:40] * 0.1 + 1).prod(), "var": m.var(1), "std": xd.std(),
    "norm": m.norm(dim=1), "max": m.max(1).values, "argmax": m.argmax(0).double(),
    "cumsum": x.cumsum(0),
    "exp_log": x.exp().log1p(), "trig": x.sin() + y.cos() + z.tanh(), "sigmoid": x.sigmoid(),
    "gelu": F.gelu(x), "gelu_tanh": F.gelu(x, approximate="tanh"), "silu": F.silu(x), "elu": F.elu(x),
    "relu_clamp": x.relu() + y.clamp(-0.5, 0.5), "where": torch.where(x > 0, y, z),
    "half": x.half().float(), "bf16": x.bfloat16().float(), "strided_copy": strided.contiguous(),
    "softmax": m.softmax(1), "log_softmax": m.log_softmax(0),
    # at::vec's exp, tanh, sigmoid and erf (cpu/vec/vec_math.h) over their whole ranges, denormal
    # results included, and the kernels built on them, forward and backward.
    "exp_wide": (x * 40).exp(), "tanh_wide": (x * 4).tanh(), "sigmoid_wide": (x * 40).sigmoid(),
    "erf": (x * 2).erf(), "exp_bf16": x.bfloat16().exp().float(),
    "gelu_bwd": grad_of(F.gelu, x, y), "gelu_tanh_bwd": grad_of(lambda t: F.gelu(t, approximate="tanh"), x, y),
    "softmax_dim0": m.softmax(0), "log_softmax_lastdim": m.log_softmax(1),
    "softmax_3d": xd.view(37, 29, 1).expand(37, 29, 3).softmax(1),
    "softmax_bf16": m.bfloat16().softmax(1).float(), "log_softmax_bf16_dim0": m.bfloat16().log_softmax(0).float(),
    "softmax_bwd": torch._softmax_backward_data(m * 0.3, m.softmax(1), 1, torch.float32),
    "softmax_bwd_dim0": torch._softmax_backward_data(m * 0.3, m.softmax(0), 0, torch.float32),
    "log_softmax_bwd": torch._log_softmax_backward_data(m * 0.3, m.log_softmax(1), 1, torch.float32),
    "log_softmax_bwd_dim0": torch._log_softmax_backward_data(m * 0.3, m.log_softmax(0), 0, torch.float32),
    "layer_norm": F.layer_norm(m, (131,), y[:131], z[:131]),
    "layer_norm_bwd": grad_of(lambda a: F.layer_norm(a, (131,), y[:131]), m, m * 0.3),
    "lstm_cell": torch.cat(torch._thnn_fused_lstm_cell(m[:, :128], m[:, 1:129] * 0.5, m[:, :32] * 0.1)[:2], 1),
    "lstm_cell_bwd": grad_of(lambda a: torch._thnn_fused_lstm_cell(a, m[:, 1:129], m[:, :32])[0], m[:, :128], m[:, :32]),
    "cmul": cx * cy, "cdiv": cx / cy, "cadd_alpha": torch.add(cx, cy, alpha=2),
    "cexp": cx.exp(), "csum": cx.sum(), "cprod": (cx[:30] * 0.1 + 1).prod(), "cmul_d": cxd * cxd,
}
print(json.dumps({k: hashlib.sha256(v.contiguous().numpy().tobytes()).hexdigest() for k, v in res.items()}))
print(torch.backends.cpu.get_cpu_capability())
"""


def _run(capability):
    env = dict(os.environ)
    env.pop("ATEN_CPU_CAPABILITY", None)
    if capability is not None:
        env["ATEN_CPU_CAPABILITY"] = capability
    out = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True).stdout
    digests, cap = out.strip().splitlines()
    import json

    return json.loads(digests), cap


def test_default_and_avx2_builds_agree_bit_for_bit():
    best, best_cap = _run(None)
    if best_cap == "DEFAULT":
        pytest.skip("this CPU (or this build) has no AVX2 kernels to compare against")
    portable, portable_cap = _run("default")
    assert (best_cap, portable_cap) == ("AVX2", "DEFAULT")
    differ = sorted(k for k in best if best[k] != portable[k])
    assert differ == []


def test_invalid_setting_warns_and_is_ignored():
    env = dict(os.environ, ATEN_CPU_CAPABILITY="sse9")
    proc = subprocess.run([sys.executable, "-c", "import torch; torch.ones(2).add(1); "
                           "print(torch.backends.cpu.get_cpu_capability())"],
                          env=env, capture_output=True, text=True, check=True)
    assert "ignoring invalid value for ATEN_CPU_CAPABILITY: sse9" in proc.stderr
    assert proc.stdout.strip() in ("DEFAULT", "AVX2")


def test_capability_is_a_build_name():
    assert torch.backends.cpu.get_cpu_capability() in ("DEFAULT", "AVX2")
    assert torch.backends.cpu.get_cpu_capability() == torch._C._get_cpu_capability()
