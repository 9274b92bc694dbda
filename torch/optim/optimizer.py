"""torch/optim/optimizer.py - Optimizer: the base class of every optimizer (param groups, state, state_dict).

Mirrors PyTorch's torch/optim/optimizer.py. Guide: docs/source/internals/python_layer.rst

An optimizer holds two things:

* ``param_groups``: a list of dicts. Each has ``"params"`` (a list of tensors) and one value
  for every hyperparameter in ``defaults`` (a group may override any of them: a different
  ``lr`` for the last layer, no ``weight_decay`` for biases ...).
* ``state``: a ``defaultdict(dict)`` keyed by the parameter tensor itself (tensors hash by
  identity), holding what the algorithm carries from one step to the next (SGD's
  ``momentum_buffer``, Adam's ``step``/``exp_avg``/``exp_avg_sq`` ...). It is filled lazily,
  on the first ``step()`` that sees a gradient for that parameter.

``step()`` reads each parameter's ``.grad`` (written by the autograd engine during
``backward()``) and updates the parameter in place under ``no_grad``, with ordinary tensor
operators (``add_``, ``mul_``, ``addcdiv_`` ...) that go through the dispatcher like any
other call. Only PyTorch's single-tensor ("for-loop") implementations exist here; the
``foreach`` (multi-tensor) and ``fused`` paths are CUDA-speed variants of the same formulas.
The flags are accepted as PyTorch accepts them (``foreach=None`` by default, ``fused`` where
PyTorch has it) and every value runs the for-loop path, which gives the numbers of PyTorch's
foreach and fused paths exactly or to a few units in the last place, foreach ASGD excepted
(``_single_tensor_only``).

``state_dict()`` replaces tensors by their position (0, 1, 2 ... across all groups), so a
saved state can be loaded into a fresh optimizer over new tensors of the same shapes.
"""

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain
from typing import Any, Callable, Optional

import torch
import torch.utils.hooks as hooks
from torch.utils.hooks import RemovableHandle

__all__ = [
    "Optimizer",
    "register_optimizer_step_pre_hook",
    "register_optimizer_step_post_hook",
]

_global_optimizer_pre_hooks: "OrderedDict[int, Callable]" = OrderedDict()
_global_optimizer_post_hooks: "OrderedDict[int, Callable]" = OrderedDict()


