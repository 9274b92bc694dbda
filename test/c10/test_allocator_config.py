# test/c10/test_allocator_config.py - PYTORCH_ALLOC_CONF settings strings seen from Python: what each option changes, resets and error texts.
# Mirrors PyTorch's c10/test/core/AllocatorConfig_test.cpp and test/test_cuda.py test_allocator_settings. Guide: docs/source/internals/cuda_caching_allocator.rst
import re

import pytest
from torch.cuda.memory import CachingAllocatorSimulator

MiB = 1024 * 1024
GiB = 1024 * MiB


@pytest.fixture(autouse=True)
def no_allocator_env(monkeypatch):
    for name in ("PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING"):
        monkeypatch.delenv(name, raising=False)


def simulator(settings):
    sim = CachingAllocatorSimulator(GiB)
    sim.set_allocator_settings(settings)
    return sim


def divisions_seen(sim, size_mb):
    """The divisions of size_mb's interval, read off round_size: a request just above the
    power of two 2^k rounds up by one step of 2^k / divisions (0 and 1 both mean "no
    division rounding": plain 512-byte rounding, reported as 1)."""
    base = size_mb * MiB
    step = sim.round_size(base + 1) - base
    return 1 if step == 512 else base // step


def test_roundup_power2_divisions_list_sets_each_interval():
    # AllocatorConfig_test: [64:8,128:2,256:4,512:2,1024:4,>:1]
    sim = simulator("roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1]")
    seen = {mb: divisions_seen(sim, mb) for mb in (32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)}
    assert seen == {32: 8, 64: 8, 128: 2, 256: 4, 512: 2, 1024: 4, 2048: 1, 4096: 1, 8192: 1}


def test_roundup_power2_divisions_list_leaves_unnamed_intervals_unset():
    # AllocatorConfig_test: [128:8,256:16,512:1,2048:8,>:2]; 1024 MiB is unset (0)
    sim = simulator("roundup_power2_divisions:[128:8,256:16,512:1,2048:8,>:2]")
    seen = {mb: divisions_seen(sim, mb) for mb in (64, 128, 256, 512, 1024, 2048, 4096)}
    assert seen == {64: 8, 128: 8, 256: 16, 512: 1, 1024: 1, 2048: 8, 4096: 2}


def test_roundup_power2_divisions_single_value_applies_everywhere():
    sim = simulator("roundup_power2_divisions:4")
    assert {mb: divisions_seen(sim, mb) for mb in (1, 64, 4096)} == {1: 4, 64: 4, 4096: 4}


def test_max_split_size_mb_is_reported_in_bytes():
    assert simulator("max_split_size_mb:20").memory_stats()["max_split_size"] == 20 * MiB
    assert simulator("max_split_size_mb:128").memory_stats()["max_split_size"] == 128 * MiB
    assert simulator("").memory_stats()["max_split_size"] == -1


def test_each_setting_resets_split_size_divisions_and_gc_threshold():
    sim = simulator("max_split_size_mb:40,roundup_power2_divisions:4")
    sim.set_allocator_settings("garbage_collection_threshold:0.5")
    assert sim.memory_stats()["max_split_size"] == -1
    assert sim.round_size(84 * MiB) == 84 * MiB


def test_max_non_split_rounding_is_kept_across_settings():
    sim = simulator("max_split_size_mb:20,max_non_split_rounding_mb:40")
    sim.set_allocator_settings("max_split_size_mb:20")  # does not name max_non_split_rounding_mb
    big = sim.malloc(60 * MiB)
    sim.free(big)
    assert sim.malloc(30 * MiB) == big  # still within 60 < 30 + 40


def test_last_settings_string_is_reported():
    sim = simulator(" max_split_size_mb : 64 ")  # whitespace is ignored by the parser
    assert sim.memory_stats()["max_split_size"] == 64 * MiB
    assert sim._snapshot()["allocator_settings"] == {"PYTORCH_CUDA_ALLOC_CONF": " max_split_size_mb : 64 "}


def test_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:64")
    assert CachingAllocatorSimulator(GiB).memory_stats()["max_split_size"] == 64 * MiB
    monkeypatch.setenv("PYTORCH_ALLOC_CONF", "max_split_size_mb:32")  # the newer name wins
    assert CachingAllocatorSimulator(GiB).memory_stats()["max_split_size"] == 32 * MiB


@pytest.mark.parametrize(
    "settings, message",
    [
        ("max_split_size_mb:19", "CachingAllocator option max_split_size_mb too small, must be >= 20"),
        ("max_non_split_rounding_mb:10", "CachingAllocator option max_non_split_rounding_mb too small, must be >= 20"),
        ("roundup_power2_divisions:3", "For roundups, the divisions has to be power of 2 "),
        ("roundup_power2_divisions:[64:3]", "For roundups, the divisions has to be power of 2 or 0 to disable roundup "),
        ("roundup_power2_divisions:[96:4]", "For roundups, the intervals have to be power of 2 "),
        ("garbage_collection_threshold:1.5", "garbage_collect_threshold is invalid, set it in (0.0, 1.0)"),
        ("garbage_collection_threshold:0", "garbage_collect_threshold is invalid, set it in (0.0, 1.0)"),
        ("expandable_segments:maybe", "Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'maybe'"),
        ("foo:1", "Unrecognized key 'foo' in Accelerator allocator config."),
    ],
)
def test_invalid_settings_raise_value_error(settings, message):
    sim = CachingAllocatorSimulator(GiB)
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        sim.set_allocator_settings(settings)


def test_the_smallest_accepted_split_size_is_20_mib():
    sim = simulator("max_split_size_mb:20,max_non_split_rounding_mb:20")
    assert sim.memory_stats()["max_split_size"] == 20 * MiB


# Numbers are read as PyTorch reads them (std::stoull / std::stod): the exception type of a
# number that does not fit, or of no number at all, is the one std:: throws.
def test_a_split_size_too_large_for_size_t_is_an_index_error():
    sim = CachingAllocatorSimulator(GiB)
    with pytest.raises(IndexError, match="^stoull$"):
        sim.set_allocator_settings("max_split_size_mb:99999999999999999999")


def test_a_split_size_that_fits_size_t_is_clamped_not_wrapped():
    sim = simulator("max_split_size_mb:18446744073709551615")
    # The largest multiple of 1 MiB that fits a size_t (multiplying by 1 MiB first would wrap
    # to a small size), reported as the int64 statistic PyTorch reports: -1 MiB.
    assert sim.memory_stats()["max_split_size"] == (2**64 - 1) // MiB * MiB - 2**64 == -MiB
    sim = simulator("max_split_size_mb:20.5")  # the leading digits, as std::stoull reads them
    assert sim.memory_stats()["max_split_size"] == 20 * MiB


def test_a_threshold_that_is_not_a_number_is_a_value_error():
    with pytest.raises(ValueError, match="^stod$"):
        simulator("garbage_collection_threshold:abc")


@pytest.mark.parametrize("settings", ["max_split_size_mb", "max_split_size_mb:", "roundup_power2_divisions:[64:8,256:4"])
def test_a_missing_value_is_a_runtime_error(settings):
    with pytest.raises(RuntimeError, match="Index out of bounds in ConfigTokenizer"):
        simulator(settings)


def test_zero_divisions_disable_roundup_only_in_the_list_form():
    with pytest.raises(ValueError, match="^For roundups, the divisions has to be power of 2 $"):
        simulator("roundup_power2_divisions:0")
    assert divisions_seen(simulator("roundup_power2_divisions:[64:0]"), 64) == 1
