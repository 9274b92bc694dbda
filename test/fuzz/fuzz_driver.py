# test/fuzz/fuzz_driver.py - the parent half of the differential fuzzer: generates calls with
# Hypothesis, runs them in batches in worker subprocesses (this tree's and, optionally, a reference
# PyTorch's), isolates crashes and hangs to single calls, classifies every call, shrinks one
# representative per disagreement group with Hypothesis, and writes the figures and the report.
# Inspired by PyTorch's test/test_ops.py (OpInfo consistency tests); guide:
# docs/source/internals/building.rst (the tests, layer by layer).
#
# This process never imports torch: a broken build can crash the workers, never the driver.
import json
import math
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hseed

import fuzz_ops

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
WORKER = os.path.join(HERE, "fuzz_worker.py")

CHUNK = 200          # calls per Hypothesis run (a shrink replays at most one chunk)
BATCH = 400          # calls per worker subprocess (an interpreter start costs ~2 s)
CALL_TIMEOUT = 20.0  # seconds one call may take before it counts as a hang
START_TIMEOUT = 180.0
START_RETRY_S = 60.0  # how long a worker that fails to import torch is retried (run.py: longer)

# Non-PyTorch exception types that the reference PyTorch 2.13 itself raises, as seen in reference
# runs of this fuzzer (70,000 calls): op -> [(type, message regex)]. With a reference at hand the
# reference decides call by call; without one, these are not counted as bad types.
_SCALAR_OVERFLOW = ("OverflowError", r"^(int too big to convert|can't convert negative int to unsigned)$")
REFERENCE_EXTRA_TYPES = {
    # A Python int that fits neither int64 nor uint64 passed where a Scalar is expected
    # (python_arg_parser). Sizes and dims raise TypeError/ValueError instead, so only these ops.
    **{op: [_SCALAR_OVERFLOW] for op in (
        "torch.full", "torch.full_like", "torch.add", "torch.sub", "torch.mul", "torch.div", "torch.pow",
        "torch.clamp", "torch.masked_fill", "torch.index_add", "torch.scatter", "torch.where", "Tensor.add_", "Tensor.sub_",
        "Tensor.mul_", "Tensor.div_", "Tensor.fill_", "Tensor.clamp", "Tensor.clamp_", "Tensor.index_add",
        "Tensor.index_add_", "Tensor.index_fill", "Tensor.index_fill_", "Tensor.masked_fill",
        "Tensor.masked_fill_", "Tensor.scatter", "Tensor.scatter_")},
    # int(tensor) of inf is Python's own int(float('inf')).
    "builtins.int": [("OverflowError", r"^cannot convert float infinity to integer$")],
    # Python-level asserts in torch/nn/functional.py and torch/cuda/__init__.py.
    "torch.nn.functional.embedding": [("AssertionError", r"^Padding_idx must be within num_embeddings$")],
    "Tensor.to": [("AssertionError", r"^Torch not compiled with CUDA enabled$")],
}

SECTIONS = [
    ("crash", "Crashes (the worker process died: segfault / abort)"),
    ("hang", "Hangs (no answer within the per-call timeout)"),
    ("bad_type", "Non-PyTorch exception types (not RuntimeError/TypeError/IndexError/ValueError, "
                 "and not what the reference raises)"),
    ("silent", "Silent acceptances (the reference raises, this tree returns a value)"),
    ("false_reject", "False rejections (this tree raises, the reference returns a value)"),
    ("type", "Exception-type disagreements (both raise, different types)"),
    ("value", "Value disagreements (both return, different type / dtype / shape / strides / values)"),
    ("ref_crash", "Reference crashes or hangs (for information)"),
]
SECTION_ORDER = {k: i for i, (k, _) in enumerate(SECTIONS)}
SETUP_OP = "(building the arguments)"


# ----------------------------------------------------------------------------------------------
# Workers
# ----------------------------------------------------------------------------------------------

class WorkerDied(Exception):
    def __init__(self, kind, detail):
        super().__init__(kind)
        self.kind, self.detail = kind, detail


