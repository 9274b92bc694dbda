# test/fuzz/fuzz_ops.py - the call generator of the differential fuzzer: a catalog of public
# torch calls (factories, views, indexing, in-place, reductions, matmul, nn.functional,
# conversions) whose arguments Hypothesis draws, and the renderer that turns a call (pure data)
# into Python source. Inspired by PyTorch's OpInfo sample inputs (torch/testing/_internal/
# common_methods_invocations.py, used by test/test_ops.py); guide: docs/source/internals/building.rst.
#
# A call is JSON data, {"op", "form", "args", "kwargs", ...}; render() makes the source that both
# interpreters execute and that the report prints, so a reproducer is exactly what ran. Every
# choice is a Hypothesis draw (sampled_from lists put the ordinary choice first), so a failing
# call shrinks towards small shapes, contiguous float32 tensors and in-range arguments.
import math
import random

from hypothesis import strategies as st

NAN, INF = float("nan"), float("inf")

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]
ALL_DTYPES = FLOATS + INTS + ["bool", "complex64"]
INT_RANGE = {"int64": (-2**63, 2**63 - 1), "int32": (-2**31, 2**31 - 1), "int16": (-2**15, 2**15 - 1),
             "int8": (-128, 127), "uint8": (0, 255), "bool": (0, 1)}

# Arguments that must be rejected (or saturate) rather than crash or allocate: sizes that are
# negative or do not fit in memory / int64, and scalars that do not fit the tensor's dtype.
HUGE_SIZES = [-1, 2**62, 2**40, 2**63 - 1, 2**63, -7, 2**64, -2**63]
BAD_SCALARS = [1e308, INF, NAN, -INF, 2**63, 2**64, -2**63 - 1, 2**62, 300, -129, 1j, True, -1e308]
SPECIAL_FLOATS = [NAN, INF, -INF, -0.0, 1e308, 3.5e38, 1e-45, 5e-324, 65520.0, 1e20, -1e20, 0.5]
BAD_DIMS = ["ndim", "-ndim-1", 2**62, 64, -2**63]

LITERAL_MAX = 48       # tensors up to this many elements are written out as literals
BIG_NUMEL = 1 << 16    # the "big" tensors (vectorised / parallel paths) stay under 1 MiB


# ----------------------------------------------------------------------------------------------
# Rendering: data -> Python source
# ----------------------------------------------------------------------------------------------

def lit(v):
    """A Python literal for a number that round-trips (nan/inf are not literals)."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return repr(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "float('nan')"
        if math.isinf(v):
            return "float('inf')" if v > 0 else "-float('inf')"
        return repr(v)
    if isinstance(v, complex):
        return "complex(%s, %s)" % (lit(v.real), lit(v.imag))
    return repr(v)


def _nested(flat, shape):
    if not shape:
        return lit(flat[0])
    step = len(flat) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nested(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def _values(spec, n):
    """Deterministic element values from the spec's value kind and seed (pure Python)."""
    rnd = random.Random(spec["seed"])
    dt, kind = spec["dtype"], spec["vals"]
    if kind == "idx":
        return [rnd.randint(spec["lo"], spec["hi"]) for _ in range(n)]
    if dt == "bool":
        return [rnd.random() < 0.5 for _ in range(n)]
    if dt in INT_RANGE:
        lo, hi = INT_RANGE[dt]
        if kind == "special":
            return [rnd.choice([lo, hi, 0, -1 if lo < 0 else 1, 1]) for _ in range(n)]
        if kind == "wide":
            return [rnd.randint(max(lo, -10**6), min(hi, 10**6)) for _ in range(n)]
        if kind == "pos":
            return [rnd.randint(1, 9) for _ in range(n)]
        return [rnd.randint(max(lo, -5), min(hi, 10 if lo == 0 else 5)) for _ in range(n)]

    def one():
        if kind == "frac":
            return rnd.randint(-16, 16) / 4
        if kind == "pos":
            return rnd.randint(1, 15) / 16
        if kind == "wide":
            return float("%.3g" % rnd.uniform(-1e4, 1e4))
        if kind == "special":
            return rnd.choice(SPECIAL_FLOATS + [1.0, -2.0])
        return float(rnd.randint(-5, 5))
    if dt.startswith("complex"):
        return [complex(one(), one()) for _ in range(n)]
    return [one() for _ in range(n)]


def _base(spec):
    """The shape the tensor is built with before its layout view is applied, and that view."""
    s, lay = list(spec["shape"]), spec["layout"]
    if lay == "T":
        return s[:-2] + [s[-1], s[-2]], ".transpose(-2, -1)"
    if lay == "perm":
        p = spec["perm"]
        inv = [0] * len(p)
        for j, pj in enumerate(p):
            inv[pj] = j
        return [s[pj] for pj in p], ".permute(%s)" % ", ".join(map(str, inv))
    if lay in ("step", "offset"):
        d = spec["d"]
        b = list(s)
        b[d] = 2 * s[d] if lay == "step" else s[d] + 1
        return b, "[%s%s]" % (":, " * d, "::2" if lay == "step" else "1:")
    if lay == "expand":
        b = [1 if m else n for n, m in zip(s, spec["m"])]
        return b, ".expand(%s)" % ", ".join(map(str, s)) if s else ""
    if lay == "cl":
        return s, ".contiguous(memory_format=torch.channels_last)"
    return s, ""


def storage_numel(spec):
    return math.prod(_base(spec)[0])


def render_tensor(spec):
    base, view = _base(spec)
    dt = "torch." + spec["dtype"]
    n = math.prod(base)
    if n == 0:
        src = "torch.zeros(%s, dtype=%s)" % (_tuple_src(base), dt)
    elif n > LITERAL_MAX:
        # A ramp rather than a literal: a reproducer line stays short for big tensors.
        if spec["vals"] == "idx":
            src = "torch.arange(%d).remainder(%d).add(%d)" % (n, spec["hi"] - spec["lo"] + 1, spec["lo"])
            if spec["dtype"] != "int64":
                src += ".to(%s)" % dt
        elif spec["dtype"] in ("bool", "uint8"):
            src = "torch.arange(%d).remainder(%d).to(%s)" % (n, 2 if spec["dtype"] == "bool" else 13, dt)
        elif spec["dtype"] in INT_RANGE:
            src = "torch.arange(%d).remainder(13).sub(6).to(%s)" % (n, dt)
        elif spec["vals"] == "pos":
            src = "torch.arange(%d, dtype=torch.float64).remainder(15).add(1).div(16).to(%s)" % (n, dt)
        else:
            src = "torch.arange(%d, dtype=torch.float64).remainder(13).sub(6).div(4).to(%s)" % (n, dt)
        src += ".reshape(%s)" % _tuple_src(base)
    else:
        flat = _values(spec, n)
        src = "torch.tensor(%s, dtype=%s)" % (_nested(flat, base), dt)
    src += view
    if spec.get("rg"):
        src += ".requires_grad_()"
    return src


def _tuple_src(items):
    items = [str(i) for i in items]
    return "(%s,)" % items[0] if len(items) == 1 else "(%s)" % ", ".join(items)


class _Names:
    def __init__(self):
        self.setup = []
        self.count = 0
        self.gen = False

    def tensor(self, spec):
        name = "x%d" % self.count
        self.count += 1
        self.setup.append("%s = %s" % (name, render_tensor(spec)))
        return name


def _src(a, names, index=False):
    if isinstance(a, dict):
        if "tensor" in a:
            return names.tensor(a["tensor"])
        if "ref" in a:
            return "x%d%s" % (a["ref"], a.get("sfx", ""))
        if "dtype" in a:
            return "torch." + a["dtype"]
        if "mf" in a:
            return "torch." + a["mf"]
        if "gen" in a:
            if not names.gen:
                names.setup.append("g = torch.Generator().manual_seed(%d)" % a["gen"])
                names.gen = True
            return "g"
        if "tuple" in a:
            items = [_src(x, names) for x in a["tuple"]]
            return "(%s,)" % items[0] if len(items) == 1 else "(%s)" % ", ".join(items)
        if "list" in a:
            return "[%s]" % ", ".join(_src(x, names) for x in a["list"])
        if "slice" in a:
            parts = ["" if p is None else lit(p) for p in a["slice"]]
            if index:
                return ":".join(parts[:2]) if parts[2] == "" else ":".join(parts)
            return "slice(%s)" % ", ".join("None" if p == "" else p for p in parts)
        if "ellipsis" in a:
            return "..."
        if "complex" in a:
            return lit(complex(*a["complex"]))
        raise ValueError("unknown argument %r" % (a,))
    if isinstance(a, list):  # a plain list argument, e.g. sizes
        return "[%s]" % ", ".join(_src(x, names) for x in a)
    return lit(a)


