"""torch.cuda.FloatStorage ... torch.cuda.BoolStorage: the legacy CUDA storages, made by
torch/csrc/cuda/Storage.cpp from the same generic file as torch.FloatStorage, over THC's
THCStorage_(NAME) functions (aten/src/THC). Every value is checked against the CPU storage of
the same type. Mirrors the legacy storage tests of PyTorch's test/test_cuda.py.
Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).

Without a GPU only the first group runs (the classes exist; making one raises torch.cuda's
error). On a machine without one, run the rest on the simulated device:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_thc_storage.py

The tests that need two devices skip with fewer.
"""

import gc
import os
import subprocess
import sys

import pytest

import torch

CUDA_BUILT = torch._C._has_cuda
requires_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")
requires_two_gpus = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                                       reason="needs two CUDA devices")
no_gpu = pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")

# What starting CUDA raises here (torch.cuda._lazy_init), as in test_cuda_runtime.py.
if CUDA_BUILT:
    INIT_ERROR = (RuntimeError, "Found no NVIDIA driver on your system|No CUDA GPUs are available")
else:
    INIT_ERROR = (AssertionError, "Torch not compiled with CUDA enabled")

NAMES = ["Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double", "Bool"]
# (CUDA class, CPU class of the same type, dtype, element size)
ALL = [
    (torch.cuda.ByteStorage, torch.ByteStorage, torch.uint8, 1),
    (torch.cuda.CharStorage, torch.CharStorage, torch.int8, 1),
    (torch.cuda.ShortStorage, torch.ShortStorage, torch.int16, 2),
    (torch.cuda.IntStorage, torch.IntStorage, torch.int32, 4),
    (torch.cuda.LongStorage, torch.LongStorage, torch.int64, 8),
    (torch.cuda.HalfStorage, torch.HalfStorage, torch.float16, 2),
    (torch.cuda.FloatStorage, torch.FloatStorage, torch.float32, 4),
    (torch.cuda.DoubleStorage, torch.DoubleStorage, torch.float64, 8),
    (torch.cuda.BoolStorage, torch.BoolStorage, torch.bool, 1),
]
CUDA_CLASSES = [c for c, _, _, _ in ALL]
CPU_CLASSES = [c for _, c, _, _ in ALL]
# Values every type holds exactly once converted (2.5 truncates to 2 in the integer types,
# everything but 0 is True), so a CUDA copy and a CPU copy can be compared exactly.
VALUES = [0, 1, 2.5, 100, 7]


def _name(x):
    return torch.typename(x) if isinstance(x, type) else None


def cpu_twin(cls):
    """torch.FloatStorage for torch.cuda.FloatStorage."""
    return getattr(torch, cls.__name__)


# ---------------------------------------------------------------------------------------
# Any machine
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_every_type_has_a_cuda_class_beside_the_cpu_one(name):
    cls = getattr(torch.cuda, f"{name}Storage")
    assert cls.__module__ == "torch.cuda"
    assert torch.typename(cls) == f"torch.cuda.{name}Storage"
    assert cls is not getattr(torch, f"{name}Storage")
    assert f"{name}Storage" in torch.cuda.__all__
    assert issubclass(cls, torch.storage._LegacyStorage)
    # The C++ base: the generic binding compiled over THC (a stand-in without CUDA).
    assert issubclass(cls, getattr(torch._C, f"Cuda{name}StorageBase"))


@no_gpu
@pytest.mark.parametrize("cls", CUDA_CLASSES, ids=_name)
def test_making_a_cuda_storage_without_gpu_raises_torch_cudas_error(cls):
    exc, match = INIT_ERROR
    for args in [(4,), (), ([1, 2],)]:
        with pytest.raises(exc, match=match):
            cls(*args)
    assert torch.cuda.is_initialized() is False


@no_gpu
def test_moving_a_cpu_storage_to_cuda_without_gpu_raises_torch_cudas_error():
    exc, match = INIT_ERROR
    with pytest.raises(exc, match=match):
        torch.FloatStorage([1, 2]).cuda()


def test_a_cpu_storage_is_its_own_cpu_copy():
    s = torch.FloatStorage([1, 2])
    assert s.cpu() is s
    assert s.is_cuda is False and s.get_device() == -1 and s.device == torch.device("cpu")


# ---------------------------------------------------------------------------------------
# With a GPU
# ---------------------------------------------------------------------------------------

