"""tensor_figures: a Sphinx extension that draws tensors, their owners and one call from live torch objects.

This tree's docs tooling (this project's own extension, no PyTorch counterpart). Guides that show its
pictures: docs/source/internals/tensor_views.rst, memory.rst, tensor_iterator.rst, one_call.rst and
finding_thstorage.rst.

At every build, before any page is read, it makes the tensors each picture is about, reads what the
objects say (sizes, strides, offsets, storage addresses compared for equality, reference counts, the
dispatcher's trace) and writes one SVG per picture into docs/source/_generated/ (ignored by git):

* tensor_views.svg: four views of one storage and the cells each reads (tensor_views.rst);
* tensor_ownership.svg: Python object -> TensorImpl -> StorageImpl -> DataPtr for two views (memory.rst);
* tensor_iterator_strides.svg: the operands' strides after broadcasting (tensor_iterator.rst);
* add_dispatch.svg: torch.add from the Python binding to the kernels, from the trace (one_call.rst);
* thstorage_includes.svg: the #include graph under aten/src/TH/THStorageFunctions.h (finding_thstorage.rst).

Some are drawn by hand (plain SVG text), the graphs with Graphviz's ``dot`` when it is installed (else the
picture says so). No address is drawn, only whether two are equal, so a picture changes only when the code does.
"""

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from xml.sax.saxutils import escape

from figure_files import generate_at_build_start, write_if_changed

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

# ---- small SVG helpers (monospace text, so widths can be computed from lengths) -----------------

CHAR_W = 7.2  # width of one character of 12px monospace, near enough to size boxes
FONT = 'font-family="monospace"'


def _text(x, y, s, size=12, bold=False, fill="#000", anchor="start"):
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:g}" y="{y:g}" {FONT} font-size="{size}"{weight} fill="{fill}" '
            f'text-anchor="{anchor}">{escape(str(s))}</text>')


def _rect(x, y, w, h, fill="#fff", stroke="#555"):
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}" stroke="{stroke}"/>'


def _line(x1, y1, x2, y2, stroke="#555", dashed=False):
    dash = ' stroke-dasharray="4,3"' if dashed else ""
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}"{dash}/>'


def _svg(width, height, parts):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}">\n<rect width="100%" height="100%" fill="#fff"/>\n'
            + "\n".join(parts) + "\n</svg>\n")


def _tuple(xs):
    # (3,) rather than [3]: the way torch prints sizes and strides.
    return str(tuple(xs))


def _dot_svg(name, source):
    """Draw dot source with Graphviz; without it, an SVG that says so (the build must not fail)."""
    dot = shutil.which("dot")
    if dot is None:
        return _svg(760, 40, [_text(10, 24, f"{name}: Graphviz's dot is not installed, so this graph is not drawn")])
    return subprocess.run([dot, "-Tsvg"], input=source.encode(), capture_output=True, check=True).stdout.decode()


# ---- 1. views over one storage (tensor_views.rst) ------------------------------------------------

def view_chain():
    """t and three views of its storage. arange's values are their own storage positions."""
    import torch

    t = torch.arange(12.).reshape(3, 4)
    return t, [("t", t), ("t[1:]", t[1:]), ("t.t()", t.t()), ("t[:, :1].expand(3, 4)", t[:, :1].expand(3, 4))]


def _view_facts(v, base):
    """What one 2-D view says about itself, and the storage position of each element."""
    size, stride, offset = tuple(v.size()), v.stride(), v.storage_offset()
    # The values of arange(12.) equal their positions in the storage, so reading the view tells
    # which cell each element reads. Check it against the chapter's formula, so that the picture
    # can never show something the formula does not say.
    positions = [[int(x) for x in row] for row in v.tolist()]
    for i in range(size[0]):
        for j in range(size[1]):
            assert positions[i][j] == offset + i * stride[0] + j * stride[1], (i, j)
    storage = v.untyped_storage()
    return {
        "size": size, "stride": stride, "offset": offset, "positions": positions,
        "shared": storage.data_ptr() == base.untyped_storage().data_ptr(),
        # Where the view's first element is, in bytes from the start of the storage.
        "byte_offset": v.data_ptr() - storage.data_ptr(),
    }


