"""benchmarks/cuda_ops.py - CUDA operators against the CPU kernels (and numpy) in one run.

This tree's benchmark (PyTorch keeps its own under benchmarks/); run on demand, not by `make test`:
    TORCH_CUDA_SIMULATE=1 .venv/bin/python benchmarks/cuda_ops.py     # the simulated device
    .venv/bin/python benchmarks/cuda_ops.py                           # a GPU, where there is one
Guide: docs/source/internals/cuda_simulated_device.rst.

For elementwise add, a full sum and a device-to-device copy at 1e6 and 1e7 float32 elements,
it prints the best time per call on "cuda" (each call followed by torch.cuda.synchronize(), so
the time is the device's, not the queueing), on the CPU kernel, and numpy's, with the
ratios cuda/cpu and cuda/numpy. On the simulated device the targets are: elementwise within
20x of the CPU kernel, reductions within 100x. On a GPU it also reports the copy's bandwidth
against cudaMemcpy's (called through ctypes on the same buffers).

Then the training work (guide: docs/source/internals/cuda_gemm.rst, cuda_training.rst): float32
matrix products of 256 x 256 and 512 x 512 (the tiled kernel against OpenBLAS, and numpy's
product), and one training step of the CNN of docs/examples/train_cnn (batch 32: forward,
backward, SGD step) on "cuda" against the same step on the CPU. Target on the simulated device:
the CNN step within 30x of the CPU's.
"""

import ctypes
import os
import sys

import numpy as np

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_of  # noqa: E402
from caching_allocator import load_cudart  # noqa: E402

SIZES = [("1e6", 1_000_000), ("1e7", 10_000_000)]


def synced(fn):
    def call():
        fn()
        torch.cuda.synchronize()
    return call


def print_row(name, t_cuda, t_cpu, t_np, target):
    print(f"{name:<16} {t_cuda * 1e3:>10.3f} ms {t_cpu * 1e3:>10.3f} ms {t_np * 1e3:>10.3f} ms "
          f"{t_cuda / t_cpu:>9.2f}x {t_cuda / t_np:>9.2f}x   {target}")


def main():
    if not torch.cuda.is_available():
        print("no CUDA device: run on a GPU, or with TORCH_CUDA_SIMULATE=1 for the simulated device")
        return
    simulated = torch._C._cuda_isSimulated()
    print(f"device: {torch.cuda.get_device_name()}  ({'simulated' if simulated else 'GPU'}), "
          f"{torch.get_num_threads()} CPU threads for the CPU kernels")
    print(f"{'benchmark':<16} {'cuda':>13} {'cpu':>13} {'numpy':>13} {'cuda/cpu':>10} {'cuda/numpy':>10}")
    for label, n in SIZES:
        g = torch.Generator().manual_seed(0)
        a_cpu, b_cpu = torch.rand(n, generator=g), torch.rand(n, generator=g)
        a, b = a_cpu.cuda(), b_cpu.cuda()
        a_np, b_np = a_cpu.numpy(), b_cpu.numpy()
        out, out_cpu, out_np = torch.empty_like(a), torch.empty_like(a_cpu), np.empty_like(a_np)
        target = "target 20x (elementwise)" if simulated else ""
        print_row(f"add {label}", best_of(synced(lambda: torch.add(a, b, out=out))),
                  best_of(lambda: torch.add(a_cpu, b_cpu, out=out_cpu)), best_of(lambda: np.add(a_np, b_np, out=out_np)),
                  target)
        target = "target 100x (reduction)" if simulated else ""
        print_row(f"sum {label}", best_of(synced(lambda: a.sum())), best_of(lambda: a_cpu.sum()),
                  best_of(lambda: a_np.sum()), target)
        target = "target 20x (elementwise)" if simulated else ""
        print_row(f"copy_ {label}", best_of(synced(lambda: out.copy_(a))), best_of(lambda: out_cpu.copy_(a_cpu)),
                  best_of(lambda: np.copyto(out_np, a_np)), target)
        if not simulated:
            report_bandwidth(label, n, a, out)
    training_rows(simulated)


def training_rows(simulated):
    for n in (256, 512):
        g = torch.Generator().manual_seed(0)
        a_cpu, b_cpu = torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)
        a, b = a_cpu.cuda(), b_cpu.cuda()
        a_np, b_np = a_cpu.numpy(), b_cpu.numpy()
        print_row(f"mm {n}", best_of(synced(lambda: torch.mm(a, b)), repeat=3),
                  best_of(lambda: torch.mm(a_cpu, b_cpu)), best_of(lambda: a_np @ b_np), "")
    t_cuda, t_cpu = cnn_step_time("cuda"), cnn_step_time("cpu")
    print(f"{'CNN train step':<16} {t_cuda * 1e3:>10.3f} ms {t_cpu * 1e3:>10.3f} ms {'':>13} "
          f"{t_cuda / t_cpu:>9.2f}x {'':>10}   {'target 30x' if simulated else ''}")


def cnn_step_time(device):
    """Best time of one training step of docs/examples/train_cnn's network, batch 32."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "examples", "train_cnn"))
    import train_cnn

    torch.manual_seed(0)
    model = train_cnn.make_model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    images, labels = train_cnn.make_shapes(32, torch.Generator().manual_seed(0))
    images, labels = images.to(device), labels.to(device)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        optimizer.zero_grad()
        loss_fn(model(images), labels).backward()
        optimizer.step()
        if device == "cuda":
            torch.cuda.synchronize()
    return best_of(step, repeat=3)


def report_bandwidth(label, n, a, out):
    """Device-to-device copy_ against cudaMemcpy of the same bytes (read + write counted)."""
    t = best_of(synced(lambda: out.copy_(a)))
    nbytes = 2 * n * a.element_size()
    line = f"  copy_ {label}: {nbytes / t / 1e9:.1f} GB/s"
    cudart = load_cudart()
    if cudart is not None:
        cudaMemcpyDeviceToDevice = 3

        def memcpy():
            cudart.cudaMemcpy(ctypes.c_void_p(out.data_ptr()), ctypes.c_void_p(a.data_ptr()),
                              ctypes.c_size_t(n * a.element_size()), cudaMemcpyDeviceToDevice)
            torch.cuda.synchronize()
        line += f", cudaMemcpy {nbytes / best_of(memcpy) / 1e9:.1f} GB/s"
    print(line)


if __name__ == "__main__":
    main()
