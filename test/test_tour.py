# test/test_tour.py - `python -m torch.tour` (what `make tour` runs) completes and shows real values.
# Guide: docs/source/index.rst.
import ast
import subprocess
import sys


def test_tour_runs_and_reports_each_stop():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    for n in range(1, 10):
        assert f"== Stop {n}:" in out
    assert "device(type='cuda', index=1)" in out
    assert "RuntimeError: Invalid device string: 'cuda:01'" in out
    assert "'c10::DefaultCPUAllocator'" in out
    assert "+64 bytes" in out and "-64 bytes" in out
    assert "[239, 190, 237, 127, 239, 190, 237, 127]" in out
    assert "c10::alloc_cpu(64)" in out


def test_tour_shows_the_caching_allocator_on_the_simulator():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    stop = out.split("== Stop 6: the CUDA caching allocator")[1].split("== Stop 7:")[0]
    assert "== Stop 9: watching it in a debugger" in out
    assert "(512, 2097152)" in stop            # a 512-byte block from a 2 MiB segment
    assert "(1, 1)" in stop                    # one segment, one free split block beside the block
    assert "(0, 2097152)" in stop              # freed: the segment stays cached
    assert "q == p\n   True" in stop           # reused at the same address
    assert "(1, 1)" in stop.split("q == p")[1]  # one cudaMalloc in all
    assert "0x7f0000000000" in stop            # the simulated device's first address


def test_tour_follows_one_call_from_python_to_a_kernel():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    stop = out.split("== Stop 8: one call from Python to a kernel")[1].split("== Stop 9:")[0]
    assert "tensor([[0., 0., 0.],\n           [0., 0., 0.]])" in stop
    for where in ["python_torch_functions.cpp", "at::_ops::zeros::call", "Dispatcher", "RegisterBackendSelect.cpp",
                  "RegisterCompositeExplicitAutograd.cpp", "aten/src/ATen/native/TensorFactories.cpp",
                  "EmptyTensor.cpp", "CPUAllocator.cpp"]:
        assert where in stop
    # the dispatcher's own trace, from a subprocess with TORCH_SHOW_DISPATCH_TRACE=1
    assert "[call] op=[aten::zeros], key=[BackendSelect]" in stop
    assert "[redispatch] op=[aten::zeros], key=[CPU]" in stop
    assert "[call] op=[aten::empty.memory_format], key=[BackendSelect]" in stop
    assert "t.fill_(1) is t\n   True" in stop


def test_tour_shows_a_views_strides_and_offset():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    stop = out.split("== Stop 7: views: sizes, strides and offset over one storage")[1].split("== Stop 8:")[0]
    assert "((2, 1), 0)" in stop      # t: contiguous
    assert "((1,), 2)" in stop        # t[1]: offset 2
    assert "((2,), 0)" in stop        # t[:, 0]: stride 2
    assert "((1, 2), False)" in stop  # t.t()


def test_tour_stops_in_the_legacy_th_layer():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    stop = out.split("== Stop 10: the legacy TH layer: THStorage and THTensor")[1]
    assert "<class 'torch._C.FloatStorageBase'>" in stop
    assert "(4, 4)" in stop                  # four floats of four bytes
    assert "[1, -2, 0, 9]" in stop           # converted, not bit-copied
    assert "s[0]\n   10.0" in stop           # the tensor wrote into the storage
    assert "getsize(path)\n   16" in stop    # the file holds the four floats
    assert "[10.0, 2.0, 3.0, 4.0]" in stop
    assert "tensor(1.)" in stop