def draw_views():
    base, views = view_chain()
    storage = base.untyped_storage()
    n = storage.nbytes() // base.element_size()
    cell, x_store, x_matrix = 38, 330, 205
    parts = [_text(10, 22, f"storage: {n} x {base.dtype} ({storage.nbytes()} bytes); "
                           "each cell shows its position", bold=True)]
    for k in range(n):
        parts += [_rect(x_store + k * cell, 32, cell, 26, "#eee"), _text(x_store + k * cell + cell / 2, 50, k, anchor="middle")]
    y = 80
    for name, v in views:
        f = _view_facts(v, base)
        lines = [(name, True), (f"size   {_tuple(f['size'])}", False), (f"stride {_tuple(f['stride'])}", False),
                 (f"offset {f['offset']} ({f['byte_offset']} bytes)", False),
                 ("same storage as t" if f["shared"] else "another storage", False)]
        for i, (s, bold) in enumerate(lines):
            parts.append(_text(10, y + 14 + 16 * i, s, bold=bold))
        # The view as a matrix: each element shows the storage position it reads.
        rows, cols = f["size"]
        for i in range(rows):
            for j in range(cols):
                parts += [_rect(x_matrix + 26 * j, y + 22 * i, 26, 22, "#dbe9f6"),
                          _text(x_matrix + 26 * j + 13, y + 22 * i + 16, f["positions"][i][j], size=11, anchor="middle")]
        # The storage again, cells this view reads filled, with how many of its elements read each.
        reads = Counter(p for row in f["positions"] for p in row)
        for k in range(n):
            parts.append(_rect(x_store + k * cell, y + 4, cell, 26, "#9ecae1" if k in reads else "#fff"))
            if k in reads:
                parts.append(_text(x_store + k * cell + cell / 2, y + 22, k, anchor="middle"))
            if reads[k] > 1:
                parts.append(_text(x_store + k * cell + cell / 2, y + 46, f"x{reads[k]}", size=11, fill="#b00", anchor="middle"))
        y += max(5 * 16 + 8, 22 * rows) + 22
    parts.append(_text(10, y + 4, "blue matrix: the view, each element showing the storage position it reads; "
                                  "x4: read by 4 elements", size=11, fill="#444"))
    return _svg(x_store + n * cell + 12, y + 16, parts)


# ---- 2. who owns what (memory.rst) -------------------------------------------------------------

def ownership_objects():
    """Two tensors over one storage: a, and b = a[3:], a view that starts 3 elements in."""
    import torch

    a = torch.arange(6.)
    b = a[3:]
    return a, b


def _ownership_facts():
    import torch

    a, b = ownership_objects()
    facts = {
        # getrefcount counts its own argument too: here that and the name a (b's _base is held in C++).
        "refs_a": sys.getrefcount(a), "refs_b": sys.getrefcount(b),
        "a": (tuple(a.size()), a.stride(), a.storage_offset()),
        "b": (tuple(b.size()), b.stride(), b.storage_offset()),
        "b_base_is_a": b._base is a,
    }
    # Reading a StorageImpl's count takes a torch.UntypedStorage, which is itself one more owner.
    s = a.untyped_storage()
    facts["use_count"] = torch._C._storage_Use_Count(s._cdata)
    facts["same_storage_impl"] = b.untyped_storage()._cdata == s._cdata  # compared, never drawn
    facts["same_data"] = b.untyped_storage().data_ptr() == s.data_ptr()
    facts["nbytes"], facts["device"] = s.nbytes(), str(s.device)
    facts["a_from_data"], facts["b_from_data"] = a.data_ptr() - s.data_ptr(), b.data_ptr() - s.data_ptr()
    facts["aligned64"] = s.data_ptr() % 64 == 0
    facts["allocator"] = torch._C._get_allocator_name(facts["device"])
    # The picture draws three owners of the StorageImpl (a's and b's TensorImpl, and s). If the count
    # says otherwise, the picture would be wrong: stop the build rather than draw it.
    if facts["use_count"] != 3:
        raise RuntimeError(f"tensor_figures: the StorageImpl has {facts['use_count']} owners, the picture draws 3")
    return facts


