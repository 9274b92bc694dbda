# test/autograd/test_autograd.py - the autograd engine and its Python face, with PyTorch's results and errors.
# Mirrors PyTorch's test/test_autograd.py. Guide: docs/source/internals/autograd.rst.
#
# Gradients are checked against worked numbers (d/dx of x*x is 2x ...) and finite
# differences (gradcheck); errors by type and PyTorch 2.13's words.
import numpy as np
import pytest
import torch


def leaf(*values, dtype=torch.float32):
    return torch.tensor(list(values), dtype=dtype, requires_grad=True)


# ---- seed 000: data, requires_grad, grad, grad_fn, is_leaf ----

def test_the_three_is_leaf_rules():
    user = leaf(1.0, 2.0)            # made by the user: a leaf
    no_grad_input = torch.ones(2) * 3  # from tensors that need no grad: a leaf
    result = user * 2                # from a tensor that requires grad: not a leaf
    assert user.is_leaf and user.requires_grad and user.grad_fn is None
    assert no_grad_input.is_leaf and not no_grad_input.requires_grad
    assert not result.is_leaf and result.requires_grad
    assert type(result.grad_fn).__name__ == "MulBackward0"


def test_backward_fills_grad_of_leaves_only():
    x = leaf(1.0, 2.0, 3.0)
    y = x * x
    z = y.sum()
    z.backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])
    with pytest.warns(UserWarning, match="The .grad attribute of a Tensor that is not a leaf Tensor is being accessed"):
        assert y.grad is None


def test_grad_accumulates_across_backward_calls():
    x = leaf(2.0)
    (x * 3).sum().backward()
    (x * x).sum().backward()
    assert x.grad.item() == pytest.approx(3.0 + 4.0)


def test_repr_shows_grad_fn_and_requires_grad():
    assert repr(torch.ones(2, requires_grad=True) * 2) == "tensor([2., 2.], grad_fn=<MulBackward0>)"
    assert repr(torch.ones(2, requires_grad=True)) == "tensor([1., 1.], requires_grad=True)"


def test_next_functions_describe_the_graph():
    x = leaf(1.0, 2.0)
    y = x * torch.ones(2)
    (acc, nr), (missing, nr2) = y.grad_fn.next_functions
    assert type(acc).__name__ == "AccumulateGrad" and nr == 0
    assert missing is None and nr2 == 0
    s = y.sum()
    assert s.grad_fn.next_functions[0][0] is y.grad_fn  # one Python object per node


def test_graph_is_rebuilt_each_iteration():
    x = leaf(3.0)
    names = []
    for i in range(2):
        y = x * 2 if i == 0 else x.exp()  # a Python `if` changes the graph
        names.append(type(y.grad_fn).__name__)
    assert names == ["MulBackward0", "ExpBackward0"]


# ---- gradients flowing through shapes and dtypes ----

def test_broadcast_gradient_is_summed_back_to_each_input_shape():
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.arange(3.0, requires_grad=True)
    (a * b).sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(a.grad.numpy(), np.tile([0.0, 1.0, 2.0], (2, 1)))


def test_diamond_sums_both_paths():
    x = leaf(2.0)
    a = x * 3
    b = x.exp()
    (a + b).sum().backward()
    assert x.grad.item() == pytest.approx(3 + np.exp(2.0), rel=1e-6)


def test_matmul_gradients_match_numpy():
    rng = np.random.default_rng(0)
    a_np, b_np = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    a = torch.tensor(a_np, requires_grad=True)
    b = torch.tensor(b_np, requires_grad=True)
    (a.mm(b)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.ones((3, 2)) @ b_np.T)
    np.testing.assert_allclose(b.grad.numpy(), a_np.T @ np.ones((3, 2)))


def test_gradcheck_on_a_composite_function():
    x = torch.rand(3, 2, dtype=torch.float64, requires_grad=True)
    w = torch.rand(2, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, w: (x.mm(w).sigmoid() * 2 - 1).tanh().sum(0), (x, w))
    assert torch.autograd.gradcheck(lambda x: x.t().exp(), (x,))  # non-contiguous


def test_gradcheck_catches_a_wrong_backward():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g  # wrong: should be 2x * g

    x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to input 0"):
        torch.autograd.gradcheck(Bad.apply, (x,))
    assert torch.autograd.gradcheck(Bad.apply, (x,), raise_exception=False) is False


def test_gradcheck_needs_an_input_that_requires_grad():
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require gradient, but none of them"):
        torch.autograd.gradcheck(lambda a: a * 2, (torch.ones(2, dtype=torch.float64),))


