"""autograd_figures: a Sphinx extension that draws the autograd chapter's backward graphs.

This tree's docs tooling (no PyTorch counterpart). Guide: docs/source/internals/autograd.rst.
Each graph below is built by running torch; at every build, before any page is read, its
torch.autograd.graph.to_dot() source is written to docs/source/_generated/ (ignored by git)
and, where Graphviz's ``dot`` is installed, drawn as an SVG beside it. The chapter shows a
graph with ``.. autograd-graph:: NAME``: the picture when there is one, else the dot source,
so the docs build (without warnings) on a machine without Graphviz too.
"""

import os
import shutil
import subprocess

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from figure_files import generate_at_build_start, write_if_changed


def linear_relu():
    """y = (x*w + b).relu().sum(): the tour's graph, one node per call."""
    import torch

    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.5, 0.5, -1.0], requires_grad=True)
    b = torch.tensor(0.25, requires_grad=True)
    return (x * w + b).relu().sum()


def diamond():
    """a is used twice: two gradients meet in the InputBuffer of a's node."""
    import torch

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    return (a * a + a).sum()


GRAPHS = {"linear_relu": linear_relu, "diamond": diamond}


def generate(out_dir):
    """Write autograd_<name>.dot for every graph, and autograd_<name>.svg when `dot` exists."""
    import torch.autograd.graph

    os.makedirs(out_dir, exist_ok=True)
    dot = shutil.which("dot")
    written = []
    for name, build in GRAPHS.items():
        source = torch.autograd.graph.to_dot(build()) + "\n"
        path = os.path.join(out_dir, f"autograd_{name}.dot")
        write_if_changed(path, source)
        written.append(path)
        if dot is not None:
            svg = subprocess.run([dot, "-Tsvg"], input=source.encode(), capture_output=True, check=True).stdout
            path = os.path.join(out_dir, f"autograd_{name}.svg")
            write_if_changed(path, svg)
            written.append(path)
    return written


class AutogradGraph(SphinxDirective):
    """``.. autograd-graph:: NAME``: the SVG drawn for GRAPHS[NAME], or its dot source."""

    required_arguments = 1

    def run(self):
        name = self.arguments[0]
        if name not in GRAPHS:
            raise self.error(f"autograd-graph: no graph named {name!r} in autograd_figures.GRAPHS")
        out_dir = os.path.join(self.env.srcdir, "_generated")
        self.env.note_dependency(os.path.join(out_dir, f"autograd_{name}.dot"))
        svg = os.path.join(out_dir, f"autograd_{name}.svg")
        if os.path.exists(svg) and shutil.which("dot"):
            return [nodes.image(uri=f"/_generated/autograd_{name}.svg", alt=f"the backward graph of {name}")]
        with open(os.path.join(out_dir, f"autograd_{name}.dot")) as f:
            source = f.read()
        block = nodes.literal_block(source, source)
        block["language"] = "dot"
        return [nodes.paragraph(text="(Graphviz's dot is not installed: the graph's dot source.)"), block]


def setup(app):
    app.add_directive("autograd-graph", AutogradGraph)
    return generate_at_build_start(app, generate)
