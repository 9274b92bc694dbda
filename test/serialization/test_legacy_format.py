# test/serialization/test_legacy_format.py - torch.load of PyTorch's legacy format (before 1.6, and
# torch.save(..., _use_new_zipfile_serialization=False)): fixtures written by PyTorch 2.13 load with
# equal values; hand-made hostile files fail as they fail in PyTorch, never reading past a buffer;
# TORCH_FORCE_WEIGHTS_ONLY_LOAD / TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD decide weights_only as in PyTorch.
# Mirrors PyTorch's torch/serialization.py (_legacy_load, load). Guide: docs/source/internals/saving_loading.rst
import io
import json
import os
import pickle
import struct
import sys
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import torch

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
sys.path.insert(0, DATA)
from make_fixtures import describe  # noqa: E402

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
SYS_INFO = {"protocol_version": 1001, "little_endian": True, "type_sizes": {"short": 2, "int": 4, "long": 4}}


# ---- fixtures written by PyTorch 2.13 ----

@pytest.mark.parametrize("name", ["dtypes", "views", "state_dict", "parameter"])
@pytest.mark.parametrize("weights_only", [True, False])
def test_fixture_loads_with_pytorchs_values(name, weights_only):
    obj = torch.load(os.path.join(DATA, f"legacy_{name}.pt"), weights_only=weights_only)
    with open(os.path.join(DATA, f"legacy_{name}.json")) as f:
        assert describe(obj) == json.load(f)


def test_fixture_file_object_and_path_agree():
    path = os.path.join(DATA, "legacy_dtypes.pt")
    with open(path, "rb") as f:
        from_file = torch.load(io.BytesIO(f.read()))
    assert describe(from_file) == describe(torch.load(path))


def test_views_share_one_storage_after_loading():
    views = torch.load(os.path.join(DATA, "legacy_views.pt"))
    views["base"][1, 2] = 100.0
    assert views["row"][2].item() == 100.0 and views["col"][1].item() == 100.0 and views["t"][2, 1].item() == 100.0
    assert views["block"].untyped_storage().data_ptr() == views["base"].untyped_storage().data_ptr()


def test_state_dict_keeps_metadata_and_loads_into_a_model():
    sd = torch.load(os.path.join(DATA, "legacy_state_dict.pt"))
    assert type(sd) is OrderedDict and sd._metadata[""] == {"version": 1}
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    model.load_state_dict(sd)
    np.testing.assert_array_equal(model[0].weight.detach().numpy(), sd["0.weight"].numpy())
    assert sd["1.num_batches_tracked"].dtype == torch.int64 and sd["1.num_batches_tracked"].item() == 1


