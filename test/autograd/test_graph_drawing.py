# test/autograd/test_graph_drawing.py - torch.autograd.graph.to_dot / draw: the backward graph as Graphviz.
# Guide: docs/source/internals/autograd.rst (its pictures are drawn with these functions).
import re
import shutil
import subprocess

import pytest

import torch
import torch.autograd.graph as graph

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")


def parse(source):
    """{node id: label} and [(from label, to label, input_nr)] from to_dot's output."""
    labels = dict(re.findall(r'^  (n\d+) \[label="([^"]*)"', source, re.M))
    edges = [(labels[a], labels[b], int(nr)) for a, b, nr in re.findall(r'^  (n\d+) -> (n\d+) \[label="(\d+)"\];',
                                                                        source, re.M)]
    return labels, edges


def first_line(label):
    return label.split("\\n")[0]


def diamond():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    return x, (a * a + a).sum()


def test_to_dot_is_a_digraph_with_one_box_per_node():
    _, y = diamond()
    source = graph.to_dot(y)
    assert source.startswith("digraph grad_fn {")
    assert source.endswith("}")
    labels, _ = parse(source)
    names = sorted(first_line(label) for label in labels.values())
    # a is reused three times, but its MulBackward0 appears once: nodes, not uses
    assert names == ["AccumulateGrad", "AddBackward0", "MulBackward0", "MulBackward0", "SumBackward0"]


def test_to_dot_draws_one_arrow_per_edge_labelled_with_its_input_nr():
    _, y = diamond()
    _, edges = parse(graph.to_dot(y, show_saved=False))
    edges = sorted(edges)
    assert edges == sorted([
        ("SumBackward0", "AddBackward0", 0),
        ("AddBackward0", "MulBackward0", 0),       # a * a
        ("AddBackward0", "MulBackward0", 0),       # a (the node of x * 2, input 0)
        ("MulBackward0", "MulBackward0", 0),       # a * a: self and other both lead to x * 2
        ("MulBackward0", "MulBackward0", 0),
        ("MulBackward0", "AccumulateGrad", 0),     # x * 2 -> x; the constant 2 has no edge
    ])


def test_to_dot_shows_saved_tensors():
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    source = graph.to_dot((x * w).sum())
    labels, _ = parse(source)
    by_name = {first_line(label): label for label in labels.values()}
    assert "self: tensor(2, 3)" in by_name["MulBackward0"]
    assert "other: tensor(3,)" in by_name["MulBackward0"]
    assert "self_sym_sizes: (2, 3)" in by_name["SumBackward0"]   # sizes, saved instead of the tensor
    assert source.count("fillcolor=lightblue") == 2              # the two leaves stand out


def test_to_dot_shows_the_shape_of_each_leaf():
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    labels, _ = parse(graph.to_dot((x * w).sum()))
    leaves = [label for label in labels.values() if label.startswith("AccumulateGrad")]
    assert sorted(label.split("\\n")[1] for label in leaves) == ["leaf (2, 3)", "leaf (3,)"]


def test_to_dot_without_saved_shows_names_only():
    x = torch.ones(2, requires_grad=True)
    labels, _ = parse(graph.to_dot((x * x).sum(), show_saved=False))
    assert sorted(labels.values()) == ["AccumulateGrad", "MulBackward0", "SumBackward0"]


def test_to_dot_marks_saved_tensors_freed_by_backward():
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    labels, _ = parse(graph.to_dot(y))
    mul = next(label for label in labels.values() if label.startswith("MulBackward0"))
    assert "self: (freed)" in mul and "other: (freed)" in mul


def test_to_dot_accepts_a_node_and_is_deterministic():
    x = torch.ones(2, requires_grad=True)
    y = (x.exp() * 3).sum()
    assert graph.to_dot(y.grad_fn) == graph.to_dot(y)
    assert graph.to_dot(y) == graph.to_dot(y)


def test_to_dot_names_custom_function_nodes_after_their_class():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = torch.ones(2, requires_grad=True)
    labels, edges = parse(graph.to_dot(Double.apply(x).sum(), show_saved=False))
    assert ("SumBackward0", "DoubleBackward", 0) in edges
    assert ("DoubleBackward", "AccumulateGrad", 0) in edges


def test_to_dot_of_a_tensor_without_history_raises():
    with pytest.raises(RuntimeError, match="has no grad_fn"):
        graph.to_dot(torch.ones(2, requires_grad=True))
    with pytest.raises(RuntimeError, match="has no grad_fn"):
        graph.to_dot(torch.ones(2) * 2)


def test_draw_to_dot_writes_the_source_without_graphviz(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    path = tmp_path / "g.dot"
    assert graph.draw(y, str(path)) == str(path)
    assert path.read_text() == graph.to_dot(y)


def test_draw_to_svg_without_graphviz_says_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="needs Graphviz's `dot`"):
        graph.draw((x * x).sum(), str(tmp_path / "g.svg"))
    assert not (tmp_path / "g.svg").exists()


@needs_dot
def test_draw_to_svg_draws_every_node(tmp_path):
    _, y = diamond()
    path = tmp_path / "g.svg"
    graph.draw(y, str(path))
    svg = path.read_text()
    assert "<svg" in svg
    for name in ["SumBackward0", "AddBackward0", "MulBackward0", "AccumulateGrad"]:
        assert name in svg


@needs_dot
def test_draw_with_an_explicit_format(tmp_path):
    x = torch.ones(2, requires_grad=True)
    path = tmp_path / "graph.out"
    graph.draw((x * x).sum(), str(path), format="png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_dot
def test_the_dot_source_is_valid_graphviz():
    _, y = diamond()
    subprocess.run([shutil.which("dot"), "-Tcanon"], input=graph.to_dot(y).encode(), check=True,
                   capture_output=True)
