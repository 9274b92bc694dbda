"""torch.utils.checkpoint: trade compute for memory by recomputing a forward during backward.

Mirrors PyTorch's torch/utils/checkpoint.py. Guide: docs/source/internals/checkpointing.rst

``checkpoint(function, *args)`` runs ``function`` without recording a graph (no_grad), so
none of its intermediate activations are kept; only the inputs are saved. When backward
reaches the checkpoint's node, it restores the RNG state the forward saw, runs
``function`` again with grad enabled (building the small graph it skipped), and
backpropagates the incoming gradients through it. Both variants here are a custom
autograd Function (a PyFunction node in the C++ engine, torch/csrc/autograd/python_function.cpp):

* use_reentrant=True: PyTorch's CheckpointFunction. backward calls
  ``torch.autograd.backward`` on the recomputed graph - a backward inside a backward,
  re-entering the engine - and returns the inputs' ``.grad``. Tensors the function
  captured (module parameters) get their ``.grad`` from that inner backward.
* use_reentrant=False: PyTorch implements this with saved-tensor hooks (each tensor the
  forward would save is recomputed on first unpack); this project's autograd has no
  saved-tensor hooks, so it recomputes the same way as above but takes the gradients with
  ``torch.autograd.grad``, which also makes ``torch.autograd.grad`` through the checkpoint
  work and accepts keyword arguments. Gradients for leaves the function captured are
  accumulated into their ``.grad`` as the un-checkpointed graph's AccumulateGrad would.
"""

import warnings

import torch

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointFunction", "check_backward_validity",
           "detach_variable"]


