"""benchmarks/compare.py - this tree against PyTorch (and numpy), benchmark by benchmark, at 1 and 2 threads.

This project's own benchmark (no PyTorch file mirrors it). Guide: docs/source/internals/performance.rst.

Run from the repository root:

    TORCH_REFERENCE_PYTHON=<python with PyTorch> .venv/bin/python benchmarks/compare.py
        [--threads 1,2] [--rounds 7] [--only SUBSTRING ...] [--json PATH] [--list]

Each benchmark is written once, as a setup function that takes the imported `torch` and `numpy` and
returns the zero-argument callable to time (and, where numpy has the same computation, its numpy
form). The same file runs a second time as a worker under TORCH_REFERENCE_PYTHON (`--worker`,
line-delimited JSON on stdin/stdout); launched as a script from a temporary folder, its sys.path
holds this folder and not the repository root, so its `import torch` is PyTorch's (checked: it
refuses to run if `torch.__file__` lies inside this repository). Inputs are made by numpy from
fixed seeds on both sides, so both compute the same thing; their results are compared (checksums)
before any timing, since a fast wrong answer is not a win.

Per benchmark and thread count: the call count is calibrated here (about 50 ms a round) and the
worker uses the same count; then the two take turns for the rounds, and each column is the median
per-call time. numpy is timed afterwards in this process with its own call count.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ROUND_SECONDS = 0.05
SLOW_RATIO = 1.2  # rows above this ratio this tree / PyTorch are counted in the summary line
CHECK_TOLERANCE = 1e-3  # relative to the sum of absolute values: loose, float32 rounding is not an error


# ----------------------------------------------------------------------------------------------
# The benchmarks. Each setup takes (torch, np) and returns fn or (fn, numpy_fn); it must not touch
# anything but its arguments, so that it builds the identical computation in both processes.

class Benchmark:
    def __init__(self, name, setup, max_rounds=None, check=True):
        self.name, self.setup, self.max_rounds, self.check = name, setup, max_rounds, check


BENCHMARKS = []


def benchmark(name, max_rounds=None, check=True):
    def register(setup):
        BENCHMARKS.append(Benchmark(name, setup, max_rounds, check))
        return setup
    return register


def _randn(np, shape, seed):
    return np.random.default_rng(seed).standard_normal(shape, dtype=np.float32)


def _params_from_numpy(torch, np, module, seed):
    """Overwrite the module's parameters with numpy-drawn values (the two libraries' own random
    initializations need not agree). Parameters that are all zeros or all ones (normalization
    layers) keep their values."""
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for _, p in sorted(module.named_parameters(), key=lambda item: item[0]):
            if bool(p.eq(0).all()) or bool(p.eq(1).all()):
                continue
            shape = tuple(p.shape)
            bound = 1.0 / math.sqrt(math.prod(shape[1:])) if len(shape) >= 2 else 0.1
            p.copy_(torch.from_numpy(rng.uniform(-bound, bound, size=shape).astype(np.float32)))


def _add(n):
    def setup(torch, np):
        a_np, b_np = _randn(np, n, 1), _randn(np, n, 2)
        a, b = torch.from_numpy(a_np), torch.from_numpy(b_np)
        return (lambda: torch.add(a, b)), (lambda: np.add(a_np, b_np))
    return setup


benchmark("add 1e6 float32")(_add(10**6))
benchmark("add 1e7 float32")(_add(10**7))


@benchmark("(x*2+1).relu() 1e6")
def _unary_chain(torch, np):
    x_np = _randn(np, 10**6, 3)
    x = torch.from_numpy(x_np)
    return (lambda: (x * 2 + 1).relu()), (lambda: np.maximum(x_np * 2 + 1, 0))


@benchmark("sum 1e7")
def _sum(torch, np):
    x_np = _randn(np, 10**7, 4)
    x = torch.from_numpy(x_np)
    return (lambda: x.sum()), (lambda: x_np.sum())


def _reduce_dim(method, dim):
    def setup(torch, np):
        x_np = _randn(np, (1000, 1000), 5)
        x = torch.from_numpy(x_np)
        if method == "max":  # values and indices, as torch.max(dim) returns both
            return (lambda: x.max(dim=dim)), (lambda: (x_np.max(axis=dim), x_np.argmax(axis=dim)))
        return (lambda: getattr(x, method)(dim=dim)), (lambda: getattr(x_np, method)(axis=dim))
    return setup


benchmark("sum(dim=0) 1000x1000")(_reduce_dim("sum", 0))
benchmark("sum(dim=1) 1000x1000")(_reduce_dim("sum", 1))
benchmark("max(dim=1) 1000x1000")(_reduce_dim("max", 1))
benchmark("mean(dim=1) 1000x1000")(_reduce_dim("mean", 1))


@benchmark("t().contiguous() 2048x2048")
def _t_contiguous(torch, np):
    x_np = _randn(np, (2048, 2048), 6)
    x = torch.from_numpy(x_np)
    return (lambda: x.t().contiguous()), (lambda: np.ascontiguousarray(x_np.T))


@benchmark("transpose(1,2).contiguous() 16x256x256")
def _batched_transpose(torch, np):
    x_np = _randn(np, (16, 256, 256), 7)
    x = torch.from_numpy(x_np)
    return (lambda: x.transpose(1, 2).contiguous()), (lambda: np.ascontiguousarray(x_np.transpose(0, 2, 1)))


@benchmark("permute(0,2,3,1).clone() 16x64x32x32")
def _permuted_clone(torch, np):
    # clone() keeps the strides of a dense permuted tensor (torch.preserve_format), as
    # numpy's copy(order="K") does: a straight copy, not a transposition.
    x_np = _randn(np, (16, 64, 32, 32), 8)
    x = torch.from_numpy(x_np).permute(0, 2, 3, 1)
    p_np = x_np.transpose(0, 2, 3, 1)
    return (lambda: x.clone()), (lambda: p_np.copy(order="K"))


def _matmul(n, transposed=False):
    def setup(torch, np):
        a_np, b_np = _randn(np, (n, n), 9), _randn(np, (n, n), 10)
        a, b = torch.from_numpy(a_np), torch.from_numpy(b_np)
        if transposed:
            return (lambda: a @ b.t()), (lambda: a_np @ b_np.T)
        return (lambda: a @ b), (lambda: a_np @ b_np)
    return setup


for _n in (64, 128, 256, 512, 1024):
    benchmark(f"a @ b {_n}x{_n}")(_matmul(_n))
benchmark("a @ b.t() 256x256")(_matmul(256, transposed=True))


def _linear(form):
    def setup(torch, np):
        x_np, w_np, b_np = _randn(np, (64, 784), 11), _randn(np, (256, 784), 12), _randn(np, 256, 13)
        x, w, b = torch.from_numpy(x_np), torch.from_numpy(w_np), torch.from_numpy(b_np)
        fn = (lambda: torch.addmm(b, x, w.t())) if form == "addmm" else (
            lambda: torch.nn.functional.linear(x, w, b))
        return fn, (lambda: x_np @ w_np.T + b_np)
    return setup


benchmark("addmm 64x784 by 256x784 +bias")(_linear("addmm"))
benchmark("F.linear 64x784 by 256x784 +bias")(_linear("linear"))


def _conv(backward):
    def setup(torch, np):
        F = torch.nn.functional
        x = torch.from_numpy(_randn(np, (8, 32, 32, 32), 14))
        w = torch.from_numpy(_randn(np, (64, 32, 3, 3), 15) * np.float32(0.06))
        b = torch.from_numpy(_randn(np, 64, 16))
        if not backward:
            return lambda: F.conv2d(x, w, b, padding=1)
        x.requires_grad_(True)
        w.requires_grad_(True)
        b.requires_grad_(True)
        grad = torch.from_numpy(_randn(np, (8, 64, 32, 32), 17))

        def step():
            x.grad = w.grad = b.grad = None
            out = F.conv2d(x, w, b, padding=1)
            out.backward(grad)
            return out, x.grad, w.grad, b.grad
        return step
    return setup


benchmark("conv2d 8x32x32x32 -> 64, k3 p1")(_conv(False))
benchmark("conv2d fwd+bwd 8x32x32x32 -> 64")(_conv(True))


@benchmark("MLP step 784-256-10, batch 64")
def _mlp_step(torch, np):
    nn, F = torch.nn, torch.nn.functional
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    _params_from_numpy(torch, np, model, 18)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.from_numpy(_randn(np, (64, 784), 19))
    y = torch.from_numpy(np.random.default_rng(20).integers(0, 10, 64))

    def step():
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss
    return step


def _import_sibling(name):
    """A module of this folder (sys.path holds it when this file runs as a script, not on import)."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    return __import__(name)


