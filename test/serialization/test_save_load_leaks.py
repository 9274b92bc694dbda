# test/serialization/test_save_load_leaks.py - torch.save / torch.load round trips, repeated
# hundreds of times, must leave memory, live tensors, open files and mappings flat.
# Mirrors the leak checks of PyTorch's test/test_serialization.py.
# Guides: docs/source/internals/saving_loading.rst (the zip format, mmap=True),
# docs/source/internals/memory.rst (the allocator's counters).
#
# A loaded storage comes from the CPU allocator, or with mmap=True is a mapping of the file:
# a storage kept alive by the loader (a cache, an unpickler's memo) grows the allocator's
# live allocations or the mappings; a file the loader opens and never closes grows the open
# fds; a tensor object kept anywhere grows the live tensor count (gc.get_objects()).
#
# SLACK: a growth of up to SLACK in a count is not a leak - a cache (pickle's, zipfile's) may
# still grow once after the warm-up. A leak grows with the iterations: one tensor per round
# trip over ITERATIONS (300) is 75 times the slack.
# test_the_check_fails_on_one_leaked_object_per_iteration shows the check does fail then.
import io
import os

import leak_check
import pytest
import torch

ITERATIONS = 300
WARMUP = 10
SLACK = {"allocations": 4, "allocated bytes": 4096, "tensors": 4, "open fds": 4, "mappings": 4}

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts fds and mappings in /proc")


def assert_no_leak(pattern, iterations=ITERATIONS):
    leak_check.assert_no_leak(pattern, iterations, SLACK, WARMUP, extra=leak_check.process_resources)


def checkpoint_like():
    """A state dict's shapes: float and int tensors, a view sharing its base's storage, a
    tensor that requires grad, and plain Python values."""
    w = torch.randn(4, 4)
    return {"w": w, "row": w[1], "steps": torch.arange(4), "bias": torch.zeros(4, requires_grad=True),
            "meta": {"epoch": 3, "names": ["w", "bias"]}}


def check(loaded):
    assert loaded["w"].shape == (4, 4) and loaded["meta"]["epoch"] == 3
    # the view still shares its base's storage after the round trip
    assert loaded["row"].untyped_storage().data_ptr() == loaded["w"].untyped_storage().data_ptr()


def test_the_check_fails_on_one_leaked_object_per_iteration(tmp_path):
    path = tmp_path / "obj.pt"
    torch.save(checkpoint_like(), path)
    kept = []

    def keeps_a_loaded_tensor():
        kept.append(torch.load(path)["steps"])

    def keeps_an_open_file():
        kept.append(open(path, "rb"))

    def keeps_a_mapping():  # the loaded storage alone: no torch.Tensor object is left
        kept.append(torch.load(path, mmap=True)["w"].untyped_storage())

    try:
        for plant in (keeps_a_loaded_tensor, keeps_an_open_file, keeps_a_mapping):
            with pytest.raises(AssertionError, match=f"^{plant.__name__} grew"):
                assert_no_leak(plant, iterations=60)
    finally:
        for k in kept:
            if hasattr(k, "close"):
                k.close()


def test_round_trip_through_bytesio():
    obj = checkpoint_like()

    def bytesio_round_trip():
        buffer = io.BytesIO()
        torch.save(obj, buffer)
        buffer.seek(0)
        check(torch.load(buffer))

    assert_no_leak(bytesio_round_trip, iterations=1000)


def test_round_trip_through_a_file_path(tmp_path):
    obj = checkpoint_like()
    path = tmp_path / "obj.pt"

    def path_round_trip():
        torch.save(obj, path)
        check(torch.load(path))

    assert_no_leak(path_round_trip)


def test_round_trip_through_file_objects(tmp_path):
    obj = checkpoint_like()
    path = tmp_path / "obj.pt"

    def file_object_round_trip():
        with open(path, "wb") as f:
            torch.save(obj, f)
        with open(path, "rb") as f:
            check(torch.load(f))

    assert_no_leak(file_object_round_trip)


def test_round_trip_with_mmap(tmp_path):
    # mmap=True maps the file and makes every storage a view of the mapping: the mapping
    # (and its descriptor) must go when the loaded tensors do.
    obj = checkpoint_like()
    path = tmp_path / "obj.pt"

    def mmap_round_trip():
        torch.save(obj, path)
        loaded = torch.load(path, mmap=True)
        check(loaded)
        assert loaded["w"].sum().item() == obj["w"].sum().item()

    assert_no_leak(mmap_round_trip)
