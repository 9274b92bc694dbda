# test/profiler/test_profiler.py - torch.profiler and torch.autograd.profiler: events from the
# dispatcher's RecordFunction hook, their tree, the table, the trace, the schedule.
# Mirrors PyTorch's test/profiler/test_profiler.py. Guide: docs/source/internals/profiler.rst.
import json
import re
import threading
import warnings

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.profiler_util import _format_time, _format_time_share
from torch.profiler import ProfilerAction, ProfilerActivity, record_function, schedule

EVAL = "autograd::engine::evaluate_function: "


def _names(events):
    return [e.name for e in events]


def _mlp_step(model, x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    return loss


@pytest.fixture
def mlp():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 4))
    x = torch.randn(8, 20)
    y = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])
    return model, x, y


# ---- what gets recorded ----

def test_mlp_forward_backward_counts(mlp):
    model, x, y = mlp
    with torch.profiler.profile() as prof:
        _mlp_step(model, x, y)
    counts = {e.key: e.count for e in prof.key_averages()}
    # Forward: two Linear layers, each one aten::linear, computed by one aten::addmm.
    assert counts["aten::linear"] == 2
    assert counts["aten::addmm"] == 2
    assert counts["aten::relu"] == 1
    # Backward: the first layer's input needs no gradient, so its AddmmBackward0 makes one
    # mm (the weight's gradient); the second makes two (its input's and its weight's).
    assert counts["aten::mm"] == 3
    assert counts[EVAL + "AddmmBackward0"] == 2
    assert counts["AddmmBackward0"] == 2
    assert counts[EVAL + "ReluBackward0"] == 1
    # One AccumulateGrad per parameter (two weights, two biases).
    assert counts[EVAL + "torch::autograd::AccumulateGrad"] == 4


def test_counts_equal_calls_made():
    a = torch.randn(4, 5)
    b = torch.randn(5, 3)
    with torch.autograd.profiler.profile() as prof:
        for _ in range(7):
            torch.mm(a, b)
        for _ in range(3):
            a + a
    counts = {e.key: e.count for e in prof.key_averages()}
    assert counts["aten::mm"] == 7
    assert counts["aten::add"] == 3
    # Each call is one event: aten::add passes the Autograd kernel, then the CPU kernel,
    # but only the outermost Dispatcher::call records (redispatch does not).
    assert _names(prof.events()).count("aten::add") == 3


def test_backward_node_events():
    a = torch.randn(3, 4, requires_grad=True)
    b = torch.randn(4, 5, requires_grad=True)
    with torch.profiler.profile() as prof:
        (a @ b).sum().backward()
    events = prof.events()
    evals = [e for e in events if e.name.startswith(EVAL)]
    assert {e.name[len(EVAL):] for e in evals} >= {"SumBackward0", "MmBackward0", "torch::autograd::AccumulateGrad"}
    mm_node = next(e for e in events if e.name == "MmBackward0")
    # PyTorch's scopes: the engine's event is FUNCTION (0), the node's BACKWARD_FUNCTION (1).
    assert mm_node.scope == 1
    assert mm_node.cpu_parent.name == EVAL + "MmBackward0"
    assert mm_node.cpu_parent.scope == 0
    # MmBackward0 computes both gradients with mm: its children.
    assert [c.name for c in mm_node.cpu_children].count("aten::mm") == 2
    # The forward mm and its backward node carry the same sequence number.
    fwd_mm = next(e for e in events if e.name == "aten::mm" and e.cpu_parent is not None
                  and e.cpu_parent.name == "aten::matmul")
    assert fwd_mm.sequence_nr >= 0
    assert mm_node.sequence_nr == fwd_mm.sequence_nr


def test_record_function_children_and_self_time(mlp):
    model, x, y = mlp
    with torch.autograd.profiler.profile() as prof:
        with record_function("forward_pass"):
            out = model(x)
        with record_function("loss"):
            loss = F.cross_entropy(out, y)
        loss.backward()
    events = prof.events()
    fwd = next(e for e in events if e.name == "forward_pass")
    assert fwd.scope == 7  # USER_SCOPE
    assert fwd.cpu_parent is None
    assert sorted(c.name for c in fwd.cpu_children) == ["aten::linear", "aten::linear", "aten::relu"]
    for child in fwd.cpu_children:
        assert fwd.time_range.start <= child.time_range.start
        assert child.time_range.end <= fwd.time_range.end
    loss_scope = next(e for e in events if e.name == "loss")
    assert [c.name for c in loss_scope.cpu_children] == ["aten::cross_entropy_loss"]
    for e in events:
        children_total = sum(c.cpu_time_total for c in e.cpu_children)
        assert e.self_cpu_time_total == pytest.approx(e.cpu_time_total - children_total)
        assert e.self_cpu_time_total <= e.cpu_time_total
        assert e.self_cpu_time_total >= 0
    # The sum of self times is the time of the top-level events.
    top = sum(e.cpu_time_total for e in events if e.cpu_parent is None)
    assert prof.self_cpu_time_total == pytest.approx(top)


