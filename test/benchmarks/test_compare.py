"""The machinery of benchmarks/compare.py (this tree against PyTorch): protocol, arithmetic, checks.

This project's own test (no PyTorch file mirrors it). Guide: docs/source/internals/performance.rst.
The reference worker runs in-process here (this tree's torch answering as "PyTorch"), since a real
worker refuses this tree; no figure is asserted, only what the rows and the summary say.
"""
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import torch

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "compare.py"

_spec = importlib.util.spec_from_file_location("benchmarks_compare", SCRIPT)
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)


def _double(factor=2, calls=None, fail=False):
    """A tiny benchmark: x * factor on 4 floats, with a numpy form."""
    def setup(torch, np):
        if fail:
            raise RuntimeError("no kernel for this")
        x_np = np.arange(4, dtype=np.float32)
        x = torch.from_numpy(x_np)

        def fn():
            if calls is not None:
                calls.append(1)
            return x * factor
        return fn, (lambda: x_np * factor)
    return setup


class InProcessReference(compare.Reference):
    """compare.Reference whose worker is a compare.Worker in this process: the same JSON lines."""

    def __init__(self, benchmarks):
        self.worker = compare.Worker(torch, np, benchmarks)
        self.lines = []

    def exchange(self, line):
        self.lines.append(line)
        return self.worker.handle_line(line) + "\n"

    def alive(self):
        return True

    def close(self):
        pass


@pytest.fixture
def restore_threads():
    n = torch.get_num_threads()
    yield
    torch.set_num_threads(n)


def test_list_prints_every_benchmark_once():
    out = subprocess.run([sys.executable, str(SCRIPT), "--list"], capture_output=True, text=True, check=True).stdout
    names = out.splitlines()
    assert names == [b.name for b in compare.BENCHMARKS]
    assert len(set(names)) == len(names)
    for wanted in ("add 1e7", "a @ b 1024x1024", "a @ b.t()", "conv2d fwd+bwd", "MLP step", "CNN step",
                   "LSTM", "log_softmax", "scatter_add_", "4 elements", "import torch", "GPT step"):
        assert any(wanted in n for n in names), wanted