class Worker:
    """One interpreter running fuzz_worker.py, answering one call at a time."""

    def __init__(self, python, reference, call_timeout=CALL_TIMEOUT):
        self.python, self.reference, self.call_timeout = python, reference, call_timeout
        env = dict(os.environ)
        env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        if reference:
            # -I: the reference's own site-packages only, never this repository's torch/.
            cmd = [python, "-I", WORKER]
            env.pop("PYTHONPATH", None)
        else:
            cmd = [python, WORKER]
            env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
        # A tree being rebuilt cannot be imported for a while: retry for START_RETRY_S.
        give_up = time.monotonic() + START_RETRY_S
        while True:
            self.tmp = tempfile.TemporaryDirectory(prefix="torchfuzz-")
            self.err = open(os.path.join(self.tmp.name, "stderr"), "w+b")
            self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                      cwd=self.tmp.name, env=env, start_new_session=True)
            self.buf = b""
            try:
                hello = self._read(START_TIMEOUT)
                break
            except WorkerDied as e:
                self.err.close()
                self.tmp.cleanup()
                if time.monotonic() > give_up:
                    raise RuntimeError("%s did not start the fuzz worker: %s" % (python, e.detail)) from None
                time.sleep(10)
        if "hello" not in hello:
            raise RuntimeError("worker did not start: %r" % hello)
        self.torch_file = hello["file"]
        self.version = hello["hello"]

    def _read(self, timeout):
        deadline = time.monotonic() + timeout
        fd = self.p.stdout.fileno()
        while True:
            if b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                try:
                    return json.loads(line)
                except ValueError:
                    continue  # not a protocol line: skip it
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise WorkerDied("hang", "no answer within %.0f s" % timeout)
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    rc = self.p.wait()
                    raise WorkerDied("crash", self._death(rc))
                self.buf += chunk

    def _death(self, rc):
        if rc < 0:
            try:
                how = signal.Signals(-rc).name
            except ValueError:
                how = "signal %d" % -rc
        else:
            how = "exit status %d" % rc
        self.err.flush()
        self.err.seek(0)
        tail = self.err.read().decode("utf-8", "replace").strip().splitlines()[-6:]
        return how + ("; stderr: " + " | ".join(tail) if tail else "")

    def send(self, msg, timeout=None):
        try:
            self.p.stdin.write((json.dumps(msg) + "\n").encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            rc = self.p.wait()
            raise WorkerDied("crash", self._death(rc))
        return self._read(timeout or self.call_timeout)

    def run(self, call):
        setup, stmt = fuzz_ops.render(call)
        return self.send({"i": 0, "setup": setup, "stmt": stmt, "novals": bool(call.get("novals")),
                          "canon": call.get("canon")})

    def kill(self):
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except OSError:
                pass
            self.p.wait()

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
        self.err.close()
        self.tmp.cleanup()


def probe(python, reference):
    w = Worker(python, reference)
    try:
        names = w.send({"probe": fuzz_ops.needed_names()}, timeout=60)["probe"]
        return names, w.version, w.torch_file
    finally:
        w.close()


def run_batch(python, reference, calls, call_timeout=CALL_TIMEOUT):
    """Outcomes of calls, in order, each in a worker that ran the calls before it; a crash or
    hang is recorded for the call that was running and a fresh worker takes the rest."""
    out = []
    w = None
    since = 0  # index of the first call the current worker ran
    for i, call in enumerate(calls):
        if w is None:
            w = Worker(python, reference, call_timeout)
            since = i
        try:
            res = w.run(call)
        except WorkerDied as e:
            res = {"k": e.kind, "m": e.detail, "since": since}
            w.close()
            w = None
        out.append(res)
    if w is not None:
        w.close()
    return out


def run_alone(python, reference, calls, call_timeout=CALL_TIMEOUT):
    """Run calls in one fresh worker; the outcome of the last one (crash/hang included)."""
    return run_batch(python, reference, calls, call_timeout)[-1]


# ----------------------------------------------------------------------------------------------
# Generation (Hypothesis)
# ----------------------------------------------------------------------------------------------

def _settings(n, phases):
    return settings(max_examples=n, phases=phases, database=None, deadline=None, derandomize=False,
                    suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet, report_multiple_bugs=False)


def chunk_seed(seed, chunk):
    return seed * 1000003 + chunk


def chunk_strategy(ctx, seed, chunk):
    # Hypothesis starts every run with its simplest examples; rotating the catalog per chunk
    # spreads those over all ops instead of always the first.
    return fuzz_ops.call_strategy(ctx, offset=(seed * 31 + chunk * 37) % len(ctx.ops))


def collect_chunk(ctx, seed, chunk, n=CHUNK):
    calls = []

    @hseed(chunk_seed(seed, chunk))
    @_settings(n, [Phase.generate])
    @given(chunk_strategy(ctx, seed, chunk))
    def collect(call):
        calls.append(call)
    collect()
    return calls


def generate(ctx, seed, n):
    """n distinct calls (by source); each remembers where Hypothesis made it: (chunk, index)."""
    seen, out, chunk = set(), [], 0
    while len(out) < n:
        for i, call in enumerate(collect_chunk(ctx, seed, chunk)):
            key = fuzz_ops.short(call)
            if key in seen:
                continue
            seen.add(key)
            call["at"] = [chunk, i]
            out.append(call)
            if len(out) == n:
                break
        chunk += 1
    return out


class _Found(Exception):
    pass


def shrink(ctx, seed, call, predicate, budget_s=60.0, max_evals=200):
    """Let Hypothesis shrink a failing call: replay its chunk with the same seed up to the call,
    then let the shrinker look for smaller calls for which predicate(call) still holds.
    Returns the smallest call found (the call itself when nothing smaller fails)."""
    chunk, target = call["at"]
    state = {"i": 0, "found": False, "best": None, "evals": 0, "deadline": time.monotonic() + budget_s}
    cache = {}
    plain = {k: v for k, v in call.items() if k != "at"}

    @hseed(chunk_seed(seed, chunk))
    @_settings(CHUNK, [Phase.generate, Phase.shrink])
    @given(chunk_strategy(ctx, seed, chunk))
    def replay(c):
        i = state["i"]
        state["i"] += 1
        if not state["found"]:
            if i != target or state.get("mismatch"):
                return
            if fuzz_ops.short(c) != fuzz_ops.short(plain):
                # The replay did not rebuild the recorded call (the catalog changed?): give up
                # quietly, every later example passes.
                state["mismatch"] = True
                return
        key = fuzz_ops.short(c)
        if key not in cache:
            if state["evals"] >= max_evals or time.monotonic() > state["deadline"]:
                return
            state["evals"] += 1
            cache[key] = bool(predicate(c))
        if cache[key]:
            state["found"] = True
            state["best"] = c
            raise _Found()

    try:
        replay()
    except _Found:
        pass
    except Exception:  # Hypothesis's own complaints (flaky, ...) must not lose the result
        pass
    best = state["best"]
    if best is None:
        return call, 0
    return best, state["evals"]


# ----------------------------------------------------------------------------------------------
# Classification
# ----------------------------------------------------------------------------------------------

TOL = {"torch.float64": (1e-9, 1e-9), "float64": (1e-9, 1e-9), "torch.complex128": (1e-9, 1e-9),
       "torch.float32": (1e-4, 1e-5), "float32": (1e-4, 1e-5), "torch.complex64": (1e-4, 1e-5),
       "complex64": (1e-4, 1e-5), "torch.float16": (2e-3, 1e-3), "float16": (2e-3, 1e-3),
       "torch.bfloat16": (2e-2, 1e-2)}


def _close(a, b, rtol, atol):
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)):
            return False
        return all(_close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool) or (isinstance(a, int) and isinstance(b, int)):
        return a == b
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def _values_differ(a, b, dtype):
    rtol, atol = TOL.get(dtype, (0.0, 0.0) if dtype and ("int" in dtype or "bool" in dtype) else (1e-5, 1e-6))
    if "vals" in a or "vals" in b:
        if "vals" not in a or "vals" not in b:
            return True
        return not _close(a["vals"], b["vals"], rtol, atol)
    if "n" in a:
        if a.get("n") != b.get("n") or a.get("nonfinite") != b.get("nonfinite"):
            return True
        if not _close(a.get("head"), b.get("head"), rtol, atol):
            return True
        scale = max(a.get("abssum", 0.0), b.get("abssum", 0.0))
        return abs(a.get("sum", 0.0) - b.get("sum", 0.0)) > 1e-3 * scale + atol
    return False


