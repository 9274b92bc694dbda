"""torch._utils: the functions a pickled tensor names, so that unpickling can rebuild it.

Mirrors PyTorch's torch/_utils.py (the rebuild half of it).
Guide: docs/source/internals/saving_loading.rst

A tensor pickles as a call: ``_rebuild_tensor_v2(storage, storage_offset, size, stride,
requires_grad, backward_hooks)`` (see ``Tensor._reduce_ex_internal`` in torch/_tensor.py).
The storage comes back from the file first (``torch.serialization``'s ``persistent_load``),
then each tensor is rebuilt as a strided window onto it, so two views of one storage load
as two views of one storage again.
"""

import copyreg

import torch


def _element_size(dtype):
    """The size of one element of dtype, in bytes."""
    if not isinstance(dtype, torch.dtype):
        raise RuntimeError(f"expected torch.dtype, but got {type(dtype)}")
    return dtype.itemsize


# [marker: rebuild_tensor]
def _rebuild_tensor(storage, storage_offset, size, stride):
    # PyTorch: torch.empty((0,), dtype=storage.dtype, device=...).set_(storage._untyped_storage,
    # storage_offset, size, stride). This build has no Tensor.set_, so a storage carries a
    # flat tensor over all its bytes, and each tensor is a strided window onto that one.
    # detach() gives a tensor that shares the storage but is not an autograd view of it.
    # (as_strided's offset counts from the start of the StorageImpl; with mmap the flat tensor
    # is a window into the whole mapped file, so its own offset comes first.)
    base = storage._base_tensor()
    return base.as_strided(tuple(size), tuple(stride), base.storage_offset() + storage_offset).detach()


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    tensor.requires_grad = requires_grad
    # NB: hooks are not serialized (PyTorch's Note [Don't serialize hooks]): backward_hooks is
    # an empty OrderedDict in every file PyTorch writes. An empty one is not set here, so that
    # Tensor.register_hook still installs its hook dict with the C++ side later.
    if backward_hooks:
        tensor._backward_hooks = backward_hooks
    return tensor
# [end marker: rebuild_tensor]


def _rebuild_parameter(data, requires_grad, backward_hooks):
    param = torch.nn.Parameter(data, requires_grad)
    if backward_hooks:
        param._backward_hooks = backward_hooks
    return param


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = _rebuild_parameter(data, requires_grad, backward_hooks)
    return _set_obj_state(param, state)


def _get_obj_state(obj):
    """The Python attributes of a tensor (its __dict__, and slots), as object.__getstate__ gives them."""
    getstate_fn = getattr(obj, "__getstate__", None)
    if getstate_fn:
        return getstate_fn()
    slots_to_save = copyreg._slotnames(obj.__class__)
    if slots_to_save:
        return (obj.__dict__, {name: getattr(obj, name) for name in slots_to_save if hasattr(obj, name)})
    return obj.__dict__


def _set_obj_state(obj, state):
    if isinstance(state, tuple):
        if not len(state) == 2:
            raise RuntimeError(f"Invalid serialized state: {state}")
        dict_state, slots_state = state
    else:
        dict_state, slots_state = state, None
    # Since Python 3.11 an empty __dict__ is serialized as None.
    if dict_state:
        for k, v in dict_state.items():
            setattr(obj, k, v)
    if slots_state:
        for k, v in slots_state.items():
            setattr(obj, k, v)
    return obj


def _import_dotted_name(name):
    components = name.split(".")
    obj = __import__(components[0])
    for component in components[1:]:
        obj = getattr(obj, component)
    return obj


def _get_device_index(device, optional=False, allow_cpu=False):
    """An int device index from an int, a "cuda:1" string or a torch.device (PyTorch's
    torch._utils._get_device_index; torch.cuda's adds a check that the device is CUDA).
    None or an index-less device: the current CUDA device when ``optional``; a CPU device: -1
    when ``allow_cpu``."""
    if isinstance(device, str):
        device = torch.device(device)
    device_idx = None
    if isinstance(device, torch.device):
        if not allow_cpu and device.type == "cpu":
            raise ValueError(f"Expected a non cpu device, but got: {device}")
        device_idx = -1 if device.type == "cpu" else device.index
    if isinstance(device, int):
        device_idx = device
    if device_idx is None:
        if optional:
            device_idx = torch.cuda.current_device()
        else:
            raise ValueError(
                f"Expected a torch.device with a specified index or an integer, but got:{device}"
            )
    return device_idx
