"""Whole models trained on ``device="cuda"`` against the same models trained on the CPU: an MLP with
SGD and momentum, one with Adam, an LSTM, and the CNN of docs/examples/train_cnn (convolutions,
batch norm, max pooling, cross entropy). Same seed, same data: the losses must agree step by step
within float rounding, and the CNN must reach the accuracy it reaches on the CPU.

Mirrors what PyTorch's test/test_nn.py checks with its CUDA-vs-CPU module tests
(``_test_module_on_cuda``-style comparisons), for training loops rather than single modules.
Guide: docs/source/internals/cuda_training.rst. Without a GPU:

    TORCH_CUDA_SIMULATE=1 .venv/bin/python -m pytest test/cuda/test_cuda_training.py
"""

import os
import sys

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch import nn

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

EXAMPLE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "examples", "train_cnn")
sys.path.insert(0, EXAMPLE_DIR)
import train_cnn  # noqa: E402


def train_mlp(device, optimizer_name, steps=8):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
    optimizer = {
        "sgd": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
        "adam": lambda p: torch.optim.Adam(p, lr=0.01),
        "adamw": lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.1),
        "adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1),
        "rmsprop": lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5),
    }[optimizer_name](model.parameters())
    g = torch.Generator().manual_seed(1)
    x, y = torch.randn(64, 20, generator=g), torch.randint(0, 5, (64,), generator=g)
    x, y = x.to(device), y.to(device)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, [p.detach().cpu() for p in model.parameters()]


@pytest.mark.parametrize("optimizer_name", ["sgd", "adam", "adamw", "adagrad", "rmsprop"])
def test_mlp_trains_on_cuda_as_on_the_cpu(optimizer_name):
    cpu_losses, cpu_params = train_mlp("cpu", optimizer_name)
    cuda_losses, cuda_params = train_mlp("cuda", optimizer_name)
    np.testing.assert_allclose(cuda_losses, cpu_losses, rtol=1e-5, atol=1e-6)
    assert cuda_losses[-1] < cuda_losses[0] * 0.9   # it learned
    for got, want in zip(cuda_params, cpu_params):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-5)


def train_lstm(device, steps=6):
    torch.manual_seed(0)
    lstm, head = nn.LSTM(4, 8, batch_first=True).to(device), nn.Linear(8, 1).to(device)
    optimizer = torch.optim.SGD(list(lstm.parameters()) + list(head.parameters()), lr=0.2)
    g = torch.Generator().manual_seed(2)
    x = torch.randn(16, 5, 4, generator=g)
    y = x.sum(dim=(1, 2)).unsqueeze(1) / 5          # the sum of the sequence, to be learned
    x, y = x.to(device), y.to(device)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        out, _ = lstm(x)
        loss = F.mse_loss(head(out[:, -1]), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def test_lstm_trains_on_cuda_as_on_the_cpu():
    cpu_losses, cuda_losses = train_lstm("cpu"), train_lstm("cuda")
    np.testing.assert_allclose(cuda_losses, cpu_losses, rtol=1e-5, atol=1e-6)
    assert cuda_losses[-1] < cuda_losses[0]


def test_cnn_example_trains_on_cuda_as_on_the_cpu():
    """The example's short form: the same losses batch for batch, the same test accuracy."""
    kwargs = dict(epochs=2, n_train=256, n_test=128, num_workers=0, seed=0, verbose=False)
    cpu_losses, cuda_losses = [], []
    cpu_acc = train_cnn.train(device="cpu", losses=cpu_losses, **kwargs)
    cuda_acc = train_cnn.train(device="cuda", losses=cuda_losses, **kwargs)
    assert len(cuda_losses) == len(cpu_losses) == 16
    np.testing.assert_allclose(cuda_losses, cpu_losses, rtol=1e-4, atol=1e-5)
    assert abs(cuda_acc - cpu_acc) <= 1 / 128   # at most one test image decided differently
    assert cuda_losses[-1] < cuda_losses[0]


def test_training_step_frees_its_activations():
    """After a step (forward, backward, optimizer) the activations and gradients of the graph
    are freed: what stays allocated is the parameters, their .grad and the momentum buffers."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = torch.randn(128, 64, device="cuda"), torch.randint(0, 10, (128,), device="cuda")
    param_bytes = sum(p.numel() * 4 for p in model.parameters())
    for _ in range(2):
        optimizer.zero_grad(set_to_none=False)
        F.cross_entropy(model(x), y).backward()
        optimizer.step()
    torch.cuda.synchronize()
    steady = torch.cuda.memory_allocated()
    inputs = x.numel() * 4 + y.numel() * 8
    # parameters + grads + momentum, and the inputs, each rounded up to the allocator's 512 bytes
    assert steady <= 3 * param_bytes + inputs + 64 * 512
    assert torch.cuda.max_memory_allocated() > steady   # the activations were there during the step


def test_a_model_that_does_not_fit_raises_cuda_out_of_memory():
    """On a 64 MiB simulated device, a 4096 x 4096 linear layer's activations for a batch of
    4096 do not fit: the caching allocator raises PyTorch's OutOfMemoryError, and the model's
    parameters are still usable afterwards."""
    import subprocess

    if not torch._C._cuda_isSimulated():
        pytest.skip("the capacity is set on the simulated device")
    program = """
import torch
model = torch.nn.Linear(1024, 4096).cuda()          # 16 MiB of parameters: fits
x = torch.randn(4096, 1024, device="cuda")           # 16 MiB
try:
    model(x).relu().sum().backward()                   # 64 MiB of activations: does not
except torch.OutOfMemoryError as e:
    print(type(e).__name__, str(e).split(". ")[0])
print(model(x[:8]).shape)
"""
    env = dict(os.environ, TORCH_CUDA_SIMULATE="1", TORCH_CUDA_SIMULATE_MEMORY="64MiB")
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True,
                         timeout=300).stdout
    assert out.splitlines() == ["OutOfMemoryError CUDA out of memory", "torch.Size([8, 4096])"]
