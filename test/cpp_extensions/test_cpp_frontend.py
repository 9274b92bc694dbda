"""test/cpp_extensions/test_cpp_frontend.py - the C++ frontend end to end: docs/examples/cpp_frontend's
train_mlp (torch::nn::Sequential + torch::optim, no Python) trains an MLP on sin(x) and its loss
falls; the same source also builds standalone through find_package(Torch).
Guide: docs/source/internals/cpp_extensions.rst.
"""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

TORCH_PATHS = os.path.join(ROOT, "torch", "share", "cmake", "Torch", "TorchPaths.json")
EXAMPLE_DIR = os.path.join(ROOT, "docs", "examples", "cpp_frontend")


def in_tree_binary():
    """<build_dir>/docs/examples/cpp_frontend/train_mlp, where the main build puts it."""
    if not os.path.exists(TORCH_PATHS):
        pytest.skip(f"{TORCH_PATHS} is missing: the tree is not built (make build)")
    with open(TORCH_PATHS) as f:
        build_dir = json.load(f)["build_dir"]
    path = os.path.join(build_dir, "docs", "examples", "cpp_frontend", "train_mlp")
    if not os.path.exists(path):
        pytest.skip(f"{path} is not built (make build builds it with the rest)")
    return path


def losses(stdout):
    """The (step, loss) pairs of the 'step N loss L' lines."""
    return [(int(m.group(1)), float(m.group(2))) for m in re.finditer(r"^step (\d+) loss ([0-9.eE+-]+)$", stdout, re.M)]


def run(binary, *args):
    out = subprocess.run([binary, *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_train_mlp_loss_falls(optimizer):
    stdout = run(in_tree_binary(), optimizer, "500")
    points = losses(stdout)
    assert [step for step, _ in points] == list(range(0, 501, 50)), stdout
    first, last = points[0][1], points[-1][1]
    assert last < first / 5, stdout
    # The model printed itself, with PyTorch's names for its parameters.
    assert "torch::nn::Sequential(" in stdout
    assert "(0): torch::nn::Linear(in_features=1, out_features=64, bias=true)" in stdout
    assert "(1): torch::nn::Functional()" in stdout
    assert "  4.bias [1]" in stdout


def test_train_mlp_is_deterministic():
    # torch::manual_seed(0) fixes the initial weights, hence every printed loss.
    binary = in_tree_binary()
    assert losses(run(binary, "adam", "100")) == losses(run(binary, "adam", "100"))


def test_train_mlp_rejects_an_unknown_optimizer():
    out = subprocess.run([in_tree_binary(), "lbfgs"], capture_output=True, text=True)
    assert out.returncode == 2 and "usage: train_mlp" in out.stderr


def test_standalone_cmake_build(tmp_path):
    """The example's own CMakeLists.txt, as a libtorch user runs it: find_package(Torch)."""
    in_tree_binary()  # the libraries and TorchConfig.cmake come with the main build
    # cmake from PATH, or the one pip installed beside this interpreter (the build's own).
    beside = os.path.join(os.path.dirname(sys.executable), "cmake")
    cmake = shutil.which("cmake") or (beside if os.path.exists(beside) else None)
    assert cmake is not None, "cmake is needed: the build itself uses it"
    prefix = os.path.join(ROOT, "torch", "share", "cmake")
    build = str(tmp_path / "build")
    configure = subprocess.run([cmake, "-S", EXAMPLE_DIR, "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}",
                                "-DCMAKE_BUILD_TYPE=Release"], capture_output=True, text=True)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    compile_ = subprocess.run([cmake, "--build", build], capture_output=True, text=True)
    assert compile_.returncode == 0, compile_.stdout + compile_.stderr
    points = losses(run(os.path.join(build, "train_mlp"), "adam", "200"))
    assert points[-1][1] < points[0][1] / 5