def test_tour_builds_and_runs_an_autograd_graph():
    import numpy as np

    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    stop = out.split("== Stop 11: autograd: a graph recorded by the forward pass, run backwards")[1]
    x, w, b = np.array([1.0, -2.0, 3.0]), np.array([0.5, 0.5, -1.0]), 0.25
    h = x * w + b                                    # [0.75, -0.75, -2.75]
    mask = (h > 0).astype(float)                     # relu lets only the first through
    assert f"tensor({np.maximum(h, 0).sum():.4f}, grad_fn=<SumBackward0>)" in stop
    lines = [" ".join(line.split()) for line in stop.splitlines()]
    # the chain from y.grad_fn, one node per forward call, each with where its gradients go
    assert "SumBackward0#0 next: [(ReluBackward0#1, 0)]" in lines
    assert "ReluBackward0#1 next: [(AddBackward0#2, 0)]" in lines
    assert "AddBackward0#2 next: [(MulBackward0#3, 0), (AccumulateGrad#4, 0)]" in lines
    assert "MulBackward0#3 next: [(AccumulateGrad#5, 0), (AccumulateGrad#6, 0)]" in lines
    assert "AccumulateGrad#6 next: []" in lines   # a leaf's node: the end of the graph
    # saved tensors: relu keeps its result, mul both inputs, sum only the input's sizes
    assert f"saved: _saved_result={np.maximum(h, 0).tolist()}" in lines
    assert "saved: _saved_self_sym_sizes=(3,)" in lines
    assert "saved: variable=0.25" in lines and f"saved: variable={x.tolist()}" in lines
    mul_saved = next(line for line in lines if line.startswith("saved: ") and "_saved_other=" in line)
    assert f"_saved_other={w.tolist()}" in mul_saved and f"_saved_self={x.tolist()}" in mul_saved
    # the gradients, worked by hand: d/dx = w * mask, d/dw = x * mask, d/db = sum(mask)
    after = stop.split("x.grad")[1]
    assert str((w * mask).tolist()) in after.split("w.grad")[0]
    assert str((x * mask).tolist()) in after.split("w.grad")[1].split("b.grad")[0]
    assert f"b.grad\n   {mask.sum()}" in stop
    assert "RuntimeError: Trying to backward through the graph a second time" in stop


def test_tour_ends_with_a_few_training_steps_whose_loss_goes_down():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    assert "== Stop 12: training: a tiny model takes a few SGD steps" in out
    stop = out.split("== Stop 12: training: a tiny model takes a few SGD steps")[1]
    assert "(guide: docs/source/internals/python_layer.rst)" in stop
    assert "sum(p.numel() for p in model.parameters())\n   33" in stop   # (2*8 + 8) + (8*1 + 1)
    losses = [float(line.split("loss")[1]) for line in stop.splitlines() if line.strip().startswith("step ")]
    assert len(losses) == 10
    assert all(later < earlier for earlier, later in zip(losses, losses[1:])), losses
    assert losses[-1] < losses[0] / 4
    assert out.rstrip().endswith("open docs/build/html/index.html.")


def test_tour_runs_cuda_tensors_on_the_simulated_device():
    import torch
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    stop = out.split("== Stop 13: CUDA tensors")[1]
    if not torch._C._has_cuda:
        assert "This build has no CUDA" in stop
        return
    assert "cuda:0 True" in stop
    assert "(999000.0, 999000.0)" in stop       # 2 * (0 + 1 + ... + 999), on the device and on the CPU
    assert "\n   8192\n" in stop                 # two 4000-byte tensors, 4096 bytes each
    assert "([3.0, 7.0, 11.0], [3, 3, 3])" in stop
    losses = ast.literal_eval(stop.split("6 SGD steps of a tiny CNN")[1].split("\n")[1].strip())
    assert len(losses) == 6 and losses[-1] < losses[0] * 0.8   # the tiny model learned on the device
    if not torch.cuda.is_available():
        assert "Simulated CUDA device (CPU)" in stop


def test_tour_compiles_and_runs_a_cpp_extension():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    stop = out.split("== Stop 14: a C++ extension, compiled just in time")[1]
    # swish(x) = x * sigmoid(x) at -1, 0, 2
    assert "[-0.2689, 0.0, 1.7616]" in stop
    assert "(True, 'Tensor')" in stop
    assert "-DTORCH_EXTENSION_NAME=tour_swish" in stop and "-std=c++17" in stop