@benchmark("CNN step (nn.py), batch 64")
def _cnn_step(torch, np):
    # nn.py's network (docs/examples/train_cnn) and step; its images come from torch's generator,
    # so they are remade here from numpy to be the same on both sides.
    model = _import_sibling("nn").train_cnn.make_model()
    _params_from_numpy(torch, np, model, 21)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    images = torch.from_numpy(_randn(np, (64, 1, 8, 8), 22))
    labels = torch.from_numpy(np.random.default_rng(23).integers(0, 4, 64))

    def step():
        optimizer.zero_grad()
        loss = loss_fn(model(images), labels)
        loss.backward()
        optimizer.step()
        return loss
    return step


@benchmark("LSTM(64,128) fwd+bwd, seq 32 x batch 16")
def _lstm_step(torch, np):
    lstm = torch.nn.LSTM(64, 128)
    _params_from_numpy(torch, np, lstm, 24)
    x = torch.from_numpy(_randn(np, (32, 16, 64), 25))
    grad = torch.from_numpy(_randn(np, (32, 16, 128), 26))

    def step():
        lstm.zero_grad(set_to_none=True)
        out, (h, c) = lstm(x)
        out.backward(grad)
        return (out,) + tuple(p.grad for p in lstm.parameters())
    return step


def _softmax(log):
    def setup(torch, np):
        F = torch.nn.functional
        x_np = _randn(np, (256, 1024), 27)
        x = torch.from_numpy(x_np)

        def numpy_fn():
            shifted = x_np - x_np.max(axis=-1, keepdims=True)
            e = np.exp(shifted)
            s = e.sum(axis=-1, keepdims=True)
            return shifted - np.log(s) if log else e / s
        return (lambda: (F.log_softmax if log else F.softmax)(x, dim=-1)), numpy_fn
    return setup