def _label(*lines):
    # dot: \l ends a left-aligned line; quotes and backslashes in the text must be escaped.
    return "".join(line.replace("\\", "\\\\").replace('"', '\\"') + "\\l" for line in lines)


def draw_ownership():
    f = _ownership_facts()
    meta = lambda t: f"sizes {_tuple(t[0])} strides {_tuple(t[1])} offset {t[2]}"  # noqa: E731
    nodes = {
        "pa": _label("Python object a", f"sys.getrefcount(a) = {f['refs_a']}"),
        "pb": _label("Python object b = a[3:]", f"sys.getrefcount(b) = {f['refs_b']}"),
        "ps": _label("s = a.untyped_storage()", "(a torch.UntypedStorage)"),
        "ta": _label("TensorImpl of a", meta(f["a"]), "count not exposed to Python"),
        "tb": _label("TensorImpl of b", meta(f["b"]), "count not exposed to Python"),
        "si": _label("StorageImpl", f"nbytes {f['nbytes']}",
                     f"torch._C._storage_Use_Count(s._cdata) = {f['use_count']}",
                     "a and b: same StorageImpl" if f["same_storage_impl"] else "a and b: two StorageImpls"),
        "dp": _label("DataPtr", f"a.data_ptr() = data + {f['a_from_data']} bytes",
                     f"b.data_ptr() = data + {f['b_from_data']} bytes"),
        "mem": _label(f"{f['nbytes']} bytes on {f['device']}", f"64-byte aligned: {'yes' if f['aligned64'] else 'no'}",
                      f"allocator for {f['device']}: {f['allocator']}"),
    }
    edges = [("pa", "ta", "cdata"), ("pb", "tb", "cdata"), ("ta", "si", "storage_"), ("tb", "si", "storage_"),
             ("ps", "si", "cdata"), ("si", "dp", "data_ptr_"), ("dp", "mem", "data")]
    if f["b_base_is_a"]:
        edges.append(("tb", "ta", "_base (b._base is a)"))
    lines = ["digraph ownership {", "  rankdir=TB; nodesep=0.3;",
             '  node [shape=box, fontname="monospace", fontsize=10, style=filled, fillcolor="#f4f4f4"];',
             '  edge [fontname="monospace", fontsize=9];']
    lines += [f'  {n} [label="{label}"];' for n, label in nodes.items()]
    for src, dst, label in edges:
        # The view's base is drawn dashed and does not rank the nodes: the two TensorImpls stay side by side.
        style = ", style=dashed, constraint=false" if label.startswith("_base") else ""
        lines.append(f'  {src} -> {dst} [label="{label}"{style}];')
    lines.append("}")
    return _dot_svg("tensor_ownership", "\n".join(lines) + "\n")


# ---- 3. broadcasting as TensorIterator sees it (tensor_iterator.rst) ----------------------------

def iterator_cases():
    """Two elementwise calls: one that broadcasts, one over contiguous operands of one shape."""
    import torch

    return [("a", torch.ones(4, 1, 3), "b", torch.ones(1, 5, 3)),
            ("x", torch.ones(2, 3, 4), "y", torch.ones(2, 3, 4))]


def _chains(shape, strides_list, d):
    """Dims d and d+1 could be walked as one: a size is 1, or for every operand stepping dim d
    is stepping dim d+1 size[d+1] times (the test of coalesce_dimensions, in Python's dim order)."""
    if shape[d] == 1 or shape[d + 1] == 1:
        return True
    return all(st[d + 1] * shape[d + 1] == st[d] for st in strides_list)