def _strides_differ(a, b):
    # Strides of size-1 dims carry no information; PyTorch itself is free there.
    sa, sb, shape = a.get("stride"), b.get("stride"), a.get("shape", [])
    if sa is None or sb is None or math.prod(shape) <= 1:
        return False
    return any(x != y for x, y, n in zip(sa, sb, shape) if n > 1)


def summary_diff(a, b):
    """None when the two value summaries agree, else the first kind of difference."""
    if a.get("py") != b.get("py"):
        return "python type"
    if a.get("py") in ("Tensor", "ndarray"):
        for key, kind in (("dtype", "dtype"), ("shape", "shape"), ("layout", "layout")):
            if a.get(key) != b.get(key):
                return kind
        if ("summary_error" in a) != ("summary_error" in b):
            return "values"
        if _values_differ(a, b, a.get("dtype")):
            return "values"
        if a.get("requires_grad") != b.get("requires_grad"):
            return "requires_grad"
        if _strides_differ(a, b):
            return "strides"
        return None
    if "items" in a or "items" in b:
        ia, ib = a.get("items", []), b.get("items", [])
        if len(ia) != len(ib):
            return "length"
        for x, y in zip(ia, ib):
            d = summary_diff(x, y)
            if d:
                return d
        return None
    if "nested" in a or "nested" in b:
        if a.get("nested") != b.get("nested") or a.get("leaf") != b.get("leaf"):
            return "shape"
        return "values" if _values_differ(a, b, None) else None
    if "v" in a or "v" in b:
        va, vb = a.get("v"), b.get("v")
        if isinstance(va, (int, float, list)) and isinstance(vb, (int, float, list)) and a.get("py") != "str":
            return None if _close(va, vb, 1e-6, 1e-7) else "values"
        return None if va == vb else "values"
    return None