benchmark("softmax(dim=-1) 256x1024")(_softmax(False))
benchmark("log_softmax(dim=-1) 256x1024")(_softmax(True))


def _indexing(op):
    def setup(torch, np):
        rng = np.random.default_rng(28)
        src_np = _randn(np, (4096, 256), 29)
        src = torch.from_numpy(src_np)
        if op == "index_select":
            idx_np = rng.integers(0, 4096, 4096)
            idx = torch.from_numpy(idx_np)
            return (lambda: src.index_select(0, idx)), (lambda: np.take(src_np, idx_np, axis=0))
        if op == "scatter_":  # a permutation per row: no index written twice, one right answer
            idx_np = rng.permuted(np.tile(np.arange(256), (4096, 1)), axis=1)
        else:
            idx_np = rng.integers(0, 256, (4096, 256))
        idx = torch.from_numpy(idx_np)
        if op == "gather":
            return (lambda: torch.gather(src, 1, idx)), (lambda: np.take_along_axis(src_np, idx_np, axis=1))
        out_np = np.zeros((4096, 256), dtype=np.float32)
        out = torch.from_numpy(out_np.copy())
        if op == "scatter_":
            def numpy_scatter():
                np.put_along_axis(out_np, idx_np, src_np, axis=1)
                return out_np
            return (lambda: out.scatter_(1, idx, src)), numpy_scatter
        rows = np.arange(4096)[:, None]

        def numpy_scatter_add():
            np.add.at(out_np, (rows, idx_np), src_np)
            return out_np
        return (lambda: out.scatter_add_(1, idx, src)), numpy_scatter_add
    return setup


benchmark("gather(dim=1) 4096x256")(_indexing("gather"))
benchmark("scatter_(dim=1) 4096x256")(_indexing("scatter_"))
benchmark("scatter_add_(dim=1) 4096x256")(_indexing("scatter_add_"))
benchmark("index_select(dim=0) 4096x256")(_indexing("index_select"))


@benchmark("a + b, 4 elements (per call)")
def _small_add(torch, np):
    a_np, b_np = _randn(np, 4, 30), _randn(np, 4, 31)
    a, b = torch.from_numpy(a_np), torch.from_numpy(b_np)
    return (lambda: a + b), (lambda: a_np + b_np)


