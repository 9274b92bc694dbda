# test/autograd/test_leaks.py - autograd patterns run thousands of times must leave memory flat:
# neither the CPU allocator's live allocations nor the live torch.Tensor objects may grow.
# Mirrors the leak checks of PyTorch's test/test_autograd.py. Guides: docs/source/internals/autograd.rst
# (graphs, hooks, retain_grad), docs/source/internals/memory.rst (the allocator's counters,
# release_resources) and docs/source/internals/checkpointing.rst.
#
# Two counts, because each misses leaks the other sees: the allocator's live allocations
# (torch.cpu.memory_stats(), recorded only while record_memory_stats() is on) see memory that
# only C++ still holds - a tensor kept by a cycle inside the autograd graph has no Python
# object at all - and gc.get_objects() sees Python tensor objects, including views, which own
# no allocation of their own. Measured after a warm-up (first calls fill caches) and after
# gc.collect() (so only what is unreachable-but-uncollectable or still referenced counts).
#
# SLACK: a growth of up to SLACK in a count is not a leak: a cache may still grow once after
# warm-up (a first allocation of a new size, an interned object). A leak grows with the
# iterations: one tensor per iteration is ITERATIONS (2000) extra, 500 times the slack.
# test_the_check_fails_on_one_leaked_object_per_iteration shows the check does fail then.
import leak_check
import pytest
import torch
from torch.utils.checkpoint import checkpoint

ITERATIONS = 2000
WARMUP = 20
SLACK = {"allocations": 4, "allocated bytes": 4096, "tensors": 4}


def assert_no_leak(pattern, iterations=ITERATIONS):
    leak_check.assert_no_leak(pattern, iterations, SLACK, WARMUP)


@pytest.fixture
def x():
    return torch.randn(8, requires_grad=True)


# ---- the check itself ----------------------------------------------------------------------


def test_the_check_fails_on_one_leaked_object_per_iteration():
    kept = []
    base = torch.zeros(8)

    def leak_a_tensor():  # both counts grow
        kept.append(torch.ones(8))

    def leak_a_storage():  # only C++ memory: no torch.Tensor object is left, the allocator sees it
        kept.append(torch.ones(8).untyped_storage())

    def leak_a_view():  # no allocation of its own: only the tensor count sees it
        kept.append(base[1:])

    for plant in (leak_a_tensor, leak_a_storage, leak_a_view):
        with pytest.raises(AssertionError, match=f"^{plant.__name__} grew"):
            assert_no_leak(plant, iterations=200)
        kept.clear()


# ---- patterns ------------------------------------------------------------------------------


def test_retain_grad_on_a_non_leaf(x):
    # The retain_grad hook lives on y's grad_fn and refers back to y weakly; y's autograd
    # meta owns the grad_fn. Unless TensorImpl::release_resources() drops the autograd meta
    # when y's last strong reference goes, meta -> grad_fn -> hook -> weak y keeps y's
    # TensorImpl (and y.grad's memory) allocated forever: a leak only the allocator sees.
    def retain_grad():
        y = x * 2
        y.retain_grad()
        y.sum().backward()
        assert y.grad is not None
        x.grad = None

    assert_no_leak(retain_grad)


def test_register_hook_on_a_leaf_then_remove(x):
    def hook_on_leaf():
        handle = x.register_hook(lambda grad: grad * 2)
        (x * 3).sum().backward()
        handle.remove()
        x.grad = None

    assert_no_leak(hook_on_leaf)


def test_register_hook_on_a_non_leaf(x):
    def hook_on_non_leaf():
        y = x * 2
        y.register_hook(lambda grad: grad + 1)
        y.sum().backward()
        x.grad = None

    assert_no_leak(hook_on_non_leaf)


def test_graph_kept_by_retain_graph_then_dropped(x):
    # retain_graph=True keeps every node's saved tensors after backward; dropping the last
    # reference to the graph (loss) must free them.
    def retain_graph():
        loss = (x * x).sin().sum()
        loss.backward(retain_graph=True)
        loss.backward()  # the saved tensors were kept: a second pass works
        x.grad = None

    assert_no_leak(retain_graph)


def test_autograd_grad_with_create_graph(x):
    # The first gradient is itself a graph (create_graph=True) whose nodes save x; a second
    # derivative goes through it.
    def double_backward():
        (g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
        assert g.requires_grad
        (gg,) = torch.autograd.grad(g.sum(), x)

    assert_no_leak(double_backward)


class SavesInputAndOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        out = a * 3
        # Saving an output makes node -> saved output -> node a cycle unless the saved
        # variable drops its grad_fn (SavedVariable's is_output).
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        return grad * 3


def test_custom_function_saving_tensors(x):
    def custom_function():
        SavesInputAndOutput.apply(x).sum().backward()
        x.grad = None

    def custom_function_never_backwarded():
        SavesInputAndOutput.apply(x).sum()

    assert_no_leak(custom_function)
    assert_no_leak(custom_function_never_backwarded)


def test_in_place_on_a_view_of_a_non_leaf(x):
    # mul_ on a view rewrites the base's history (CopySlices over the base's old grad_fn).
    def in_place_on_view():
        y = x * 1
        y[:4].mul_(2)
        y.sum().backward()
        x.grad = None

    assert_no_leak(in_place_on_view)


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint(x, use_reentrant):
    # Checkpointing saves the inputs instead of the activations and reruns the function in
    # backward; both ways must free what they saved and recomputed.
    def checkpointed():
        checkpoint(lambda a: a.sin() * 2, x, use_reentrant=use_reentrant).sum().backward()
        x.grad = None

    assert_no_leak(checkpointed)