def test_gradgradcheck_second_derivative():
    x = torch.rand(4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda t: (t * t * t).sum(), (x,))


# ---- torch.autograd.grad ----

def test_grad_returns_without_touching_dot_grad():
    x = leaf(3.0)
    (g,) = torch.autograd.grad((x * x).sum(), x)
    assert g.item() == 6.0 and x.grad is None


def test_create_graph_gives_higher_order_gradients():
    x = torch.tensor(3.0, requires_grad=True)
    (g,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    assert g.item() == pytest.approx(27.0) and g.requires_grad
    (gg,) = torch.autograd.grad(g, x)
    assert gg.item() == pytest.approx(18.0)


def test_grad_of_unused_input_needs_allow_unused():
    x, unused = leaf(1.0, 2.0), leaf(5.0)
    with pytest.raises(RuntimeError, match="^The differentiated Tensor at index 1 appears to not have been used in the graph. "
                                           "Set allow_unused=True if this is the desired behavior.$"):
        torch.autograd.grad(x.sum(), [x, unused])
    g = torch.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True)
    assert g[1] is None
    g = torch.autograd.grad((x * 2).sum(), [x, unused], materialize_grads=True)
    assert g[1].tolist() == [0.0]


def test_grad_of_input_that_does_not_require_grad():
    x = leaf(1.0)
    with pytest.raises(RuntimeError, match="^One of the differentiated Tensors does not require grad$"):
        torch.autograd.grad((x * 2).sum(), torch.ones(1))


def test_backward_with_inputs_only_fills_those():
    a, b = leaf(1.0), leaf(2.0)
    (a * b).sum().backward(inputs=[a])
    assert a.grad.item() == 2.0 and b.grad is None


# ---- errors of backward ----

def test_implicit_grad_needs_a_scalar():
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar outputs$"):
        (leaf(1.0, 2.0) * 2).backward()


def test_backward_of_a_tensor_without_history():
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad and does not have a grad_fn$"):
        torch.ones(2).sum().backward()


def test_gradient_shape_mismatch():
    with pytest.raises(RuntimeError, match=r"^Mismatch in shape: grad_output\[0\] has a shape of torch.Size\(\[3\]\) "
                                           r"and output\[0\] has a shape of torch.Size\(\[2\]\).$"):
        (leaf(1.0, 2.0) * 2).backward(torch.ones(3))


def test_backward_twice_without_retain_graph():
    x = leaf(1.0, 2.0)
    y = (x.exp()).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([1.0, 2.0]), rtol=1e-6)
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.backward()


def test_saved_tensors_are_freed_after_backward():
    x = leaf(1.0)
    y = x.exp()
    assert y.grad_fn._saved_result.tolist() == y.tolist()
    y.sum().backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.grad_fn._saved_result


def test_inplace_change_of_a_saved_tensor_is_detected():
    x = leaf(1.0, 2.0, 3.0)
    y = x.sigmoid()
    s = y.sum()
    y.add_(1)
    expected = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
                "[torch.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; expected version 0 instead. "
                "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")
    with pytest.raises(RuntimeError) as info:
        s.backward()
    assert str(info.value) == expected


def test_inplace_on_a_leaf_that_requires_grad():
    x = leaf(1.0, 2.0)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used in an in-place operation.$"):
        x.add_(1)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad is being used in an in-place operation.$"):
        x[0].add_(1)
    with torch.no_grad():
        x.add_(1)  # allowed: not recorded
    assert x.tolist() == [2.0, 3.0]


def test_inplace_on_multi_output_view():
    parts = torch.ones(4, requires_grad=True).clone().split(2)
    with pytest.raises(RuntimeError, match="^Output 0 of Split is a view and is being modified inplace. This view is the "
                                           "output of a function that returns multiple views."):
        parts[0].mul_(2)


def test_out_variant_refuses_tensors_that_require_grad():
    a = leaf(1.0, 2.0)
    with pytest.raises(RuntimeError, match=r"^add\(\): functions with out=\.\.\. arguments don't support automatic "
                                           r"differentiation, but one of the arguments requires grad.$"):
        torch.add(a, a, out=torch.empty(2))


def test_requires_grad_only_for_floating_point():
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require gradients$"):
        torch.arange(3).requires_grad_()


def test_requires_grad_of_non_leaf_cannot_be_switched_off():
    y = leaf(1.0) * 2
    with pytest.raises(RuntimeError, match="^you can only change requires_grad flags of leaf variables."):
        y.requires_grad = False
    y.requires_grad = True  # a no-op, as in PyTorch