def render(call):
    """-> (setup source, statement source). The statement leaves the result in r."""
    names = _Names()
    if call.get("global_rng"):
        names.setup.append("torch.manual_seed(0)")  # fresh processes seed the global RNG randomly
    for spec in call.get("decl", []):
        names.tensor(spec)
    args = [_src(a, names) for a in call["args"]]
    kwargs = ["%s=%s" % (k, _src(v, names)) for k, v in call.get("kwargs", {}).items()]
    form, op = call["form"], call["op"]
    if form == "func":
        stmt = "r = %s(%s)" % (op, ", ".join(args + kwargs))
    elif form == "method":
        stmt = "r = %s.%s(%s)" % (args[0], op.split(".", 1)[1], ", ".join(args[1:] + kwargs))
    elif form in ("getitem", "setitem"):
        idx = call["index"]
        comps = [_src(c, names, index=True) for c in idx]
        sub = comps[0] if call.get("single") else (", ".join(comps) + ("," if len(comps) == 1 else ""))
        if not comps:
            sub = "()"
        if form == "getitem":
            stmt = "r = %s[%s]" % (args[0], sub)
        else:
            stmt = "%s[%s] = %s; r = %s" % (args[0], sub, args[1], args[0])
    elif form == "tmpl":
        stmt = "r = " + call["tmpl"].format(*args)
    else:
        raise ValueError(form)
    return "; ".join(names.setup), stmt


def one_liner(call, python="python"):
    setup, stmt = render(call)
    body = "; ".join(p for p in ["import torch", setup, stmt, "print(r)"] if p)
    return '%s -c "%s"' % (python, body)


def short(call):
    """The call's source without the shell wrapper (for pytest messages)."""
    setup, stmt = render(call)
    return "; ".join(p for p in [setup, stmt] if p)


# ----------------------------------------------------------------------------------------------
# Drawing: Hypothesis -> data
# ----------------------------------------------------------------------------------------------

def T(spec):
    return {"tensor": spec}


def tup(*items):
    return {"tuple": list(items)}


def ref(k, sfx=""):
    return {"ref": k, "sfx": sfx}


def DT(name):
    return {"dtype": name}


def C(op, *args, form=None, **kwargs):
    """A call as data. op is the public name ("torch.sum", "Tensor.add_"); extra keys (decl,
    index, tmpl, novals, needs) go in via the keyword arguments that start with an underscore."""
    meta = {k[1:]: kwargs.pop(k) for k in list(kwargs) if k.startswith("_")}
    if form is None:
        form = "method" if op.startswith("Tensor.") else "func"
    call = {"op": op, "form": form, "args": list(args), "kwargs": kwargs}
    call.update(meta)
    return call