class _RequiredParameter:
    """The default of a hyperparameter with no default: every group must then give one."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _use_grad_for_differentiable(func):
    """Run ``step`` with grad mode set to ``defaults["differentiable"]`` (normally: off).

    The update ``param.add_(...)`` must not be recorded by autograd: a parameter is a leaf
    that requires grad, and an in-place op on it under grad mode is an error.
    """

    def _use_grad(self, *args, **kwargs):
        prev_grad = torch.is_grad_enabled()
        try:
            torch.set_grad_enabled(self.defaults["differentiable"])
            ret = func(self, *args, **kwargs)
        finally:
            torch.set_grad_enabled(prev_grad)
        return ret

    functools.update_wrapper(_use_grad, func)
    return _use_grad


def _get_value(x):
    """A Python number from a 0-dim tensor (``state["step"]``), or x itself."""
    return x.item() if isinstance(x, torch.Tensor) else x


def _get_scalar_dtype(is_fused=None):
    """The dtype of ``state["step"]``: float64 when that is the default dtype, else float32."""
    if is_fused:
        return torch.float32
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _to_scalar(x):
    """A 1-element tensor hyperparameter (lr, betas) as a 0-dim tensor; a number as is."""
    if isinstance(x, torch.Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _check_fused_flags(fused, foreach, differentiable) -> None:
    """The constructor's checks of ``fused=True``, in PyTorch's order and words.

    PyTorch's fused optimizers also set ``_step_supports_amp_scaling``, so that a GradScaler
    hands its scale and inf flag to the fused kernel, which unscales the gradients itself.
    The for-loop update here cannot, so the attribute stays unset and a GradScaler takes its
    usual route: unscale the gradients, then step unless one of them is inf or NaN.
    """
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


# The device types that have PyTorch's fused optimizer kernels, as far as this project has
# them (PyTorch lists ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone']).
_FUSED_SUPPORTED_DEVICES = ["cuda", "cpu"]


def _device_dtype_check_for_fused(p) -> None:
    """``fused=True`` takes floating-point parameters on a device with fused kernels only
    (checked, as in PyTorch, when a parameter first reaches ``step``)."""
    if not (p.device.type in _FUSED_SUPPORTED_DEVICES and p.is_floating_point()):
        raise RuntimeError("`fused=True` requires all the params to be floating point Tensors of "
                           f"supported devices: {_FUSED_SUPPORTED_DEVICES} but {p.dtype} and {p.device.type}")


def _single_tensor_only(foreach, differentiable=False) -> None:
    """What the functional forms (``sgd``, ``adam`` ...) keep of the implementation choice.

    PyTorch picks one of three implementations of each update: the single-tensor
    ("for-loop") one, ``foreach`` (one ``torch._foreach_*`` call per list of tensors) and
    ``fused`` (one kernel for the whole update). Here every choice runs the for-loop code;
    ``foreach=None`` (the default) picks the for-loop path on the CPU in PyTorch too (it
    picks foreach when all the parameters are on a GPU).

    How close that is to PyTorch's own foreach and fused paths, on the CPU (the trajectory
    tests in test/optim check each): the foreach SGD, Adam, AdamW, Adagrad, RMSprop, Adamax
    and Adadelta give the for-loop's numbers bit for bit; the foreach NAdam and RAdam, and
    the fused SGD, Adam, AdamW and Adagrad, compute the same formulas in another order and
    agree to a few units in the last place; the foreach ASGD computes its step size in
    float32 tensor arithmetic and differs by up to about 3e-7 relative.

    One behaviour of the foreach path is kept: its implementations refuse
    ``differentiable=True`` (all but SGD's, which does not call this).
    """
    if foreach and differentiable:
        raise AssertionError("_foreach ops don't support autograd")


# ---- pieces every optimizer's constructor, step and _init_group use -------------------

_HYPERPARAMETER_LABELS = {"lr": "learning rate", "eps": "epsilon value"}


def _check_non_negative(**hyperparameters) -> None:
    """Raise ``ValueError("Invalid <what>: <value>")`` for the first value that is not >= 0.

    ``not 0.0 <= value`` rather than ``value < 0.0``: a NaN is rejected too.
    """
    for name, value in hyperparameters.items():
        if not 0.0 <= value:
            label = _HYPERPARAMETER_LABELS.get(name, f"{name} value")
            raise ValueError(f"Invalid {label}: {value}")


def _check_betas(betas) -> None:
    """Each of Adam-style ``betas`` must lie in [0, 1)."""
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")


def _check_tensor_hyperparameter(name, value, foreach=False, capturable=False) -> None:
    """A hyperparameter given as a Tensor (lr, betas[i]) must hold one element."""
    if isinstance(value, torch.Tensor):
        if foreach and not capturable:
            raise ValueError(f"{name} as a Tensor is not supported for capturable=False and foreach=True")
        if value.numel() != 1:
            raise ValueError(f"Tensor {name} must be 1-element")


def _reject_complex(name, p) -> None:
    # PyTorch runs complex parameters through torch.view_as_real, which this project lacks.
    if p.is_complex():
        raise RuntimeError(f"{name}: complex parameters are not supported in this project "
                           "(PyTorch updates them through torch.view_as_real)")


def _check_state_steps(state_steps) -> None:
    """The functional APIs take ``step`` counters as 0-dim tensors, not Python numbers."""
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")


def _check_capturable_devices(param, *state_tensors, what="params and state_steps") -> None:
    """capturable=True (CUDA-graph capture) needs the parameter and its step counter (and
    any other 0-dim state the update reads, named in ``what``) on the GPU."""
    capturable_supported_devices = ["cuda"]
    if not (all(param.device.type == t.device.type for t in state_tensors)
            and param.device.type in capturable_supported_devices):
        raise AssertionError(f"If capturable=True, {what} must be on supported devices: "
                             f"{capturable_supported_devices}.")


def _new_step(p, on_param_device, is_fused=None):
    """A parameter's first ``state["step"]``, a 0-dim zero: on the parameter's device when
    ``on_param_device`` (capturable or fused), else a host-side counter on the CPU."""
    if on_param_device:
        return torch.zeros((), dtype=_get_scalar_dtype(is_fused=is_fused), device=p.device)
    return torch.tensor(0.0, dtype=_get_scalar_dtype())


def _count_step(param, step_t, capturable) -> None:
    """Add one to a parameter's ``step`` counter in place (checking, when capturable, that
    both live on a supported device)."""
    if capturable:
        _check_capturable_devices(param, step_t)
    step_t += 1


def _decayed_grad(param, grad, weight_decay, lr=None, decoupled_weight_decay=False):
    """The gradient with L2 weight decay added (``g + weight_decay * p``); with
    ``decoupled_weight_decay`` the parameter itself shrinks instead (as AdamW) and the
    gradient is returned as it is."""
    if weight_decay != 0:
        if decoupled_weight_decay:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    return grad


def _setdefaults(group, **defaults) -> None:
    """Give an older saved group (see ``__setstate__``) the options added since."""
    for name, value in defaults.items():
        group.setdefault(name, value)


def _options(group, *names) -> dict[str, Any]:
    """``{name: group[name]}`` for the named options: the keyword arguments ``step`` hands
    the functional form (``sgd``, ``adam`` ...) for one group."""
    return {name: group[name] for name in names}


def _evaluate_closure(closure):
    """The loss from ``closure()``, run with grad enabled (``step`` itself runs without);
    None when there is no closure."""
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """A hook called as ``hook(optimizer, args, kwargs)`` before every optimizer's ``step``."""
    return hooks._add_hook(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """A hook called as ``hook(optimizer, args, kwargs)`` after every optimizer's ``step``."""
    return hooks._add_hook(_global_optimizer_post_hooks, hook)


class Optimizer:
    r"""What SGD, Adam and the others share: param groups, per-parameter state, hooks, state_dict.

    Args:
        params (iterable): the tensors to update, or dicts that each hold a group of them
            (``"params"``) and the options that differ for that group. Give them in a fixed
            order (a list, not a set): ``state_dict`` names parameters by position.
        defaults (dict): each option's value for the groups that do not set it.
    """

    # [marker: optimizer_init]
    def __init__(self, params, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_post_hooks: OrderedDict = OrderedDict()

        self._patch_step_function()

        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be "
                            "an iterable of Tensors or dicts, but got " + torch.typename(params))

        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]

        for param_group in param_groups:
            self.add_param_group(param_group)
    # [end marker: optimizer_init]

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks", "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()  # To support multiprocessing pickle/unpickle
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    # ---- step hooks ------------------------------------------------------------------

    @staticmethod
    def profile_hook_step(func):
        """Wrap a subclass's ``step`` so that the step pre- and post-hooks run around it."""

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self, *_ = args
            for pre_hook in chain(_global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(
                            f"{func} must return None or a tuple of (new_args, new_kwargs), but got {result}.")
            out = func(*args, **kwargs)
            for post_hook in chain(self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()):
                post_hook(self, args, kwargs)
            return out

        return wrapper

    def _patch_step_function(self) -> None:
        """Wrap ``type(self).step`` once (per class) with :meth:`profile_hook_step`."""
        self._zero_grad_profile_name = f"Optimizer.zero_grad#{self.__class__.__name__}.zero_grad"
        hooked = getattr(self.__class__.step, "hooked", None)
        if not hooked:
            self.__class__.step = self.profile_hook_step(self.__class__.step)
            self.__class__.step.hooked = True

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        """``hook(optimizer, args, kwargs) -> None or (new_args, new_kwargs)``, before ``step``."""
        return hooks._add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        """``hook(optimizer, args, kwargs) -> None``, after ``step``."""
        return hooks._add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer) -> None``, before ``state_dict`` builds its dict."""
        return hooks._add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer, state_dict) -> state_dict or None``, after ``state_dict`` built it."""
        return hooks._add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer, state_dict) -> state_dict or None``, before loading."""
        return hooks._add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """``hook(optimizer) -> None``, after loading."""
        return hooks._add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ---- state_dict ------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        r"""The optimizer's state and groups as a plain dict, with positions for tensors.

        ``{'state': {0: {'momentum_buffer': tensor(...)}, ...},
        'param_groups': [{'lr': 0.01, ..., 'params': [0, 1]}, ...]}``: every tensor in the
        groups is replaced by its position, counted across all groups in order; ``state``
        is keyed by the same positions. The state tensors are not copied.
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)

        # Save order indices instead of Tensors
        param_mappings: dict[int, int] = {}
        start_index = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        # Remap state to use order indices as keys
        packed_state = {(param_mappings[id(k)] if isinstance(k, torch.Tensor) else k): v
                        for k, v in self.state.items()}

        state_dict = {"state": packed_state, "param_groups": param_groups}

        for post_hook in self._optimizer_state_dict_post_hooks.values():
            hook_result = post_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        # Floating-point state takes the parameter's dtype; state["step"] keeps its own
        # (https://github.com/pytorch/pytorch/issues/74424), unless fused or capturable.
        fused = False
        capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            if capturable or fused:
                return value.to(dtype=torch.float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Load the optimizer state from a dict made by :meth:`state_dict`.

        The saved groups must match this optimizer's groups in number and sizes; the
        saved positions are then paired, in order, with this optimizer's parameters.
        Floating-point state is cast to its parameter's dtype (``step`` excepted).
        """
        # shallow copy, to be consistent with module API
        state_dict = state_dict.copy()

        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            hook_result = pre_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result

        # Validate the state_dict
        groups = self.param_groups

        # Deepcopy as we write into saved_groups later to update state
        saved_groups = deepcopy(state_dict["param_groups"])

        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError("loaded state dict contains a parameter group "
                             "that doesn't match the size of optimizer's group")

        # Update the state
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            # value copied through nested dicts and sequences, each tensor moved to param's device
            # (and its floating-point dtype, see above)
            if isinstance(value, torch.Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, param_groups, key)
            elif isinstance(value, dict):
                return {k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                        for k, v in value.items()}
            elif isinstance(value, Iterable):
                return type(value)(_cast(param, v, param_id=param_id, param_groups=param_groups)
                                   for v in value)
            else:
                return value

        # Copy state assigned to params (and cast tensors to appropriate types).
        # State that is not assigned to params is copied as is.
        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        # Update parameter groups, setting their 'params' value
        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # ---- zero_grad, step, add_param_group --------------------------------------------

    def zero_grad(self, set_to_none: bool = True) -> None:
        r"""Clear ``.grad`` of every parameter in every group.

        With ``set_to_none=True`` (the default) ``.grad`` becomes None: the next backward
        allocates a fresh gradient instead of accumulating into zeros, and an optimizer
        skips a parameter whose ``.grad`` is None (a zero gradient would still move it,
        through momentum or weight decay).
        """
        for group in self.param_groups:
            for p in group["params"]:
                torch._tensor._clear_grad(p, set_to_none)

    def step(self, closure: Optional[Callable[[], float]] = None) -> Optional[float]:
        r"""Update every parameter that has a ``.grad``, once; each subclass writes its own.

        ``closure``, when given, is a function that runs the forward and backward pass again
        and returns the loss; ``step`` calls it first (with grad enabled) and returns that loss.
        """
        raise NotImplementedError

    # ---- what the subclasses' _init_group and __setstate__ share ------------------------

    def _params_with_grad(self, group, params, grads):
        """Each parameter of ``group`` that has a ``.grad``, in order, once it has been
        appended to ``params`` and its gradient to ``grads`` (a parameter without one is
        skipped by the update and gets no state)."""
        for p in group["params"]:
            if p.grad is not None:
                params.append(p)
                grads.append(p.grad)
                yield p

    def _dense_params_with_grad(self, group, params, grads, name, sparse_hint=""):
        """:meth:`_params_with_grad` for an optimizer ``name`` that takes neither complex
        parameters nor sparse gradients."""
        for p in self._params_with_grad(group, params, grads):
            _reject_complex(name, p)
            if p.grad.is_sparse:
                raise RuntimeError(f"{name} does not support sparse gradients{sparse_hint}")
            yield p

    def _lazy_state(self, p, on_param_device, *buffer_names):
        """``self.state[p]``, filled on the parameter's first step with a fresh ``step``
        (see ``_new_step``) and a zero tensor like ``p`` for each of ``buffer_names``."""
        state = self.state[p]
        if len(state) == 0:  # this parameter's first step
            state["step"] = _new_step(p, on_param_device)
            for name in buffer_names:
                state[name] = torch.zeros_like(p, memory_format=torch.preserve_format)
        return state

    def _steps_to_tensors(self, group, on_param_device, is_fused=None) -> None:
        """Turn ``state["step"]`` saved as a Python number (older checkpoints) into a 0-dim tensor:
        on the parameter's device when ``on_param_device`` (capturable or fused), else on the CPU."""
        for p in group["params"]:
            p_state = self.state.get(p, [])
            if len(p_state) != 0 and not torch.is_tensor(p_state["step"]):
                step_val = float(p_state["step"])
                p_state["step"] = (
                    torch.tensor(step_val, dtype=_get_scalar_dtype(is_fused=is_fused), device=p.device)
                    if on_param_device
                    else torch.tensor(step_val, dtype=_get_scalar_dtype()))

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        r"""Append one more group (a dict with ``"params"`` and any options) to ``param_groups``.

        Options the group leaves out are taken from ``defaults``. A tensor may belong to
        one group only.
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")

        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but "
                            "the ordering of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)

        # (name, tensor) pairs, as named_parameters() gives them
        extracted_param_tensors = []
        extracted_param_names = []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                param_name = param[0]
                extracted_param_names.append(param_name)
                extracted_param_tensors.append(param[1])
            else:
                extracted_param_tensors.append(param)

        param_group["params"] = extracted_param_tensors
        if len(extracted_param_names) != 0:
            if len(extracted_param_names) == len(extracted_param_tensors):
                param_group["param_names"] = extracted_param_names
            else:
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")

        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, "
                                "but one of the params is " + torch.typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization parameter {name}")
            else:
                param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; "
                          "see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)

        param_set: set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                current_group_txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {current_group_txt} to the optimizer")

        if not param_set.isdisjoint(set(param_group["params"])):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)
