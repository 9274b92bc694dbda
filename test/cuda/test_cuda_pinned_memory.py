"""Pinned host memory: Tensor.pin_memory() / is_pinned(), empty(..., pin_memory=True), the
CachingHostAllocator's reuse rule, asynchronous copies from pinned memory, and
DataLoader(pin_memory=True).

Mirrors PyTorch's test/test_cuda.py (test_pin_memory, test_caching_pinned_memory,
test_noncontiguous_pinned_memory) and test/test_dataloader.py (TestDataLoader.test_*pin_memory*).
Guide: docs/source/internals/cuda_simulated_device.rst. Code: aten/src/ATen/native/Memory.cpp,
aten/src/ATen/cuda/CachingHostAllocator.cpp, torch/utils/data/_utils/pin_memory.py.

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_pinned_memory.py
"""

import pytest

import torch
from torch.utils.data import DataLoader, Dataset

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

simulated_only = pytest.mark.skipif(not torch._C._has_cuda or not torch._C._cuda_isSimulated(),
                                    reason="holding a stream needs the simulated device")


def test_pin_memory_copies_into_pinned_memory_keeping_values_and_strides():
    x = torch.arange(12.0).reshape(3, 4).t()  # non-contiguous
    assert not x.is_pinned()
    p = x.pin_memory()
    assert p.is_pinned() and p.device.type == "cpu"
    assert p.stride() == x.stride() and torch.equal(p, x)
    assert p.data_ptr() != x.data_ptr()
    # Pinning a pinned tensor returns it; a view of pinned memory is pinned.
    assert p.pin_memory() is p
    assert p[1:].is_pinned()


def test_empty_with_pin_memory_and_factories():
    e = torch.empty(5, pin_memory=True)
    assert e.is_pinned()
    z = torch.zeros(2, 3, pin_memory=True)
    assert z.is_pinned() and z.sum().item() == 0
    assert not torch.empty(5).is_pinned()


def test_cuda_tensors_are_never_pinned_and_cannot_be_pinned():
    g = torch.ones(3, device="cuda")
    assert not g.is_pinned()
    with pytest.raises(RuntimeError, match="cannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be pinned"):
        g.pin_memory()


def test_pinned_blocks_are_cached_and_reused_by_size_class():
    a = torch.empty(1000, pin_memory=True)  # 4000 bytes: the 4096-byte class
    ptr = a.data_ptr()
    del a
    b = torch.empty(900, dtype=torch.float32, pin_memory=True)  # 3600 bytes: same class
    assert b.data_ptr() == ptr
    c = torch.empty(1000, pin_memory=True)  # b holds the block: another one
    assert c.data_ptr() != ptr


def test_non_blocking_copies_through_pinned_memory_round_trip():
    host = torch.arange(100_000, dtype=torch.float32).pin_memory()
    dev = host.to("cuda", non_blocking=True)
    back = torch.empty(100_000, pin_memory=True)
    back.copy_(dev, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    assert torch.equal(back, host)


@simulated_only
def test_a_pinned_block_is_not_reused_while_a_copy_from_it_is_queued():
    # The copy from `host` waits on a held stream; freeing `host` must not hand its block to
    # the next pinned allocation until the copy has run (CachingHostAllocator_recordEvent).
    s = torch.cuda.Stream()
    host = torch.full((1024,), 7.0).pin_memory()
    ptr = host.data_ptr()
    torch._C._cuda_simHoldStream(s.cuda_stream)
    try:
        with torch.cuda.stream(s):
            dev = host.to("cuda", non_blocking=True)
        del host
        other = torch.empty(1024, pin_memory=True)
        assert other.data_ptr() != ptr
        other.fill_(-1.0)
    finally:
        torch._C._cuda_simReleaseStream(s.cuda_stream)
    s.synchronize()
    assert dev.cpu().tolist() == [7.0] * 1024  # the copy read 7s, not the -1s
    del other
    # The copy is done: the block is free again and serves the next request of its size.
    reused = torch.empty(1024, pin_memory=True)
    assert reused.data_ptr() == ptr


class _Squares(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return {"x": torch.full((3,), float(i)), "y": torch.tensor(i * i)}


@pytest.mark.parametrize("num_workers", [0, 2])
def test_dataloader_pin_memory_yields_pinned_batches(num_workers):
    loader = DataLoader(_Squares(), batch_size=4, num_workers=num_workers, pin_memory=True)
    batches = list(loader)
    assert len(batches) == 2
    for k, batch in enumerate(batches):
        assert batch["x"].is_pinned() and batch["y"].is_pinned()
        assert batch["y"].tolist() == [(4 * k + j) ** 2 for j in range(4)]
        assert batch["x"][:, 0].tolist() == [float(4 * k + j) for j in range(4)]


def test_pin_memory_helper_keeps_the_structure():
    from torch.utils.data._utils.pin_memory import pin_memory
    data = [torch.ones(2), (torch.zeros(1), "label"), {"k": torch.ones(1)}]
    pinned = pin_memory(data)
    assert pinned[0].is_pinned() and pinned[1][0].is_pinned() and pinned[1][1] == "label"
    assert pinned[2]["k"].is_pinned()


class _Unpinnable:
    def pin_memory(self):
        raise ValueError("cannot pin this batch")


class _UnpinnableDataset(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return _Unpinnable()


def test_an_error_in_the_pin_memory_thread_is_raised_in_the_main_process():
    loader = DataLoader(_UnpinnableDataset(), batch_size=None, num_workers=2, pin_memory=True)
    with pytest.raises(ValueError, match="Caught ValueError in pin memory thread for device 0"):
        list(loader)