@requires_gpu
@pytest.mark.parametrize("cls,cpu_cls,dtype,itemsize", ALL, ids=_name)
def test_each_type_is_a_storage_of_its_dtype_on_the_current_gpu(cls, cpu_cls, dtype, itemsize):
    s = cls(5)
    assert type(s) is cls
    assert len(s) == 5 and s.size() == 5
    assert s.element_size() == itemsize and s.nbytes() == 5 * itemsize
    assert s.dtype == dtype
    assert s.is_cuda is True
    assert s.device == torch.device("cuda", torch.cuda.current_device())
    assert s.get_device() == torch.cuda.current_device()
    assert s.type() == f"torch.cuda.{cls.__name__}"


@requires_gpu
@pytest.mark.parametrize("cls", CUDA_CLASSES, ids=_name)
@pytest.mark.parametrize("data", [[1, 2.5, True], [0, -1, 3.9], [], (100, 0.5)], ids=str)
def test_from_a_sequence_converts_as_the_cpu_storage_does(cls, data):
    s = cls(data)
    want = cpu_twin(cls)(data).tolist()
    assert s.tolist() == want
    assert [type(x) for x in s.tolist()] == [type(x) for x in want]
    assert list(s) == want


@requires_gpu
def test_new_without_arguments_is_empty():
    s = torch.cuda.DoubleStorage()
    assert len(s) == 0 and s.tolist() == [] and s.is_cuda


@requires_gpu
def test_memory_comes_from_the_cuda_caching_allocator():
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    s = torch.cuda.FloatStorage(1024)
    assert torch.cuda.memory_allocated() - before == 4096
    del s
    assert torch.cuda.memory_allocated() == before


@requires_gpu
def test_indexing_get_set_negative_indices_and_python_number_kinds():
    s = torch.cuda.FloatStorage(4).fill_(0)
    s[1] = 2.5
    s[-1] = 7
    assert s[1] == 2.5 and s[3] == 7.0 and s[-3] == 2.5
    assert s.tolist() == [0.0, 2.5, 0.0, 7.0]
    assert type(torch.cuda.LongStorage([1])[0]) is int
    assert type(torch.cuda.BoolStorage([1])[0]) is bool
    assert type(torch.cuda.HalfStorage([1])[0]) is float


@requires_gpu
@pytest.mark.parametrize("cls", CUDA_CLASSES, ids=_name)
def test_each_element_read_and_written_matches_the_cpu_storage(cls):
    gpu, cpu = cls(VALUES), cpu_twin(cls)(VALUES)
    gpu[2], cpu[2] = 3, 3
    gpu[-1], cpu[-1] = 0, 0
    assert [gpu[i] for i in range(len(VALUES))] == [cpu[i] for i in range(len(VALUES))]
    assert gpu.tolist() == cpu.tolist()


@requires_gpu
@pytest.mark.parametrize("index", [4, 10, -5])
def test_index_out_of_range_is_an_index_error_with_the_cpu_message(index):
    with pytest.raises(IndexError) as cpu_error:
        torch.FloatStorage(4)[index]
    s = torch.cuda.FloatStorage(4)
    with pytest.raises(IndexError) as get_error:
        s[index]
    with pytest.raises(IndexError) as set_error:
        s[index] = 1.0
    assert str(get_error.value) == str(cpu_error.value) == f"index {index} out of range for storage of size 4"
    assert str(set_error.value) == str(cpu_error.value)


@requires_gpu
def test_wrong_arguments_are_the_cpu_errors_with_the_cuda_name():
    s = torch.cuda.FloatStorage(2)
    with pytest.raises(TypeError, match="^can't assign a str to a torch.cuda.FloatStorage$"):
        s[0] = "a"
    with pytest.raises(TypeError, match="^can't index a torch.cuda.FloatStorage with str$"):
        s["a"]
    with pytest.raises(TypeError, match=r"^torch.cuda.FloatStorage\(\) received an invalid combination of "
                                        r"arguments - got \(str\)"):
        torch.cuda.FloatStorage("abc")
    with pytest.raises(TypeError, match="one of the items was of type str instead of a number"):
        torch.cuda.IntStorage([1, "x"])
    with pytest.raises(RuntimeError, match=r"^torch.cuda.FloatStorage\(\): size must be non-negative, got -1$"):
        torch.cuda.FloatStorage(-1)
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        torch.cuda.FloatStorage(2**62)
    with pytest.raises(RuntimeError, match="^value cannot be converted to type uint8_t without overflow$"):
        torch.cuda.ByteStorage(1).fill_(300)