def is_bad_type(ours, ref, op):
    """An exception type PyTorch does not raise: not one of PyTorch's four, and not what the
    reference raised (or, without a reference, not in REFERENCE_EXTRA_TYPES)."""
    if ours.get("k") not in ("exc", "setup") or ours.get("pt"):
        return False
    if ref is not None:
        return not (ref.get("k") == ours["k"] and ref.get("t") == ours.get("t"))
    return not any(t == ours.get("t") and re.search(m, ours.get("m", ""))
                   for t, m in REFERENCE_EXTRA_TYPES.get(op, ()))


def classify(call, ours, ref):
    """-> (section, detail): section is "agree" or one of SECTIONS' keys."""
    op = call["op"]
    if ours["k"] in ("crash", "hang"):
        return ours["k"], ours.get("m", "")
    if is_bad_type(ours, ref, op):
        return "bad_type", ours["t"]
    if ref is None:
        return "agree", ""
    if ref["k"] in ("crash", "hang"):
        return "ref_crash", ref["k"]
    ok_o, ok_r = ours["k"] == "ok", ref["k"] == "ok"
    if ours["k"] == "setup" or ref["k"] == "setup":
        if ours["k"] == ref["k"] == "setup" and ours["t"] == ref["t"]:
            return "agree", ""
        # Building the arguments already disagreed: blame the argument construction.
        return ("type" if not ok_o and not ok_r else ("silent" if ok_o else "false_reject")), \
            "setup: %s vs %s" % (_what(ours, True), _what(ref, True))
    if ok_o and not ok_r:
        return "silent", ref["t"]
    if ok_r and not ok_o:
        return "false_reject", ours["t"]
    if not ok_o:
        return ("agree", "") if ours["t"] == ref["t"] else ("type", "%s vs %s" % (ours["t"], ref["t"]))
    d = summary_diff(ours["v"], ref["v"])
    return ("value", d) if d else ("agree", "")