def test_numpy_of_a_tensor_that_requires_grad():
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor that requires grad. Use tensor.detach\(\).numpy\(\) instead.$"):
        leaf(1.0).numpy()


def test_assigning_grad_checks_shape():
    x = leaf(1.0, 2.0)
    with pytest.raises(RuntimeError, match=r"^attempting to assign a gradient of size '\[3\]' to a tensor of size '\[2\]'."):
        x.grad = torch.ones(3)
    x.grad = torch.ones(2)
    assert x.grad.tolist() == [1.0, 1.0]
    x.grad = None
    assert x.grad is None


# ---- views and in-place writes ----

def test_inplace_through_a_view_rebases_the_base_history():
    x = leaf(1.0, 2.0, 3.0)
    base = x.clone()
    view = base[1]
    view.mul_(5)
    assert type(base.grad_fn).__name__ == "CopySlices"
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"
    assert base.tolist() == [1.0, 10.0, 3.0]
    base.sum().backward()
    assert x.grad.tolist() == [1.0, 5.0, 1.0]


def test_view_knows_its_base_and_shares_the_version_counter():
    x = leaf(1.0, 2.0)
    base = x.clone()
    v = base[0:1]
    assert v._base is base and v._is_view()
    v.add_(1)
    assert base._version == v._version == 1


def test_view_made_under_no_grad_of_a_leaf():
    x = leaf(1.0, 2.0, 3.0)
    with torch.no_grad():
        y = x[0]
    assert y.requires_grad and y.is_leaf and y._is_view()


def test_detach_shares_data_and_version_but_not_history():
    x = leaf(1.0, 2.0)
    d = x.detach()
    assert not d.requires_grad and d.grad_fn is None
    d.add_(1)
    assert x._version == 1 and x.tolist() == [2.0, 3.0]
    assert not x.data.requires_grad


def test_setting_data_changes_dtype_and_keeps_the_object():
    x = leaf(1.0, 2.0)
    x.data = x.data.to(torch.float64) * 2
    assert x.dtype == torch.float64 and x.requires_grad and x.tolist() == [2.0, 4.0]
    (x * x).sum().backward()
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [4.0, 8.0]
    with pytest.raises(RuntimeError, match="^data set to a tensor that requires gradients must be floating point or complex dtype$"):
        x.data = torch.ones(2, dtype=torch.long)
    assert x.dtype == torch.float64  # a refused assignment leaves x as it was


def test_detach_inplace():
    y = leaf(1.0) * 2
    y.detach_()
    assert y.is_leaf and not y.requires_grad
    with pytest.raises(RuntimeError, match="^Can't detach views in-place. Use detach\\(\\) instead."):
        leaf(1.0, 2.0).clone()[0:1].detach_()


# ---- grad modes ----

def test_no_grad_records_nothing_and_restores():
    x = leaf(1.0)
    with torch.no_grad():
        y = x * 2
        assert not torch.is_grad_enabled()
        with torch.enable_grad():
            z = x * 2
    assert torch.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None
    assert z.requires_grad


def test_no_grad_as_decorator_and_set_grad_enabled():
    @torch.no_grad()
    def double(t):
        return t * 2

    assert not double(leaf(1.0)).requires_grad
    with torch.set_grad_enabled(False):
        assert not (leaf(1.0) * 2).requires_grad
    assert torch.is_grad_enabled()


def test_inference_mode_tensors():
    with torch.inference_mode():
        t = torch.ones(2)
        assert torch.is_inference_mode_enabled()
    assert t.is_inference() and not t.requires_grad
    assert not torch.ones(2).is_inference()
    with pytest.raises(RuntimeError, match="^Inplace update to inference tensor outside InferenceMode is not allowed"):
        t.add_(1)
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward."):
        (leaf(1.0, 2.0) * t).sum().backward()


# ---- hooks ----

def test_tensor_hook_sees_and_replaces_the_gradient():
    v = leaf(0.0, 0.0, 0.0)
    seen = []
    h = v.register_hook(lambda g: seen.append(g.tolist()) or g * 2)
    v.backward(torch.tensor([1.0, 2.0, 3.0]))
    assert seen == [[1.0, 2.0, 3.0]] and v.grad.tolist() == [2.0, 4.0, 6.0]
    h.remove()
    v.grad = None
    v.backward(torch.tensor([1.0, 2.0, 3.0]))
    assert v.grad.tolist() == [1.0, 2.0, 3.0]


def test_hook_on_a_non_leaf_changes_what_flows_on():
    x = leaf(1.0, 2.0)
    y = x * 3
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert x.grad.tolist() == [30.0, 30.0]