def _iterator_panel(y, name_a, a, name_b, b):
    import torch

    out = a + b
    shape = tuple(out.size())
    ea, eb = torch.broadcast_tensors(a, b)
    rows = [(f"{name_a} {_tuple(a.size())}", ea.stride()), (f"{name_b} {_tuple(b.size())}", eb.stride()),
            (f"{name_a} + {name_b}", out.stride())]
    col, x0 = 70, 230
    parts = [_text(10, y, f"{name_a} + {name_b}: broadcast shape {_tuple(shape)}", bold=True),
             _text(10, y + 22, "strides after broadcasting")]
    for d, size in enumerate(shape):
        parts.append(_text(x0 + col * d + col / 2, y + 22, f"dim {d}: {size}", size=11, anchor="middle"))
    for r, (label, stride) in enumerate(rows):
        yy = y + 30 + 24 * r
        parts.append(_text(10, yy + 16, label))
        for d, s in enumerate(stride):
            parts += [_rect(x0 + col * d, yy, col, 24, "#fdd0a2" if s == 0 else "#fff"),
                      _text(x0 + col * d + col / 2, yy + 16, s, anchor="middle")]
    yy = y + 30 + 24 * len(rows) + 18
    parts.append(_text(10, yy, "dims chain (d, d+1)?", size=11))
    all_strides = [s for _, s in rows]
    for d in range(len(shape) - 1):
        ok = _chains(shape, all_strides, d)
        parts.append(_text(x0 + col * (d + 1), yy, "yes" if ok else "no", size=11, bold=True,
                           fill="#070" if ok else "#b00", anchor="middle"))
    return parts, yy + 24


def draw_iterator():
    parts, y = [], 20
    for case in iterator_cases():
        panel, y = _iterator_panel(y, *case)
        parts += panel
        y += 12
    parts.append(_text(10, y, "orange: stride 0, the broadcast dimension reads one element again", size=11, fill="#444"))
    return _svg(480, y + 14, parts)


# ---- 4. torch.add end to end (one_call.rst) ----------------------------------------------------

GENERATED = [os.path.join(REPO_ROOT, "build", "aten", "src", "ATen"),
             os.path.join(REPO_ROOT, "build", "torch", "csrc", "autograd", "generated")]
TRACE_PROGRAM = """\
import sys, torch
x = torch.ones(2, 3); y = torch.ones(2, 3)
sys.stderr.write('---\\n'); sys.stderr.flush()  # everything before this line is import-time noise
z = torch.add(x, y)
"""
TRACE_LINE = re.compile(r"^( *)\[(call|redispatch)\] op=\[(.+?)\], key=\[(\w+)\]$")


def dispatch_trace():
    """Run torch.add(x, y) in a fresh interpreter with the trace on; [(depth, kind, op, key)]."""
    # The variable is read once per process (show_dispatch_trace in Dispatcher.cpp), hence a subprocess.
    env = dict(os.environ, TORCH_SHOW_DISPATCH_TRACE="1")
    err = subprocess.run([sys.executable, "-c", TRACE_PROGRAM], env=env, capture_output=True,
                         text=True, check=True).stderr
    hops = []
    for line in err.split("---\n", 1)[1].splitlines():
        m = TRACE_LINE.match(line)
        if m:
            hops.append((len(m.group(1)), m.group(2), m.group(3), m.group(4)))
    return hops


def _generated_file(name):
    for d in GENERATED:
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    return None


