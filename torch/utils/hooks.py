"""torch/utils/hooks.py - RemovableHandle: what register_hook returns.

Mirrors PyTorch's torch/utils/hooks.py. Guide: docs/source/internals/autograd.rst.

Hooks live in an OrderedDict (on the tensor, or held by the C++ node); the handle knows
that dict and its own key, so handle.remove() takes the hook out again.
"""

import weakref
from typing import Any


class RemovableHandle:
    """A handle which provides the capability to remove a hook."""

    id: int
    next_id: int = 0

    def __init__(self, hooks_dict: Any) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1

    def remove(self) -> None:
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None and self.id in hooks_dict:
            del hooks_dict[self.id]

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, type: Any, value: Any, tb: Any) -> None:
        self.remove()


def _add_hook(hooks_dict, hook, prepend: bool = False) -> RemovableHandle:
    """Store ``hook`` in ``hooks_dict`` (an OrderedDict) under a new handle's id and return
    the handle; with ``prepend`` the hook goes first, so it runs before those already there."""
    handle = RemovableHandle(hooks_dict)
    hooks_dict[handle.id] = hook
    if prepend:
        hooks_dict.move_to_end(handle.id, last=False)
    return handle


# ---- BackwardHook: what Module.register_full_backward_hook runs on ----
# PyTorch wraps a module's tensor inputs and outputs in an identity autograd Function
# (BackwardHookFunction). During backward, the node around the outputs sees grad_output,
# the node around the inputs sees grad_input; the second calls the user's hooks with both.


_backward_hook_function = None


def _get_backward_hook_function():
    """BackwardHookFunction, made on first use (this file is imported before torch.autograd)."""
    global _backward_hook_function
    if _backward_hook_function is not None:
        return _backward_hook_function
    import torch

    class BackwardHookFunction(torch.autograd.Function):
        """Identity on tensors; backward hands the gradients to a callback and returns what it gives."""

        @staticmethod
        def forward(ctx, callback, *args):
            ctx.callback = callback
            ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
            return tuple(a.view_as(a) for a in args)

        @staticmethod
        def backward(ctx, *grads):
            return (None,) + tuple(ctx.callback(grads))

    _backward_hook_function = BackwardHookFunction
    return BackwardHookFunction


class BackwardHook:
    """Runs a module's full backward hooks (and backward pre-hooks) for one forward call."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    def _pack_with_none(self, indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    def _unpack_none(self, indices, values):
        return tuple(values[idx] for idx in indices)

    def _input_callback(self, grad_input):
        if self.grad_outputs is None:
            # The gradient reached the inputs without passing through the outputs' node.
            return grad_input
        res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError(
                    "Backward hook returned an invalid number of grad_input, "
                    f"got {len(out)}, but expected {len(res)}"
                )
            res = out
        self.grad_outputs = None
        return self._unpack_none(self.input_tensors_index, res)

    def _output_callback(self, grad_output):
        self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
        for hook in self.user_pre_hooks:
            hook_grad_outputs = hook(self.module, self.grad_outputs)
            if hook_grad_outputs is None:
                continue
            if len(hook_grad_outputs) != len(self.grad_outputs):
                raise RuntimeError(
                    "Backward pre hook returned an invalid number of grad_output, "
                    f"got {len(hook_grad_outputs)}, but expected {len(self.grad_outputs)}"
                )
            self.grad_outputs = tuple(hook_grad_outputs)
        if self.input_tensors_index is None:
            # No input requires grad: the hooks run now, with None for every grad_input.
            grad_inputs = self._pack_with_none([], [], self.n_inputs)
            for user_hook in self.user_hooks:
                res = user_hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires "
                        "gradient should always return None or None for all gradients."
                    )
            self.grad_outputs = None
        return self._unpack_none(self.output_tensors_index, self.grad_outputs) if self.grad_outputs is not None \
            else grad_output

    def _apply_on_tensors(self, callback, args):
        import torch

        tensors_idx = [i for i, arg in enumerate(args) if isinstance(arg, torch.Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (torch.is_grad_enabled() and any(t.requires_grad for t in tensors)):
            return args, None
        new_tensors = _get_backward_hook_function().apply(callback, *tensors)
        if len(new_tensors) == 0:
            raise RuntimeError("Cannot set Module backward hook for a Module with no input Tensors.")
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return tuple(arg_list), tensors_idx

    def setup_input_hook(self, args):
        self.n_inputs = len(args)
        res, self.input_tensors_index = self._apply_on_tensors(self._input_callback, args)
        return res

    def setup_output_hook(self, args):
        is_tuple = True
        if not isinstance(args, tuple):
            args = (args,)
            is_tuple = False
        self.n_outputs = len(args)
        res, self.output_tensors_index = self._apply_on_tensors(self._output_callback, args)
        if not is_tuple:
            res = res[0]
        return res
