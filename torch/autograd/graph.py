"""torch/autograd/graph.py - the backward graph as objects, and as a picture.

Mirrors PyTorch's torch/autograd/graph.py (Node). The drawing (to_dot, draw) is this
tree's own: what torchviz does for PyTorch. Guide: docs/source/internals/autograd.rst.

    >>> x = torch.ones(2, requires_grad=True)
    >>> print(to_dot((x * 2).sum()))        # doctest: +SKIP
    digraph grad_fn { ... SumBackward0 -> MulBackward0 -> AccumulateGrad ... }
"""

import abc
import shutil
import subprocess
from typing import Optional

import torch

__all__ = ["Node", "to_dot", "draw"]


class Node(abc.ABC):
    r"""What every grad_fn object is (C++ nodes and custom Functions' ctx objects alike)."""

    @abc.abstractmethod
    def name(self) -> str:
        ...

    @property
    @abc.abstractmethod
    def next_functions(self):
        ...

    @abc.abstractmethod
    def metadata(self) -> dict:
        ...

    @abc.abstractmethod
    def register_hook(self, fn):
        ...

    @abc.abstractmethod
    def register_prehook(self, fn):
        ...

    @classmethod
    def __subclasshook__(cls, C):
        if cls is Node:
            if (C is not None and C is getattr(torch._C._functions, C.__name__, None)) or issubclass(
                    C, torch.autograd.function.BackwardCFunction):
                return True
        return NotImplemented


def _walk(root):
    seen, order, stack = set(), [], [root]
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        order.append(fn)
        for nxt, _ in fn.next_functions:
            stack.append(nxt)
    return order


def to_dot(root, show_saved: bool = True) -> str:
    r"""Graphviz source of the backward graph reachable from a tensor's grad_fn (or a node).

    One box per node (named by its class, as type(grad_fn).__name__), its saved tensors' shapes under the name,
    an arrow per next_functions edge labelled with the input number; leaves (AccumulateGrad)
    show the shape of their tensor."""
    if isinstance(root, torch.Tensor):
        if root.grad_fn is None:
            raise RuntimeError("to_dot: the tensor has no grad_fn (it is a leaf or does not require grad)")
        root = root.grad_fn
    nodes = _walk(root)
    ids = {id(fn): f"n{i}" for i, fn in enumerate(nodes)}
    lines = ["digraph grad_fn {", '  node [shape=box, fontname="monospace", fontsize=10];', "  rankdir=TB;"]
    for fn in nodes:
        label = type(fn).__name__  # "AccumulateGrad", "MulBackward0", "MyFnBackward"
        if show_saved:
            extra = []
            if hasattr(fn, "variable"):
                extra.append("leaf " + str(tuple(fn.variable.shape)))
            for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
                try:
                    value = getattr(fn, attr)
                except RuntimeError:
                    value = "(freed)"
                if isinstance(value, torch.Tensor):
                    value = "tensor" + str(tuple(value.shape))
                extra.append(f"{attr[7:]}: {value}")
            if extra:
                label += "\\n" + "\\n".join(extra)
        color = "lightblue" if type(fn).__name__ == "AccumulateGrad" else "white"
        lines.append(f'  {ids[id(fn)]} [label="{label}", style=filled, fillcolor={color}];')
    for fn in nodes:
        for nxt, input_nr in fn.next_functions:
            if nxt is not None:
                lines.append(f'  {ids[id(fn)]} -> {ids[id(nxt)]} [label="{input_nr}"];')
    lines.append("}")
    return "\n".join(lines)


def draw(root, filename: str, format: Optional[str] = None) -> str:
    r"""Write the graph to filename: .dot always works; .svg/.png need Graphviz's ``dot``."""
    source = to_dot(root)
    fmt = format or filename.rsplit(".", 1)[-1]
    if fmt == "dot":
        with open(filename, "w") as f:
            f.write(source)
        return filename
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError("drawing to ." + fmt + " needs Graphviz's `dot` program (apt-get install graphviz); "
                           "to_dot() gives the source without it")
    subprocess.run([dot, "-T" + fmt, "-o", filename], input=source.encode(), check=True)
    return filename
