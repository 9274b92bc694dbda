"""Ordinary PyTorch programs run unmodified on this tree and print what PyTorch 2.13 printed.

Each program in this folder (tutorial and example style: polynomial fits, a CNN classifier, a
character RNN, regression, L-BFGS on sine waves, LSTM and Transformer language models, minGPT and
nanoGPT) runs as a subprocess under this interpreter; its stdout is compared token by token with
expected/<name>.txt, recorded from PyTorch by record.py. Words must be equal, numbers within the
program's tolerance. Guide: docs/source/internals/programs/index.rst.
"""
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"

# Tolerances (relative, absolute) per program. What sets them: a matmul or a reduction written
# another way rounds differently in the last bit, and a training run carries that forward. Each
# relative tolerance is several times the largest change that such rounding makes in PyTorch's own
# output for that program (PyTorch at one thread against two, with MKL_CBWR=COMPATIBLE, with
# ATEN_CPU_CAPABILITY=default, and with softmax, log_softmax, layer_norm and
# scaled_dot_product_attention written out by hand); the absolute one is at least a unit in the
# last printed digit, where a value on a rounding boundary may print either way. A program that is
# right up to rounding passes; a wrong gradient, another random stream or a missed update does not.
TOLERANCES = {
    # Gradient descent on a convex least-squares problem contracts, so rounding does not grow:
    # PyTorch's own output moves by at most 2e-6. The absolute part covers coefficients that go
    # to 0 by symmetry and print as 1e-10-sized rounding noise.
    "polynomial_tensors": (1e-4, 1e-6),
    "polynomial_autograd": (1e-4, 1e-6),
    "polynomial_custom_function": (1e-4, 1e-6),
    "polynomial_nn": (1e-4, 1e-6),
    "polynomial_optim": (1e-4, 1e-6),
    # Short runs (48 SGD steps; 1200 one-name steps and 5 epochs of nn.RNN; 300 regression
    # steps): rounding changes nothing at the printed precision (moves of up to 7e-7 in regression).
    "cifar_classifier": (1e-4, 1e-5),
    "char_rnn_names": (1e-4, 1e-4),
    "regression": (1e-4, 1e-6),
    # float64 throughout, but L-BFGS's curvature pairs amplify rounding: moves of up to 1.2e-6.
    "time_sequence_prediction": (1e-5, 1e-10),
    # SGD at lr 20 with gradient clipping amplifies rounding: moves of up to 4e-4 (LSTM).
    # Printed to 3 decimals.
    "word_language_model_lstm": (2e-3, 1e-3),
    "word_language_model_transformer": (1e-3, 1e-3),
    # 150 and 200 AdamW steps: Adam divides by the root of the second moment, so rounding in small
    # gradients turns into whole steps and grows during training (at minGPT's lr 3e-3 it moved
    # the loss by 10% after 150 steps; at the 1e-3 used here nothing moves at the printed precision).
    "mingpt": (1e-3, 1e-4),
    "nanogpt": (1e-3, 1e-4),
}

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:nan|inf)\b")


def pieces(token):
    """A whitespace-free token split into its words and its numbers: 'loss:2.5,' -> ['loss:', 2.5, ',']."""
    out, pos = [], 0
    for m in NUMBER.finditer(token):
        if m.start() > pos:
            out.append(token[pos:m.start()])
        out.append(float(m.group()))
        pos = m.end()
    if pos < len(token):
        out.append(token[pos:])
    return out


def compare(expected, actual, rtol, atol):
    """The differences between two outputs, as (line number, expected token, actual token, why)."""
    problems = []
    exp_lines, act_lines = expected.splitlines(), actual.splitlines()
    for n, (e_line, a_line) in enumerate(zip(exp_lines, act_lines), 1):
        e_tokens, a_tokens = e_line.split(), a_line.split()
        if len(e_tokens) != len(a_tokens):
            problems.append((n, e_line, a_line, "different number of tokens"))
            continue
        for e_tok, a_tok in zip(e_tokens, a_tokens):
            e_parts, a_parts = pieces(e_tok), pieces(a_tok)
            if len(e_parts) != len(a_parts):
                problems.append((n, e_tok, a_tok, "different words"))
                continue
            for e, a in zip(e_parts, a_parts):
                if isinstance(e, float) and isinstance(a, float):
                    same = (math.isnan(e) and math.isnan(a)) or e == a or abs(a - e) <= atol + rtol * abs(e)
                    if not same:
                        problems.append((n, e_tok, a_tok, f"number off by {abs(a - e):.3g} "
                                                          f"(relative {abs(a - e) / max(abs(e), 1e-300):.3g})"))
                        break
                elif e != a:
                    problems.append((n, e_tok, a_tok, "different words"))
                    break
    if len(exp_lines) != len(act_lines):
        problems.append((min(len(exp_lines), len(act_lines)) + 1, f"{len(exp_lines)} lines",
                         f"{len(act_lines)} lines", "different number of lines"))
    return problems


def run_program(name, python=sys.executable, extra_env=None):
    """Run test/programs/<name>.py as a user would, at one intra-op thread as record.py does."""
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    env.update(extra_env or {})
    return subprocess.run([python, str(HERE / f"{name}.py")], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.mark.parametrize("name", sorted(TOLERANCES))
def test_program_prints_what_pytorch_printed(name):
    expected = (EXPECTED / f"{name}.txt").read_text()
    proc = run_program(name)
    rtol, atol = TOLERANCES[name]
    problems = compare(expected, proc.stdout, rtol, atol)
    if proc.returncode != 0 or problems:
        report = [f"{name}.py exited with {proc.returncode}"]
        report += [f"  line {n}: expected {e!r}, got {a!r}: {why}" for n, e, a, why in problems[:5]]
        if len(problems) > 5:
            report.append(f"  ... and {len(problems) - 5} more differences")
        if proc.returncode != 0:
            report.append("  stderr ends: " + "\n  ".join(proc.stderr.strip().splitlines()[-6:]))
        pytest.fail("\n".join(report), pytrace=False)


def test_every_program_has_a_recording_and_a_tolerance():
    programs = {p.stem for p in HERE.glob("*.py")} - {"record", "test_programs"}
    assert programs == set(TOLERANCES)
    assert {p.stem for p in EXPECTED.glob("*.txt")} == programs


def test_compare_catches_drift_and_different_words():
    assert compare("loss 1.0000 a", "loss 1.00005 a", 1e-4, 0) == []
    assert compare("loss 1.0000 a", "loss 1.0002 a", 1e-4, 0)[0][3].startswith("number off")
    assert compare("[1,     8] loss: 2.5", "[1, 8] loss: 2.5", 0, 0) == []
    assert compare("'tree stone'", "'tree stane'", 1, 1)[0][3] == "different words"
    assert compare("a\nb", "a", 0, 0)[0][3] == "different number of lines"