def test_record_function_decorator_and_nesting():
    @record_function("decorated")
    def f(t):
        with record_function("inner"):
            return t * t

    with torch.profiler.profile() as prof:
        f(torch.ones(3))
        f(torch.ones(3))
    events = prof.events()
    outer = [e for e in events if e.name == "decorated"]
    assert len(outer) == 2
    for o in outer:
        assert _names(o.cpu_children) == ["inner"]
        assert _names(o.cpu_children[0].cpu_children) == ["aten::mul"]


def test_events_on_another_thread_have_their_own_thread_id():
    def work():
        torch.ones(4) * 3

    with torch.profiler.profile() as prof:
        torch.ones(4) + 1
        t = threading.Thread(target=work)
        t.start()
        t.join()
    by_name = {}
    for e in prof.events():
        by_name.setdefault(e.name, set()).add(e.thread)
    assert len(by_name["aten::add"]) == 1 and len(by_name["aten::mul"]) == 1
    assert by_name["aten::add"] != by_name["aten::mul"]
    # Events nest per thread: mul (other thread) is nobody's child.
    mul = next(e for e in prof.events() if e.name == "aten::mul")
    assert mul.cpu_parent is None


def test_boxed_call_is_recorded():
    # A Python-registered operator is called boxed (Dispatcher::callBoxed): recorded too.
    lib = torch.library.Library("profiler_test", "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x * x, "CPU")
    a = torch.ones(3, 2)
    with torch.profiler.profile(record_shapes=True) as prof:
        torch.ops.profiler_test.twice(a)
    twice = next(e for e in prof.events() if e.name == "profiler_test::twice")
    assert twice.input_shapes == [[3, 2]]
    assert "aten::mul" in _names(twice.cpu_children)


# ---- shapes ----

def test_record_shapes():
    a = torch.randn(2, 3)
    b = torch.randn(3, 4)
    with torch.profiler.profile(record_shapes=True) as prof:
        torch.mm(a, b)
        torch.add(a, a, alpha=2)
        torch.mm(b.t(), a.t())
    mms = [e for e in prof.events() if e.name == "aten::mm"]
    assert [e.input_shapes for e in mms] == [[[2, 3], [3, 4]], [[4, 3], [3, 2]]]
    add = next(e for e in prof.events() if e.name == "aten::add")
    assert add.input_shapes == [[2, 3], [2, 3], []]  # self, other, alpha
    grouped = {(e.key, str(e.input_shapes)): e.count for e in prof.key_averages(group_by_input_shape=True)}
    assert grouped[("aten::mm", "[[2, 3], [3, 4]]")] == 1
    assert grouped[("aten::mm", "[[4, 3], [3, 2]]")] == 1
    table = prof.key_averages(group_by_input_shape=True).table(sort_by="cpu_time_total")
    assert "Input Shapes" in table.splitlines()[1]
    assert "[[2, 3], [3, 4]]" in table


def test_no_shapes_without_record_shapes():
    with torch.profiler.profile() as prof:
        torch.mm(torch.ones(2, 2), torch.ones(2, 2))
    assert all(e.input_shapes == [] for e in prof.events())
    assert "Input Shapes" not in prof.key_averages().table()


# ---- the table ----

def test_table_format(mlp):
    model, x, y = mlp
    with torch.profiler.profile() as prof:
        _mlp_step(model, x, y)
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=5)
    lines = table.splitlines()
    rule = lines[0]
    assert re.fullmatch(r"(-+  )+", rule)
    header = lines[1].split()
    assert " ".join(header) == "Name Self CPU % Self CPU CPU total % CPU total CPU time avg # of Calls"
    assert lines[2] == rule
    end = lines.index(rule, 3)
    rows = lines[3:end]
    assert len(rows) == 5
    assert lines[end + 1].startswith("Self CPU time total: ")
    # Rows are sorted by self CPU time, largest first.
    avgs = sorted(prof.key_averages(), key=lambda e: e.self_cpu_time_total, reverse=True)
    assert [r[:55].strip() for r in rows] == [e.key[:52] + "..." if len(e.key) >= 52 else e.key for e in avgs[:5]]
    # Each row ends with its count; its times carry PyTorch's units.
    for row, avg in zip(rows, avgs[:5]):
        assert row.split()[-1] == str(avg.count)
        assert re.search(r"\d+\.\d{2}%\s+\d+\.\d{3}(us|ms|s)\s", row)