def test_parameter_loads_as_parameter():
    p = torch.load(os.path.join(DATA, "legacy_parameter.pt"))["w"]
    assert isinstance(p, torch.nn.Parameter) and p.requires_grad
    assert p.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_whole_module_needs_weights_only_false():
    path = os.path.join(DATA, "legacy_module.pt")
    with pytest.raises(pickle.UnpicklingError, match=r"GLOBAL torch\.nn\.modules\.linear\.Linear was not an allowed global"):
        torch.load(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = torch.load(path, weights_only=False)
    # The file keeps PyTorch's source of Linear; this tree's differs, as PyTorch warns then.
    assert [w.category for w in caught] == [torch.serialization.SourceChangeWarning]
    assert str(caught[0].message).startswith(
        "source code of class 'torch.nn.modules.linear.Linear' has changed. you can retrieve the original source code")
    assert type(module) is torch.nn.Linear
    with open(os.path.join(DATA, "legacy_module.json")) as f:
        assert describe(module.state_dict()) == json.load(f)
    # module(torch.ones(1, 2)) in PyTorch 2.13
    np.testing.assert_allclose(module(torch.ones(1, 2)).detach().numpy(),
                               [[0.13499298691749573, 0.7388498187065125, 0.5079282522201538]], rtol=1e-6)


def test_mmap_is_refused_for_the_legacy_format(tmp_path):
    path = os.path.join(DATA, "legacy_dtypes.pt")
    with pytest.raises(RuntimeError, match=r"^mmap can only be used with files saved with `torch\.save\("):
        torch.load(path, mmap=True)


def test_map_location_applies():
    obj = torch.load(os.path.join(DATA, "legacy_dtypes.pt"), map_location="cpu")
    assert obj["float32"].device == torch.device("cpu")
    seen = []
    torch.load(os.path.join(DATA, "legacy_views.pt"), map_location=lambda s, loc: seen.append(loc))
    assert seen == ["cpu"]  # one storage behind the five views


# ---- hand-made files ----

class Storage:
    """Pickled as the persistent id ("storage", type, key, location, numel, view) PyTorch writes."""

    def __init__(self, key, numel, storage_type="FloatStorage", view=None):
        self.key, self.numel, self.storage_type, self.view = key, numel, storage_type, view


class Tensor:
    """Pickled as the _rebuild_tensor_v2 call a tensor makes."""

    def __init__(self, storage, offset, size, stride):
        self.args = (storage, offset, tuple(size), tuple(stride), False, OrderedDict())

    def __reduce__(self):
        return (torch._utils._rebuild_tensor_v2, self.args)


def legacy_file(obj, records, keys=None, cut=None):
    """A legacy-format file: records maps a storage key to (element count written, bytes)."""
    f = io.BytesIO()
    for head in (MAGIC_NUMBER, 1001, SYS_INFO):
        pickle.dump(head, f, protocol=2)

    class Pickler(pickle.Pickler):
        def persistent_id(self, o):
            if isinstance(o, Storage):
                return ("storage", getattr(torch, o.storage_type), o.key, "cpu", o.numel, o.view)
            return None

    Pickler(f, protocol=2).dump(obj)
    keys = sorted(records) if keys is None else keys
    pickle.dump(keys, f, protocol=2)
    for key in keys:
        if key in records:
            count, data = records[key]
            f.write(struct.pack("<q", count))
            f.write(data)
    raw = f.getvalue()
    return io.BytesIO(raw if cut is None else raw[:cut])


def floats(*values):
    return struct.pack(f"<{len(values)}f", *values)


@pytest.mark.parametrize("weights_only", [True, False])
def test_hand_made_file_loads(weights_only):
    t = torch.load(legacy_file(Tensor(Storage("0", 4), 1, (3,), (1,)), {"0": (4, floats(1, 2, 3, 4))}),
                   weights_only=weights_only)
    assert t.tolist() == [2.0, 3.0] + [4.0] and t.storage_offset() == 1


def test_storage_view_is_a_window_of_its_root():
    a, b = torch.load(legacy_file(
        [Tensor(Storage("0", 4, view=("1", 1, 2)), 0, (2,), (1,)), Tensor(Storage("0", 4), 0, (4,), (1,))],
        {"0": (4, floats(1, 2, 3, 4))}))
    assert a.tolist() == [2.0, 3.0] and b.tolist() == [1.0, 2.0, 3.0, 4.0]
    a[0] = 9.0
    assert b[1].item() == 9.0


def test_tensor_larger_than_its_storage_grows_it_when_the_file_agrees():
    # PyTorch's legacy storages are resizable: set_ grows the 4-element storage to 6, and the
    # file's count (6) then matches, so 6 elements are read.
    t = torch.load(legacy_file(Tensor(Storage("0", 4), 0, (6,), (1,)), {"0": (6, floats(1, 2, 3, 4, 5, 6))}))
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


# Each: the file, and what PyTorch 2.13 raises for it (weights_only True and False alike).
HOSTILE = {
    "truncated_data": (lambda: legacy_file(Tensor(Storage("0", 4), 0, (4,), (1,)), {"0": (4, floats(1, 2))}),
                       RuntimeError, "unexpected EOF, expected 8 more bytes. The file might be corrupted."),
    "truncated_count": (lambda: legacy_file(Tensor(Storage("0", 4), 0, (4,), (1,)), {"0": (4, floats(1, 2, 3, 4))},
                                            cut=-20),
                        RuntimeError, "unexpected EOF, expected 4 more bytes. The file might be corrupted."),
    "wrong_count": (lambda: legacy_file(Tensor(Storage("0", 4), 0, (4,), (1,)), {"0": (5, floats(1, 2, 3, 4, 5))}),
                    RuntimeError, "storage has wrong byte size: expected %ld got %ld2016"),
    "tensor_past_storage": (lambda: legacy_file(Tensor(Storage("0", 4), 0, (100,), (1,)),
                                                {"0": (4, floats(1, 2, 3, 4))}),
                            RuntimeError, "storage has wrong byte size: expected %ld got %ld16400"),
    "offset_past_storage": (lambda: legacy_file(Tensor(Storage("0", 4), 3, (2,), (1,)), {"0": (4, floats(1, 2, 3, 4))}),
                            RuntimeError, "storage has wrong byte size: expected %ld got %ld1620"),
    "view_past_root": (lambda: legacy_file(Tensor(Storage("0", 4, view=("1", 2, 10)), 0, (10,), (1,)),
                                           {"0": (4, floats(1, 2, 3, 4))}),
                       RuntimeError, "Trying to resize storage that is not resizable"),
    "unknown_key": (lambda: legacy_file(Tensor(Storage("0", 4), 0, (4,), (1,)),
                                        {"0": (4, floats(1, 2, 3, 4)), "9": (1, floats(1))}),
                    AssertionError, "storage key '9' not found in deserialized_objects"),
    "negative_numel": (lambda: legacy_file(Tensor(Storage("0", -4), 0, (0,), (1,)), {"0": (-4, b"")}),
                       RuntimeError, "[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems "
                                     "to have been called with negative number: 18446744073709551600"),
    "bad_magic": (lambda: io.BytesIO(pickle.dumps(12345, protocol=2) + pickle.dumps(1001, protocol=2)),
                  RuntimeError, "Invalid magic number; corrupt file?"),
    "bad_protocol": (lambda: io.BytesIO(pickle.dumps(MAGIC_NUMBER, protocol=2) + pickle.dumps(999, protocol=2)),
                     RuntimeError, "Invalid protocol version: 999"),
}


@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_file_fails_as_in_pytorch(case, weights_only):
    make, error, message = HOSTILE[case]
    with pytest.raises(error) as info:
        torch.load(make(), weights_only=weights_only)
    assert str(info.value) == message


def test_huge_storage_fails_to_allocate():
    f = legacy_file(Tensor(Storage("0", 2**60), 0, (4,), (1,)), {"0": (2**60, floats(1, 2, 3, 4))})
    with pytest.raises(RuntimeError, match="can't allocate memory: you tried to allocate 4611686018427387904 bytes"):
        torch.load(f)


def test_truncated_pickle_fails():
    make = lambda: legacy_file(Tensor(Storage("0", 4), 0, (4,), (1,)), {"0": (4, floats(1, 2, 3, 4))}, cut=90)  # noqa: E731
    with pytest.raises(pickle.UnpicklingError, match="^pickle data was truncated$"):
        torch.load(make(), weights_only=False)
    with pytest.raises(IndexError, match="^index out of range$"):
        torch.load(make(), weights_only=True)


def test_empty_file_raises_eof():
    with pytest.raises(EOFError, match="^Ran out of input$"):
        torch.load(io.BytesIO(b""), weights_only=False)
    with pytest.raises(EOFError):
        torch.load(io.BytesIO(b""))


def test_weights_only_refuses_a_global_in_a_legacy_file():
    f = legacy_file({"f": max, "t": Tensor(Storage("0", 1), 0, (1,), (1,))}, {"0": (1, floats(1))})
    with pytest.raises(pickle.UnpicklingError, match=r"Unsupported global: GLOBAL max was not an allowed global by default"):
        torch.load(f)


# ---- TORCH_FORCE_WEIGHTS_ONLY_LOAD / TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD ----

def _file_needing_unsafe_load():
    buf = io.BytesIO()
    torch.save({"x": torch.ones(2), "f": max}, buf)  # `max` is refused by weights_only=True
    return buf.getvalue()


def _load(monkeypatch, force, force_no, **kwargs):
    for name, value in (("TORCH_FORCE_WEIGHTS_ONLY_LOAD", force), ("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", force_no)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            torch.load(io.BytesIO(_file_needing_unsafe_load()), **kwargs)
            outcome = "loaded"
        except pickle.UnpicklingError:
            outcome = "weights_only"
        except RuntimeError as e:
            outcome = str(e)
    return outcome, [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize("value", ["1", "true", "YES", "y", "True"])
@pytest.mark.parametrize("kwargs", [{}, {"weights_only": True}, {"weights_only": False}])
def test_force_weights_only_overrides_the_call(monkeypatch, value, kwargs):
    assert _load(monkeypatch, value, None, **kwargs) == ("weights_only", [])


@pytest.mark.parametrize("value", ["0", "on", "", "false", "2"])
def test_force_weights_only_ignores_other_values(monkeypatch, value):
    assert _load(monkeypatch, value, None) == ("weights_only", [])  # the default
    assert _load(monkeypatch, value, None, weights_only=False) == ("loaded", [])


def test_force_weights_only_with_a_pickle_module_is_an_error(monkeypatch):
    assert _load(monkeypatch, "1", None, pickle_module=pickle) == (
        "Can not safely load weights when explicit pickle_module is specified", [])


def test_force_no_weights_only_changes_only_the_default(monkeypatch):
    assert _load(monkeypatch, None, "1") == ("loaded", [(
        UserWarning,
        "Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the`weights_only` argument was not "
        "explicitly passed to `torch.load`, forcing weights_only=False.")])
    assert _load(monkeypatch, None, "TRUE", weights_only=True) == ("weights_only", [])
    assert _load(monkeypatch, None, "no") == ("weights_only", [])


def test_both_forced_is_an_error(monkeypatch):
    message = ("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, "
               "but both were set.")
    assert _load(monkeypatch, "1", "1") == (message, [])
    assert _load(monkeypatch, "false", "1", weights_only=False) == ("loaded", [])
