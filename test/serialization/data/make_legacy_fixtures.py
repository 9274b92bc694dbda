"""Writes the legacy-format fixtures in this folder with real PyTorch (2.13, CPU), for test_legacy_format.py.

Files made by ``torch.save(obj, f, _use_new_zipfile_serialization=False)``: PyTorch's format
before 1.6 (a magic number, a protocol version, system info, the object's pickle, the list
of storage keys, then each storage's element count and bytes). Run it from outside the
repository, so that ``import torch`` finds the real one:
    cd /tmp && /path/to/pytorch-2.13/bin/python /path/to/test/serialization/data/make_legacy_fixtures.py
Each legacy_NAME.pt comes with legacy_NAME.json (see make_fixtures.describe).
Guide: docs/source/internals/saving_loading.rst
"""

import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_fixtures import describe  # noqa: E402


def write(name, obj, describe_obj=None):
    torch.save(obj, os.path.join(HERE, f"legacy_{name}.pt"), _use_new_zipfile_serialization=False)
    with open(os.path.join(HERE, f"legacy_{name}.json"), "w") as f:
        json.dump(describe(obj if describe_obj is None else describe_obj), f)


def main():
    torch.manual_seed(0)
    write("dtypes", {
        "float32": torch.tensor([1.5, -2.25, 3.0]),
        "float64": torch.tensor([1e-300, 2.5], dtype=torch.float64),
        "float16": torch.tensor([0.5, -1.0, 65504.0], dtype=torch.float16),
        "bfloat16": torch.tensor([1.0, -3.5], dtype=torch.bfloat16),
        "int64": torch.tensor([2**40, -7]),
        "int32": torch.tensor([[1, 2], [3, 4]], dtype=torch.int32),
        "int16": torch.tensor([-300, 300], dtype=torch.int16),
        "int8": torch.tensor([-128, 127], dtype=torch.int8),
        "uint8": torch.tensor([0, 255], dtype=torch.uint8),
        "bool": torch.tensor([True, False, True]),
        "complex64": torch.tensor([1 + 2j, -3.5j]),
        "scalar": torch.tensor(7.0),
        "empty": torch.zeros(0, 3),
    })
    # views of one storage share it in the file: one storage, five tensors
    base = torch.arange(12.0).reshape(3, 4)
    write("views", {"base": base, "row": base[1], "col": base[:, 2], "t": base.t(), "block": base[1:, 1:3]})
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    model(torch.randn(5, 3))  # moves the running stats
    write("state_dict", model.state_dict())
    write("parameter", {"w": torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))})
    # a whole module (loads only with weights_only=False): described by its state dict
    linear = torch.nn.Linear(2, 3)
    write("module", linear, describe_obj=linear.state_dict())


if __name__ == "__main__":
    main()
