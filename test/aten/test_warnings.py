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


def test_tensor_of_a_tensor_recommends_detach_clone():
    t = torch.ones(2)
    msgs = caught(lambda: torch.tensor(t))
    assert msgs == ["To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."]
    with pytest.warns(UserWarning, match=r"rather than torch.tensor\(sourceTensor\)"):
        r = torch.tensor(t, dtype=torch.float64)
    assert r.tolist() == [1.0, 1.0] and r.dtype == torch.float64
    assert caught(lambda: torch.tensor([1.0, 2.0])) == []
    assert caught(lambda: torch.as_tensor(t)) == []


def test_tensor_of_a_tensor_raises_when_warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="To copy construct from a tensor"):
            torch.tensor(torch.ones(2))


def test_non_writable_numpy_array_warns_once_per_program():
    # TORCH_WARN_ONCE-style: once per process, so run it in a fresh interpreter.
    import subprocess
    import sys
    code = ("import warnings, numpy as np, torch\n"
            "warnings.simplefilter('always')\n"
            "a = np.ones(3); a.flags.writeable = False\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    torch.as_tensor(a); torch.from_numpy(a)\n"
            "print(len(w)); print(w[0].message)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    count, message = out.split("\n", 1)
    assert count == "1"
    assert message.startswith("The given NumPy array is not writable, and PyTorch does not support non-writable "
                              "tensors. This means writing to this tensor will result in undefined behavior. You may "
                              "want to copy the array to protect its data or make it writable before converting it to "
                              "a tensor. This type of warning will be suppressed for the rest of this program.")


def test_complex_half_tensors_warn_once_that_support_is_experimental():
    import subprocess
    import sys
    code = ("import warnings, torch\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    torch.empty(2, dtype=torch.chalf); torch.zeros(3, dtype=torch.chalf)\n"
            "print(len(w)); print(w[0].message)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    count, message = out.split("\n", 1)
    assert count == "1"
    assert message.startswith("ComplexHalf support is experimental and many operators don't support it yet. "
                              "(Triggered internally at ")
    assert "EmptyTensor.cpp" in message