def value_diff_note(a, b, where=""):
    """Where two value summaries first differ (for the report), or None."""
    if a.get("py") != b.get("py"):
        return None
    if "items" in a and "items" in b:
        for k, (x, y) in enumerate(zip(a["items"], b["items"])):
            note = value_diff_note(x, y, "%sitem %d: " % (where, k))
            if note:
                return note
        return None
    if "vals" in a and "vals" in b and len(a["vals"]) == len(b["vals"]):
        dtype = a.get("dtype")
        rtol, atol = TOL.get(dtype, (0.0, 0.0) if dtype and ("int" in dtype or "bool" in dtype) else (1e-5, 1e-6))
        bad = [i for i, (x, y) in enumerate(zip(a["vals"], b["vals"])) if not _close(x, y, rtol, atol)]
        if bad:
            i = bad[0]
            return "%s%d of %d values differ; first at flat index %d: ours %s, reference %s" % (
                where, len(bad), len(a["vals"]), i, json.dumps(a["vals"][i]), json.dumps(b["vals"][i]))
    if "sum" in a and "sum" in b and a.get("n") == b.get("n"):
        dtype = a.get("dtype")
        rtol, atol = TOL.get(dtype, (0.0, 0.0) if dtype and ("int" in dtype or "bool" in dtype) else (1e-5, 1e-6))
        for i, (x, y) in enumerate(zip(a.get("head", []), b.get("head", []))):
            if not _close(x, y, rtol, atol):
                return "%sfirst at flat index %d (of %d): ours %s, reference %s" % (
                    where, i, a["n"], json.dumps(x), json.dumps(y))
        return "%spast the first %d of %d values: ours sum %.9g (non-finite %d), reference sum %.9g " \
            "(non-finite %d)" % (where, len(a.get("head", [])), a["n"], a["sum"], a.get("nonfinite", 0),
                                 b["sum"], b.get("nonfinite", 0))
    return None


def _what(res, message=False):
    if res["k"] == "ok":
        return "ok"
    if message and res["k"] == "setup":
        return "%s(%s)" % (res["t"], " ".join(res.get("m", "").split())[:60])
    return res.get("t") or res["k"]


def describe(res, limit=300):
    """One line for a report: the value summary or the exception."""
    if res is None:
        return "-"
    k = res["k"]
    if k in ("crash", "hang"):
        note = "; did not reproduce when re-run" if res.get("flaky") else ""
        return "%s (%s%s)" % (k.upper(), res.get("m", ""), note)
    if k in ("exc", "setup"):
        pre = "while building the arguments: " if k == "setup" else ""
        return ("%s%s: %s" % (pre, res["t"], " ".join(res.get("m", "").split())))[:limit]
    return _vdesc(res["v"])[:limit]


def _vdesc(v):
    py = v.get("py")
    if py in ("Tensor", "ndarray"):
        s = "%s(dtype=%s, shape=%s" % (py, v.get("dtype"), v.get("shape"))
        if v.get("stride") is not None and py == "Tensor":
            s += ", stride=%s" % v["stride"]
        if "vals" in v:
            vals = v["vals"]
            s += ", values=%s" % (json.dumps(vals[:12]) + ("..." if len(vals) > 12 else ""))
        elif "n" in v:
            s += ", sum=%.6g, head=%s..." % (v["sum"], json.dumps(v["head"][:6]))
        if "summary_error" in v:
            s += ", " + v["summary_error"]
        return s + ")"
    if "items" in v:
        return "%s(%s)" % (py, ", ".join(_vdesc(x) for x in v["items"]))
    if "nested" in v:
        return "%s%s %s" % (py, v["nested"], json.dumps(v.get("vals", v.get("head", []))[:12]))
    if "v" in v:
        return "%s %s" % (py, json.dumps(v["v"]))
    return py


# ----------------------------------------------------------------------------------------------
# A whole run
# ----------------------------------------------------------------------------------------------