def test_hook_must_return_a_tensor_or_none():
    x = leaf(1.0)
    x.register_hook(lambda g: 1)
    with pytest.raises(TypeError, match="^expected Variable, but hook returned 'int'$"):
        (x * 1).sum().backward()


def test_hook_needs_requires_grad():
    with pytest.raises(RuntimeError, match="^cannot register a hook on a tensor that doesn't require gradient$"):
        torch.ones(2).register_hook(lambda g: g)


def test_retain_grad_keeps_a_non_leaf_gradient():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.retain_grad()
    assert b.retains_grad
    (b * b).sum().backward()
    assert b.grad.tolist() == [4.0, 4.0] and a.grad.tolist() == [8.0, 8.0]
    with pytest.raises(RuntimeError, match="^can't retain_grad on Tensor that has requires_grad=False$"):
        torch.ones(2).retain_grad()


def test_grad_fn_hooks_and_prehooks():
    x = leaf(1.0, 2.0)
    y = x * 2
    calls = []
    y.grad_fn.register_prehook(lambda grad_outputs: calls.append(("pre", grad_outputs[0].tolist())))
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: calls.append(("post", grad_inputs[0].tolist())))
    y.backward(torch.tensor([1.0, 1.0]))
    assert calls == [("pre", [1.0, 1.0]), ("post", [2.0, 2.0])]
    y.grad_fn.metadata["note"] = "kept"
    assert y.grad_fn.metadata == {"note": "kept"}


# ---- custom Functions ----

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


def test_custom_function_forward_backward_and_grad_fn():
    x = leaf(0.0, 1.0)
    y = Exp.apply(x)
    assert type(y.grad_fn).__name__ == "ExpBackward" and y.grad_fn.name() == "ExpBackward"
    assert repr(y).endswith("grad_fn=<ExpBackward>)")
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]), rtol=1e-6)
    assert isinstance(y.grad_fn, torch.autograd.graph.Node)


def test_custom_function_gradcheck_and_needs_input_grad():
    seen = {}

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, y):
            ctx.k = k
            seen["needs"] = ctx.needs_input_grad
            return x * k + y

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None, g

    x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    y = torch.rand(3, dtype=torch.float64)
    Scale.apply(x, 2.5, y)
    assert seen["needs"] == (True, False, False)
    assert torch.autograd.gradcheck(lambda a: Scale.apply(a, 2.5, y), (x,))


def test_custom_function_wrong_number_of_gradients():
    class TooMany(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    with pytest.raises(RuntimeError, match=r"^function TooManyBackward returned an incorrect number of gradients \(expected 1, got 2\)$"):
        TooMany.apply(leaf(1.0)).sum().backward()


def test_exception_in_backward_reaches_python_as_itself():
    class Boom(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    with pytest.raises(ValueError, match="^boom$"):
        Boom.apply(leaf(1.0)).sum().backward()


def test_save_for_backward_only_saves_tensors():
    class Saves(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a, 3)
            return a

    with pytest.raises(TypeError, match="^save_for_backward can only save variables, but argument 1 is of type int$"):
        Saves.apply(leaf(1.0))


def test_mark_dirty_and_mark_non_differentiable():
    class AddOneInplace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            a.add_(1)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g

    class ArgmaxAndMax(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            idx = a.argmax()
            ctx.mark_non_differentiable(idx)
            return a.max(), idx

        @staticmethod
        def backward(ctx, g, g_idx):
            return torch.ones(3) * g

    x = leaf(1.0, 2.0)
    base = x.clone()
    out = AddOneInplace.apply(base)
    assert out is base and base.tolist() == [2.0, 3.0] and type(base.grad_fn).__name__ == "AddOneInplaceBackward"
    out.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]

    v, i = ArgmaxAndMax.apply(leaf(1.0, 5.0, 2.0))
    assert v.requires_grad and not i.requires_grad


def test_legacy_function_instances_are_refused():
    # PyTorch 2.13 warns when a Function is instantiated, and refuses to call the instance.
    with pytest.warns(DeprecationWarning, match="should not be instantiated. Methods on autograd functions are all static"):
        fn = Exp()
    with pytest.raises(RuntimeError, match="^Legacy autograd function with non-static forward method is deprecated."):
        fn(leaf(1.0))


# ---- drawing ----

def test_to_dot_lists_every_node_and_edge():
    x = leaf(1.0, 2.0)
    dot = torch.autograd.graph.to_dot((x * 2).sum())
    assert dot.startswith("digraph grad_fn {")
    for name in ("SumBackward0", "MulBackward0", "AccumulateGrad"):
        assert name in dot
    assert dot.count("->") == 2