def detach_variable(inputs):
    """Detached copies of the tensors in a tuple, keeping each one's requires_grad."""
    if isinstance(inputs, tuple):
        out = []
        for inp in inputs:
            if not isinstance(inp, torch.Tensor):
                out.append(inp)
                continue

            x = inp.detach()
            x.requires_grad = inp.requires_grad
            out.append(x)
        return tuple(out)
    else:
        raise RuntimeError(
            f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, torch.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


class _fork_cpu_rng:
    """Run a block with the CPU RNG set to ``state`` and restore the caller's state after
    (PyTorch: torch.random.fork_rng + torch.set_rng_state)."""

    def __init__(self, state, enabled):
        self.state, self.enabled = state, enabled

    def __enter__(self):
        if self.enabled:
            self.saved = torch.get_rng_state()
            torch.set_rng_state(self.state)

    def __exit__(self, *exc):
        if self.enabled:
            torch.set_rng_state(self.saved)


def _save_for_recompute(ctx, run_function, preserve_rng_state, args):
    """What backward needs to run the function again: the function, the CPU RNG state (when
    preserve_rng_state) and the inputs.

    Tensors go through save_for_backward (version-checked by the engine); the other
    arguments are kept as they are.
    """
    ctx.run_function = run_function
    ctx.preserve_rng_state = preserve_rng_state
    if preserve_rng_state:
        ctx.fwd_cpu_state = torch.get_rng_state()
    ctx.inputs = []
    ctx.tensor_indices = []
    tensor_inputs = []
    for i, arg in enumerate(args):
        if torch.is_tensor(arg):
            tensor_inputs.append(arg)
            ctx.tensor_indices.append(i)
            ctx.inputs.append(None)
        else:
            ctx.inputs.append(arg)
    ctx.save_for_backward(*tensor_inputs)


def _recompute(ctx):
    """Run the function again, with grad, from detached inputs and the forward's RNG state."""
    inputs = list(ctx.inputs)
    for i, idx in enumerate(ctx.tensor_indices):
        inputs[idx] = ctx.saved_tensors[i]
    with _fork_cpu_rng(getattr(ctx, "fwd_cpu_state", None), ctx.preserve_rng_state):
        detached_inputs = detach_variable(tuple(inputs))
        with torch.enable_grad():
            outputs = ctx.run_function(*detached_inputs)
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    return detached_inputs, outputs


def _outputs_with_grad(outputs, grads):
    outputs_with_grad = []
    args_with_grad = []
    for i in range(len(outputs)):
        if torch.is_tensor(outputs[i]) and outputs[i].requires_grad:
            outputs_with_grad.append(outputs[i])
            args_with_grad.append(grads[i])
    if len(outputs_with_grad) == 0:
        raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
    return outputs_with_grad, args_with_grad


# [marker: checkpoint_function]
class CheckpointFunction(torch.autograd.Function):
    """The reentrant checkpoint: forward under no_grad, recompute and backward in backward."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        _save_for_recompute(ctx, run_function, preserve_rng_state, args)

        with torch.no_grad():
            outputs = run_function(*args)
        return outputs

    @staticmethod
    def backward(ctx, *args):
        detached_inputs, outputs = _recompute(ctx)
        outputs_with_grad, args_with_grad = _outputs_with_grad(outputs, args)
        # A backward inside this backward: the engine runs the recomputed graph now,
        # filling .grad of detached_inputs and of any leaf the function captured.
        torch.autograd.backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp.grad if isinstance(inp, torch.Tensor) else None for inp in detached_inputs)

        return (None, None) + grads
# [end marker: checkpoint_function]


def _captured_leaves(outputs, exclude):
    """Leaf tensors that require grad reached from ``outputs``' graph (AccumulateGrad nodes),
    other than ``exclude``: the parameters a checkpointed function closes over."""
    excluded = {id(t) for t in exclude}
    # `visited` keeps each node's Python object alive, so ids stay unique while we walk
    # (as torch.autograd.graph._walk does).
    seen, visited, leaves = set(), [], []
    stack = [o.grad_fn for o in outputs if o.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        visited.append(fn)
        variable = getattr(fn, "variable", None)
        if variable is not None:
            if id(variable) not in excluded:
                leaves.append(variable)
            continue
        stack.extend(next_fn for next_fn, _ in fn.next_functions)
    return leaves


class _NonReentrantCheckpointFunction(torch.autograd.Function):
    """use_reentrant=False: the same recomputation, gradients taken with torch.autograd.grad."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        _save_for_recompute(ctx, run_function, preserve_rng_state, args)
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        detached_inputs, outputs = _recompute(ctx)
        outputs_with_grad, args_with_grad = _outputs_with_grad(outputs, args)
        wanted = [t for t in detached_inputs if isinstance(t, torch.Tensor) and t.requires_grad]
        captured = _captured_leaves(outputs_with_grad, wanted)
        grads = torch.autograd.grad(outputs_with_grad, wanted + captured, args_with_grad, allow_unused=True)
        for leaf, g in zip(captured, grads[len(wanted):]):
            if g is not None:
                leaf.grad = g if leaf.grad is None else leaf.grad + g
        by_input = iter(grads[: len(wanted)])
        input_grads = tuple(next(by_input) if isinstance(t, torch.Tensor) and t.requires_grad else None
                            for t in detached_inputs)
        return (None, None) + input_grads


def checkpoint(function, *args, use_reentrant=None, preserve_rng_state=True, **kwargs):
    r"""Checkpoint a model or part of the model.

    Runs ``function(*args, **kwargs)`` without keeping its intermediate activations and
    recomputes them during backward. ``preserve_rng_state`` (default True) makes the
    recomputation see the same random numbers as the forward (dropout stays the same).
    ``use_reentrant`` should be passed explicitly; without it PyTorch warns and uses True.
    Keyword arguments for ``function`` are only supported with use_reentrant=False.
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be "
            "passed explicitly. Starting in PyTorch 2.9, calling checkpoint "
            "without use_reentrant will raise an exception. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True

    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    if use_reentrant:
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    if kwargs:
        def run_function(*fn_args):
            return function(*fn_args, **kwargs)
    else:
        run_function = function
    return _NonReentrantCheckpointFunction.apply(run_function, preserve_rng_state, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    r"""Checkpoint a sequential model in ``segments`` chunks.

    Every chunk but the last runs under checkpoint; the last runs normally (its output is
    what the caller backpropagates from). ``functions`` is a list of callables or a
    torch.nn.Sequential.
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant "
            "parameter should be passed explicitly. "
            "In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True

    # Hack for keyword-only parameter in a python 2.7-compliant way
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input

        return forward

    nn = getattr(torch, "nn", None)
    if nn is not None and isinstance(functions, nn.Sequential):
        functions = list(functions.children())

    segment_size = len(functions) // segments
    # the last chunk has to be non-volatile
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)
