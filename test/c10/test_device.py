# test/c10/test_device.py - torch.device: parsing, errors, printing, hashing, pickling.
# Mirrors the device checks of PyTorch's test/test_torch.py (test_device) and
# c10/test/core/Device_test.cpp. Guide: docs/source/internals/tensors.rst.
import pickle

import pytest
import torch


@pytest.mark.parametrize(
    "text, type_, index",
    [("cpu", "cpu", None), ("cuda", "cuda", None), ("cpu:0", "cpu", 0), ("cuda:0", "cuda", 0),
     ("cuda:1", "cuda", 1), ("meta", "meta", None), ("cuda:127", "cuda", 127)],
)
def test_device_string_parses_type_and_index(text, type_, index):
    d = torch.device(text)
    assert d.type == type_
    assert d.index == index
    assert str(d) == text


def test_empty_device_string_is_rejected():
    with pytest.raises(RuntimeError, match="^Device string must not be empty$"):
        torch.device("")


@pytest.mark.parametrize(
    "text",
    ["cpu:x", "cpu:foo", "cuda:cuda", "cuda:", "cpu:0:0", "cpu:0:", "cpu:-1", "::", ":", "cpu:00",
     "cpu:01", "cuda:01", "cuda: 1", "cuda1x:"],
)
def test_malformed_device_string_names_the_input(text):
    with pytest.raises(RuntimeError) as info:
        torch.device(text)
    assert str(info.value) == f"Invalid device string: '{text}'"


def test_unknown_device_type_lists_the_known_ones():
    expected = ("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
                "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
                "device string: CUDA")
    with pytest.raises(RuntimeError) as info:
        torch.device("CUDA:0")
    assert str(info.value) == expected


def test_index_too_large_for_a_device_index():
    with pytest.raises(RuntimeError, match="Could not parse device index '300' in device string 'cuda:300'"):
        torch.device("cuda:300")


def test_type_and_index_arguments():
    assert torch.device("cuda", 2) == torch.device("cuda:2")
    assert torch.device(type="cuda", index=3) == torch.device("cuda:3")
    assert torch.device("cpu", None).index is None


def test_negative_index_argument_is_rejected():
    with pytest.raises(RuntimeError, match="^Device index must not be negative$"):
        torch.device("cuda", -2)


def test_index_twice_is_rejected():
    with pytest.raises(RuntimeError, match="type \\(string\\) must not include an index because index was passed explicitly: cuda:0"):
        torch.device("cuda:0", 1)


def test_index_of_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="device\\(\\): argument 'index' \\(position 2\\) must be int, not str"):
        torch.device("cpu", "0")


def test_argument_of_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="received an invalid combination of arguments - got \\(float\\)"):
        torch.device(1.5)


def test_integer_device_needs_an_accelerator():
    with pytest.raises(RuntimeError, match="Cannot access accelerator device when none is available."):
        torch.device(0)


def test_device_from_device_is_equal():
    d = torch.device("cuda:1")
    assert torch.device(d) == d


def test_repr_matches_pytorch():
    assert repr(torch.device("cpu")) == "device(type='cpu')"
    assert repr(torch.device("cuda", 1)) == "device(type='cuda', index=1)"


def test_equality_and_hash():
    assert torch.device("cuda:0") != torch.device("cuda")
    assert torch.device("cpu") != "cpu"
    assert hash(torch.device("cpu")) == hash(torch.device("cpu"))
    assert len({torch.device("cuda"), torch.device("cuda:0"), torch.device("cuda:1"), torch.device("cuda:1")}) == 3


def test_pickle_round_trip():
    for d in (torch.device("cpu"), torch.device("cuda", 3)):
        assert pickle.loads(pickle.dumps(d)) == d
