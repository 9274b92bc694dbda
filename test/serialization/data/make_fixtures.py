"""Writes the fixtures in this folder with real PyTorch (2.13, CPU), for test_compat.py.

Run it from outside the repository, so that ``import torch`` finds the real one:
    cd /tmp && /path/to/pytorch-2.13/bin/python /path/to/test/serialization/data/make_fixtures.py
Each NAME.pt comes with NAME.json: what every tensor in it must load as (dtype, shape,
stride, storage offset, values), written by the same run.
Guide: docs/source/internals/saving_loading.rst
"""

import json
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def _real_pairs(values):
    """Complex numbers (as tolist gives them, nested) as [real, imag] pairs, as torch.view_as_real lays them out."""
    if isinstance(values, list):
        return [_real_pairs(v) for v in values]
    return [values.real, values.imag]


def describe(obj):
    """A JSON picture of obj: tensors as their metadata and values, containers walked.

    Also what test_serialization_compat.py compares with, in this project and (in a
    subprocess) in real PyTorch, so it uses only what both have.
    """
    if isinstance(obj, torch.Tensor):
        values = obj.tolist()
        if obj.is_complex():
            values = _real_pairs(values)
        return {"tensor": str(obj.dtype), "parameter": type(obj).__name__ == "Parameter",
                "shape": list(obj.shape), "stride": list(obj.stride()), "offset": obj.storage_offset(),
                "requires_grad": obj.requires_grad, "values": values}
    if isinstance(obj, dict):
        return {"dict": [[describe(k), describe(v)] for k, v in obj.items()]}
    if isinstance(obj, (list, tuple)):
        return {type(obj).__name__: [describe(v) for v in obj]}
    return {"value": obj}


def write(name, obj):
    torch.save(obj, os.path.join(HERE, name + ".pt"))
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(describe(obj), f)


def main():
    torch.manual_seed(0)
    # one tensor per dtype, and a 0-d one
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
        "complex128": torch.tensor([0.25 - 1j], dtype=torch.complex128),
        "scalar": torch.tensor(7.0),
        "empty": torch.zeros(0, 3),
    })
    # views of one storage: one record, five tensors
    base = torch.arange(12.0).reshape(3, 4)
    write("views", {"base": base, "row": base[1], "col": base[:, 2], "t": base.t(), "block": base[1:, 1:3]})
    # a model's state dict (an OrderedDict carrying _metadata), and a Parameter
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    model(torch.randn(5, 3))  # moves the running stats
    write("state_dict", model.state_dict())
    write("parameter", {"w": torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))})
    # an optimizer's state dict: nested dicts of tensors, ints, floats, tuples, lists, None
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(2):
        opt.zero_grad()
        model(torch.randn(5, 3)).pow(2).sum().backward()
        opt.step()
    write("optimizer", opt.state_dict())


if __name__ == "__main__":
    main()