@requires_gpu
@pytest.mark.parametrize("cls", CUDA_CLASSES, ids=_name)
def test_fill_sets_every_element_as_on_the_cpu(cls):
    assert cls(3).fill_(1).tolist() == cpu_twin(cls)(3).fill_(1).tolist()
    assert cls(4).fill_(2.5).tolist() == cpu_twin(cls)(4).fill_(2.5).tolist()
    assert cls(0).fill_(1).tolist() == []


# ---- copies in every direction and between every pair of types (THCStorageCopy) ----

@requires_gpu
@pytest.mark.parametrize("src_cls", CPU_CLASSES, ids=_name)
@pytest.mark.parametrize("dst_cls", CUDA_CLASSES, ids=_name)
def test_copy_cpu_to_cuda_converts_as_the_cpu_copy(src_cls, dst_cls):
    src = src_cls(VALUES)
    dst = dst_cls(len(VALUES))
    assert dst.copy_(src) is dst
    assert dst.tolist() == cpu_twin(dst_cls)(len(VALUES)).copy_(src).tolist()


@requires_gpu
@pytest.mark.parametrize("src_cls", CUDA_CLASSES, ids=_name)
@pytest.mark.parametrize("dst_cls", CPU_CLASSES, ids=_name)
def test_copy_cuda_to_cpu_converts_as_the_cpu_copy(src_cls, dst_cls):
    src = src_cls(VALUES)
    dst = dst_cls(len(VALUES))
    assert dst.copy_(src) is dst
    assert dst.tolist() == dst_cls(len(VALUES)).copy_(cpu_twin(src_cls)(VALUES)).tolist()


@requires_gpu
@pytest.mark.parametrize("src_cls", CUDA_CLASSES, ids=_name)
@pytest.mark.parametrize("dst_cls", CUDA_CLASSES, ids=_name)
def test_copy_cuda_to_cuda_converts_as_the_cpu_copy(src_cls, dst_cls):
    src = src_cls(VALUES)
    dst = dst_cls(len(VALUES))
    assert dst.copy_(src) is dst
    assert dst.tolist() == cpu_twin(dst_cls)(len(VALUES)).copy_(cpu_twin(src_cls)(VALUES)).tolist()
    assert src.tolist() == cpu_twin(src_cls)(VALUES).tolist()  # the source is left as it was


@requires_gpu
def test_copies_convert_each_element_as_legacy_thc_did():
    f = torch.cuda.FloatStorage([1.5, -2.7, 0.0])
    assert torch.cuda.IntStorage(3).copy_(f).tolist() == [1, -2, 0]  # truncated, as a C cast
    assert torch.BoolStorage(3).copy_(f).tolist() == [True, True, False]
    assert torch.cuda.DoubleStorage(3).copy_(torch.LongStorage([2**40, -1, 5])).tolist() == [2.0**40, -1.0, 5.0]
    assert torch.cuda.ByteStorage(1).copy_(torch.cuda.LongStorage([258])).tolist() == [2]


@requires_gpu
def test_copy_size_mismatch_and_wrong_source():
    for dst, src in [(torch.cuda.FloatStorage(2), torch.DoubleStorage(3)),
                     (torch.cuda.FloatStorage(2), torch.cuda.FloatStorage(3)),
                     (torch.FloatStorage(2), torch.cuda.DoubleStorage(3))]:
        with pytest.raises(RuntimeError, match="^invalid argument 2: size does not match$"):
            dst.copy_(src)
    with pytest.raises(TypeError, match="expected a typed storage"):
        torch.cuda.FloatStorage(2).copy_([1, 2])
    with pytest.raises(TypeError, match="expected a typed storage"):
        torch.FloatStorage(2).copy_(torch.UntypedStorage(8, device="cuda"))


# ---- cpu(), cuda(), clone(), printing ----

@requires_gpu
@pytest.mark.parametrize("cls", CUDA_CLASSES, ids=_name)
def test_cpu_and_cuda_move_between_the_two_classes_of_a_type(cls):
    cpu = cpu_twin(cls)(VALUES)
    gpu = cpu.cuda()
    assert type(gpu) is cls and gpu.device == torch.device("cuda", torch.cuda.current_device())
    assert gpu.tolist() == cpu.tolist()
    back = gpu.cpu()
    assert type(back) is cpu_twin(cls) and back.tolist() == cpu.tolist()
    assert back.data_ptr() != cpu.data_ptr()
    assert gpu.cuda() is gpu  # already on that device