def test_table_sort_by_count_and_row_limit():
    with torch.profiler.profile() as prof:
        for _ in range(4):
            torch.ones(2) + 1
    table = prof.key_averages().table(sort_by="count", row_limit=2)
    lines = table.splitlines()
    rows = lines[3:lines.index(lines[0], 3)]
    assert len(rows) == 2
    assert int(rows[0].split()[-1]) >= int(rows[1].split()[-1])


def test_format_time_units():
    assert _format_time(999.9) == "999.900us"
    assert _format_time(1500) == "1.500ms"
    assert _format_time(2_500_000) == "2.500s"
    assert _format_time_share(25, 200) == "12.50%"
    assert _format_time_share(0, 0) == "NaN"


# ---- the chrome trace ----

def test_chrome_trace(tmp_path):
    a = torch.randn(3, 4, requires_grad=True)
    with torch.profiler.profile(record_shapes=True) as prof:
        with record_function("step"):
            (a @ a.t()).sum().backward()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    events = trace["traceEvents"]
    assert len(events) == len(prof.events())
    for e in events:
        assert e["ph"] == "X"
        assert set(e) >= {"name", "cat", "pid", "tid", "ts", "dur", "args"}
        assert e["dur"] >= 0
    cats = {e["name"]: e["cat"] for e in events}
    assert cats["step"] == "user_annotation"
    assert cats["aten::mm"] == "cpu_op"
    mm = next(e for e in events if e["name"] == "aten::mm")
    assert mm["args"]["Input Dims"] == [[3, 4], [4, 3]]
    # Complete events nest: on one thread, two intervals are disjoint or one holds the other.
    spans = sorted((e["ts"], e["ts"] + e["dur"]) for e in events)
    for i, (s1, e1) in enumerate(spans):
        for s2, e2 in spans[i + 1:]:
            assert e1 <= s2 or e2 <= e1
    step = next(e for e in events if e["name"] == "step")
    assert all(step["ts"] <= e["ts"] and e["ts"] + e["dur"] <= step["ts"] + step["dur"] for e in events)


# ---- on and off ----

def test_nothing_recorded_after_exit():
    with torch.profiler.profile() as prof:
        torch.ones(2) + 1
    assert not torch._C._autograd._profiler_enabled()
    n = len(prof.events())
    torch.ones(2) * 5
    assert len(prof.events()) == n
    assert "aten::mul" not in _names(prof.events())
    # A new profiler starts clean.
    with torch.profiler.profile() as prof2:
        torch.ones(2) * 5
    assert "aten::add" not in _names(prof2.events())
    assert "aten::mul" in _names(prof2.events())


def test_callback_removed_when_block_raises():
    with pytest.raises(ValueError, match="boom"):
        with torch.autograd.profiler.profile() as prof:
            torch.ones(2) + 1
            raise ValueError("boom")
    assert not torch._C._autograd._profiler_enabled()
    assert "aten::add" in _names(prof.events())
    with torch.autograd.profiler.profile():  # not "already enabled"
        pass


def test_enabling_twice_raises():
    with torch.autograd.profiler.profile():
        with pytest.raises(RuntimeError, match="Profiler is already enabled on this thread"):
            torch._C._autograd._enable_profiler_legacy(False)
        with pytest.raises(RuntimeError, match="Profiler is already enabled on this thread"):
            with torch.autograd.profiler.profile():
                pass
        assert torch._C._autograd._profiler_enabled()
    assert not torch._C._autograd._profiler_enabled()
    with pytest.raises(RuntimeError, match="Can't disable profiler when it's not running"):
        torch._C._autograd._disable_profiler_legacy()


def test_profile_not_reentrant():
    p = torch.autograd.profiler.profile()
    with p:
        pass
    with pytest.raises(RuntimeError, match="Profiler context manager is not reentrant"):
        with p:
            pass


def test_disabled_profile_records_nothing():
    with torch.autograd.profiler.profile(enabled=False):
        assert not torch._C._autograd._profiler_enabled()


def test_record_function_outside_profiler_is_free():
    with record_function("nobody_listens") as rf:
        torch.ones(2) + 1
    assert rf.record is not None
    assert not torch._C._autograd._profiler_enabled()