class G:
    """Draw helpers; every choice goes through Hypothesis's draw so that it shrinks."""

    def __init__(self, draw, ctx):
        self.draw = draw
        self.ctx = ctx

    # -- primitive choices -------------------------------------------------------------------
    def int(self, lo, hi):
        return self.draw(st.integers(lo, hi))

    def pick(self, seq):
        return self.draw(st.sampled_from(seq))

    def flag(self):
        return self.draw(st.booleans())

    def bad(self, one_in=5):
        """Whether to make this argument a bad one (shrinks to False)."""
        return self.int(0, one_in - 1) == one_in - 1

    def rare(self):
        return self.int(0, 11) == 11

    def maybe(self, value, default=None):
        """Either the value or the default (kwargs left out shrink towards left out)."""
        return value if self.flag() else default

    # -- dtypes, shapes, tensors --------------------------------------------------------------
    def dtype(self, pool=None):
        pool = [d for d in (pool or ALL_DTYPES) if d in self.ctx.dtypes]
        return self.pick(pool)

    def shape(self, ndim=None, min_ndim=0, max_ndim=4, max_dim=5, empty=True, big=True):
        if ndim is None:
            ndim = self.int(min_ndim, max_ndim)
        if ndim and big and self.rare():
            # Big: past the vectorised loops' tails and the parallel grain size.
            big = [self.pick([64, 33, 17, 128, 9]) for _ in range(min(ndim, 3))]
            while math.prod(big) > BIG_NUMEL:
                big[0] = max(1, big[0] // 2)
            return big + [1] * (ndim - len(big))
        s = [self.int(1, min(max_dim, 5)) for _ in range(ndim)]
        if empty and ndim and self.rare():
            s[self.int(0, ndim - 1)] = 0
        return s

    def vals(self, dtype):
        return self.pick(["small", "frac", "pos", "wide", "special"])

    def tensor(self, shape=None, dtype=None, dtypes=None, vals=None, layout=True, rg=False, **shape_kw):
        if dtype is None:
            dtype = self.dtype(dtypes)
        if shape is None:
            shape = self.shape(**shape_kw)
        spec = {"dtype": dtype, "shape": list(shape), "layout": "contig",
                "vals": vals if vals is not None else self.vals(dtype), "seed": self.int(0, 2**16)}
        nd = len(shape)
        if layout and nd:
            lay = self.pick(["contig", "T", "step", "expand", "offset", "perm", "cl"])
            if lay == "T" and nd >= 2:
                spec["layout"] = "T"
            elif lay == "perm" and nd >= 3:
                spec["layout"] = "perm"
                spec["perm"] = self.draw(st.permutations(list(range(nd))))
            elif lay in ("step", "offset"):
                spec["layout"] = lay
                spec["d"] = self.int(0, nd - 1)
            elif lay == "expand":
                spec["layout"] = "expand"
                spec["m"] = [self.flag() for _ in range(nd)]
            elif lay == "cl" and nd == 4:
                spec["layout"] = "cl"
        if rg and dtype in FLOATS[:2] and spec["layout"] == "contig" and self.rare():
            spec["rg"] = True  # a leaf that requires grad: in-place ops on it must raise
        return T(spec)

    def index_tensor(self, lo, hi, shape=None, dtype="int64", bad_dtype=True, **shape_kw):
        if bad_dtype and self.bad(8):
            dtype = self.pick(["int32", "float32", "uint8", "bool", "int16"])
        spec = self.tensor(shape=shape, dtype=dtype, vals="idx", **shape_kw)
        spec["tensor"]["lo"], spec["tensor"]["hi"] = lo, hi
        return spec

    # -- arguments ----------------------------------------------------------------------------
    def dim(self, ndim, bad=True):
        if bad and self.bad(8):
            d = self.pick(BAD_DIMS)
            return ndim if d == "ndim" else (-ndim - 1 if d == "-ndim-1" else d)
        n = max(ndim, 1)
        return self.int(-n, n - 1)

    def sizes(self, max_ndim=4, bad=True, max_dim=6):
        s = self.shape(min_ndim=0, max_ndim=max_ndim, max_dim=max_dim)
        if bad and self.bad(6):
            kind = self.pick(["huge", "float", "overflow"])
            if kind == "huge" or not s:
                s = s + [self.pick(HUGE_SIZES)]
            elif kind == "float":
                s[self.int(0, len(s) - 1)] = 2.5
            else:
                s = [2**31, 2**31, 2**31] + s  # the product overflows int64
        return s

    def size_args(self, bad=True):
        """Sizes the way factories take them: varargs, a tuple or a list."""
        s = self.sizes(bad=bad)
        form = self.pick(["varargs", "tuple", "list"])
        if form == "varargs" and s:
            return s
        return [tup(*s)] if form == "tuple" else [list(s)]

    def scalar(self, dtype, bad=True):
        if bad and self.bad(6):
            v = self.pick(BAD_SCALARS)
            return {"complex": [0.0, 1.0]} if isinstance(v, complex) else v
        if dtype == "bool":
            return self.flag()
        if dtype in INT_RANGE:
            return self.int(-3, 5)
        return self.pick([1.5, -2.0, 0.0, 3, 0.25, -0.5, 2])

    def gen(self):
        return {"gen": self.int(0, 1000)}

    def dtype_kw(self, pool=None, bad_pool=None):
        if self.flag():
            return {}
        if bad_pool and self.bad(5):
            return {"dtype": DT(self.dtype(bad_pool))}
        return {"dtype": DT(self.dtype(pool))}

    def broadcastable(self, shape):
        """A shape that broadcasts with shape (some dims 1, maybe fewer dims)."""
        drop = self.int(0, len(shape)) if shape else 0
        s = list(shape[drop:])
        return [1 if (d and self.flag()) else d for d in s]


# ----------------------------------------------------------------------------------------------
# The catalog: one drawing function per op (or family of ops sharing an argument pattern)
# ----------------------------------------------------------------------------------------------

CATALOG = []   # [(name, needs, fn)]


def op(*names, needs=()):
    def deco(fn):
        for n in names:
            CATALOG.append((n, tuple(needs) + (n,), fn))
        return fn
    return deco


# -- factories ---------------------------------------------------------------------------------

@op("torch.empty", "torch.zeros", "torch.ones")
def _factory(g, name):
    kw = g.dtype_kw(ALL_DTYPES)
    if g.rare():
        kw["memory_format"] = {"mf": g.pick(["contiguous_format", "channels_last", "preserve_format"])}
    return C(name, *g.size_args(), _novals=name == "torch.empty", **kw)


@op("torch.full")
def _full(g, name):
    dtype = g.dtype(ALL_DTYPES)
    kw = {} if g.flag() else {"dtype": DT(dtype)}
    return C(name, tup(*g.sizes()), g.scalar(dtype), **kw)


@op("torch.arange")
def _arange(g, name):
    if g.bad(4):
        end = g.pick([2**62, INF, NAN, 1e308, 2**63 - 1, -2**63, 1e20, 2**40])
        start, step = g.pick([0, -1, 0.5]), g.pick([1, 0, 0.5, -1, 1e-20])
        args = [start, end, step]
    else:
        start = g.int(-20, 20)
        end = start + g.int(-5, 100)
        step = g.pick([1, 2, 0.5, 3, -1, 0.25, -2])
        args = [end] if g.flag() else ([start, end] if g.flag() else [start, end, step])
        if g.flag():
            args = [a + 0.5 if isinstance(a, int) else a for a in args]
    return C(name, *args, **g.dtype_kw(FLOATS + INTS, bad_pool=["bool", "complex64"]))


@op("torch.linspace")
def _linspace(g, name):
    start, end = g.pick([0, -1.5, 2, 10, -3]), g.pick([1, 5.5, -2, 100, 0])
    steps = g.pick([5, 1, 0, 2, 17, 100])
    if g.bad(5):
        pick = g.pick(["steps", "start", "end"])
        if pick == "steps":
            steps = g.pick([-1, 2**62, 2**40, 2.5])
        elif pick == "start":
            start = g.pick([NAN, INF, 1e308])
        else:
            end = g.pick([-INF, NAN, 1e308])
    return C(name, start, end, steps, **g.dtype_kw(FLOATS + INTS, bad_pool=["bool"]))


@op("torch.eye")
def _eye(g, name):
    n = g.int(0, 9) if not g.bad(6) else g.pick(HUGE_SIZES)
    args = [n] if g.flag() else [n, g.int(0, 9) if not g.bad(8) else g.pick(HUGE_SIZES)]
    return C(name, *args, **g.dtype_kw(ALL_DTYPES))


@op("torch.rand", "torch.randn")
def _rand(g, name):
    kw = {"generator": g.gen()} if not g.rare() else {}
    kw.update(g.dtype_kw(FLOATS, bad_pool=INTS + ["bool"]))
    return C(name, *g.size_args(), _global_rng="generator" not in kw, **kw)


@op("torch.randint")
def _randint(g, name):
    low = g.int(-10, 10)
    high = low + g.int(1, 20) if not g.bad(6) else g.pick([low, low - 5, 2**63, 2**64])
    kw = {"generator": g.gen()}
    kw.update(g.dtype_kw(INTS + FLOATS, bad_pool=["bool"]))
    return C(name, low, high, tup(*g.sizes()), **kw)


@op("torch.randperm")
def _randperm(g, name):
    n = g.int(0, 50) if not g.bad(6) else g.pick(HUGE_SIZES + [3000])
    kw = {"generator": g.gen()}
    kw.update(g.dtype_kw(["int64", "int32", "float32", "float64", "int16", "float16", "uint8"],
                         bad_pool=["bool", "int8"]))
    return C(name, n, **kw)


@op("torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.rand_like", "torch.randn_like")
def _like(g, name):
    x = g.tensor(rg=True)
    kw = g.dtype_kw(FLOATS if "rand" in name else ALL_DTYPES,
                    bad_pool=INTS if "rand" in name else None)
    if g.flag():
        kw["memory_format"] = {"mf": g.pick(["preserve_format", "contiguous_format", "channels_last"])}
    return C(name, x, _novals=name == "torch.empty_like", _global_rng="rand" in name, **kw)


@op("torch.full_like")
def _full_like(g, name):
    x = g.tensor()
    return C(name, x, g.scalar(x["tensor"]["dtype"]), **g.dtype_kw(ALL_DTYPES))


def _data_literal(g, depth=0):
    """Nested Python data for torch.tensor(): regular, ragged, mixed or un-convertible."""
    kind = g.pick(["int", "float", "bool", "mixed", "special", "bad"]) if depth == 0 else "int"
    if g.flag() and depth == 0:
        return g.scalar("float64")  # a 0-d tensor from a Python scalar
    shape = g.shape(min_ndim=1, max_ndim=3, max_dim=4, empty=True, big=False)
    n = math.prod(shape)
    rnd = random.Random(g.int(0, 1000))
    pools = {"int": lambda: rnd.randint(-5, 5), "float": lambda: rnd.randint(-8, 8) / 4,
             "bool": lambda: rnd.random() < 0.5,
             "mixed": lambda: rnd.choice([1, 2.5, True, -3, 0.0]),
             "special": lambda: rnd.choice([NAN, INF, 1e308, 2**63 - 1, -2**63, 1e-320]),
             "bad": lambda: rnd.choice([2**63, 2**64, -2**63 - 1, 1, 0.5])}
    flat = [pools[kind]() for _ in range(n)]

    def build(flat, shape):
        if not shape:
            return flat[0]
        step = len(flat) // shape[0] if shape[0] else 0
        return [build(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]
    data = build(flat, shape)
    if kind == "bad" and g.flag() and isinstance(data, list) and data:
        data = data + [[1, 2, 3]] if isinstance(data[0], list) else data + [[1]]  # ragged
    return {"list": data} if isinstance(data, list) else data


@op("torch.tensor")
def _tensor(g, name):
    data = _data_literal(g)
    return C(name, data, **g.dtype_kw(ALL_DTYPES))


# -- views ---------------------------------------------------------------------------------------

def _reshape_target(g, shape):
    n = math.prod(shape)
    if g.bad(5):
        return g.pick([[n + 1], [-1, -1], [n, 2] if n else [3], [-2], [2**62, 0], [0, -1]])
    # A factorisation of n, possibly with one -1.
    if n == 0:
        return g.pick([[0], [0, 3], [3, 0], [0, -1]])
    facs, m = [], n
    for p in (2, 3, 5, 7):
        while m % p == 0 and g.flag():
            facs.append(p)
            m //= p
    facs.append(m)
    if g.flag() and len(facs) > 1:
        facs[g.int(0, len(facs) - 1)] = -1
    if g.flag():
        facs.insert(g.int(0, len(facs)), 1)
    return facs


@op("Tensor.view", "Tensor.reshape", "torch.reshape")
def _view(g, name):
    x = g.tensor(rg=True)
    s = x["tensor"]["shape"]
    if name == "Tensor.view" and g.rare():
        return C(name, x, DT(g.dtype()))  # view(dtype): element-size rules
    tgt = _reshape_target(g, s)
    if name == "torch.reshape":
        return C(name, x, tup(*tgt))
    return C(name, x, *tgt) if g.flag() and tgt else C(name, x, tup(*tgt))


@op("Tensor.permute", "torch.permute")
def _permute(g, name):
    x = g.tensor()
    nd = len(x["tensor"]["shape"])
    p = list(g.draw(st.permutations(list(range(nd)))))
    if p and g.flag():
        p[0] -= nd  # negative dims are allowed
    if g.bad(5):
        p = g.pick([p + [0], p[:-1], [0] * max(nd, 2), p[:-1] + [nd]])
    if name == "torch.permute":
        return C(name, x, tup(*p))
    return C(name, x, *p) if p and g.flag() else C(name, x, tup(*p))


@op("Tensor.transpose", "torch.transpose")
def _transpose(g, name):
    x = g.tensor()
    nd = len(x["tensor"]["shape"])
    return C(name, x, g.dim(nd), g.dim(nd))


@op("Tensor.t")
def _t(g, name):
    return C(name, g.tensor(max_ndim=3))


@op("torch.movedim", "Tensor.movedim")
def _movedim(g, name):
    x = g.tensor()
    nd = len(x["tensor"]["shape"])
    if g.flag():
        return C(name, x, g.dim(nd), g.dim(nd))
    k = g.int(0, nd)
    src = list(g.draw(st.permutations(list(range(nd)))))[:k]
    dst = list(g.draw(st.permutations(list(range(nd)))))[:k]
    if g.bad(5):
        dst = dst + [0]
    return C(name, x, tup(*src), tup(*dst))


@op("Tensor.squeeze", "Tensor.unsqueeze", "torch.squeeze", "torch.unsqueeze")
def _squeeze(g, name):
    x = g.tensor(shape=None if g.flag() else [g.pick([1, 2, 1]) for _ in range(g.int(0, 4))])
    nd = len(x["tensor"]["shape"])
    if "unsqueeze" in name:
        d = g.int(-nd - 1, nd) if not g.bad(6) else g.pick([nd + 1, -nd - 2, 2**62])
        return C(name, x, d)
    if g.flag():
        return C(name, x)
    if g.flag() and nd:
        return C(name, x, tup(*sorted({g.dim(nd, bad=False) for _ in range(g.int(1, 2))})))
    return C(name, x, g.dim(nd))


@op("Tensor.expand")
def _expand(g, name):
    s = [g.pick([1, 3, 2, 0]) for _ in range(g.int(0, 3))]
    x = g.tensor(shape=s)
    tgt = [(g.int(1, 4) if d == 1 else (-1 if g.flag() else d)) for d in s]
    tgt = [g.int(1, 3) for _ in range(g.int(0, 2))] + tgt
    if g.bad(5):
        tgt = g.pick([tgt[:-1] if tgt else [2], [t + 1 if t > 1 else t for t in tgt] + [5] * (not tgt),
                      [-1] + tgt, [2**62] + tgt, [-2] + tgt])
    return C(name, x, *tgt) if tgt and g.flag() else C(name, x, tup(*tgt))


@op("Tensor.narrow", "torch.narrow")
def _narrow(g, name):
    x = g.tensor(min_ndim=1)
    s = x["tensor"]["shape"]
    d = g.dim(len(s))
    size = s[d] if -len(s) <= d < len(s) else 3
    start = g.int(-size, size) if size else 0
    length = g.int(0, max(size - (start % size if size else 0), 0))
    if g.bad(5):
        start, length = g.pick([(size + 1, 0), (0, size + 1), (-size - 1, 1), (1, -1), (2**62, 1)])
    return C(name, x, d, start, length)


@op("Tensor.select", "torch.select")
def _select(g, name):
    x = g.tensor(min_ndim=1)
    s = x["tensor"]["shape"]
    d = g.dim(len(s))
    size = s[d] if -len(s) <= d < len(s) else 3
    i = g.int(-size, size - 1) if size and not g.bad(5) else g.pick([size, -size - 1, 2**62, 0])
    return C(name, x, d, i)


@op("Tensor.unfold")
def _unfold(g, name):
    x = g.tensor()
    s = x["tensor"]["shape"]
    d = g.dim(len(s))
    size = (s[d] if -len(s) <= d < len(s) else 1) if s else 1
    k = g.int(0, size + 1) if not g.bad(6) else g.pick([-1, 2**62])
    step = g.int(1, 3) if not g.bad(6) else g.pick([0, -1])
    return C(name, x, d, k, step)


@op("torch.as_strided", "Tensor.as_strided")
def _as_strided(g, name):
    x = g.tensor()
    n = storage_numel(x["tensor"])
    nd = g.int(0, 3)
    size = [g.int(0 if g.rare() else 1, 4) for _ in range(nd)]
    stride = [g.int(0, 3) for _ in range(nd)]
    span = sum((a - 1) * b for a, b in zip(size, stride) if a) if all(size) else 0
    off = g.int(0, max(n - 1 - span, 0))
    if g.bad(4):
        kind = g.pick(["oob", "negstride", "negoff", "negsize", "huge"])
        if kind == "oob":
            off = n
        elif kind == "negstride" and nd:
            stride[0] = -1
        elif kind == "negoff":
            off = -1
        elif kind == "negsize" and nd:
            size[0] = -1
        else:
            size, stride = [2**31, 2**31], [2**31, 1]
    args = [x, tup(*size), tup(*stride)]
    if off or g.flag():
        args.append(off)
    return C(name, *args)


@op("torch.flatten", "Tensor.flatten")
def _flatten(g, name):
    x = g.tensor()
    nd = len(x["tensor"]["shape"])
    args = [x]
    if g.flag():
        args.append(g.dim(nd))
        if g.flag():
            args.append(g.dim(nd))
    return C(name, *args)


@op("torch.split", "torch.chunk")
def _split(g, name):
    x = g.tensor(min_ndim=1)
    s = x["tensor"]["shape"]
    d = g.dim(len(s))
    if name == "torch.chunk":
        k = g.int(1, 4) if not g.bad(6) else g.pick([0, -1])
    elif g.flag():
        k = g.int(1, 4) if not g.bad(6) else g.pick([0, -1])
    else:
        size = s[d] if -len(s) <= d < len(s) else 2
        parts = []
        while sum(parts) < size:
            parts.append(g.int(0, size - sum(parts)) or 1)
        if g.bad(5):
            parts.append(1)
        k = {"list": parts}
    return C(name, x, k, d)


@op("torch.cat", "torch.stack")
def _cat(g, name):
    base = g.shape(min_ndim=1, max_ndim=3)
    nt = g.int(1, 3)
    d = g.dim(len(base) + (name == "torch.stack"))
    dt = g.dtype(FLOATS + INTS)
    xs = []
    for _ in range(nt):
        s = list(base)
        if name == "torch.cat" and -len(s) <= d < len(s) and g.flag():
            s[d] = g.int(0, 4)
        if g.bad(8):
            s = s + [2] if g.flag() else [v + 1 for v in s]
        xs.append(g.tensor(shape=s, dtype=dt if g.int(0, 3) else g.dtype(FLOATS + INTS)))
    if g.rare():
        xs = []
    return C(name, {"list": xs} if g.flag() else tup(*xs), d)


# -- indexing ----------------------------------------------------------------------------------

def _index(g, shape):
    comps = []
    nd = len(shape)
    k = g.int(0, min(nd, 3)) if nd else g.int(0, 1)
    d = 0
    for _ in range(k):
        size = shape[d] if d < nd else 1
        kind = g.pick(["int", "slice", "none", "ellipsis", "tensor", "list", "bool", "bad"])
        if kind == "int":
            comps.append(g.int(-size, size - 1) if size else 0)
            d += 1
        elif kind == "slice":
            start = g.pick([None, 1, -1, 0, 2])
            stop = g.pick([None, -1, 3, 100, 0])
            step = g.pick([None, 2, 3, 1])
            comps.append({"slice": [start, stop, step]})
            d += 1
        elif kind == "none":
            comps.append(None)
        elif kind == "ellipsis":
            if not any(isinstance(c, dict) and "ellipsis" in c for c in comps):
                comps.append({"ellipsis": 1})
                d = max(d, nd - (k - len(comps)))
        elif kind == "tensor":
            if g.flag() and d < nd:
                comps.append(g.tensor(shape=[shape[d]], dtype="bool", layout=False))
            else:
                comps.append(g.index_tensor(-size, max(size - 1, 0), bad_dtype=False, max_ndim=2, max_dim=3,
                                            layout=False))
            d += 1
        elif kind == "list":
            comps.append({"list": [g.int(-size, max(size - 1, 0)) for _ in range(g.int(1, 3))]})
            d += 1
        elif kind == "bool":
            comps.append(g.flag())
        else:
            comps.append(g.pick([size, -size - 1, 2**62, {"slice": [None, None, -1]},
                                 {"slice": [None, None, 0]}, 1.5, "a"]))
            d += 1
    return comps


@op("Tensor.__getitem__")
def _getitem(g, name):
    x = g.tensor()
    idx = _index(g, x["tensor"]["shape"])
    return C(name, x, form="getitem", _index=idx, _single=len(idx) == 1 and g.flag())


@op("Tensor.__setitem__")
def _setitem(g, name):
    x = g.tensor(rg=True)
    idx = _index(g, x["tensor"]["shape"])
    dt = x["tensor"]["dtype"]
    if g.flag():
        v = g.scalar(dt)
    else:
        v = g.tensor(shape=g.shape(max_ndim=2, max_dim=3) if g.flag() else [], dtypes=[dt] * 3 + ALL_DTYPES)
    return C(name, x, v, form="setitem", _index=idx, _single=len(idx) == 1 and g.flag())


def _dim_size(g, x):
    s = x["tensor"]["shape"]
    d = g.dim(len(s))
    size = (s[d] if -len(s) <= d < len(s) else 1) if s else 1
    return s, d, size


def _idx_range(g, size):
    lo, hi = -size if g.rare() else 0, max(size - 1, 0)
    if g.bad(6):
        hi = size + g.int(0, 3)
    return lo, hi


@op("torch.index_select", "Tensor.index_select")
def _index_select(g, name):
    x = g.tensor()
    s, d, size = _dim_size(g, x)
    lo, hi = _idx_range(g, size)
    idx = g.index_tensor(max(lo, 0), hi, ndim=g.pick([1, 1, 0, 2]), layout=True)
    return C(name, x, d, idx)


@op("torch.gather", "Tensor.gather")
def _gather(g, name):
    x = g.tensor(min_ndim=1)
    s, d, size = _dim_size(g, x)
    ishape = [g.int(0 if g.rare() else 1, v) if v else 0 for v in s]
    if g.bad(8):
        ishape = ishape + [1] if g.flag() else [v + 1 for v in ishape]
    lo, hi = _idx_range(g, size)
    return C(name, x, d, g.index_tensor(max(lo, 0) if not g.bad(8) else -1, hi, shape=ishape))


@op("Tensor.scatter", "Tensor.scatter_", "Tensor.scatter_add", "torch.scatter")
def _scatter(g, name):
    x = g.tensor(min_ndim=1, rg=True)
    s, d, size = _dim_size(g, x)
    ishape = [g.int(1, v) if v else 0 for v in s]
    lo, hi = _idx_range(g, size)
    idx = g.index_tensor(lo if lo >= 0 else -1, hi, shape=ishape)
    if name != "Tensor.scatter_add" and g.flag():
        return C(name, x, d, idx, g.scalar(x["tensor"]["dtype"]))
    sshape = [v + g.int(0, 1) for v in ishape] if not g.bad(8) else [max(v - 1, 0) for v in ishape]
    src = g.tensor(shape=sshape, dtypes=[x["tensor"]["dtype"]] * 4 + ALL_DTYPES)
    return C(name, x, d, idx, src)


@op("Tensor.masked_fill", "Tensor.masked_fill_", "torch.masked_fill")
def _masked_fill(g, name):
    x = g.tensor(rg=True)
    mshape = g.broadcastable(x["tensor"]["shape"]) if not g.bad(8) else x["tensor"]["shape"] + [2]
    mask = g.tensor(shape=mshape, dtype="bool" if not g.bad(6) else g.pick(["uint8", "int64", "float32"]))
    dt = x["tensor"]["dtype"]
    v = g.scalar(dt) if g.flag() else g.tensor(shape=[] if not g.bad(6) else [2], dtypes=[dt] + ALL_DTYPES)
    return C(name, x, mask, v)


@op("Tensor.index_fill", "Tensor.index_fill_")
def _index_fill(g, name):
    x = g.tensor(rg=True)
    s, d, size = _dim_size(g, x)
    lo, hi = _idx_range(g, size)
    return C(name, x, d, g.index_tensor(lo, hi, ndim=g.pick([1, 0, 2])), g.scalar(x["tensor"]["dtype"]))


@op("Tensor.index_add_", "Tensor.index_add", "torch.index_add")
def _index_add(g, name):
    x = g.tensor(min_ndim=1, rg=True)
    s, d, size = _dim_size(g, x)
    k = g.int(0, 4)
    lo, hi = _idx_range(g, size)
    idx = g.index_tensor(lo, hi, shape=[k])
    sshape = list(s)
    if -len(s) <= d < len(s):
        sshape[d] = k
    if g.bad(8):
        sshape = sshape + [1]
    src = g.tensor(shape=sshape, dtypes=[x["tensor"]["dtype"]] * 4 + ALL_DTYPES)
    kw = {"alpha": g.scalar(x["tensor"]["dtype"])} if g.flag() else {}
    return C(name, x, d, idx, src, **kw)


@op("torch.take", "Tensor.take")
def _take(g, name):
    x = g.tensor()
    n = math.prod(x["tensor"]["shape"])
    lo, hi = _idx_range(g, n)
    return C(name, x, g.index_tensor(-n if g.rare() else 0, hi, max_ndim=2, max_dim=4))


# -- in-place ----------------------------------------------------------------------------------

@op("Tensor.add_", "Tensor.mul_", "Tensor.sub_", "Tensor.div_")
def _binary_inplace(g, name):
    if g.bad(8):
        # In place from an overlapping view of the same storage: PyTorch refuses partial overlap.
        n = g.int(2, 6)
        spec = g.tensor(shape=[n], dtypes=FLOATS + INTS)["tensor"]
        a, b = g.pick([("[1:]", "[:-1]"), ("[:-1]", "[1:]"), ("", ""), ("[::2]", "[:%d]" % ((n + 1) // 2))])
        return C(name, ref(0, a), ref(0, b), _decl=[spec])
    x = g.tensor(rg=True)
    s, dt = x["tensor"]["shape"], x["tensor"]["dtype"]
    if g.flag():
        other = g.scalar(dt)
    else:
        os = g.broadcastable(s) if not g.bad(6) else ([2] + s if g.flag() else s + [3])
        other = g.tensor(shape=os, dtypes=[dt] * 3 + ALL_DTYPES)
    kw = {}
    if name in ("Tensor.add_", "Tensor.sub_") and g.flag():
        kw["alpha"] = g.scalar(dt)
    if name == "Tensor.div_" and g.flag():
        kw["rounding_mode"] = g.pick(["trunc", "floor", None, "bad"])
    return C(name, x, other, **kw)


@op("Tensor.fill_")
def _fill(g, name):
    x = g.tensor(rg=True)
    dt = x["tensor"]["dtype"]
    v = g.scalar(dt) if g.flag() else g.tensor(shape=[] if not g.bad(6) else [2], dtypes=[dt] + ALL_DTYPES)
    return C(name, x, v)


@op("Tensor.clamp_", "torch.clamp", "Tensor.clamp")
def _clamp(g, name):
    x = g.tensor(rg=True, dtypes=FLOATS + INTS + FLOATS + ["bool", "complex64"])
    dt = x["tensor"]["dtype"]
    lo = g.scalar(dt) if g.flag() else None
    hi = g.scalar(dt) if g.flag() else None
    if g.flag() and lo is not None:
        lo = g.tensor(shape=g.broadcastable(x["tensor"]["shape"]), dtypes=[dt, "float32", "int64"])
    kw = {}
    if g.flag():
        kw = {"min": lo, "max": hi}
        return C(name, x, **kw)
    return C(name, x, lo, hi)


@op("Tensor.copy_")
def _copy(g, name):
    if g.bad(5):
        # Overlapping source and destination: PyTorch refuses partial overlap.
        n = g.int(2, 6)
        spec = g.tensor(shape=[n], dtypes=FLOATS + INTS)["tensor"]
        a, b = g.pick([("[1:]", "[:-1]"), ("[:-1]", "[1:]"), ("", ".flip(0)"), ("[::2]", "[:%d]" % ((n + 1) // 2))])
        return C(name, ref(0, a), ref(0, b), _decl=[spec])
    x = g.tensor(rg=True)
    src = g.tensor(shape=g.broadcastable(x["tensor"]["shape"]) if not g.bad(6) else [7], dtypes=ALL_DTYPES)
    kw = {"non_blocking": g.flag()} if g.rare() else {}
    return C(name, x, src, **kw)


@op("torch.add", "torch.sub", "torch.mul", "torch.div", "torch.where", "torch.pow")
def _binary_out(g, name):
    s = g.shape(max_ndim=3)
    dt = g.dtype(FLOATS + INTS + ["bool", "complex64"])
    if name == "torch.where":
        cond = g.tensor(shape=g.broadcastable(s), dtype="bool" if not g.bad(8) else "uint8")
        args = [cond, g.tensor(shape=s, dtype=dt),
                g.tensor(shape=g.broadcastable(s), dtypes=[dt] * 3 + ALL_DTYPES) if g.flag() else g.scalar(dt)]
    else:
        a = g.tensor(shape=s, dtype=dt)
        b = (g.tensor(shape=g.broadcastable(s) if not g.bad(8) else s + [2], dtypes=[dt] * 3 + ALL_DTYPES)
             if g.flag() else g.scalar(dt))
        args = [a, b]
        if name == "torch.pow" and g.flag():
            args = [g.scalar(dt), a]
    kw = {}
    if name == "torch.div" and g.flag():
        kw["rounding_mode"] = g.pick(["floor", "trunc", None])
    if name in ("torch.add", "torch.sub") and g.flag():
        kw["alpha"] = g.scalar(dt)
    decl = []
    if g.flag():
        mode = g.pick(["fresh", "alias", "overlap", "wrongdtype", "wrongshape", "expanded"])
        if mode == "alias" and isinstance(args[0], dict) and "tensor" in args[0]:
            decl = [args[0]["tensor"]]
            args[0] = ref(0)
            kw["out"] = ref(0)
        elif mode == "overlap" and s:
            spec = dict(args[0]["tensor"]) if isinstance(args[0], dict) and "tensor" in args[0] else None
            if spec is not None:
                big = list(s)
                big[0] += 1
                spec.update({"shape": big, "layout": "contig"})
                decl = [spec]
                args[0] = ref(0, "[:-1]")
                kw["out"] = ref(0, "[1:]")
        elif mode == "expanded":
            kw["out"] = g.tensor(shape=s, dtype=dt, layout=False)
            kw["out"]["tensor"].update({"layout": "expand", "m": [True] * len(s)})
        else:
            oshape = s if mode != "wrongshape" else g.shape(max_ndim=2)
            odt = dt if mode != "wrongdtype" else g.dtype()
            kw["out"] = g.tensor(shape=oshape, dtype=odt, layout=g.flag())
    return C(name, *args, _decl=decl, **kw) if decl else C(name, *args, **kw)


@op("torch.neg", "torch.abs", "torch.exp", "torch.sqrt", "torch.sin", "torch.log", "torch.sigmoid",
    "torch.floor", "torch.sign", "torch.reciprocal")
def _unary(g, name):
    x = g.tensor()
    kw = {}
    if g.rare():
        kw["out"] = g.tensor(shape=x["tensor"]["shape"] if g.flag() else [0], dtype=g.dtype())
    return C(name, x, **kw)


# -- more elementwise and shape operators (docs/source/internals/programs/native_ops.rst) -----------

@op("torch.copysign", "torch.hypot", "torch.logaddexp", "torch.logaddexp2", "torch.fmax", "torch.fmin",
    "torch.heaviside", "torch.gcd", "torch.lcm", "torch.true_divide", "Tensor.hypot_", "Tensor.copysign_")
def _binary_math(g, name):
    s = g.shape(max_ndim=3)
    dt = g.dtype(FLOATS + INTS + ["bool"])
    a = g.tensor(shape=s, dtype=dt, rg=name.endswith("_"))
    b = g.tensor(shape=g.broadcastable(s) if not g.bad(8) else s + [2], dtypes=[dt] * 3 + ALL_DTYPES)
    kw = {}
    if not name.endswith("_") and g.rare():
        kw["out"] = g.tensor(shape=s if g.flag() else [0], dtype=g.dtype())
    return C(name, a, b, **kw)


@op("torch.frac", "torch.expm1", "torch.exp2", "torch.logit", "torch.signbit", "torch.square")
def _unary_math(g, name):
    x = g.tensor()
    kw = {}
    if name == "torch.logit" and g.flag():
        kw["eps"] = g.pick([0.0, 1e-6, 0.25, 0.5])
    if g.rare():
        kw["out"] = g.tensor(shape=x["tensor"]["shape"] if g.flag() else [0], dtype=g.dtype())
    return C(name, x, **kw)


@op("torch.diff", "torch.msort", "torch.tensor_split", "torch.rot90", "torch.trace", "torch.repeat_interleave",
    "torch.kron", "torch.inner")
def _shape_math(g, name):
    x = g.tensor()
    nd = len(x["tensor"]["shape"])
    if name == "torch.diff":
        return C(name, x, n=g.int(0, 3) if not g.bad(8) else -1, dim=g.dim(max(nd, 1)))
    if name == "torch.tensor_split":
        arg = g.int(1, 4) if g.flag() else [g.int(-3, 6) for _ in range(g.int(0, 3))]
        return C(name, x, arg, dim=g.dim(max(nd, 1)))
    if name == "torch.rot90":
        return C(name, x, g.int(-5, 5), [g.dim(max(nd, 1)), g.dim(max(nd, 1))])
    if name == "torch.repeat_interleave":
        return C(name, x, g.int(0, 3) if not g.bad(8) else -1, dim=g.dim(max(nd, 1)) if g.flag() else None)
    if name in ("torch.kron", "torch.inner"):
        return C(name, x, g.tensor(dtypes=[x["tensor"]["dtype"]] * 3 + ALL_DTYPES))
    return C(name, x)


# -- reductions --------------------------------------------------------------------------------

def _dims_arg(g, nd):
    if g.flag():
        return g.dim(nd)
    ds = [g.dim(nd, bad=False) for _ in range(g.int(0, min(nd, 3)))]
    if g.bad(8) and ds:
        ds.append(ds[0])  # duplicate dims must be rejected
    return tup(*ds)


@op("torch.sum", "Tensor.sum", "torch.mean", "torch.prod", "torch.nansum")
def _sum(g, name):
    x = g.tensor(rg=True)
    nd = len(x["tensor"]["shape"])
    if g.flag():
        return C(name, x, **g.dtype_kw(FLOATS + INTS + ["complex64"]))
    kw = {"keepdim": g.flag()} if g.flag() else {}
    kw.update(g.dtype_kw(FLOATS + INTS + ["complex64"], bad_pool=["bool"]))
    d = g.dim(nd) if name == "torch.prod" else _dims_arg(g, nd)
    return C(name, x, d, **kw)


@op("torch.max", "torch.min", "Tensor.max", "torch.argmax", "torch.argmin", "torch.amax")
def _max(g, name):
    x = g.tensor()
    nd = len(x["tensor"]["shape"])
    mode = g.pick(["all", "dim", "other"]) if name in ("torch.max", "torch.min") else g.pick(["all", "dim"])
    if mode == "all":
        return C(name, x)
    if mode == "other":
        return C(name, x, g.tensor(shape=g.broadcastable(x["tensor"]["shape"]), dtypes=[x["tensor"]["dtype"]] * 3
                                   + ALL_DTYPES))
    kw = {"keepdim": g.flag()} if g.flag() else {}
    d = _dims_arg(g, nd) if name == "torch.amax" else g.dim(nd)
    return C(name, x, d, **kw)


@op("torch.norm", "Tensor.norm")
def _norm(g, name):
    x = g.tensor(dtypes=FLOATS + FLOATS + ["complex64", "int64"])
    nd = len(x["tensor"]["shape"])
    kw = {}
    if g.flag():
        kw["p"] = g.pick([2, 1, INF, 0, "fro", 3.5, -INF, "nuc", -1, "bad"])
    if g.flag():
        kw["dim"] = _dims_arg(g, nd)
        if g.flag():
            kw["keepdim"] = g.flag()
    if g.rare():
        kw["dtype"] = DT(g.dtype(FLOATS))
    return C(name, x, **kw)


@op("torch.logsumexp", "Tensor.logsumexp")
def _logsumexp(g, name):
    x = g.tensor(dtypes=FLOATS + FLOATS + INTS)
    kw = {"keepdim": g.flag()} if g.flag() else {}
    return C(name, x, _dims_arg(g, len(x["tensor"]["shape"])), **kw)


@op("torch.std", "torch.var", "Tensor.std", "torch.var_mean")
def _std(g, name):
    x = g.tensor(dtypes=FLOATS + FLOATS + ["complex64", "int64"])
    nd = len(x["tensor"]["shape"])
    kw = {}
    args = [x]
    if g.flag():
        kw["dim"] = _dims_arg(g, nd)
    form = g.pick(["none", "unbiased", "correction"])
    if form == "unbiased":
        if "dim" in kw:
            kw["unbiased"] = g.flag()
        else:
            args.append(g.flag())
    elif form == "correction":
        kw["correction"] = g.pick([0, 1, 2, 5, 0.5, -1])
    if g.flag() and "dim" in kw:
        kw["keepdim"] = g.flag()
    return C(name, *args, **kw)


@op("torch.cumsum", "Tensor.cumsum", "torch.cumprod")
def _cumsum(g, name):
    x = g.tensor()
    kw = g.dtype_kw(FLOATS + INTS + ["complex64"])
    return C(name, x, g.dim(len(x["tensor"]["shape"])), **kw)


@op("torch.sort", "Tensor.sort", "torch.argsort")
def _sort(g, name):
    x = g.tensor(dtypes=FLOATS + INTS + FLOATS + ["bool", "complex64"])
    nd = len(x["tensor"]["shape"])
    kw = {}
    if g.flag():
        kw["dim"] = g.dim(nd)
    if g.flag():
        kw["descending"] = g.flag()
    if g.flag():
        kw["stable"] = g.flag()
    d = kw.get("dim", -1)
    canon = None
    if not kw.get("stable"):  # ties may come out in any order: compare what the indices select
        canon = "x0.gather(%d, r)" % d if name == "torch.argsort" else "(r[0], x0.gather(%d, r[1]))" % d
    return C(name, x, _canon=canon, **kw)


@op("torch.topk", "Tensor.topk")
def _topk(g, name):
    x = g.tensor(dtypes=FLOATS + INTS + FLOATS + ["bool"])
    s, d, size = _dim_size(g, x)
    k = g.int(0, size) if not g.bad(5) else g.pick([size + 1, -1, 2**62])
    kw = {"dim": d} if g.flag() else {}
    if g.flag():
        kw["largest"] = g.flag()
    if g.flag():
        kw["sorted"] = g.flag()
    # Ties may be returned in any order (and sorted=False in any order at all).
    d = kw.get("dim", -1)
    canon = "(r[0], x0.gather(%d, r[1]))" % d if kw.get("sorted", True) else \
        "(r[0].sort(%d)[0], x0.gather(%d, r[1]).sort(%d)[0])" % (d, d, d)
    return C(name, x, k, _canon=canon, **kw)


# -- matmul family -----------------------------------------------------------------------------

def _mm_dtypes(g):
    dt = g.dtype(["float32", "float64", "int64", "float16", "bfloat16", "int32", "complex64", "bool", "uint8"])
    dt2 = dt if not g.bad(6) else g.dtype()
    return dt, dt2


def _mismatch(g, k):
    return k if not g.bad(6) else k + 1


@op("torch.mm", "Tensor.mm", "torch.matmul", "Tensor.__matmul__")
def _mm(g, name):
    dt, dt2 = _mm_dtypes(g)
    n, k, m = g.int(0, 6), g.int(0, 6), g.int(0, 6)
    if "matmul" in name:
        # 1-d .. 4-d operands with broadcast batch dims.
        ra, rb = g.int(1, 4), g.int(1, 4)
        batch = [g.int(1, 3) for _ in range(max(ra, rb) - 2)]
        sa = [k] if ra == 1 else batch[len(batch) - (ra - 2):] + [n, k] if ra > 2 else [n, k]
        sb = [_mismatch(g, k)] if rb == 1 else ([1 if g.flag() else b for b in batch[len(batch) - (rb - 2):]]
                                                + [_mismatch(g, k), m] if rb > 2 else [_mismatch(g, k), m])
    else:
        sa, sb = [n, k], [_mismatch(g, k), m]
        if g.bad(8):
            sa = [n]
    kw = {}
    if name in ("torch.mm", "torch.matmul") and g.rare():
        kw["out"] = g.tensor(shape=[n, m] if g.flag() else [1], dtype=dt if g.flag() else g.dtype(), layout=g.flag())
    a, b = g.tensor(shape=sa, dtype=dt), g.tensor(shape=sb, dtype=dt2)
    if name == "Tensor.__matmul__":
        return C(name, a, b, form="tmpl", _tmpl="{0} @ {1}")
    return C(name, a, b, **kw)


@op("torch.bmm", "Tensor.bmm")
def _bmm(g, name):
    dt, dt2 = _mm_dtypes(g)
    b, n, k, m = g.int(0, 4), g.int(0, 5), g.int(0, 5), g.int(0, 5)
    b2 = b if not g.bad(8) else b + 1
    return C(name, g.tensor(shape=[b, n, k], dtype=dt), g.tensor(shape=[b2, _mismatch(g, k), m], dtype=dt2))


@op("torch.dot", "Tensor.dot")
def _dot(g, name):
    dt, dt2 = _mm_dtypes(g)
    n = g.int(0, 20)
    sb = [_mismatch(g, n)] if not g.bad(10) else [n, 1]
    return C(name, g.tensor(shape=[n], dtype=dt), g.tensor(shape=sb, dtype=dt2))


@op("torch.mv", "Tensor.mv")
def _mv(g, name):
    dt, dt2 = _mm_dtypes(g)
    n, k = g.int(0, 6), g.int(0, 6)
    return C(name, g.tensor(shape=[n, k], dtype=dt), g.tensor(shape=[_mismatch(g, k)], dtype=dt2))


# -- torch.nn.functional -----------------------------------------------------------------------

F = "torch.nn.functional."


@op(F + "relu")
def _relu(g, name):
    x = g.tensor(rg=True)
    kw = {"inplace": g.flag()} if g.flag() else {}
    return C(name, x, **kw)


@op(F + "softmax", F + "log_softmax")
def _softmax(g, name):
    x = g.tensor(dtypes=FLOATS + FLOATS + INTS)
    nd = len(x["tensor"]["shape"])
    kw = {"dim": g.dim(nd)} if not g.rare() else {}
    if g.flag():
        kw.update(g.dtype_kw(FLOATS, bad_pool=INTS))
    return C(name, x, **kw)


@op(F + "pad")
def _pad(g, name):
    x = g.tensor(min_ndim=1, dtypes=FLOATS + FLOATS + INTS + ["bool", "complex64"])
    nd = len(x["tensor"]["shape"])
    mode = g.pick(["constant", "reflect", "replicate", "circular", "bad"])
    npad = g.int(1, min(nd, 3))
    pad = [g.int(-1 if g.rare() else 0, 3) for _ in range(2 * npad)]
    if g.bad(6):
        pad = pad + [1] if g.flag() else [2] * (2 * nd + 2)
    kw = {}
    if mode != "constant" or g.flag():
        kw["mode"] = mode
    if mode == "constant" and g.flag():
        kw["value"] = g.scalar(x["tensor"]["dtype"])
    return C(name, x, tup(*pad), **kw)


def _image(g, dtypes=("float32", "float64"), batch=True, c=None, **kw):
    """An (N, C, H, W) or (C, H, W) float tensor with small spatial sizes."""
    s = ([g.int(1, 2)] if batch else []) + [c if c is not None else g.int(1, 3), g.int(1, 6), g.int(1, 6)]
    if g.rare():
        s = s[1:] if batch else [3, 3]
    return g.tensor(shape=s, dtypes=list(dtypes), **kw)


@op(F + "unfold")
def _f_unfold(g, name):
    x = _image(g, batch=g.flag(), dtypes=("float32", "float64", "bfloat16", "int64"))
    kw = {}
    k = g.int(1, 3) if g.flag() else tup(g.int(1, 3), g.int(1, 3))
    for key, lo, hi in (("dilation", 1, 2), ("padding", 0, 2), ("stride", 1, 3)):
        if g.flag():
            kw[key] = g.int(lo, hi) if not g.bad(8) else g.pick([0, -1])
    return C(name, x, k, **kw)


@op(F + "conv2d")
def _conv2d(g, name):
    groups = g.pick([1, 2, 1, 3])
    cin = groups * g.int(1, 2)
    x = _image(g, c=cin if not g.bad(8) else cin + 1, dtypes=("float32", "float64", "bfloat16"), rg=True)
    cout = groups * g.int(1, 3)
    kh, kw_ = g.int(1, 3), g.int(1, 3)
    w = g.tensor(shape=[cout, cin // groups, kh, kw_], dtype=x["tensor"]["dtype"] if not g.bad(10) else "float64")
    args = [x, w]
    kw = {}
    if g.flag():
        kw["bias"] = g.tensor(shape=[cout if not g.bad(10) else cout + 1], dtype=x["tensor"]["dtype"])
    if g.flag():
        kw["stride"] = g.int(1, 2) if not g.bad(8) else 0
    if g.flag():
        kw["padding"] = g.pick([0, 1, "same", "valid", 2, -1]) if not g.bad(10) else "bad"
    if g.flag():
        kw["dilation"] = g.int(1, 2)
    if groups > 1 or g.rare():
        kw["groups"] = groups if not g.bad(10) else groups + 1
    return C(name, *args, **kw)


@op(F + "max_pool2d")
def _max_pool2d(g, name):
    x = _image(g, dtypes=("float32", "float64", "bfloat16", "int64"))
    k = g.int(1, 3)
    kw = {}
    if g.flag():
        kw["stride"] = g.int(1, 3)
    if g.flag():
        kw["padding"] = g.int(0, k // 2) if not g.bad(6) else k
    if g.flag():
        kw["dilation"] = g.int(1, 2)
    if g.flag():
        kw["ceil_mode"] = g.flag()
    if g.flag():
        kw["return_indices"] = g.flag()
    return C(name, x, k if g.flag() else tup(k, k), **kw)


@op(F + "linear")
def _linear(g, name):
    dt = g.dtype(["float32", "float64", "bfloat16", "float16", "int64"])
    fin, fout = g.int(0, 5), g.int(1, 5)
    lead = g.shape(max_ndim=2, max_dim=4)
    x = g.tensor(shape=lead + [fin if not g.bad(8) else fin + 1], dtype=dt, rg=True)
    w = g.tensor(shape=[fout, fin], dtype=dt if not g.bad(10) else "float64")
    args = [x, w]
    if g.flag():
        args.append(g.tensor(shape=[fout if not g.bad(10) else fout + 1], dtype=dt))
    return C(name, *args)


@op(F + "cross_entropy")
def _cross_entropy(g, name):
    n, c = g.int(1, 4), g.int(1, 5)
    extra = [g.int(1, 3)] if g.rare() else []
    dt = g.pick(["float32", "float64", "bfloat16"])
    x = g.tensor(shape=[n, c] + extra, dtype=dt, rg=True)
    kw = {}
    if g.flag():
        lo, hi = 0, c - 1
        if g.bad(5):
            hi = g.pick([c, c + 3])
            lo = g.pick([0, -1])
        t = g.index_tensor(lo, hi, shape=[n] + extra)
        if g.flag():
            kw["ignore_index"] = g.pick([-100, 0, c])
    else:
        t = g.tensor(shape=[n, c] + extra if not g.bad(8) else [n, c + 1], dtype=dt, vals="pos")
    if g.flag():
        kw["reduction"] = g.pick(["mean", "sum", "none", "bad"])
    if g.flag():
        kw["label_smoothing"] = g.pick([0.1, 0.0, 0.5, 1.0, 1.5, -0.1])
    if g.rare():
        kw["weight"] = g.tensor(shape=[c if not g.bad(6) else c + 1], dtype=dt, vals="pos")
    return C(name, x, t, **kw)


@op(F + "binary_cross_entropy")
def _bce(g, name):
    s = g.shape(max_ndim=3)
    dt = g.pick(["float32", "float64", "bfloat16", "float16"])
    x = g.tensor(shape=s, dtype=dt, vals="pos" if not g.bad(6) else g.pick(["small", "special"]), rg=True)
    t = g.tensor(shape=s if not g.bad(8) else s + [2], dtype=dt if not g.bad(8) else "float64", vals="pos")
    kw = {}
    if g.flag():
        kw["reduction"] = g.pick(["mean", "sum", "none", "bad"])
    if g.rare():
        kw["weight"] = g.tensor(shape=g.broadcastable(s), dtype=dt, vals="pos")
    return C(name, x, t, **kw)


@op(F + "mse_loss")
def _mse(g, name):
    s = g.shape(max_ndim=3)
    dt = g.pick(["float32", "float64", "bfloat16", "int64", "float16"])
    x = g.tensor(shape=s, dtype=dt, rg=True)
    t = g.tensor(shape=s if not g.bad(6) else g.broadcastable(s) + [1], dtypes=[dt] * 4 + FLOATS)
    kw = {"reduction": g.pick(["mean", "sum", "none", "bad"])} if g.flag() else {}
    return C(name, x, t, **kw)


@op(F + "embedding")
def _embedding(g, name):
    num, dim = g.int(1, 6), g.int(0, 4)
    w = g.tensor(shape=[num, dim], dtypes=["float32", "float64", "bfloat16"], rg=True)
    lo, hi = _idx_range(g, num)
    idx = g.index_tensor(max(lo, 0), hi, max_ndim=3, max_dim=4)
    kw = {}
    if g.flag():
        kw["padding_idx"] = g.pick([0, -1, num - 1, num, -num - 1])
    if g.rare():
        kw["max_norm"] = g.pick([1.0, 0.5])
    return C(name, idx, w, **kw)


# -- conversions -------------------------------------------------------------------------------

@op("Tensor.to")
def _to(g, name):
    x = g.tensor(rg=True)
    form = g.pick(["dtype", "other", "device", "kw", "mf"])
    if form == "dtype":
        return C(name, x, DT(g.dtype()))
    if form == "other":
        return C(name, x, g.tensor(shape=[g.int(0, 2)], dtype=g.dtype()))
    if form == "device":
        return C(name, x, g.pick(["cpu", "cpu", "meta", "cuda:99", "bogus"]))
    if form == "kw":
        kw = {"dtype": DT(g.dtype())}
        if g.flag():
            kw["copy"] = g.flag()
        if g.flag():
            kw["device"] = "cpu"
        return C(name, x, **kw)
    return C(name, x, memory_format={"mf": g.pick(["channels_last", "contiguous_format", "preserve_format"])})


@op("Tensor.type")
def _type(g, name):
    x = g.tensor()
    form = g.pick(["dtype", "str", "none", "bad"])
    if form == "dtype":
        return C(name, x, DT(g.dtype()))
    if form == "str":
        return C(name, x, g.pick(["torch.FloatTensor", "torch.LongTensor", "torch.DoubleTensor",
                                  "torch.BoolTensor", "torch.ByteTensor", "torch.HalfTensor"]))
    if form == "none":
        return C(name, x)
    return C(name, x, g.pick(["torch.FooTensor", "float", "torch.cuda.FloatTensor"]))


@op("Tensor.tolist", "Tensor.item", "Tensor.numpy", "Tensor.contiguous", "Tensor.clone", "Tensor.float",
    "Tensor.long", "Tensor.bool", "Tensor.half", "Tensor.double", "Tensor.int")
def _noarg(g, name):
    x = g.tensor(rg=True) if g.flag() else g.tensor(shape=[] if g.flag() else [1], rg=True)
    if name in ("Tensor.contiguous", "Tensor.clone") and g.flag():
        return C(name, x, memory_format={"mf": g.pick(["contiguous_format", "channels_last", "preserve_format",
                                                       "channels_last_3d"])})
    if name == "Tensor.numpy" and g.rare():
        return C(name, x, force=True)
    return C(name, x)


@op("torch.from_numpy", needs=("Tensor.numpy",))
def _numpy_rt(g, name):
    x = g.tensor(rg=True)
    return C(name, x, form="tmpl", _tmpl="torch.from_numpy({0}.numpy())")


@op("builtins.int", "builtins.float", "builtins.bool", "builtins.complex", "builtins.len")
def _pybuiltin(g, name):
    x = g.tensor(shape=[] if g.flag() else g.shape(max_ndim=2, max_dim=2))
    return C(name, x, form="tmpl", _tmpl=name.split(".")[1] + "({0})")


OP_NAMES = sorted({n for n, _, _ in CATALOG})


def needed_names():
    """Every public name the catalog may call (probed in both interpreters)."""
    names = set()
    for _, needs, _ in CATALOG:
        names.update(n for n in needs if not n.startswith("builtins."))
    names.update("torch." + d for d in ALL_DTYPES)
    names.update(["torch.channels_last", "torch.Generator", "Tensor.requires_grad_", "Tensor.expand",
                  "Tensor.transpose", "Tensor.permute", "Tensor.contiguous", "torch.arange", "torch.zeros"])
    return sorted(names)


class Ctx:
    """What both interpreters have: the ops and dtypes the generator may use."""

    def __init__(self, available):
        available = set(available)
        self.dtypes = [d for d in ALL_DTYPES if "torch." + d in available]
        self.ops = [(n, fn) for n, needs, fn in CATALOG
                    if all(x.startswith("builtins.") or x in available for x in needs)]

    def names(self):
        return [n for n, _ in self.ops]


def call_strategy(ctx, offset=0):
    """The Hypothesis strategy for one call (a JSON-able dict); offset rotates the catalog."""
    ops = ctx.ops[offset:] + ctx.ops[:offset]

    @st.composite
    def one_call(draw):
        i = draw(st.integers(0, len(ops) - 1))
        name, fn = ops[i]
        return fn(G(draw, ctx), name)
    return one_call()