@requires_gpu
def test_clone_and_repr():
    s = torch.cuda.IntStorage([1, 2])
    c = s.clone()
    c[0] = 5
    assert s[0] == 1 and type(c) is torch.cuda.IntStorage and c.data_ptr() != s.data_ptr()
    assert repr(s) == " 1\n 2\n[torch.cuda.IntStorage of size 2]"


# ---- views, resizing, reference counts ----

@requires_gpu
def test_views_and_slices_share_the_gpu_memory():
    base = torch.cuda.FloatStorage([0, 1, 2, 3, 4])
    view = torch.cuda.FloatStorage(base, 1, 3)
    assert type(view) is torch.cuda.FloatStorage and view.device == base.device
    assert view.tolist() == [1.0, 2.0, 3.0]
    assert view.data_ptr() == base.data_ptr() + 4
    view[0] = 10
    assert base[1] == 10.0
    sliced = base[3:]
    assert type(sliced) is torch.cuda.FloatStorage and sliced.data_ptr() == base.data_ptr() + 12
    assert sliced.tolist() == [3.0, 4.0]
    with pytest.raises(RuntimeError, match="does not fit in a storage of size 5"):
        torch.cuda.FloatStorage(base, 3, 5)
    with pytest.raises(RuntimeError, match="Trying to resize storage that is not resizable"):
        view.resize_(4)


@requires_gpu
def test_resize_keeps_the_prefix_on_the_gpu():
    s = torch.cuda.LongStorage([1, 2])
    ptr = s.data_ptr()
    s.resize_(4)
    assert len(s) == 4 and s.tolist()[:2] == [1, 2] and s.is_cuda and s.data_ptr() != ptr
    s.resize_(1)
    assert s.tolist() == [1]
    s.resize_(0)
    assert len(s) == 0 and s.device.type == "cuda"


@requires_gpu
def test_the_python_object_holds_one_reference_and_a_view_one_more():
    s = torch.cuda.FloatStorage(3)
    assert torch._C._storage_Use_Count(s._cdata) == 1
    view = s[1:]
    assert torch._C._storage_Use_Count(s._cdata) == 2
    u = s.untyped()
    assert torch._C._storage_Use_Count(s._cdata) == 3
    assert type(u) is torch.UntypedStorage and u.device == s.device
    assert u.nbytes() == 12 and u.data_ptr() == s.data_ptr()
    del u, view
    assert torch._C._storage_Use_Count(s._cdata) == 1


# ---- a tensor on a CUDA storage ----

@requires_gpu
def test_a_cuda_tensor_set_to_the_storage_shares_its_memory():
    s = torch.cuda.FloatStorage([1, 2, 3])
    t = torch.tensor([], device="cuda").set_(s)
    assert t.device == s.device and t.dtype == torch.float32 and t.shape == (3,)
    assert t.data_ptr() == s.data_ptr()
    t[0] = 9
    assert s[0] == 9.0
    s[2] = -1
    assert t.tolist() == [9.0, 2.0, -1.0]
    assert torch.tensor([], device="cuda").set_(s, 1, (2,), (1,)).tolist() == [2.0, -1.0]
    del s
    assert t.cpu().tolist() == [9.0, 2.0, -1.0]  # the tensor holds the storage


@requires_gpu
def test_set_checks_the_storage_dtype_and_device():
    with pytest.raises(RuntimeError, match="^Expected a Storage of type float or an UntypedStorage, but got type "
                                           "Double for argument 1 'storage'$"):
        torch.tensor([], device="cuda").set_(torch.cuda.DoubleStorage(2))
    with pytest.raises(RuntimeError, match="Attempted to set the storage of a tensor on device \"cpu\" to a "
                                           "storage on different device \"cuda:0\""):
        torch.tensor([]).set_(torch.cuda.FloatStorage(2))
    with pytest.raises(TypeError, match=r"expected torch.FloatStorage \(got torch.cuda.FloatStorage\)"):
        torch.FloatTensor(torch.cuda.FloatStorage(2))


