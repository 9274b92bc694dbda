# test/serialization/test_weights_only.py - torch.load's restricted unpickler (weights_only=True,
# the default): what it refuses, with PyTorch 2.13's messages, and what it accepts.
# Mirrors the weights_only part of PyTorch's test/test_serialization.py.
# Guide: docs/source/internals/saving_loading.rst
import io
import os
import pickle
from collections import OrderedDict

import pytest

import torch

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.")
DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


class Point:
    def __init__(self, x):
        self.x = x


class RunsACommand:
    def __reduce__(self):
        return (os.system, ("echo this must not run",))


def saved(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return buf


@pytest.fixture(autouse=True)
def no_safe_globals_left_behind():
    yield
    torch.serialization.clear_safe_globals()


def unsupported_global_message(full_path):
    # PyTorch 2.13's text for a global that is not allowlisted, as written by torch.load.
    return (
        "Weights only load failed. This file can still be loaded, to do so you have two options, "
        "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. "
        f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
        "the recommended steps in the following error message.\n\tWeightsUnpickler error: "
        f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{full_path}])` or the "
        f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this global "
        "if you trust this class/function." + DOCS_MESSAGE)


def test_custom_class_is_refused_by_default_with_pytorchs_message():
    with pytest.raises(pickle.UnpicklingError) as info:
        torch.load(saved({"p": Point(1)}))
    assert str(info.value) == unsupported_global_message(f"{Point.__module__}.Point")


def test_os_system_is_refused_as_a_blocked_module():
    with pytest.raises(pickle.UnpicklingError) as info:
        torch.load(saved(RunsACommand()))
    module = os.system.__module__  # posix on Linux
    assert str(info.value) == (
        f"Weights only load failed. {UNSAFE_MESSAGE}\n\n\n"
        f"Trying to load unsupported GLOBAL {module}.system whose module {module} is blocked." + DOCS_MESSAGE)


def test_builtin_is_named_without_its_module():
    with pytest.raises(pickle.UnpicklingError) as info:
        torch.load(saved({"s": slice(1, 2)}))
    assert str(info.value) == unsupported_global_message("slice")


def test_weights_only_false_runs_the_pickle():
    out = torch.load(saved({"p": Point(3), "t": torch.ones(1)}), weights_only=False)
    assert isinstance(out["p"], Point) and out["p"].x == 3


def test_explicit_pickle_module_means_weights_only_false():
    assert torch.load(saved(Point(4)), pickle_module=pickle).x == 4


def test_explicit_pickle_module_with_weights_only_raises():
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"):
        torch.load(saved(torch.ones(1)), pickle_module=pickle, weights_only=True)


def test_add_safe_globals_allows_a_class():
    torch.serialization.add_safe_globals([Point])
    assert Point in torch.serialization.get_safe_globals()
    assert torch.load(saved(Point(5))).x == 5
    torch.serialization.clear_safe_globals()
    assert torch.serialization.get_safe_globals() == []
    with pytest.raises(pickle.UnpicklingError):
        torch.load(saved(Point(5)))


def test_safe_globals_context_manager_allows_within_only():
    buf = saved(Point(6))
    with torch.serialization.safe_globals([Point]):
        assert torch.load(buf).x == 6
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError):
        torch.load(buf)


def test_state_dict_like_objects_load_with_weights_only():
    sd = OrderedDict([("fc.weight", torch.randn(2, 3)), ("fc.bias", torch.zeros(2)),
                      ("bn.num_batches_tracked", torch.tensor(4))])
    sd._metadata = OrderedDict([("fc", {"version": 1})])
    opt = {"state": {0: {"step": torch.tensor(2.0), "exp_avg": torch.ones(2)}},
           "param_groups": [{"lr": 0.01, "betas": (0.9, 0.999), "eps": 1e-08, "amsgrad": False,
                             "foreach": None, "params": [0]}]}
    out = torch.load(saved({"model": sd, "optim": opt, "epoch": 7, "big": 2**70, "c": 1 + 2j,
                            "raw": b"\x00\x01", "ids": {1, 2}, "dtype": torch.float16,
                            "size": torch.Size([2, 3]), "device": torch.device("cpu")}), weights_only=True)
    assert type(out["model"]) is OrderedDict and list(out["model"]) == list(sd)
    assert out["model"]._metadata == sd._metadata
    assert out["model"]["fc.weight"].tolist() == sd["fc.weight"].tolist()
    assert out["optim"]["param_groups"] == opt["param_groups"]
    assert out["optim"]["state"][0]["step"].item() == 2.0
    assert out["epoch"] == 7 and out["big"] == 2**70 and out["c"] == 1 + 2j and out["raw"] == b"\x00\x01"
    assert out["ids"] == {1, 2} and out["dtype"] is torch.float16
    assert out["size"] == torch.Size([2, 3]) and out["device"] == torch.device("cpu")


def test_weights_only_never_imports_what_the_file_names():
    # A hand-written pickle that would call os.system through a GLOBAL + REDUCE.
    buf = saved(torch.ones(1))
    import zipfile
    members = {n: zipfile.ZipFile(buf).read(n) for n in zipfile.ZipFile(buf).namelist()}
    members["archive/data.pkl"] = b"\x80\x02cposix\nsystem\nX\x04\x00\x00\x00trueq\x00\x85R."
    evil = io.BytesIO()
    with zipfile.ZipFile(evil, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    evil.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="whose module posix is blocked"):
        torch.load(evil)
