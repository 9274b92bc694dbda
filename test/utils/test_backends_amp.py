"""torch.backends flags and torch.amp (GradScaler, autocast state) against PyTorch 2.13.

Tests torch/backends/ and torch/amp/ (with torch/cuda/amp, torch/cpu/amp). Values and messages
were recorded from PyTorch 2.13 (CPU). Guide: docs/source/internals/programs/amp_backends.rst
"""

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

import torch
import torch.backends as backends

CUDA = torch.cuda.is_available()


@pytest.fixture(autouse=True)
def restore_flags():
    # The flags are process-wide: each test starts from PyTorch's defaults and leaves them so.
    saved = dict(backends._context.__dict__)
    saved["fp32_precision"] = dict(saved["fp32_precision"])
    einsum = (backends.opt_einsum.enabled, backends.opt_einsum.strategy)
    yield
    backends._context.__dict__.update(saved)
    backends.opt_einsum.enabled, backends.opt_einsum.strategy = einsum


def caught_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [(w.category, str(w.message)) for w in caught]


# ---- torch.backends ----

def test_defaults():
    assert backends.cuda.matmul.allow_tf32 is False
    assert backends.cuda.matmul.allow_bf16_reduced_precision_reduction is True
    assert backends.cuda.matmul.allow_fp16_reduced_precision_reduction is True
    assert backends.cuda.matmul.fp32_precision == "none"
    assert (backends.cudnn.enabled, backends.cudnn.benchmark, backends.cudnn.deterministic) == (True, False, False)
    assert backends.cudnn.allow_tf32 is True and backends.cudnn.benchmark_limit is None
    assert backends.cudnn.is_available() is False and backends.cudnn.version() is None
    assert backends.cudnn.conv.fp32_precision == "tf32" and backends.cudnn.fp32_precision == "none"
    assert backends.mps.is_available() is False and backends.mps.is_built() is False
    assert backends.opt_einsum.is_available() is False
    assert backends.opt_einsum.enabled is False and backends.opt_einsum.strategy is None
    assert backends.fp32_precision == "none"
    assert torch.get_float32_matmul_precision() == "highest"


def test_module_layout():
    assert type(backends).__name__ == "GenericModule" and type(backends.cudnn).__name__ == "CudnnModule"
    assert backends.cudnn.__name__ == "torch.backends.cudnn" and type(backends.cuda.matmul).__name__ == "cuBLASModule"
    assert backends.cpu.__all__ == ["get_cpu_capability"]
    assert backends.mps.__all__ == ["get_core_count", "get_name", "is_built", "is_available", "is_macos13_or_newer",
                                    "is_macos_or_newer"]
    assert backends.cuda.is_built() is torch._C._has_cuda


def test_cpu_capability_is_one_of_atens():
    assert backends.cpu.get_cpu_capability() in ("DEFAULT", "AVX2", "AVX512")


