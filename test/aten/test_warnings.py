# test/aten/test_warnings.py - TORCH_WARN reaching Python as UserWarning, with PyTorch's texts.
# Mirrors the warning checks of PyTorch's test/test_torch.py. Guide: docs/source/internals/python_bindings.rst.
import warnings

import pytest
import torch


def caught(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [str(x.message) for x in w if issubclass(x.category, UserWarning)]


def test_std_of_one_element_warns_about_degrees_of_freedom():
    msgs = caught(lambda: torch.ones(1).std())
    assert len(msgs) == 1
    assert msgs[0].startswith("std(): degrees of freedom is <= 0. Correction should be strictly less than the "
                              "reduction factor (input numel divided by output numel). (Triggered internally at ")
    assert "ReduceOps.cpp:" in msgs[0]


def test_small_enough_correction_does_not_warn():
    assert caught(lambda: torch.ones(4).var(correction=3)) == []


def test_resizing_a_non_empty_out_warns():
    out = torch.ones(3)
    msgs = caught(lambda: torch.add(torch.ones(2), torch.ones(2), out=out))
    assert len(msgs) == 1
    assert msgs[0].startswith("An output with one or more elements was resized since it had shape [3], which does "
                              "not match the required output shape [2].")
    empty = torch.empty(0)
    assert caught(lambda: torch.add(torch.ones(2), torch.ones(2), out=empty)) == []


def test_warnings_can_be_turned_into_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="degrees of freedom is <= 0"):
            torch.ones(1).var()


def test_a_warning_does_not_hide_an_error_raised_by_the_same_call():
    out = torch.ones(3, dtype=torch.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # resize_output would warn, but the dtype check fails: the error is what Python sees.
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            torch.add(torch.ones(2), torch.ones(2), out=out)
