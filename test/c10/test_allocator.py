# test/c10/test_allocator.py - the CPU allocator seen from Python: registry, reporter, flags.
# Exercises c10/core/CPUAllocator.cpp and c10/core/impl/alloc_cpu.cpp through torch._C.
# Guide: docs/source/internals/memory.rst.
import pytest
import torch


@pytest.fixture
def flag():
    """Set c10 flags for one test and restore them afterwards."""
    saved = {name: value for name, (value, _) in torch._C._c10_flags().items()}
    yield torch._C._set_c10_flag
    for name, value in saved.items():
        torch._C._set_c10_flag(name, value)


def test_registered_allocators():
    assert torch._C._get_allocator_name("cpu") == "c10::DefaultCPUAllocator"
    assert "MetaAllocator" in torch._C._get_allocator_name("meta")
    with pytest.raises(RuntimeError, match="^Allocator for xla is not set.$"):
        torch._C._get_allocator_name("xla")


def test_reporter_counts_allocations_and_frees():
    with torch.cpu.memory.record_memory_stats():
        torch.cpu.reset_accumulated_memory_stats()
        before = torch.cpu.memory_stats()
        a = torch.UntypedStorage(1000)
        b = torch.UntypedStorage(24)
        mid = torch.cpu.memory_stats()
        assert mid["allocated_bytes.all.current"] - before["allocated_bytes.all.current"] == 1024
        assert mid["allocation.all.current"] - before["allocation.all.current"] == 2
        assert mid["allocated_bytes.all.allocated"] == 1024
        assert mid["allocated_bytes.all.peak"] >= mid["allocated_bytes.all.current"]
        del a
        after = torch.cpu.memory_stats()
        assert after["allocated_bytes.all.current"] - before["allocated_bytes.all.current"] == 24
        assert after["allocated_bytes.all.freed"] == 1000
        assert after["allocation.all.freed"] == 1
        del b


def test_zero_size_allocations_are_not_counted():
    with torch.cpu.memory.record_memory_stats():
        before = torch.cpu.memory_stats()["allocation.all.current"]
        s = torch.UntypedStorage(0)
        assert torch.cpu.memory_stats()["allocation.all.current"] == before
        del s


def test_peak_reset_sets_peak_to_current():
    with torch.cpu.memory.record_memory_stats():
        big = torch.UntypedStorage(1 << 20)
        del big
        stats = torch.cpu.memory_stats()
        assert stats["allocated_bytes.all.peak"] >= (1 << 20) + stats["allocated_bytes.all.current"]
        torch.cpu.reset_peak_memory_stats()
        stats = torch.cpu.memory_stats()
        assert stats["allocated_bytes.all.peak"] == stats["allocated_bytes.all.current"]


def test_recording_is_off_by_default_and_restored_by_the_context_manager():
    assert not torch._C._cpu_is_recording_memory_stats()
    with torch.cpu.memory.record_memory_stats():
        assert torch._C._cpu_is_recording_memory_stats()
    assert not torch._C._cpu_is_recording_memory_stats()


def test_memory_allocated_while_not_recording_is_never_counted():
    s = torch.UntypedStorage(4096)
    with torch.cpu.memory.record_memory_stats():
        before = torch.cpu.memory_stats()
        del s
        assert torch.cpu.memory_stats() == before


def test_junk_fill_writes_0x7fedbeef(flag):
    flag("caffe2_cpu_allocator_do_junk_fill", True)
    s = torch.UntypedStorage(13)
    # little-endian 0x7fedbeef repeated; the odd tail repeats the pattern's first bytes
    assert s.tolist() == [0xEF, 0xBE, 0xED, 0x7F] * 3 + [0xEF]


def test_zero_fill_writes_zeros(flag):
    flag("caffe2_cpu_allocator_do_zero_fill", True)
    assert torch.UntypedStorage(100).tolist() == [0] * 100


def test_junk_and_zero_fill_together_are_rejected(flag):
    flag("caffe2_cpu_allocator_do_zero_fill", True)
    flag("caffe2_cpu_allocator_do_junk_fill", True)
    with pytest.raises(RuntimeError, match="Cannot request both zero-fill and junk-fill at the same time"):
        torch.UntypedStorage(8)


def test_unknown_flag_is_a_value_error():
    with pytest.raises(ValueError, match="Unknown c10 flag 'no_such_flag'. Known flags: .*caffe2_report_cpu_memory_usage"):
        torch._C._get_c10_flag("no_such_flag")


def test_report_flag_prints_each_allocation(flag, capfd):
    flag("caffe2_report_cpu_memory_usage", True)
    s = torch.UntypedStorage(4321)
    del s
    err = capfd.readouterr().err
    assert "C10 alloc 4321 bytes, total alloc" in err
    assert "C10 deleted 4321 bytes, total alloc" in err


def test_errors_carry_the_cpp_stack_only_on_request(tmp_path):
    import subprocess
    import sys
    code = "import torch\ntry:\n    torch.device('cuda:01')\nexcept RuntimeError as e:\n    print(str(e))\n"
    plain = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert plain.strip() == "Invalid device string: 'cuda:01'"
    env = {"TORCH_SHOW_CPP_STACKTRACES": "1", "PATH": "/usr/bin:/bin"}
    full = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert full.startswith("Invalid device string: 'cuda:01'\nException raised from")
    assert "c10::Device::Device" in full