class Fuzzer:
    def __init__(self, ours=sys.executable, reference=None, jobs=2, seed=0, call_timeout=CALL_TIMEOUT,
                 log=print):
        self.ours, self.reference, self.jobs, self.seed = ours, reference, jobs, seed
        self.call_timeout = call_timeout
        self.log = log
        names, self.our_version, our_file = probe(ours, False)
        self.info = {"ours": "%s (%s)" % (self.our_version, our_file)}
        if reference:
            rnames, ref_version, ref_file = probe(reference, True)
            if os.path.realpath(ref_file).startswith(os.path.realpath(REPO) + os.sep):
                raise RuntimeError("the reference interpreter imported this repository's torch: %s" % ref_file)
            self.info["reference"] = "%s (%s)" % (ref_version, ref_file)
            names = sorted(set(names) & set(rnames))
        self.ctx = fuzz_ops.Ctx(names)
        self.results = []  # (call, ours, ref, section, detail)

    # -- running ------------------------------------------------------------------------------
    def _batch(self, calls):
        ours = run_batch(self.ours, False, calls, self.call_timeout)
        ref = run_batch(self.reference, True, calls, self.call_timeout) if self.reference else [None] * len(calls)
        return ours, ref

    def run(self, n, deadline_s=None):
        t0 = time.monotonic()
        calls = generate(self.ctx, self.seed, n)
        self.gen_s = time.monotonic() - t0
        self.log("generated %d calls over %d ops in %.1f s" % (len(calls), len(self.ctx.ops), self.gen_s))
        batches = [calls[i:i + BATCH] for i in range(0, len(calls), BATCH)]
        lock = threading.Lock()
        done = [0]
        stop = time.monotonic() + deadline_s if deadline_s else None

        def work(batch):
            if stop and time.monotonic() > stop:
                return batch, None, None
            ours, ref = self._batch(batch)
            with lock:
                done[0] += len(batch)
                if done[0] % (BATCH * 10) < len(batch):
                    self.log("  %d/%d calls run (%.0f s)" % (done[0], len(calls), time.monotonic() - t0))
            return batch, ours, ref

        with ThreadPoolExecutor(self.jobs) as ex:
            for batch, ours, ref in ex.map(work, batches):
                if ours is None:
                    continue
                for i, call in enumerate(batch):
                    o, r = self._isolate(batch, i, ours, ref)
                    sec, detail = classify(call, o, r)
                    self.results.append((call, o, r, sec, detail))
        self.run_s = time.monotonic() - t0
        return self.results

    def _isolate(self, batch, i, ours, ref):
        """A crash or hang seen in a batch: run the call alone; if it passes alone, find the
        shortest run of preceding calls that still makes it crash."""
        o, r = ours[i], ref[i]
        for side, res in (("ours", o), ("ref", r)):
            if res is None or res["k"] not in ("crash", "hang"):
                continue
            python, is_ref = (self.reference, True) if side == "ref" else (self.ours, False)
            alone = run_alone(python, is_ref, [batch[i]], self.call_timeout)
            if alone["k"] == res["k"]:
                res = dict(alone, isolated=True)
            else:
                lo, hi = res.get("since", 0), i  # calls[lo..i] crashed; calls[i..i] did not
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if run_alone(python, is_ref, batch[mid:i + 1], self.call_timeout)["k"] == res["k"]:
                        lo = mid
                    else:
                        hi = mid
                prefix = batch[lo:i]
                if run_alone(python, is_ref, batch[lo:i + 1], self.call_timeout)["k"] == res["k"]:
                    # Then drop the calls in between that the crash does not need (greedily).
                    j = len(prefix) - 1  # prefix[0] is needed: the bisection says so
                    while j >= 1 and len(prefix) <= 30:
                        trial = prefix[:j] + prefix[j + 1:]
                        if run_alone(python, is_ref, trial + [batch[i]], self.call_timeout)["k"] == res["k"]:
                            prefix = trial
                        j -= 1
                    res = dict(res, isolated=False, prefix=prefix)
                else:  # not reproducible at all: keep the record, say so
                    res = dict(res, isolated=False, prefix=None, flaky=True)
            if side == "ours":
                o = res
            else:
                r = res
        return o, r

    # -- figures and report -------------------------------------------------------------------
    def figures(self):
        c = Counter(sec for _, _, _, sec, _ in self.results)
        rows = [("calls", len(self.results))]
        if self.reference:
            rows += [("agreements", c["agree"]), ("silent acceptances", c["silent"]),
                     ("false rejections", c["false_reject"]), ("exception-type disagreements", c["type"]),
                     ("value disagreements", c["value"])]
        rows += [("crashes", c["crash"]), ("hangs", c["hang"]), ("non-PyTorch exception types", c["bad_type"])]
        if self.reference:
            rows.append(("reference crashes/hangs", c["ref_crash"]))
        return rows

    def rates(self):
        """The issue's targets as rates: silent acceptances per call, and among the calls where
        both sides raised, how many raised the same exception type."""
        if not self.reference or not self.results:
            return []
        both_raised = same_type = silent = 0
        for _, o, r, sec, _ in self.results:
            silent += sec == "silent"
            if o is not None and r is not None and o.get("k") not in ("ok", None) and r.get("k") not in ("ok", None) \
                    and o["k"] not in ("crash", "hang") and r["k"] not in ("crash", "hang"):
                both_raised += 1
                same_type += o.get("t") == r.get("t")
        rows = [("silent acceptances per call", 100.0 * silent / len(self.results))]
        if both_raised:
            rows.append(("same exception type when both raise (%d calls)" % both_raised, 100.0 * same_type / both_raised))
        return rows

    def figures_table(self):
        rows = self.figures()
        rates = self.rates()
        w = max(len(k) for k, _ in rows + rates)
        return "\n".join(["  %-*s %8d" % (w, k, v) for k, v in rows] + ["  %-*s %7.3f%%" % (w, k, v) for k, v in rates])

    def groups(self):
        """{(section, op, detail): [(call, ours, ref), ...]} in report order."""
        g = defaultdict(list)
        for call, o, r, sec, detail in self.results:
            if sec != "agree":
                key_detail = detail if sec not in ("crash", "hang") else ""
                # Building the arguments failed on one side: one root cause, whatever the op.
                op = SETUP_OP if detail.startswith("setup:") else call["op"]
                g[(sec, op, key_detail)].append((call, o, r))
        return sorted(g.items(), key=lambda kv: (SECTION_ORDER[kv[0][0]], -len(kv[1]), kv[0][1], kv[0][2]))

    def predicate_for(self, key, workers):
        """Whether a call still lands in the group key (for shrinking). Candidates run in
        long-lived workers (an interpreter start costs seconds); a candidate that crashes or
        hangs there is confirmed alone in a fresh one."""
        sec, op, detail = key

        def outcome(side, python, is_ref, call):
            w = workers.get(side)
            if w is None:
                w = workers[side] = Worker(python, is_ref, self.call_timeout)
            try:
                return w.run(call)
            except WorkerDied:
                w.close()
                workers[side] = None
                return run_alone(python, is_ref, [call], self.call_timeout)

        def pred(call):
            if call["op"] != op and op != SETUP_OP:
                return False
            o = outcome("ours", self.ours, False, call)
            r = None
            if self.reference and sec not in ("crash", "hang"):
                r = outcome("ref", self.reference, True, call)
            s, d = classify(call, o, r)
            return s == sec and (sec in ("crash", "hang") or d == detail)
        return pred

    def shrink_groups(self, sections=None, budget_s=40.0, max_groups=None, total_s=None):
        """Hypothesis-shrink the first call of each group (in place: stored as 'shrunk')."""
        self.shrunk = {}
        t0 = time.monotonic()
        n = 0
        for key, items in self.groups():
            if sections and key[0] not in sections:
                continue
            if max_groups is not None and n >= max_groups:
                break
            if total_s is not None and time.monotonic() - t0 > total_s:
                break
            if key[0] in ("crash", "hang") and items[0][1].get("isolated") is False:
                continue  # needs preceding calls: shrinking one call cannot keep it
            n += 1
            call = min(items, key=lambda it: len(fuzz_ops.short(it[0])))[0]
            workers = {}
            try:
                small, evals = shrink(self.ctx, self.seed, call, self.predicate_for(key, workers),
                                      budget_s=budget_s if key[0] != "hang" else 3 * self.call_timeout)
            finally:
                for w in workers.values():
                    if w is not None:
                        w.close()
            if small is not call and len(fuzz_ops.short(small)) < len(fuzz_ops.short(call)):
                o = run_alone(self.ours, False, [small], self.call_timeout)
                r = run_alone(self.reference, True, [small], self.call_timeout) if self.reference else None
                self.shrunk[key] = (small, o, r)
        return self.shrunk

    def report(self, python_ours=".venv/bin/python", python_ref="python", per_group=3):
        lines = []
        lines.append("Torch Anatomy differential fuzz report")
        lines.append("seed %d; this tree: %s" % (self.seed, self.info["ours"]))
        if self.reference:
            lines.append("reference: %s" % self.info["reference"])
        lines.append("Reproducers run from the repository root with this tree's interpreter (%s);"
                     " the same -c text runs under the reference's python." % python_ours)
        lines.append("")
        lines.append(self.figures_table())
        lines.append("")
        groups = self.groups()
        shrunk = getattr(self, "shrunk", {})
        lines.append("Groups (section, op, kind), most frequent first within each section:")
        for (s, op, detail), items in groups:
            lines.append("  %5d  %-13s %-42s %s" % (len(items), s, op, detail[:120]))
        lines.append("")
        for sec, title in SECTIONS:
            sg = [(k, v) for k, v in groups if k[0] == sec]
            if not sg:
                continue
            total = sum(len(v) for _, v in sg)
            lines.append("=" * 100)
            lines.append("%s: %d calls in %d groups" % (title, total, len(sg)))
            lines.append("=" * 100)
            for (s, op, detail), items in sg:
                lines.append("")
                lines.append("--- %s  [%s]%s  x%d" % (op, s, ("  " + detail) if detail else "", len(items)))
                shown = []
                if (s, op, detail) in shrunk:
                    shown.append(("shrunk by Hypothesis",) + shrunk[(s, op, detail)])
                for it in sorted(items, key=lambda it: len(fuzz_ops.short(it[0])))[:per_group]:
                    shown.append(("example",) + it)
                for label, call, o, r in shown:
                    lines.append("  %s:" % label)
                    prefix = o.get("prefix") if o else None
                    if prefix:
                        lines.append("    (crashes only after these preceding calls, in one process)")
                        lines.append("    " + _multi_liner(prefix + [call], python_ours))
                    else:
                        lines.append("    " + fuzz_ops.one_liner(call, python_ours))
                    lines.append("    ours:      " + describe(o))
                    if self.reference:
                        lines.append("    reference: " + describe(r))
                    if s == "value" and o and r and o.get("k") == r.get("k") == "ok":
                        note = value_diff_note(o["v"], r["v"])
                        if note:
                            lines.append("    differs:   " + note)
        if groups:
            lines.append("")
            lines.append("=" * 100)
            lines.append("Every non-agreeing call, by group (ours | reference)")
            lines.append("=" * 100)
            for (s, op, detail), items in groups:
                lines.append("")
                lines.append("--- %s  [%s]%s  x%d" % (op, s, ("  " + detail) if detail else "", len(items)))
                for call, o, r in items:
                    lines.append("  " + fuzz_ops.one_liner(call, python_ours))
                    lines.append("      %s | %s" % (describe(o, 150), describe(r, 150) if self.reference else "-"))
        return "\n".join(lines) + "\n"


def _multi_liner(calls, python):
    parts = ["import torch"]
    for c in calls:
        setup, stmt = fuzz_ops.render(c)
        parts += [p for p in (setup, stmt) if p]
    parts.append("print(r)")
    return '%s -c "%s"' % (python, "; ".join(parts))