def test_cpu_capability_can_be_lowered():
    # Read once per process (as PyTorch does), so a fresh interpreter is asked.
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    out = subprocess.run([sys.executable, "-c", "import torch; print(torch.backends.cpu.get_cpu_capability())"],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "DEFAULT"


def test_flags_are_settable():
    backends.cudnn.benchmark = True
    backends.cudnn.deterministic = True
    backends.cudnn.enabled = False
    assert (backends.cudnn.enabled, backends.cudnn.benchmark, backends.cudnn.deterministic) == (False, True, True)
    backends.cudnn.allow_tf32 = False
    assert backends.cudnn.allow_tf32 is False
    backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    assert backends.cuda.matmul.allow_bf16_reduced_precision_reduction is False
    backends.opt_einsum.strategy = "greedy"  # plain attributes, as in PyTorch
    assert backends.opt_einsum.strategy == "greedy"


@pytest.mark.parametrize("target, name, value, error, message", [
    ("cudnn", "enabled", 3, RuntimeError, "set_enabled_cudnn expects a bool, but got int"),
    ("cudnn", "benchmark", 3, RuntimeError, "set_benchmark_cudnn expects a bool, but got int"),
    ("cudnn", "deterministic", 3, RuntimeError, "set_deterministic_cudnn expects a bool, but got int"),
    ("cudnn", "allow_tf32", 3, RuntimeError, "set_allow_tf32_cublas expects a bool, but got int"),
    ("matmul", "allow_tf32", 3, RuntimeError, "set_allow_tf32_cublas expects a bool, but got int"),
    ("matmul", "allow_fp16_reduced_precision_reduction", 2, TypeError,
     "allow_fp16_reduced_precision_reduction expects a bool or a tuple/list of bools, but got <class 'int'>"),
    ("matmul", "allow_fp16_reduced_precision_reduction", (True, False), RuntimeError,
     "allow_splitk=False is not supported when reduced precision reductions are enabled"),
    ("matmul", "foo", 1, AttributeError, "Unknown attribute foo"),
    ("matmul", "fp32_precision", "bf16", RuntimeError, "backend 'cuda' does not support precision 'bf16'"),
    ("matmul", "fp32_precision", "foo", RuntimeError, "Unknown precision: foo"),
])
def test_bad_values_are_refused_with_pytorchs_messages(target, name, value, error, message):
    obj = backends.cuda.matmul if target == "matmul" else backends.cudnn
    with pytest.raises(error) as info:
        setattr(obj, name, value)
    assert str(info.value) == message


def test_unknown_attributes():
    with pytest.raises(AttributeError, match="^Unknown attribute foo$"):
        backends.cuda.matmul.foo
    with pytest.raises(AttributeError, match="^module 'torch.backends.cudnn' has no attribute 'foo'$"):
        backends.cudnn.foo


def test_cudnn_flags_context_restores():
    with backends.cudnn.flags(enabled=False, benchmark=True):
        assert backends.cudnn.enabled is False and backends.cudnn.benchmark is True
    assert backends.cudnn.enabled is True and backends.cudnn.benchmark is False


def test_disable_global_flags_freezes_assignment():
    backends.disable_global_flags()
    try:
        assert backends.flags_frozen()
        with pytest.raises(RuntimeError, match="^not allowed to set torch.backends.cudnn flags after "
                                               "disable_global_flags; please use flags\\(\\) context manager instead$"):
            backends.cudnn.benchmark = True
        with backends.cudnn.flags(benchmark=True):
            assert backends.cudnn.benchmark is True
    finally:
        vars(backends.m)["__allow_nonbracketed_mutation_flag"] = True  # the module's own global
    assert not backends.flags_frozen()


def test_opt_einsum_set_flags_without_the_package():
    with pytest.raises(ValueError, match="^opt_einsum is not available, so setting `enabled` to True will not reap"):
        backends.opt_einsum.set_flags(True)
    with pytest.raises(ValueError, match="^opt_einsum is not available, so setting `strategy` to greedy"):
        backends.opt_einsum.set_flags(None, "greedy")


# ---- float32 matmul precision and allow_tf32 (PyTorch 2.13's shared state) ----

MIXED_MATMUL = ("PyTorch is checking the matmul precision without a specific backend name,Current status indicate "
                "that you have used mix of the legacy and new APIs to set the matmul precision. We suggest only using "
                "the new API for matmul precision. See also: "
                "https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices")
MIXED_TF32 = ("PyTorch is checking whether allow_tf32_new is enabled for cuBlas matmul,Current status indicate that "
              "you have used mix of the legacy and new APIs to set the TF32 status for cublas matmul. We suggest only "
              "using the new API to set the TF32 flag. See also: "
              "https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices")


def test_matmul_precision_sets_allow_tf32_and_back():
    torch.set_float32_matmul_precision("high")
    assert backends.cuda.matmul.allow_tf32 is True and backends.cuda.matmul.fp32_precision == "tf32"
    torch.set_float32_matmul_precision("medium")
    assert torch.get_float32_matmul_precision() == "medium" and backends.cuda.matmul.allow_tf32 is True
    torch.set_float32_matmul_precision("highest")
    assert backends.cuda.matmul.allow_tf32 is False
    backends.cuda.matmul.allow_tf32 = True
    assert torch.get_float32_matmul_precision() == "high"
    backends.cuda.matmul.allow_tf32 = False
    assert torch.get_float32_matmul_precision() == "highest"


def test_mixed_legacy_and_new_settings_are_refused():
    torch.set_float32_matmul_precision("medium")
    backends.cuda.matmul.allow_tf32 = False
    with pytest.raises(RuntimeError) as info:
        torch.get_float32_matmul_precision()
    assert str(info.value) == MIXED_MATMUL
    torch.set_float32_matmul_precision("high")
    backends.cuda.matmul.fp32_precision = "ieee"
    assert torch.get_float32_matmul_precision() == "high"
    with pytest.raises(RuntimeError) as info:
        backends.cuda.matmul.allow_tf32
    assert str(info.value) == MIXED_TF32


def test_matmul_precision_argument_checks():
    _, warned = caught_warnings(lambda: torch.set_float32_matmul_precision("foo"))
    assert warned == [(UserWarning, "foo is not one of 'highest', 'high', or 'medium'; the "
                                    "currentsetFloat32MatmulPrecision call has no effect.")]
    assert torch.get_float32_matmul_precision() == "highest"
    with pytest.raises(RuntimeError, match="^set_float32_matmul_precision expects a str, but got int$"):
        torch.set_float32_matmul_precision(1)


# ---- GradScaler ----

def scaler_run():
    # The run recorded from PyTorch 2.13 below: growth every 2 clean steps, an inf at step 2.
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
    opt = torch.optim.SGD([w], lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=8.0, growth_interval=2)
    x = torch.tensor([0.5, 1.0, 2.0])
    out = []
    for i in range(6):
        opt.zero_grad()
        scaled = scaler.scale((w * x).sum() ** 2)
        out.append(("scaled", scaled.item()))
        scaled.backward()
        if i == 2:
            w.grad[1] = float("inf")
        if i == 4:
            scaler.unscale_(opt)
            out.append(("unscaled_grad", w.grad.tolist()))
        r = scaler.step(opt)
        scaler.update()
        out.append((i, scaler.get_scale(), scaler._get_growth_tracker(), [round(v, 6) for v in w.tolist()], r))
    out.append(scaler.state_dict())
    return out


PYTORCH_RUN = [
    ("scaled", 2.0), (0, 8.0, 1, [1.05, -1.9, 0.7], None), ("scaled", 0.004999990575015545),
    (1, 16.0, 0, [1.0475, -1.905, 0.69], None), ("scaled", 2.500114351278171e-05),
    (2, 8.0, 0, [1.0475, -1.905, 0.69], None), ("scaled", 1.2500571756390855e-05),
    (3, 8.0, 1, [1.047625, -1.90475, 0.6905], None), ("scaled", 3.121567715425044e-08),
    ("unscaled_grad", [6.246566772460938e-05, 0.00012493133544921875, 0.0002498626708984375]),
    (4, 16.0, 0, [1.047619, -1.904763, 0.690475], None), ("scaled", 1.4210854715202004e-10),
    (5, 16.0, 1, [1.047619, -1.904762, 0.690476], None),
    {"scale": 16.0, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 2, "_growth_tracker": 1},
]


def test_grad_scaler_run_matches_pytorch():
    assert scaler_run() == PYTORCH_RUN


def test_scale_is_lazy_float32_and_nests():
    scaler = torch.amp.GradScaler("cpu", init_scale=4.0)
    assert scaler.get_scale() == 4.0 and scaler._scale is None
    out = scaler.scale((torch.ones(2), [torch.ones(1) * 2]))
    assert type(out) is tuple and type(out[1]) is list
    np.testing.assert_array_equal(out[0].numpy(), [4.0, 4.0])
    np.testing.assert_array_equal(out[1][0].numpy(), [8.0])
    assert scaler._scale.dtype == torch.float32 and scaler._growth_tracker.dtype == torch.int32
    with pytest.raises(ValueError, match="^outputs must be a Tensor or an iterable of Tensors$"):
        scaler.scale([torch.ones(1), 3])


def test_update_backs_off_and_never_overflows():
    scaler = torch.amp.GradScaler("cpu", init_scale=3e38, growth_interval=1)
    w = torch.nn.Parameter(torch.ones(1))
    opt = torch.optim.SGD([w], lr=0.0)
    scaler.scale(w.sum()).backward()
    scaler.step(opt)
    scaler.update()  # growth would overflow float32: the scale stays
    assert scaler.get_scale() == 3.0000000054977558e+38  # PyTorch 2.13's values

    w.grad = torch.tensor([float("nan")])
    scaler.step(opt)
    scaler.update()
    assert scaler.get_scale() == 1.5000000027488779e+38


def test_skipped_step_leaves_params_and_returns_none():
    w = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([w], lr=1.0)
    scaler = torch.amp.GradScaler("cpu")
    scaler.scale(w.sum()).backward()
    w.grad[0] = float("-inf")
    assert scaler.step(opt) is None and w.tolist() == [1.0, 1.0]
    scaler.update()
    assert scaler.get_scale() == 32768.0


def fresh():
    w = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([w], lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    scaler.scale(w.sum()).backward()
    return w, opt, scaler


FIX = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."


def test_grad_scaler_errors():
    w, opt, s = fresh()
    s.step(opt)
    with pytest.raises(RuntimeError, match=r"^step\(\) has already been called since the last update\(\).$"):
        s.step(opt)
    with pytest.raises(RuntimeError, match=r"^unscale_\(\) is being called after step\(\).$"):
        s.unscale_(opt)
    w, opt, s = fresh()
    s.unscale_(opt)
    with pytest.raises(RuntimeError, match=r"^unscale_\(\) has already been called on this optimizer since the "
                                           r"last update\(\).$"):
        s.unscale_(opt)
    with pytest.raises(AssertionError, match="^A GradScaler instance may only be pickled at the beginning of an "
                                             "iteration, or at the end after scaler.update\\(\\).$"):
        pickle.dumps(s)
    with pytest.raises(AssertionError) as info:
        torch.amp.GradScaler("cpu").update()
    assert str(info.value) == "Attempted update but _scale is None.  " + FIX
    with pytest.raises(AssertionError) as info:
        torch.amp.GradScaler("cpu").step(opt)
    assert str(info.value) == "Attempted step but _scale is None.  " + FIX
    with pytest.raises(RuntimeError, match="^The source state dict is empty, possibly because it was saved from a "
                                           "disabled instance of GradScaler.$"):
        torch.amp.GradScaler("cpu").load_state_dict({})
    with pytest.raises(AssertionError, match=r"^The growth factor must be > 1.0.$"):
        torch.amp.GradScaler("cpu", growth_factor=1.0)
    with pytest.raises(AssertionError, match=r"^The backoff factor must be < 1.0.$"):
        torch.amp.GradScaler("cpu", backoff_factor=1.0)
    w, opt, s = fresh()
    with pytest.raises(RuntimeError, match="^Closure use is not currently supported if GradScaler is enabled.$"):
        s.step(opt, closure=lambda: 0)


def test_update_with_new_scale():
    w, opt, s = fresh()
    s.step(opt)
    reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or torch.FloatTensor with "
              "requires_grad=False.")
    for bad in (torch.ones(2), torch.ones(1, requires_grad=True)):
        with pytest.raises(AssertionError) as info:
            s.update(bad)
        assert str(info.value) == reason
    s.update(4.0)
    assert s.get_scale() == 4.0
    s.update(torch.tensor(0.5))
    assert s.get_scale() == 0.5
    # A 1-element tensor with a dimension passes the checks, then fails to copy into the 0-d scale.
    with pytest.raises(RuntimeError, match=r"^output with shape \[\] doesn't match the broadcast shape \[1\]$"):
        s.update(torch.tensor([0.5]))


def test_fp16_gradients_are_not_unscaled():
    w = torch.nn.Parameter(torch.ones(2, dtype=torch.float16))
    opt = torch.optim.SGD([w], lr=0.1)
    s = torch.amp.GradScaler("cpu")
    s.scale(w.sum()).backward()
    with pytest.raises(ValueError, match="^Attempting to unscale FP16 gradients.$"):
        s.unscale_(opt)


def test_state_dict_round_trip_and_pickle():
    g = torch.amp.GradScaler("cpu", init_scale=4.0)
    assert g.state_dict() == {"scale": 4.0, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 2000,
                              "_growth_tracker": 0}
    g2 = torch.amp.GradScaler("cpu")
    g2.load_state_dict(g.state_dict())
    assert g2.scale(torch.ones(1)).tolist() == [4.0]
    g3 = pickle.loads(pickle.dumps(g2))
    assert g3.get_scale() == 4.0 and g3._scale is None
    disabled = torch.amp.GradScaler("cpu", enabled=False)
    assert disabled.state_dict() == {} and disabled.get_scale() == 1.0
    t = torch.ones(1)
    assert disabled.scale(t) is t


@pytest.mark.skipif(CUDA, reason="the warning is for machines without CUDA")
def test_cuda_grad_scaler_without_cuda_warns_and_disables():
    scaler, warned = caught_warnings(lambda: torch.amp.GradScaler("cuda"))
    assert warned == [(UserWarning, "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")]
    assert not scaler.is_enabled() and scaler.state_dict() == {} and scaler.get_scale() == 1.0
    scaler, warned = caught_warnings(lambda: torch.cuda.amp.GradScaler())
    assert warned == [
        (FutureWarning, "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                        "`torch.amp.GradScaler('cuda', args...)` instead."),
        (UserWarning, "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."),
    ]
    assert not scaler.is_enabled()
    scaler, warned = caught_warnings(lambda: torch.cuda.amp.GradScaler(enabled=False))
    assert len(warned) == 1 and warned[0][0] is FutureWarning


def test_cpu_amp_grad_scaler_is_deprecated():
    scaler, warned = caught_warnings(lambda: torch.cpu.amp.GradScaler(init_scale=2.0))
    assert warned == [(FutureWarning, "`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use "
                                      "`torch.amp.GradScaler('cpu', args...)` instead.")]
    assert scaler.is_enabled() and scaler.get_scale() == 2.0


@pytest.mark.skipif(not CUDA, reason="needs a GPU")
def test_cuda_grad_scaler_keeps_its_scale_on_the_gpu():
    w = torch.nn.Parameter(torch.ones(2, device="cuda"))
    opt = torch.optim.SGD([w], lr=0.1)
    scaler = torch.amp.GradScaler("cuda", init_scale=4.0)
    scaler.scale(w.sum()).backward()
    assert scaler._scale.device.type == "cuda"
    scaler.step(opt)
    scaler.update()
    assert w.cpu().tolist() == [0.9, 0.9] or np.allclose(w.cpu().tolist(), [0.9, 0.9])


# ---- autocast ----

def test_autocast_state_defaults():
    assert torch.is_autocast_enabled() is False and torch.is_autocast_enabled("cpu") is False
    assert torch.get_autocast_dtype("cpu") == torch.bfloat16 and torch.get_autocast_dtype("cuda") == torch.float16
    assert torch.is_autocast_cache_enabled() is True
    assert torch.amp.is_autocast_available("cpu") and not torch.amp.is_autocast_available("meta")
    assert torch.autocast is torch.amp.autocast and torch.autocast.__module__ == "torch.amp.autocast_mode"


def test_autocast_region_sets_and_restores_state():
    with torch.autocast("cpu") as ac:
        assert type(ac) is torch.autocast
        assert torch.is_autocast_enabled("cpu") and not torch.is_autocast_enabled()
        with torch.autocast("cpu", enabled=False):
            assert not torch.is_autocast_enabled("cpu")
        with torch.autocast("cpu", dtype=torch.float16, cache_enabled=False):
            assert torch.get_autocast_dtype("cpu") == torch.float16 and not torch.is_autocast_cache_enabled()
        assert torch.get_autocast_dtype("cpu") == torch.bfloat16 and torch.is_autocast_cache_enabled()
    assert not torch.is_autocast_enabled("cpu")
    with pytest.raises(KeyError):
        with torch.autocast("cpu"):
            raise KeyError("x")
    assert not torch.is_autocast_enabled("cpu")


def test_autocast_as_decorator():
    @torch.autocast("cpu")
    def fn():
        return torch.is_autocast_enabled("cpu")

    assert fn() is True and fn.__name__ == "fn" and not torch.is_autocast_enabled("cpu")


def test_autocast_argument_errors():
    unknown = ("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
               "vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: foo")
    for call in (lambda: torch.autocast("foo"), lambda: torch.get_autocast_dtype("foo"),
                 lambda: torch.is_autocast_enabled("foo")):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == unknown
    with pytest.raises(RuntimeError, match="^unsupported scalarType$"):
        torch.autocast("meta")
    with pytest.raises(ValueError, match="^Expected `device_type` of type `str`, got: `<class 'torch.device'>`$"):
        torch.autocast(torch.device("cpu"))
    with pytest.raises(TypeError, match=r"^is_autocast_enabled\(\): argument 'device_type' \(position 1\) must be "
                                        r"str, not int$"):
        torch.is_autocast_enabled(3)
    with pytest.raises(TypeError, match=r"^set_autocast_enabled\(\): argument 'enabled' \(position 2\) must be bool, "
                                        r"not int$"):
        torch.set_autocast_enabled("cpu", 1)
    with pytest.raises(TypeError, match=r"^autocast\(\)\(func\) requires a callable, but got int. Did you mean to use "
                                        r"autocast as a context manager\?"):
        torch.autocast("cpu")(3)


def test_autocast_unsupported_dtype_warns_and_disables():
    ac, warned = caught_warnings(lambda: torch.autocast("cpu", dtype=torch.float32))
    assert warned == [(UserWarning, "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                                    "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.")]
    assert ac._enabled is False and ac.fast_dtype == torch.float32


@pytest.mark.skipif(CUDA, reason="the warning is for machines without CUDA")
def test_cuda_autocast_without_cuda_warns_and_disables():
    ac, warned = caught_warnings(lambda: torch.autocast("cuda"))
    assert warned == [(UserWarning, "CUDA is not available or torch_xla is imported. Disabling autocast.")]
    assert ac._enabled is False and ac.fast_dtype == torch.float16


def test_deprecated_spellings_warn():
    ac, warned = caught_warnings(lambda: torch.cpu.amp.autocast())
    assert warned == [(FutureWarning, "`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                                      "`torch.amp.autocast('cpu', args...)` instead.")]
    assert (ac.fast_dtype, ac._enabled, ac.device) == (torch.bfloat16, True, "cpu")
    ac, warned = caught_warnings(lambda: torch.cuda.amp.autocast())
    assert warned[0] == (FutureWarning, "`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                                        "`torch.amp.autocast('cuda', args...)` instead.")
    _, warned = caught_warnings(lambda: torch.cuda.amp.custom_fwd(lambda ctx, x: x))
    assert warned == [(FutureWarning, "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
                                      "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.")]
    dtype, warned = caught_warnings(torch.get_autocast_cpu_dtype)
    assert dtype == torch.bfloat16 and warned == [
        (DeprecationWarning, "torch.get_autocast_cpu_dtype() is deprecated. Please use "
                             "torch.get_autocast_dtype('cpu') instead.")]


def test_nesting_counter():
    assert torch.autocast_increment_nesting() == 1
    assert torch.autocast_decrement_nesting() == 0


class CastToFloat(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a):
        ctx.fwd_state = (torch.is_autocast_enabled("cpu"), a.dtype)
        return a * 2

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        CastToFloat.bwd_state = (torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
        return g


def test_custom_fwd_casts_inputs_and_custom_bwd_replays_state():
    x = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)
    with torch.autocast("cpu"):
        y = CastToFloat.apply(x)
    assert y.grad_fn.fwd_state == (False, torch.float32) and y.dtype == torch.float32
    assert y.grad_fn._fwd_used_autocast is False and y.grad_fn._dtype == torch.bfloat16
    y.sum().backward()
    assert CastToFloat.bwd_state == (False, torch.bfloat16)
    with pytest.raises(ValueError, match="^Expected `device_type` of type `str`, got: `<class 'int'>`$"):
        torch.amp.custom_fwd(device_type=1)


# ---- what CPU autocast does to operators (aten/src/ATen/autocast_mode.cpp) ----

def autocast_inputs():
    torch.manual_seed(0)
    a, b, c = torch.randn(3, 4), torch.randn(4, 2), torch.randn(3, 2)
    w = torch.randn(2, 4, requires_grad=True)
    bias = torch.randn(2, requires_grad=True)
    return a, b, c, w, bias


def test_lower_precision_ops_run_in_bfloat16():
    a, b, c, w, bias = autocast_inputs()
    F = torch.nn.functional
    with torch.autocast("cpu"):
        results = {
            "mm": torch.mm(a, b), "addmm": torch.addmm(c, a, b), "bmm": torch.bmm(a[None], b[None]),
            "matmul": a @ b, "baddbmm": torch.baddbmm(c[None], a[None], b[None]), "linear": F.linear(a, w, bias),
        }
    assert {name: r.dtype for name, r in results.items()} == {name: torch.bfloat16 for name in results}
    # the same values as casting first, as in PyTorch
    assert results["mm"].tolist() == torch.mm(a.bfloat16(), b.bfloat16()).tolist()


def test_other_ops_keep_their_dtype_and_fp32_ops_run_in_float32():
    a, b, c, w, bias = autocast_inputs()
    F = torch.nn.functional
    with torch.autocast("cpu"):
        assert (a + a).dtype == torch.float32 and F.relu(a).dtype == torch.float32 and a.sum().dtype == torch.float32
        h = torch.mm(a, b)
        assert h.dtype == torch.bfloat16
        assert F.mse_loss(h, c).dtype == torch.float32
        assert h.prod().dtype == torch.float32 and h.trace().dtype == torch.float32
        x = torch.randn(2, 3).bfloat16()
        assert F.binary_cross_entropy_with_logits(x, torch.ones(2, 3).bfloat16()).dtype == torch.float32
        assert F.nll_loss(F.log_softmax(x.float(), 1).bfloat16(), torch.tensor([0, 2])).dtype == torch.float32


def test_float64_integers_and_disabled_regions_are_left_alone():
    a, b, *_ = autocast_inputs()
    ints = torch.ones(2, 2, dtype=torch.int64)
    with torch.autocast("cpu"):
        assert torch.mm(a.double(), b.double()).dtype == torch.float64
        assert torch.mm(ints, ints).dtype == torch.int64
        with torch.autocast("cpu", enabled=False):
            assert torch.mm(a, b).dtype == torch.float32
        with torch.autocast("cpu", dtype=torch.float16):
            assert torch.mm(a, b).dtype == torch.float16
    assert torch.mm(a, b).dtype == torch.float32


def test_gradients_reach_float32_leaves_in_float32():
    a, b, c, w, bias = autocast_inputs()
    with torch.autocast("cpu"):
        out = torch.nn.functional.linear(a, w, bias)
        loss = out.float().pow(2).sum()
    assert out.grad_fn.name() == "AddmmBackward0"
    loss.backward()
    assert w.grad.dtype == torch.float32 and bias.grad.dtype == torch.float32


def test_autocast_is_per_thread():
    import threading

    seen = []
    with torch.autocast("cpu"):
        worker = threading.Thread(target=lambda: seen.append((torch.is_autocast_enabled("cpu"),
                                                              torch.mm(torch.ones(1, 1), torch.ones(1, 1)).dtype)))
        worker.start()
        worker.join()
    assert seen == [(False, torch.float32)]