def python_binding(name="add"):
    """The C function behind torch.<name>, its parser signature and the C++ call it makes,
    read from the generated python_torch_functions.cpp."""
    path = _generated_file("python_torch_functions.cpp")
    with open(path) as f:
        src = f.read()
    func = re.search(r'\{"%s", reinterpret_cast<PyCFunction>\(.*?\((\w+)\)\)' % re.escape(name), src).group(1)
    body = src[src.index(f"static PyObject* {func}("):]
    body = body[:body.index("END_HANDLE_TH_ERRORS")]
    signature = re.search(r'"(%s\(.*?)"' % re.escape(name), body).group(1)
    call = re.search(r"return (at::_ops::\w+::call)\(", body).group(1)
    return func, signature, call


def kernel_for(op, key):
    """Which function the dispatcher runs for op at key: the live table says which generated file
    registered it (torch._C._dispatch_dump_table); that file's m.impl line names the function."""
    import torch

    table = torch._C._dispatch_dump_table(op)
    entry = re.search(r"^%s: .*\[registered at (\S+):(\d+)\]$" % key, table, re.M)
    filename, line = entry.group(1), int(entry.group(2))
    path = _generated_file(filename)
    if path is None:  # a fallback written by hand, not a generated kernel
        return f"registered at {filename}", None
    with open(path) as f:
        src = f.read()
    block = "\n".join(src.splitlines()[line - 1:])
    short = op.split("::", 1)[1]
    func = re.search(r'm\.impl\("(?:aten::)?%s",.*?&([\w:]+)\)' % re.escape(short), block).group(1)
    # A generated wrapper whose body is one return names the native function it calls.
    body = re.search(r"\b%s\(.*?\{\n\s*(.*)\n" % re.escape(func.split("::")[-1]), src)
    callee = re.match(r"return ([\w:]+)\(", body.group(1)) if body else None
    return f"{func}  ({filename})", callee.group(1) if callee else None


def draw_add_dispatch():
    func, signature, call = python_binding("add")
    boxes = [(0, ["Python: torch.add(x, y)", f"binding {func}  (python_torch_functions.cpp)",
                  f"parses {signature}", f"calls {call}"])]
    for depth, kind, op, key in dispatch_trace():
        kernel, callee = kernel_for(op, key)
        lines = [f"[{kind}] {op}  key {key}", f"kernel {kernel}"]
        if callee:
            lines.append(f"which calls {callee}")
        boxes.append((depth + 1, lines))
    parts, y, width, parents = [], 10, 0, {}
    for depth, lines in boxes:
        x = 10 + 36 * depth
        h = 8 + 16 * len(lines)
        w = max(len(s) for s in lines) * CHAR_W + 16
        parts.append(_rect(x, y, w, h, "#e5f5e0" if depth == 0 else "#f4f4f4"))
        parts += [_text(x + 8, y + 17 + 16 * i, s, bold=(i == 0)) for i, s in enumerate(lines)]
        # Connect to the box that made this call: the last one drawn one level up.
        if depth > 0:
            px, py = parents[depth - 1]
            parts += [_line(px + 14, py, px + 14, y + h / 2), _line(px + 14, y + h / 2, x, y + h / 2)]
        parents[depth] = (x, y + h)
        width = max(width, x + w + 10)
        y += h + 12
    return _svg(width, y, parts)


# ---- 5. the THStorage include graph (finding_thstorage.rst) ------------------------------------

INCLUDE_ROOTS = [os.path.join(REPO_ROOT, "aten", "src"), REPO_ROOT]  # the build's -I directories
DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*?)\s*$")


def _resolve(name):
    """An include's path relative to the repository, or None for the C++ library's headers."""
    for root in INCLUDE_ROOTS:
        path = os.path.join(root, name)
        if os.path.exists(path):
            return os.path.relpath(path, REPO_ROOT)
    return None