@requires_gpu
def test_save_and_load_keep_the_values_dtype_and_device(tmp_path):
    s = torch.cuda.HalfStorage([1.5, -2, 4])
    path = tmp_path / "s.pt"
    torch.save(s, path)
    # PyTorch 2.x loads a TypedStorage, on the device the location names.
    loaded = torch.load(path)
    assert loaded.dtype == torch.float16 and loaded.device == s.device
    assert loaded.tolist() == [1.5, -2.0, 4.0]
    on_cpu = torch.load(path, map_location="cpu")
    assert on_cpu.device == torch.device("cpu") and on_cpu.tolist() == [1.5, -2.0, 4.0]


@requires_gpu
def test_the_first_cuda_storage_initialises_cuda():
    # In a fresh process nothing has started CUDA yet; the storage is the first thing that does.
    code = ("import torch\n"
            "assert not torch.cuda.is_initialized()\n"
            "s = torch.cuda.FloatStorage([1, 2])\n"
            "print(torch.cuda.is_initialized(), s.tolist())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert out.stdout == "True [1.0, 2.0]\n"


# ---------------------------------------------------------------------------------------
# Two devices
# ---------------------------------------------------------------------------------------

@requires_two_gpus
def test_a_storage_made_under_device_1_lives_on_device_1():
    # Tensors of earlier tests held in reference cycles (a caught exception's frames) must not
    # be collected halfway through the measurement below.
    gc.collect()
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    before0, before1 = torch.cuda.memory_allocated(0), torch.cuda.memory_allocated(1)
    with torch.cuda.device(1):
        s = torch.cuda.FloatStorage(1024)
    assert s.device == torch.device("cuda:1") and s.get_device() == 1
    assert torch.cuda.memory_allocated(1) - before1 == 4096
    assert torch.cuda.memory_allocated(0) == before0
    # Read and written from device 0: THC switches to the storage's device and back.
    assert torch.cuda.current_device() == 0
    s.fill_(3)
    s[5] = -1
    assert s[5] == -1.0 and s[0] == 3.0
    assert torch.cuda.current_device() == 0


@requires_two_gpus
def test_copies_between_devices_convert_too():
    with torch.cuda.device(1):
        on1 = torch.cuda.DoubleStorage([1.5, -2.5, 3.0])
    on0 = torch.cuda.IntStorage(3).copy_(on1)
    assert on0.device == torch.device("cuda:0") and on0.tolist() == [1, -2, 3]
    with torch.cuda.device(1):
        back = torch.cuda.HalfStorage(3)
    assert back.copy_(on0).tolist() == [1.0, -2.0, 3.0] and back.get_device() == 1
    assert torch.FloatStorage(3).copy_(on1).tolist() == [1.5, -2.5, 3.0]


@requires_two_gpus
def test_cuda_with_a_device_and_the_current_device():
    cpu = torch.LongStorage([4, 5])
    assert cpu.cuda(1).device == torch.device("cuda:1")
    assert cpu.cuda("cuda:1").tolist() == [4, 5]
    on1 = cpu.cuda(torch.device("cuda", 1))
    assert on1.cuda(1) is on1
    moved = on1.cuda(0)
    assert moved.device == torch.device("cuda:0") and moved.tolist() == [4, 5]
    assert on1.cuda().device == torch.device("cuda:0")  # None: the current device
    with torch.cuda.device(1):
        assert on1.cuda() is on1
        assert cpu.cuda().device == torch.device("cuda:1")
    with pytest.raises(ValueError, match="Expected a cuda device, but got: cpu"):
        cpu.cuda("cpu")


@requires_two_gpus
def test_views_clones_and_resizes_stay_on_their_device():
    with torch.cuda.device(1):
        s = torch.cuda.FloatStorage([1, 2, 3, 4])
    assert s[1:3].device == torch.device("cuda:1")
    assert torch.cuda.FloatStorage(s, 2).device == torch.device("cuda:1")
    c = s.clone()  # current device is 0
    assert c.device == torch.device("cuda:1") and c.tolist() == [1.0, 2.0, 3.0, 4.0]
    s.resize_(6)  # PyTorch 1.x's THC reallocated on the current device; here the storage stays
    assert s.device == torch.device("cuda:1") and s.tolist()[:4] == [1.0, 2.0, 3.0, 4.0]
    assert s.cpu().tolist()[:4] == [1.0, 2.0, 3.0, 4.0]
    t = torch.tensor([], device="cuda:1").set_(s)
    assert t.device == torch.device("cuda:1") and t.data_ptr() == s.data_ptr()