@benchmark("import torch (fresh interpreter)", max_rounds=3, check=False)
def _import_torch(torch, np):
    # This interpreter, from this process's folder and environment: the worker's are outside the
    # repository, so there it imports PyTorch.
    def run():
        done = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError((done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1])
    return run


@benchmark("GPT step (gpt_train_step.py)")
def _gpt_step(torch, np):
    gpt = _import_sibling("gpt_train_step")
    trainer = gpt.Trainer()
    _params_from_numpy(torch, np, trainer.model, 32)
    data = torch.from_numpy(np.random.default_rng(33).integers(0, gpt.VOCAB, (gpt.BATCH, gpt.BLOCK + 1)))
    trainer.x, trainer.y = data[:, :-1].contiguous(), data[:, 1:].contiguous()
    return trainer.step


# ----------------------------------------------------------------------------------------------
# Arithmetic and checks (the same on both sides).

def median(values):
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def checksum(value, np):
    """[sum, sum of absolute values] in float64 of everything a call returned (None: nothing)."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        parts = [checksum(v, np) for v in value]
        parts = [p for p in parts if p is not None]
        return [sum(p[0] for p in parts), sum(p[1] for p in parts)] if parts else None
    if isinstance(value, (int, float)):
        return [float(value), abs(float(value))]
    if hasattr(value, "detach"):  # a tensor
        value = value.detach().numpy()
    a = np.asarray(value, dtype=np.float64)
    return [float(a.sum()), float(np.abs(a).sum())]


def checksums_differ(mine, theirs, tolerance=CHECK_TOLERANCE):
    """Whether two lists of checksums (one per checked call) disagree beyond the tolerance."""
    if mine is None or theirs is None:
        return False
    if len(mine) != len(theirs):
        return True
    for a, b in zip(mine, theirs):
        if (a is None) != (b is None):
            return True
        if a is None:
            continue
        scale = tolerance * max(a[1], b[1]) + 1e-9
        if not (abs(a[0] - b[0]) <= scale and abs(a[1] - b[1]) <= scale):  # NaN differs too
            return True
    return False


def describe(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:80] if text else ''}".rstrip(": ")


def time_calls(fn, number):
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return time.perf_counter() - start


def calibrate(fn, target=ROUND_SECONDS):
    """The call count (a power of two) whose round takes at least `target` seconds."""
    number = 1
    while time_calls(fn, number) < target:
        number *= 2
    return number


class Case:
    """One benchmark set up in one process."""

    def __init__(self, bench, torch, np):
        made = bench.setup(torch, np)
        self.fn, self.numpy_fn = made if isinstance(made, tuple) else (made, None)
        self.np, self.checked = np, bench.check

    def check(self, fn=None):
        """The checksums of two calls (a training step's second loss shows the first update)."""
        if not self.checked:
            return None
        fn = fn or self.fn
        return [checksum(fn(), self.np) for _ in range(2)]


# ----------------------------------------------------------------------------------------------
# The worker (PyTorch's side) and the parent's handle on it.

class Worker:
    """Answers one JSON request at a time: hello, threads, setup, round."""

    def __init__(self, torch, np, benchmarks=None):
        self.torch, self.np = torch, np
        self.benchmarks = {b.name: b for b in (BENCHMARKS if benchmarks is None else benchmarks)}
        self.case = None

    def handle(self, request):
        try:
            cmd = request["cmd"]
            if cmd == "hello":
                return {"ok": True, "torch": self.torch.__version__, "torch_file": self.torch.__file__,
                        "numpy": self.np.__version__, "python": sys.version.split()[0]}
            if cmd == "threads":
                self.torch.set_num_threads(int(request["n"]))
                return {"ok": True, "threads": self.torch.get_num_threads()}
            if cmd == "setup":
                self.case = None  # free the previous benchmark's tensors first
                case = Case(self.benchmarks[request["name"]], self.torch, self.np)
                check = case.check()
                self.case = case
                return {"ok": True, "checksum": check}
            if cmd == "round":
                return {"ok": True, "seconds": time_calls(self.case.fn, int(request["number"]))}
            raise ValueError(f"unknown command {cmd!r}")
        except Exception as e:  # noqa: BLE001 - every failure is an answer, the worker stays up
            return {"ok": False, "error": describe(e)}

    def handle_line(self, line):
        return json.dumps(self.handle(json.loads(line)))


def torch_inside_repository(torch_file):
    return os.path.commonpath([os.path.realpath(torch_file), os.path.realpath(REPO)]) == os.path.realpath(REPO)


def worker_main():
    import numpy as np
    import torch
    protocol = sys.stdout
    sys.stdout = sys.stderr  # a stray print must not break the protocol
    if torch_inside_repository(torch.__file__):
        protocol.write(json.dumps({"ok": False, "error": f"the worker imported this tree's torch "
                                   f"({torch.__file__}), not PyTorch"}) + "\n")
        protocol.flush()
        sys.exit(2)
    worker = Worker(torch, np)
    for line in sys.stdin:
        protocol.write(worker.handle_line(line) + "\n")
        protocol.flush()


class WorkerError(RuntimeError):
    """PyTorch's side answered with an error (or did not answer)."""


class Reference:
    """This file run as a worker under another interpreter, from a temporary folder, no PYTHONPATH."""

    def __init__(self, python):
        self.python = python
        self.proc = None
        self.start()

    def start(self):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.cwd = tempfile.TemporaryDirectory()
        self.proc = subprocess.Popen([self.python, os.path.abspath(__file__), "--worker"], cwd=self.cwd.name,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def exchange(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        reply = self.proc.stdout.readline()
        if not reply:
            raise WorkerError(f"the PyTorch worker exited (status {self.proc.wait()})")
        return reply

    def ask(self, request):
        reply = json.loads(self.exchange(json.dumps(request)))
        if not reply.get("ok"):
            raise WorkerError(reply.get("error", "no answer"))
        return reply

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def restart(self):
        self.close()
        self.start()

    def close(self):
        if self.proc is None:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.cwd.cleanup()
        self.proc = None


# ----------------------------------------------------------------------------------------------
# Measurement and output.

def measure(bench, threads, rounds, torch, np, ref=None):
    """One row: the medians of this tree, PyTorch (if ref) and numpy (if a numpy form), and checks."""
    rounds = min(rounds, bench.max_rounds or rounds)
    row = {"name": bench.name, "threads": threads, "rounds": rounds, "missing": None, "warnings": [],
           "this_tree": None, "pytorch": None, "numpy": None, "ratio": None, "ratio_numpy": None}
    case = None
    try:
        torch.set_num_threads(threads)
        case = Case(bench, torch, np)
        row["checksum"] = mine_check = case.check()
        number = calibrate(case.fn)  # also the warm-up
        row["number"] = number
    except Exception as e:  # noqa: BLE001
        row["missing"] = describe(e)
        return row
    theirs = []
    if ref is not None:
        try:
            if not ref.alive():
                ref.restart()
            ref.ask({"cmd": "threads", "n": threads})
            their_check = ref.ask({"cmd": "setup", "name": bench.name})["checksum"]
            row["checksum_pytorch"] = their_check
            if checksums_differ(mine_check, their_check):
                row["warnings"].append(f"checksum differs from PyTorch (calls 1/2): {_checks(mine_check)} "
                                       f"vs {_checks(their_check)}")
            ref.ask({"cmd": "round", "number": number})  # the worker's warm-up
        except WorkerError as e:
            row["missing"] = f"PyTorch: {e}"
            return row
    mine = []
    try:
        for _ in range(rounds):
            mine.append(time_calls(case.fn, number) / number)
            if ref is not None:
                theirs.append(ref.ask({"cmd": "round", "number": number})["seconds"] / number)
    except WorkerError as e:
        row["missing"] = f"PyTorch: {e}"
        return row
    except Exception as e:  # noqa: BLE001
        row["missing"] = describe(e)
        return row
    row["this_tree"], row["rounds_this_tree"] = median(mine), mine
    if theirs:
        row["pytorch"], row["rounds_pytorch"] = median(theirs), theirs
        row["ratio"] = row["this_tree"] / row["pytorch"]
    if case.numpy_fn is not None:
        # After the alternation, so that numpy's BLAS threads (still spinning after a call) do
        # not overlap the rounds of the other two.
        try:
            if checksums_differ(mine_check, case.check(case.numpy_fn)):
                row["warnings"].append("checksum differs from numpy")
            n_number = calibrate(case.numpy_fn)
            row["numpy"] = median([time_calls(case.numpy_fn, n_number) / n_number for _ in range(rounds)])
            row["ratio_numpy"] = row["this_tree"] / row["numpy"]
        except Exception as e:  # noqa: BLE001
            row["warnings"].append(f"numpy form failed: {describe(e)}")
    return row


class CpuMonitor:
    """The share of the machine that other processes used since it was made (Linux /proc; None
    elsewhere). On a shared machine a timing is only worth reading when this stays near zero: with
    2 threads on 2 cores, one descheduled thread stalls every parallel region."""

    def __init__(self, pids=lambda: ()):
        self.pids = pids
        self.begin = self._sample()

    def _sample(self):
        try:
            tick = os.sysconf("SC_CLK_TCK")
            with open("/proc/stat") as f:
                user, nice, system, idle, iowait, irq, softirq, steal = map(int, f.readline().split()[1:9])
            busy = (user + nice + system + irq + softirq + steal) / tick
            t = os.times()
            ours = t.user + t.system + t.children_user + t.children_system
            for pid in self.pids():
                with open(f"/proc/{pid}/stat") as f:  # utime, stime, cutime, cstime after the name
                    ours += sum(int(v) for v in f.read().rsplit(")", 1)[1].split()[11:15]) / tick
            return busy, ours, time.perf_counter()
        except (OSError, ValueError, AttributeError):
            return None

    def other_share(self):
        end = self._sample()
        if self.begin is None or end is None or end[2] <= self.begin[2]:
            return None
        other = (end[0] - self.begin[0]) - (end[1] - self.begin[1])
        return max(0.0, other / ((end[2] - self.begin[2]) * (os.cpu_count() or 1)))


def worker_pids(ref):
    proc = getattr(ref, "proc", None)
    return [proc.pid] if proc is not None and proc.poll() is None else []


BUSY_SHARE = 0.1  # a row during which other processes took more of the cores than this is marked


def measure_watched(bench, threads, rounds, torch, np, ref=None):
    """measure(), with the share of the machine that other processes took meanwhile."""
    monitor = CpuMonitor(lambda: worker_pids(ref))
    row = measure(bench, threads, rounds, torch, np, ref)
    row["other_load"] = share = monitor.other_share()
    if share is not None and share > BUSY_SHARE:
        row["warnings"].append(f"busy: other processes took {share:.0%} of the cores")
    return row


def _checks(check):
    return "/".join("-" if c is None else f"{c[0]:.6g}" for c in check)


def format_time(seconds):
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            break
    else:
        unit, scale = "ns", 1e-9
    return f"{seconds / scale:.3g} {unit}"


def format_ratio(ratio):
    return "-" if ratio is None else f"{ratio:.2f}x"


NAME_WIDTH = 40
COLUMNS = (("this tree", 10), ("PyTorch", 10), ("ratio", 7), ("numpy", 10), ("ratio to numpy", 14))


def table_header():
    return f"{'benchmark':<{NAME_WIDTH}}" + "".join(f"  {title:>{width}}" for title, width in COLUMNS)


def format_row(row, reference_set=True):
    name = f"{row['name']:<{NAME_WIDTH}}"
    if row["missing"]:
        return f"{name}  missing: {row['missing']}"
    pytorch = format_time(row["pytorch"]) if reference_set else "not set"
    cells = (format_time(row["this_tree"]), pytorch, format_ratio(row["ratio"]), format_time(row["numpy"]),
             format_ratio(row["ratio_numpy"]))
    line = name + "".join(f"  {cell:>{width}}" for cell, (_, width) in zip(cells, COLUMNS))
    for warning in row["warnings"]:
        line += f"  WARNING: {warning}"
    return line


def summarize(rows):
    """Geometric mean of the ratios this tree / PyTorch over the rows that have one, how many of
    those are above SLOW_RATIO, and how many rows are missing."""
    ratios = [r["ratio"] for r in rows if not r["missing"] and r["ratio"] is not None]
    return {"geomean": geomean(ratios) if ratios else None, "count": len(ratios),
            "above": sum(r > SLOW_RATIO for r in ratios), "missing": sum(bool(r["missing"]) for r in rows),
            "mismatched": sum(any(w.startswith("checksum differs from PyTorch") for w in r.get("warnings", ()))
                              for r in rows)}


def format_summary(threads, summary):
    head = f"{threads} thread{'s' * (threads > 1)}:"
    if summary["geomean"] is None:
        text = f"{head} no ratios to PyTorch"
    else:
        text = (f"{head} geometric mean this tree / PyTorch {summary['geomean']:.2f}x over {summary['count']} "
                f"benchmarks; {summary['above']} above {SLOW_RATIO}x")
    if summary.get("mismatched"):
        text += f"; {summary['mismatched']} checksum mismatch{'es' * (summary['mismatched'] > 1)}"
    return text + (f"; {summary['missing']} missing" if summary["missing"] else "")


def select(benchmarks, only):
    if not only:
        return list(benchmarks)
    words = [w.strip().lower() for item in only for w in item.split(",") if w.strip()]
    return [b for b in benchmarks if any(w in b.name.lower() for w in words)]


def parse_args(argv):
    parser = argparse.ArgumentParser(description="This tree against PyTorch (TORCH_REFERENCE_PYTHON) and numpy.")
    parser.add_argument("--threads", default="1,2", help="comma list of thread counts (default 1,2)")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds per benchmark (default 7)")
    parser.add_argument("--only", action="append", default=[], metavar="SUBSTRING",
                        help="benchmarks whose name contains it (repeatable, or a comma list)")
    parser.add_argument("--json", metavar="PATH", help="write every figure to PATH")
    parser.add_argument("--list", action="store_true", help="print the benchmark names and exit")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    benchmarks = select(BENCHMARKS, args.only)
    if args.list:
        for b in benchmarks:
            print(b.name)
        return 0
    if not benchmarks:
        print(f"no benchmark matches {args.only}", file=sys.stderr)
        return 2
    threads_list = [int(t) for t in args.threads.split(",") if t.strip()]

    import numpy as np
    import torch

    python = os.environ.get("TORCH_REFERENCE_PYTHON")
    ref, ref_info = None, None
    if python:
        ref = Reference(python)
        try:
            ref_info = ref.ask({"cmd": "hello"})
        except WorkerError as e:
            print(f"TORCH_REFERENCE_PYTHON={python}: {e}", file=sys.stderr)
            ref.close()
            return 2
    cores = os.cpu_count()
    mine = f"this tree: torch {torch.__version__}"
    if not torch_inside_repository(torch.__file__):
        mine += f" (imported from {torch.__file__}, not this repository)"
    print(f"{mine}; PyTorch: " + (f"{ref_info['torch']} (python {ref_info['python']}, numpy {ref_info['numpy']})"
                                    if ref_info else "not set (TORCH_REFERENCE_PYTHON)"))
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, {cores} cores, {args.rounds} rounds "
          f"(median per call; ratio = this tree / PyTorch, lower is better)")
    print("torch.set_num_threads sets both torches' threads; numpy's BLAS uses its own threads (all cores)")
    report = {"this_tree": {"torch": torch.__version__, "python": sys.version.split()[0]},
              "pytorch": ref_info, "numpy": np.__version__, "cores": cores, "rounds": args.rounds, "tables": {}}
    start = time.perf_counter()
    try:
        for threads in threads_list:
            print(f"\n{threads} thread{'s' * (threads > 1)}")
            print(table_header())
            rows = []
            monitor = CpuMonitor(lambda: worker_pids(ref))
            for b in benchmarks:
                row = measure_watched(b, threads, args.rounds, torch, np, ref)
                rows.append(row)
                print(format_row(row, ref is not None), flush=True)
            summary = summarize(rows)
            print(format_summary(threads, summary))
            share = monitor.other_share()
            if share is not None:
                print(f"other processes took {share:.0%} of the {cores} cores during this table"
                      + (" (figures disturbed: rerun on an idle machine)" if share > BUSY_SHARE else ""))
            report["tables"][str(threads)] = {"rows": rows, "other_load": share, **summary}
    finally:
        if ref is not None:
            ref.close()
    print(f"\n({time.perf_counter() - start:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker_main()
    else:
        sys.exit(main())