def test_raw_records():
    torch._C._autograd._enable_profiler_legacy(True)
    try:
        torch.mm(torch.ones(2, 3), torch.ones(3, 1))
    finally:
        records = torch._C._autograd._disable_profiler_legacy()
    mm = [r for r in records if r[0] == "aten::mm"]
    assert len(mm) == 1
    name, start_ns, end_ns, thread, seq, scope, shapes, fwd_thread = mm[0]
    assert 0 <= start_ns <= end_ns
    assert thread >= 1 and scope == 0
    assert shapes == [[2, 3], [3, 1]]


# ---- torch.profiler: activities, schedule, steps ----

def test_schedule_actions():
    # Worked from PyTorch's definition: skip 1 step, then cycles of wait 1, warmup 1, active 2,
    # once (repeat=1); the last active step of a cycle is RECORD_AND_SAVE.
    N, W, R, S = ProfilerAction.NONE, ProfilerAction.WARMUP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE
    s = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    assert [s(i) for i in range(8)] == [N, N, W, R, S, N, N, N]
    s = schedule(wait=2, warmup=1, active=3)  # repeat=0: forever
    assert [s(i) for i in range(14)] == [N, N, W, R, R, S, N, N, W, R, R, S, N, N]
    assert [a.value for a in ProfilerAction] == [0, 1, 2, 3, 4]


def test_schedule_bad_arguments():
    with pytest.raises(AssertionError, match=r"Invalid profiler schedule arguments. Got wait=0 \(need >= 0\), "
                                             r"warmup=0 \(need >= 0\), active=0 \(need > 0\)"):
        schedule(wait=0, warmup=0, active=0)
    with pytest.warns(UserWarning, match="Profiler won't be using warmup, this can skew profiler results"):
        s = schedule(wait=0, warmup=0, active=1, repeat=2)
    assert [s(i) for i in range(3)] == [ProfilerAction.RECORD_AND_SAVE, ProfilerAction.RECORD_AND_SAVE,
                                        ProfilerAction.NONE]


@pytest.mark.filterwarnings("ignore:Warning. Profiler clears events at the end of each cycle")
def test_profile_with_schedule_and_on_trace_ready():
    ready = []

    def on_trace_ready(p):
        ready.append((p.step_num, [e.key for e in p.key_averages()], p.events()))

    sched = schedule(wait=1, warmup=1, active=2, repeat=2)
    with torch.profiler.profile(schedule=sched, on_trace_ready=on_trace_ready) as p:
        for i in range(10):
            torch.ones(2) * i
            p.step()
    # Cycles of 4 steps: 0 wait, 1 warmup, 2-3 active (ready when step 3 ends), then 4-7.
    assert [r[0] for r in ready] == [4, 8]
    for _, keys, events in ready:
        assert "ProfilerStep*" in keys
        steps = [e for e in events if e.name == "ProfilerStep*"]
        assert len(steps) == 2  # the two active steps only
        assert sum(e.name == "aten::mul" for e in events) == 2
        for st in steps:
            assert "aten::mul" in _names(st.cpu_children)


def test_profile_step_without_schedule_records_everything():
    with torch.profiler.profile() as p:
        for _ in range(3):
            torch.ones(2) + 1
            p.step()
    assert _names(p.events()).count("aten::add") == 3
    assert "ProfilerStep*" not in _names(p.events())


def test_activities():
    assert ProfilerActivity.CPU in torch.profiler.supported_activities()
    assert [(a.name, a.value) for a in ProfilerActivity][:3] == [("CPU", 0), ("XPU", 1), ("CUDA", 2)]
    with torch.profiler.profile(activities=[ProfilerActivity.CPU]) as p:
        torch.ones(1) + 1
    assert "aten::add" in _names(p.events())


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the behaviour without a CUDA device")
def test_cuda_activity_without_cuda():
    with pytest.warns(UserWarning, match="CUDA is not available, disabling CUDA profiling"):
        with torch.profiler.profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
            torch.ones(1) + 1
    assert "aten::add" in _names(p.events())
    # As in PyTorch, the check happens when profiling starts, not when the object is made.
    only_cuda = torch.profiler.profile(activities=[ProfilerActivity.CUDA])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(AssertionError, match="No activities specified for the profiler"):
            with only_cuda:
                pass
    assert not torch._C._autograd._profiler_enabled()
    with pytest.warns(FutureWarning, match="use_cuda"):
        with pytest.warns(UserWarning, match="CUDA is not available, disabling CUDA profiling"):
            torch.autograd.profiler.profile(use_cuda=True)


def test_importable_after_bare_import():
    import subprocess
    import sys

    code = ("import torch; print(torch.profiler.profile.__module__, torch.autograd.profiler.profile.__module__, "
            "torch.profiler.record_function is torch.autograd.profiler.record_function)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["torch.profiler.profiler", "torch.autograd.profiler", "True"]
