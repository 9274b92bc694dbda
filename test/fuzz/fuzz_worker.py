# test/fuzz/fuzz_worker.py - the subprocess half of the differential fuzzer: runs rendered calls
# one by one and prints one JSON line per outcome. Inspired by PyTorch's test/test_ops.py (OpInfo
# samples run through one op at a time); guide: docs/source/internals/building.rst (the tests).
#
# It is a standalone script on purpose: the same file runs under this tree's interpreter and
# under a reference PyTorch's (started with -I, so only that venv's torch can be imported), and
# it imports nothing from the repository. A segfault, abort or hang kills only this process; the
# driver sees which call was running because every finished call has already been printed.
import json
import math
import os
import resource
import sys
import warnings

# Cap the address space before torch is imported: a "huge size" call that a kernel does not
# reject must fail to allocate (PyTorch's allocator then raises RuntimeError), not swap the
# machine. No core files either: a crash is expected and reported, not debugged from here.
# Under AddressSanitizer (`make test-asan` preloads its runtime) the address space cannot be
# capped: ASan reserves terabytes of shadow memory up front. There its allocator sets the
# bound instead (ASAN_OPTIONS max_allocation_size_mb, allocator_may_return_null).
_AS_LIMIT = int(os.environ.get("FUZZ_AS_LIMIT", str(6 << 30)))
_UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")
try:
    if not _UNDER_ASAN:
        resource.setrlimit(resource.RLIMIT_AS, (_AS_LIMIT, _AS_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
except (ValueError, OSError):
    pass

import torch  # noqa: E402

try:
    import numpy  # noqa: F401,E402  (only for the numpy round-trip calls)
except ImportError:
    numpy = None

warnings.simplefilter("ignore")

# PyTorch's own exception types: RuntimeError (and its subclasses: NotImplementedError,
# torch.OutOfMemoryError, linalg errors), TypeError, IndexError and ValueError.
PYTORCH_EXCEPTIONS = (RuntimeError, TypeError, IndexError, ValueError)

FULL_VALUES = 4096     # up to this many elements a summary keeps every value
SAMPLE = 64            # beyond it: statistics plus the first SAMPLE values


def _num(v):
    """A JSON-able number: complex as [re, im], bool as int, floats as they are (NaN/inf are
    written as JSON's NaN/Infinity, which Python's json reads back)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, complex):
        return [v.real, v.imag]
    return v


def _flatten(x, out):
    if isinstance(x, (list, tuple)):
        for y in x:
            _flatten(y, out)
    else:
        out.append(x)


def _values(flat):
    """Full values when small; else statistics that tolerate reordering of float sums."""
    flat = [_num(v) for v in flat]
    if len(flat) <= FULL_VALUES:
        return {"vals": flat}
    reals = []
    for v in flat:
        reals.extend(v if isinstance(v, list) else [v])
    finite = [float(v) for v in reals if not (isinstance(v, float) and not math.isfinite(v))]
    return {
        "n": len(flat),
        "head": flat[:SAMPLE],
        "sum": math.fsum(finite),
        "abssum": math.fsum(abs(v) for v in finite),
        "nonfinite": len(reals) - len(finite),
    }


def summarize(x, no_values=False, depth=0):
    """What is compared between interpreters: type, dtype, shape, strides, values."""
    if depth > 4:
        return {"py": type(x).__name__}
    if isinstance(x, torch.Tensor):
        d = {"py": "Tensor", "dtype": str(x.dtype), "shape": list(x.shape)}
        if x.layout != torch.strided:
            d["layout"] = str(x.layout)
            return d
        d["stride"] = list(x.stride())
        if x.requires_grad:
            d["requires_grad"] = True
        if not no_values:
            try:
                flat = []
                _flatten(x.detach().tolist(), flat)
                d.update(_values(flat))
            except BaseException as e:  # the summary itself failed: record, do not die
                d["summary_error"] = "%s: %s" % (type(e).__name__, str(e)[:200])
        return d
    if numpy is not None and isinstance(x, numpy.ndarray):
        flat = []
        _flatten(x.tolist(), flat)
        d = {"py": "ndarray", "dtype": str(x.dtype), "shape": list(x.shape)}
        d.update(_values(flat))
        return d
    if isinstance(x, (bool, int, float, complex)):
        return {"py": type(x).__name__, "v": _num(x)}
    if x is None or isinstance(x, str):
        return {"py": type(x).__name__, "v": x}
    if isinstance(x, (torch.dtype, torch.device, torch.memory_format, torch.layout)):
        return {"py": type(x).__name__, "v": str(x)}
    if isinstance(x, torch.Size):
        return {"py": "Size", "v": list(x)}
    if isinstance(x, (list, tuple)):
        # A list of numbers (tolist()) is kept as values; anything else item by item.
        flat = []
        _flatten(x, flat)
        if all(isinstance(v, (bool, int, float, complex)) for v in flat):
            d = {"py": type(x).__name__, "nested": _nested_shape(x),
                 "leaf": sorted({type(v).__name__ for v in flat})}
            d.update(_values(flat))
            return d
        return {"py": type(x).__name__,
                "items": [summarize(v, no_values, depth + 1) for v in x[:16]]}
    return {"py": type(x).__name__}


def _nested_shape(x):
    shape = []
    while isinstance(x, (list, tuple)):
        shape.append(len(x))
        if not x:
            break
        x = x[0]
    return shape


def _exc(kind, e):
    t = type(e)
    name = t.__qualname__ if t.__module__ == "builtins" else "%s.%s" % (t.__module__, t.__qualname__)
    return {"k": kind, "t": name, "pt": isinstance(e, PYTORCH_EXCEPTIONS), "m": str(e)[:400]}


def run_one(call):
    """call: {"i", "setup", "stmt", "novals", "canon"}; the result of the operation is the variable r."""
    ns = {"torch": torch, "numpy": numpy}
    try:
        exec(call["setup"], ns)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        return _exc("setup", e)
    try:
        exec(call["stmt"], ns)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        return _exc("exc", e)
    if call.get("canon"):
        # Sort-like ops may order tied elements either way: compare x.gather(dim, indices)
        # (the values the indices point at) instead of the indices themselves.
        try:
            ns["r"] = eval(call["canon"], ns)
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            return {"k": "ok", "v": {"py": "canon failed", "v": "%s: %s" % (type(e).__name__, str(e)[:200])}}
    return {"k": "ok", "v": summarize(ns.get("r"), no_values=call.get("novals", False))}


def probe(names):
    """Which of the dotted names (torch.x, torch.nn.functional.x, Tensor.x, dtype names) exist."""
    found = []
    for name in names:
        obj = None
        parts = name.split(".")
        try:
            obj = {"torch": torch, "Tensor": torch.Tensor}[parts[0]]
            for p in parts[1:]:
                obj = getattr(obj, p)
            found.append(name)
        except (KeyError, AttributeError):
            pass
    return found


def main():
    if hasattr(torch, "set_num_threads"):  # one intra-op thread: the jobs share the cores
        torch.set_num_threads(1)
    # The protocol gets its own copy of fd 1; anything else printed (by Python or C++) goes to
    # stderr, so stray output cannot corrupt the JSON lines the driver reads.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    out.write(json.dumps({"hello": torch.__version__, "file": torch.__file__}) + "\n")
    out.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if "probe" in msg:
            res = {"probe": probe(msg["probe"])}
        else:
            res = run_one(msg)
            res["i"] = msg["i"]
        out.write(json.dumps(res) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
