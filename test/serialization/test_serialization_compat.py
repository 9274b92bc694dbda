# test/serialization/test_serialization_compat.py - files move both ways between this project and
# real PyTorch: fixtures written by PyTorch 2.13 (data/) load here, and files written here load
# in PyTorch (run as a subprocess of the interpreter TORCH_REFERENCE_PYTHON names, a separate venv
# with torch==2.13.0; skipped without one).
# Mirrors PyTorch's backward-compatibility checks for torch.load.
# Guide: docs/source/internals/saving_loading.rst
import importlib.util
import json
import os
import subprocess
import tempfile
import textwrap
import zipfile

import pytest

import torch

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
REF_PYTHON = os.environ.get("TORCH_REFERENCE_PYTHON", "")


def _load_make_fixtures():
    spec = importlib.util.spec_from_file_location("make_fixtures", os.path.join(DATA, "make_fixtures.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The JSON picture the fixtures' .json files hold: tensors as metadata and values, containers walked.
describe = _load_make_fixtures().describe


def expected(name):
    with open(os.path.join(DATA, name + ".json")) as f:
        return json.load(f)


# ---- PyTorch 2.13 -> here ----

@pytest.mark.parametrize("name", ["dtypes", "views", "state_dict", "optimizer"])
def test_file_written_by_pytorch_loads_here(name):
    out = torch.load(os.path.join(DATA, name + ".pt"))
    assert json.loads(json.dumps(describe(out))) == expected(name)


def test_views_written_by_pytorch_share_one_storage_here():
    out = torch.load(os.path.join(DATA, "views.pt"))
    cdata = {t.untyped_storage()._cdata for t in out.values()}
    assert len(cdata) == 1
    assert len([n for n in zipfile.ZipFile(os.path.join(DATA, "views.pt")).namelist() if "/data/" in n]) == 1


def test_state_dict_written_by_pytorch_keeps_its_metadata():
    out = torch.load(os.path.join(DATA, "state_dict.pt"))
    assert type(out).__name__ == "OrderedDict"
    assert out._metadata["1"] == {"version": 2}
    assert out["1.num_batches_tracked"].dtype == torch.int64 and out["1.num_batches_tracked"].dim() == 0


def test_optimizer_state_written_by_pytorch_has_pytorchs_layout():
    out = torch.load(os.path.join(DATA, "optimizer.pt"))
    assert sorted(out) == ["param_groups", "state"]
    assert out["param_groups"][0]["params"] == [0, 1, 2, 3]
    assert out["param_groups"][0]["betas"] == (0.9, 0.999)
    assert sorted(out["state"][0]) == ["exp_avg", "exp_avg_sq", "step"]


def test_parameter_written_by_pytorch_loads_here():
    out = torch.load(os.path.join(DATA, "parameter.pt"))
    assert json.loads(json.dumps(describe(out))) == expected("parameter")


# ---- here -> PyTorch 2.13 ----

needs_ref = pytest.mark.skipif(not REF_PYTHON or not os.path.exists(REF_PYTHON),
                               reason="TORCH_REFERENCE_PYTHON names no reference PyTorch")

REF_DESCRIBE = textwrap.dedent('''
    import json, sys, torch
    sys.path.insert(0, sys.argv[2])  # data/, for make_fixtures.describe
    from make_fixtures import describe
    obj = torch.load(sys.argv[1])  # weights_only=True, PyTorch's default
    shared = sorted({t.untyped_storage().data_ptr() for t in obj.values() if isinstance(t, torch.Tensor)})
    print(json.dumps({"describe": describe(obj), "storages": len(shared)}))
''')


def load_in_pytorch(path):
    # Run from /tmp so that `import torch` finds the real PyTorch, not this tree.
    out = subprocess.run([REF_PYTHON, "-c", REF_DESCRIBE, str(path), DATA], capture_output=True, text=True, cwd=tempfile.gettempdir(),
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@needs_ref
def test_file_written_here_loads_in_pytorch(tmp_path):
    base = torch.arange(12.0).reshape(3, 4)
    obj = {"f32": torch.tensor([1.5, -2.0]), "f16": torch.tensor([0.5], dtype=torch.float16),
           "bf16": torch.tensor([1.0, -3.5], dtype=torch.bfloat16), "i64": torch.tensor([2**40, -7]),
           "u8": torch.tensor([0, 255], dtype=torch.uint8), "b": torch.tensor([True, False]),
           "c64": torch.tensor([1 + 2j, -3.5j]), "scalar": torch.tensor(3), "t": base.t(), "block": base[1:, 1:3],
           "w": torch.ones(2, requires_grad=True), "step": 5, "lr": 0.01, "betas": (0.9, 0.999)}
    path = tmp_path / "here.pt"
    torch.save(obj, path)
    got = load_in_pytorch(path)
    assert got["describe"] == json.loads(json.dumps(describe(obj)))


@needs_ref
def test_views_written_here_share_one_storage_in_pytorch(tmp_path):
    base = torch.arange(12.0).reshape(3, 4)
    path = tmp_path / "views.pt"
    torch.save({"base": base, "row": base[1], "col": base[:, 2], "t": base.t()}, path)
    assert load_in_pytorch(path)["storages"] == 1


@needs_ref
def test_file_written_here_has_the_layout_pytorch_writes(tmp_path):
    # Write the same object with both, and compare the archives record by record.
    obj = {"a": torch.arange(6.0).reshape(2, 3), "n": torch.tensor(3)}
    mine = tmp_path / "mine.pt"
    torch.save(obj, mine)
    theirs = tmp_path / "theirs.pt"
    code = f"import torch; torch.save({{'a': torch.arange(6.0).reshape(2, 3), 'n': torch.tensor(3)}}, {str(theirs)!r})"
    subprocess.run([REF_PYTHON, "-c", code], check=True, cwd=tempfile.gettempdir(), timeout=300)
    zm, zt = zipfile.ZipFile(mine), zipfile.ZipFile(theirs)
    names = [n.replace("theirs/", "mine/") for n in zt.namelist()]
    assert zm.namelist() == names
    for name in zm.namelist():
        if not name.endswith("serialization_id"):
            assert zm.read(name) == zt.read(name.replace("mine/", "theirs/")), name  # data.pkl included