def test_only_filters_by_substring_repeatable_and_comma_list():
    out = subprocess.run([sys.executable, str(SCRIPT), "--list", "--only", "SOFTMAX,gather", "--only", "lstm"],
                         capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["LSTM(64,128) fwd+bwd, seq 32 x batch 16", "softmax(dim=-1) 256x1024",
                                "log_softmax(dim=-1) 256x1024", "gather(dim=1) 4096x256"]


def test_worker_answers_each_command_in_json():
    calls = []
    worker = compare.Worker(torch, np, [compare.Benchmark("double", _double(calls=calls))])
    hello = json.loads(worker.handle_line(json.dumps({"cmd": "hello"})))
    assert hello["ok"] and hello["torch"] == torch.__version__ and hello["numpy"] == np.__version__
    assert json.loads(worker.handle_line('{"cmd": "threads", "n": 1}')) == {"ok": True, "threads": 1}
    setup = json.loads(worker.handle_line('{"cmd": "setup", "name": "double"}'))
    # 0+2+4+6 = 12, checked on two calls
    assert setup == {"ok": True, "checksum": [[12.0, 12.0], [12.0, 12.0]]}
    assert len(calls) == 2
    timed = json.loads(worker.handle_line('{"cmd": "round", "number": 5}'))
    assert timed["ok"] and timed["seconds"] > 0
    assert len(calls) == 7
    unknown = json.loads(worker.handle_line('{"cmd": "setup", "name": "nope"}'))
    assert unknown["ok"] is False and "nope" in unknown["error"]
    assert json.loads(worker.handle_line('{"cmd": "dance"}'))["ok"] is False


def test_measure_alternates_rounds_with_the_reference(restore_threads):
    bench = compare.Benchmark("double", _double())
    ref = InProcessReference([bench])
    row = compare.measure(bench, 1, 3, torch, np, ref)
    assert row["missing"] is None and row["warnings"] == []
    assert len(row["rounds_this_tree"]) == len(row["rounds_pytorch"]) == 3
    assert row["this_tree"] == compare.median(row["rounds_this_tree"])
    assert row["ratio"] == pytest.approx(row["this_tree"] / row["pytorch"])
    assert row["ratio_numpy"] == pytest.approx(row["this_tree"] / row["numpy"])
    requests = [json.loads(line) for line in ref.lines]
    assert [r["cmd"] for r in requests] == ["threads", "setup"] + ["round"] * 4  # warm-up, then 3 rounds
    assert {r["number"] for r in requests if r["cmd"] == "round"} == {row["number"]}  # the count calibrated here
    line = compare.format_row(row)
    assert line.startswith("double") and line.count("x") >= 2 and "WARNING" not in line


def test_a_different_answer_is_flagged_on_the_row(restore_threads):
    mine = compare.Benchmark("double", _double(factor=2))
    ref = InProcessReference([compare.Benchmark("double", _double(factor=3))])
    row = compare.measure(mine, 1, 1, torch, np, ref)
    assert row["missing"] is None
    assert row["checksum"] == [[12.0, 12.0]] * 2 and row["checksum_pytorch"] == [[18.0, 18.0]] * 2
    assert any("checksum differs from PyTorch" in w for w in row["warnings"])
    assert "WARNING: checksum differs from PyTorch (calls 1/2): 12/12 vs 18/18" in compare.format_row(row)
    summary = compare.summarize([row])
    assert summary["mismatched"] == 1 and summary["count"] == 1  # still timed, and counted apart
    assert re.search(r"over 1 benchmarks; [01] above 1.2x; 1 checksum mismatch$", compare.format_summary(1, summary))


def test_a_raising_benchmark_is_missing_and_left_out_of_the_mean(restore_threads):
    broken = compare.Benchmark("broken", _double(fail=True))
    row = compare.measure(broken, 1, 1, torch, np, InProcessReference([broken]))
    assert row["missing"] == "RuntimeError: no kernel for this"
    assert compare.format_row(row) == f"{'broken':<{compare.NAME_WIDTH}}  missing: RuntimeError: no kernel for this"
    # Raising on PyTorch's side only
    ok = compare.Benchmark("double", _double())
    failing_ref = InProcessReference([compare.Benchmark("double", _double(fail=True))])
    row_ref = compare.measure(ok, 1, 1, torch, np, failing_ref)
    assert row_ref["missing"] == "PyTorch: RuntimeError: no kernel for this"
    good = compare.measure(ok, 1, 1, torch, np, InProcessReference([ok]))
    summary = compare.summarize([row, row_ref, good])
    assert summary["count"] == 1 and summary["missing"] == 2
    assert summary["geomean"] == pytest.approx(good["ratio"])


def test_median_ratio_and_geometric_mean_on_worked_numbers():
    assert compare.median([3.0, 1.0, 2.0]) == 2.0
    assert compare.median([4.0, 1.0, 3.0, 2.0]) == 2.5
    assert compare.geomean([2.0, 8.0]) == pytest.approx(4.0)
    assert compare.geomean([0.5, 2.0]) == pytest.approx(1.0)
    rows = [{"ratio": r, "missing": None} for r in (0.5, 2.0, 1.25)]
    rows += [{"ratio": None, "missing": None}, {"ratio": None, "missing": "RuntimeError: x"}]
    summary = compare.summarize(rows)
    assert summary["geomean"] == pytest.approx(1.25 ** (1 / 3))  # 0.5 * 2.0 * 1.25 = 1.25
    assert (summary["count"], summary["above"], summary["missing"]) == (3, 2, 1)
    assert compare.format_summary(2, summary) == (
        "2 threads: geometric mean this tree / PyTorch 1.08x over 3 benchmarks; 2 above 1.2x; 1 missing")
    assert compare.format_summary(1, compare.summarize([])) == "1 thread: no ratios to PyTorch"


def test_checksums_agree_within_a_loose_tolerance_only():
    differ = compare.checksums_differ
    assert not differ([[100.0, 100.0]], [[100.05, 100.05]])
    assert differ([[100.0, 100.0]], [[101.0, 101.0]])
    # A sum that cancels is judged against the sum of absolute values
    assert not differ([[0.001, 1000.0]], [[0.5, 1000.0]])
    assert differ([[0.001, 1000.0]], [[5.0, 1000.0]])
    assert differ([[1.0, 1.0]], [[math.nan, math.nan]])
    assert differ([[1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0]])  # the second call counts too
    assert not differ(None, [[1.0, 1.0]])  # not checked (import torch)
    assert compare.checksum((torch.tensor([1.0, -2.0]), 3), np) == [2.0, 6.0]
    # values 5 + 2, indices 1 + 1
    assert compare.checksum(torch.tensor([[1.0, 5.0], [-7.0, 2.0]]).max(dim=1), np) == [9.0, 9.0]


def test_format_time_picks_the_unit():
    assert compare.format_time(2.5) == "2.5 s"
    assert compare.format_time(0.0123) == "12.3 ms"
    assert compare.format_time(1.5e-6) == "1.5 us"
    assert compare.format_time(8.83e-7) == "883 ns"
    assert compare.format_time(None) == "-"


def test_worker_refuses_this_tree(tmp_path):
    # With the repository on the path the worker's `import torch` is this tree: it must not answer.
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, str(SCRIPT), "--worker"], input='{"cmd": "hello"}\n', cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    reply = json.loads(done.stdout)
    assert reply["ok"] is False and "this tree's torch" in reply["error"]


def test_main_without_reference_says_not_set(tmp_path, monkeypatch, capsys, restore_threads):
    monkeypatch.delenv("TORCH_REFERENCE_PYTHON", raising=False)
    out_json = tmp_path / "figures.json"
    assert compare.main(["--threads", "1", "--rounds", "1", "--only", "4 elements", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "PyTorch: not set" in out
    row_line = next(line for line in out.splitlines() if line.startswith("a + b, 4 elements"))
    assert "not set" in row_line
    assert "1 thread: no ratios to PyTorch" in out
    report = json.loads(out_json.read_text())
    (row,) = report["tables"]["1"]["rows"]
    assert row["pytorch"] is None and row["this_tree"] > 0 and row["numpy"] > 0
    assert report["cores"] == os.cpu_count()


def test_a_row_timed_on_a_busy_machine_says_so(monkeypatch, restore_threads):
    class HalfBusy:
        def __init__(self, pids=lambda: ()):
            self.pids = list(pids())

        def other_share(self):
            return 0.5

    monkeypatch.setattr(compare, "CpuMonitor", HalfBusy)
    bench = compare.Benchmark("double", _double())
    row = compare.measure_watched(bench, 1, 1, torch, np, InProcessReference([bench]))
    assert row["other_load"] == 0.5
    assert "WARNING: busy: other processes took 50% of the cores" in compare.format_row(row)