class IncludeWalker:
    """Follows #include from one file the way the preprocessor does, as far as TH needs: #ifdef,
    #ifndef, #else, #endif, #define, #undef, #pragma once, and `#include TH_GENERIC_FILE`, whose
    target is whatever the macro holds at that moment. Files under aten/src/TH are followed;
    others (c10) are drawn and not opened."""

    def __init__(self):
        self.macros = {"__cplusplus": "201703L"}
        self.once = set()
        self.edges = Counter()  # (from, to, through TH_GENERIC_FILE?) -> times included
        self.reals = {}  # a THGenerate*Type.h -> the Real it sets when it includes TH_GENERIC_FILE

    def walk(self, path):
        active = [True]  # one entry per open #if..., True where its lines are compiled
        with open(os.path.join(REPO_ROOT, path)) as f:
            lines = f.read().splitlines()
        for line in lines:
            m = DIRECTIVE.match(line)
            if not m:
                continue
            word, rest = m.groups()
            rest = rest.split("//")[0].strip()
            if word in ("ifdef", "ifndef"):
                defined = rest in self.macros
                active.append(active[-1] and defined == (word == "ifdef"))
            elif word == "else":
                active[-1] = active[-2] and not active[-1]
            elif word == "endif":
                active.pop()
            elif word in ("if", "elif"):
                raise RuntimeError(f"tensor_figures: #{word} in {path} is more than this walker reads")
            elif not active[-1]:
                continue
            elif word == "pragma" and rest == "once":
                if path in self.once:
                    return
                self.once.add(path)
            elif word == "define":
                name, _, value = rest.partition(" ")
                self.macros[name] = value.strip()
            elif word == "undef":
                self.macros.pop(rest, None)
            elif word == "include":
                self._include(path, rest)

    def _include(self, path, rest):
        through_macro = rest[0] not in '<"'
        if through_macro:  # TH_GENERIC_FILE: the generic file named itself on its first inclusion
            self.reals[path] = self.macros.get("Real", "?")
            rest = self.macros[rest]
        target = _resolve(rest[1:-1])
        if target is None:
            return
        self.edges[(path, target, through_macro)] += 1
        if target.startswith("aten/src/TH/"):
            self.walk(target)


def draw_th_includes(start="aten/src/TH/THStorageFunctions.h"):
    walker = IncludeWalker()
    walker.walk(start)
    files = sorted({p for edge in walker.edges for p in edge[:2]})
    short = lambda p: p.replace("aten/src/", "")  # noqa: E731 -- the name as #include writes it
    lines = ["digraph th_includes {", "  rankdir=LR; ranksep=0.5; nodesep=0.12;",
             '  node [shape=box, fontname="monospace", fontsize=10, style=filled];',
             '  edge [fontname="monospace", fontsize=8];']
    for p in files:
        color = "#c6dbef" if p == start else ("#f4f4f4" if p.startswith("aten/src/TH/") else "#ffffff")
        note = "" if p.startswith("aten/src/TH/") else "\\n(not followed)"
        if p in walker.reals:
            note = f"\\nReal={walker.reals[p]}"
        lines.append(f'  "{p}" [label="{short(p)}{note}", fillcolor="{color}"];')
    # Solid: #include <...>; dashed: #include TH_GENERIC_FILE. xN: the line ran N times.
    for (src, dst, through_macro), n in sorted(walker.edges.items()):
        text = f"x{n}" if n > 1 else ""
        style = ", style=dashed" if through_macro else ""
        lines.append(f'  "{src}" -> "{dst}" [label="{text}"{style}];')
    lines.append("}")
    return _dot_svg("thstorage_includes", "\n".join(lines) + "\n")


# ---- the build hook -----------------------------------------------------------------------------

FIGURES = {
    "tensor_views.svg": draw_views,
    "tensor_ownership.svg": draw_ownership,
    "tensor_iterator_strides.svg": draw_iterator,
    "add_dispatch.svg": draw_add_dispatch,
    "thstorage_includes.svg": draw_th_includes,
}


def generate(out_dir):
    """Draw every picture into out_dir; return the paths written."""
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for name, draw in FIGURES.items():
        path = os.path.join(out_dir, name)
        write_if_changed(path, draw())
        written.append(path)
    return written


def setup(app):
    return generate_at_build_start(app, generate)
