"""torch.Tensor: the Python class of every tensor, over the C++ torch._C.TensorBase.

Mirrors PyTorch's torch/_tensor.py. Guide: docs/source/internals/python_bindings.rst.

The C++ base (torch/csrc/autograd/python_variable.cpp and the generated
python_variable_methods.cpp) holds the at::Tensor and gives the metadata and the operator
methods; this class adds what is easiest said in Python: the operators (+, -, *, @, ==, ...)
mapped onto the methods that exist, printing (torch/_tensor_str.py), iteration, numpy
interop and the default __torch_function__. torch._C._set_tensor_class(Tensor) makes C++
create its tensors as this class.
"""

import warnings
from collections import OrderedDict

import torch
from torch import _C
from torch._C import TensorBase


def _convert(ret, cls):
    """Give results of a subclass's call its class back (PyTorch's torch._tensor._convert)."""
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        ret = ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        ret = type(ret)(_convert(r, cls) for r in ret)
    return ret


def _reflected(name):
    """number <op> tensor (2.5 - t, 2 ** t): the number becomes a 0-d tensor of its own kind
    (bool, int64, the default float dtype, complex), so the usual promotion rules decide the
    result's dtype: a 0-d operand changes it only when its category is higher, as a Python
    number does in PyTorch (2.5 - int64 tensor is float32; 2 - int32 tensor stays int32)."""

    fn = getattr(TensorBase, name)

    def call(self, other):
        if not isinstance(other, Tensor):
            if not isinstance(other, (bool, int, float, complex)):
                return NotImplemented
            if name != "matmul":
                # As a wrapped number (the argument parser makes one from a Python number):
                # it keeps double precision (0.1 - float64 tensor is exact) and counts only
                # by its category in type promotion.
                return getattr(torch, name)(other, self)
            other = torch.tensor(other, device=self.device if self.device.type != "meta" else "cpu")
        return fn(other, self)

    call.__name__ = "__r" + name + "__"
    return call


class Tensor(TensorBase):
    """A multi-dimensional array of one dtype on one device (see torch._C.TensorBase)."""

    # ---- methods written in Python, as in PyTorch's torch/_tensor.py ----
    def split(self, split_size, dim=0):
        """Views of self in pieces of split_size along dim (an int), or of the sizes listed."""
        if isinstance(split_size, int):
            return TensorBase.split(self, split_size, dim)
        return TensorBase.split_with_sizes(self, list(split_size), dim)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """torch.norm(self, p, dim, keepdim, dtype=dtype)."""
        return torch.norm(self, p, dim, keepdim, dtype=dtype)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        """torch.unique(self, ...)."""
        return torch.unique(self, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts, dim=dim)

    # ---- autograd, as in PyTorch's torch/_tensor.py ----
    _backward_hooks = None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        r"""Compute the gradient of this tensor w.r.t. the graph's leaves (into their .grad).

        >>> x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> (x * x).sum().backward()
        >>> x.grad
        tensor([2., 4., 6.])
        """
        if type(self) is not Tensor and torch.overrides.has_torch_function((self,)):
            return torch.overrides.handle_torch_function(
                Tensor.backward, (self,), self, gradient=gradient, retain_graph=retain_graph,
                create_graph=create_graph, inputs=inputs)
        torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook):
        r"""Call hook(grad) whenever this tensor's gradient is computed; a hook that returns a
        tensor replaces the gradient. Returns a handle with handle.remove().

        >>> v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
        >>> h = v.register_hook(lambda grad: grad * 2)
        >>> v.backward(torch.tensor([1.0, 2.0, 3.0]))
        >>> v.grad
        tensor([2., 4., 6.])
        >>> h.remove()
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._backward_hooks is None:
            self._backward_hooks = OrderedDict()
            if self.grad_fn is not None:
                self.grad_fn._register_hook_dict(self)
            else:
                torch._C._autograd._register_hook_dict(self, self._backward_hooks)
        from torch.utils.hooks import RemovableHandle

        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    # ---- set_: PyTorch's four overloads (aten::set_ in native_functions.yaml), picked here;
    # the work and the checks are in C++ (at::native::set_storage_, aten/src/ATen/native/Resize.cpp).
    def set_(self, source=None, storage_offset=None, size=None, stride=None):
        """Make this tensor a view of ``source`` (a storage or a tensor), or empty with no argument."""
        if source is None:
            if storage_offset is not None or size is not None or stride is not None:
                raise TypeError("set_() received an invalid combination of arguments")
            torch._C._set_storage(self, torch.UntypedStorage(0, device=self.device), 0, [0], [1])
            return self
        source_tensor = None
        storage_dtype = None
        if isinstance(source, torch.storage._LegacyStorage):
            # torch.FloatStorage / torch.cuda.FloatStorage: its bytes (the same StorageImpl),
            # counted in its elements, whose dtype C++ checks against self's.
            storage, storage_dtype = source.untyped(), source.dtype
            if storage_offset is None:
                storage_offset, size, stride = 0, (source.size(),), (1,)
        elif isinstance(source, torch.Tensor):
            source_tensor = source  # whose dtype C++ checks against self's
            storage = source.untyped_storage()
            if storage_offset is None:
                storage_offset, size, stride = source.storage_offset(), source.shape, source.stride()
        elif isinstance(source, torch.UntypedStorage):
            storage = source
            if storage_offset is None:
                storage_offset, size, stride = 0, (source.nbytes() // self.element_size(),), (1,)
        else:
            raise TypeError(f"set_() received an invalid combination of arguments - got ({type(source).__name__}), "
                            "but expected one of:\n * ()\n * (torch.Storage source)\n"
                            " * (torch.Storage source, int storage_offset, tuple of ints size, tuple of ints stride)\n"
                            " * (Tensor source)\n"
                            " * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride)\n")
        if size is None:
            raise TypeError("set_(): size is required with storage_offset")
        dtype_check = {} if storage_dtype is None else {"storage_dtype": storage_dtype}
        torch._C._set_storage(self, storage, int(storage_offset), [int(s) for s in size],
                              [int(s) for s in stride] if stride is not None else [], source_tensor, **dtype_check)
        return self

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False, pin_memory=False):
        """A new tensor holding a copy of data, with this tensor's dtype and device unless
        given (PyTorch binds it in C: THPVariable_new_tensor in python_variable_methods.cpp;
        the new_zeros/new_ones/new_full/new_empty siblings are operators)."""
        dtype = self.dtype if dtype is None else dtype
        device = self.device if device is None else torch.device(device)
        if isinstance(data, torch.Tensor):
            warnings.warn(
                "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                "sourceTensor.detach().clone().requires_grad_(True), rather than tensor.new_tensor(sourceTensor).",
                UserWarning, stacklevel=2)
            result = data.detach().to(device=device, dtype=dtype).clone()
        else:
            result = torch.tensor(data, dtype=dtype, device=device)
        if pin_memory:
            result = result.pin_memory()
        if requires_grad:
            result.requires_grad_(True)
        return result

    # ---- devices (PyTorch binds these in C: THPVariable_cpu / THPVariable_cuda in
    # torch/csrc/autograd/python_variable_methods.cpp; both are Tensor.to underneath) ----
    def cpu(self, memory_format=torch.preserve_format):
        """This tensor on the CPU: itself if it is there already, else a copy."""
        return self.to("cpu", memory_format=memory_format)

    def cuda(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
        """This tensor on a CUDA device (the current one by default): itself if it is there."""
        if device is None:
            device = torch.device("cuda", torch.cuda.current_device())
        elif isinstance(device, int):
            device = torch.device("cuda", device)
        else:
            device = torch.device(device)
        if device.type != "cuda":
            raise RuntimeError("Invalid device, must be cuda device")
        return self.to(device, non_blocking=non_blocking, memory_format=memory_format)

    def record_stream(self, stream):
        """Mark this CUDA tensor as used by work queued on ``stream``: when it is freed, the
        caching allocator keeps its block until that work has finished, instead of handing it
        to the next allocation on the tensor's own stream (torch/csrc/cuda/Module.cpp)."""
        if not self.is_cuda:
            raise NotImplementedError(
                f"Could not run 'aten::record_stream' with arguments from the '{self.device.type.upper()}' backend.")
        torch._C._cuda_recordStream(self, stream.stream_id, stream.device_index, stream.device_type)

    # ---- printing ----
    def __repr__(self, *, tensor_contents=None):
        from torch import _tensor_str

        return _tensor_str._str(self, tensor_contents=tensor_contents)

    def __format__(self, format_spec):
        if self.dim() == 0:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    # ---- Python protocols ----
    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        # The rows, as views of this tensor (PyTorch: iter(self.unbind(0))).
        return iter(self.unbind(0))

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"
                if self.numel() > 1 else "Boolean value of Tensor with no values is ambiguous"
            )
        return bool(self.item())

    # int(t), float(t), complex(t): one element, converted as a C++ Scalar is (a complex value
    # with an imaginary part is no int or float: PyTorch's overflow error).
    def _python_scalar(self, convert):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return convert(self)

    def __int__(self):
        return self._python_scalar(torch._C._tensor_to_int)

    def __float__(self):
        return self._python_scalar(torch._C._tensor_to_float)

    def __complex__(self):
        return self._python_scalar(lambda t: complex(t.item()))

    def __index__(self):
        if self.dtype.is_floating_point or self.dtype.is_complex or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __hash__(self):
        return id(self)

    def __array__(self, dtype=None, copy=None):
        arr = self.numpy()
        if dtype is None:
            return arr
        return arr.astype(dtype, copy=False)

    # [marker: reduce_ex]
    # How a tensor pickles (PyTorch's Tensor.__reduce_ex__): as a call to
    # torch._utils._rebuild_tensor_v2 over its storage, so that torch.save writes the bytes
    # once per storage and views keep their sharing. Guide: saving_loading.rst.
    def __reduce_ex__(self, proto):
        state = torch._utils._get_obj_state(self)
        if type(self) is Tensor and not state:
            return self._reduce_ex_internal(proto)
        func, args = self._reduce_ex_internal(proto)
        return (_rebuild_from_type_v2, (func, type(self), args, state))

    def _reduce_ex_internal(self, proto):
        # NB: hooks are not serialized (PyTorch's Note [Don't serialize hooks]).
        backward_hooks = OrderedDict()
        args = (self._typed_storage(), self.storage_offset(), tuple(self.size()), self.stride(),
                self.requires_grad, backward_hooks)
        return (torch._utils._rebuild_tensor_v2, args)

    def _typed_storage(self):
        """This tensor's storage as a TypedStorage of its dtype (PyTorch's Tensor._typed_storage)."""
        untyped = self.untyped_storage()
        # the flat tensor over the whole storage (what torch.load rebuilds tensors from)
        flat = self.detach().as_strided((untyped.nbytes() // self.dtype.itemsize,), (1,), 0)
        return torch.storage.TypedStorage(wrap_storage=untyped, dtype=self.dtype, _internal=True, _tensor=flat)
    # [end marker: reduce_ex]

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """t.type() -> 'torch.FloatTensor'; t.type(torch.float64) or t.type('torch.DoubleTensor')
        converts (PyTorch's THPVariable_type): self itself when nothing changes, else t.to(...)."""
        if dtype is None:
            return _legacy_type_name(self)
        if isinstance(dtype, str):
            dtype, device_type = _parse_legacy_type_name(dtype)
        elif isinstance(dtype, torch.dtype):
            device_type = self.device.type
        else:
            raise TypeError("dtype must be a type, str, or dtype object")
        if dtype == self.dtype and device_type == self.device.type:
            return self
        device = self.device if device_type == self.device.type else torch.device(device_type)
        return self.to(device=device, dtype=dtype, non_blocking=non_blocking)

    # ---- __torch_function__ ----
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """The default: run func with subclass handling off, then give results the subclass."""
        if kwargs is None:
            kwargs = {}
        if not all(issubclass(cls, t) for t in types):
            return NotImplemented
        with _C.DisableTorchFunctionSubclass():
            ret = func(*args, **kwargs)
            return _convert(ret, cls)

    # ---- operators: each maps to its method, once the operator exists ----
    __add__ = TensorBase.add
    __radd__ = TensorBase.add
    __iadd__ = TensorBase.add_
    __sub__ = TensorBase.sub
    __isub__ = TensorBase.sub_
    __mul__ = TensorBase.mul
    __rmul__ = TensorBase.mul
    __imul__ = TensorBase.mul_
    __truediv__ = TensorBase.div
    __itruediv__ = TensorBase.div_
    __floordiv__ = TensorBase.floor_divide
    __mod__ = TensorBase.remainder
    __pow__ = TensorBase.pow
    __matmul__ = TensorBase.matmul
    __neg__ = TensorBase.neg
    __abs__ = TensorBase.abs
    __and__ = TensorBase.bitwise_and
    __or__ = TensorBase.bitwise_or
    __xor__ = TensorBase.bitwise_xor
    __invert__ = TensorBase.bitwise_not
    __eq__ = TensorBase.eq
    __ne__ = TensorBase.ne
    __lt__ = TensorBase.lt
    __le__ = TensorBase.le
    __gt__ = TensorBase.gt
    __ge__ = TensorBase.ge
    __rsub__ = _reflected("sub")
    # PyTorch's __rdiv__ (torch/_tensor.py): `other / self` is self.reciprocal() * other, which
    # rounds differently from a true division in the last bit of float32; programs print it.
    def __rtruediv__(self, other):
        return self.reciprocal() * other

    __rpow__ = _reflected("pow")
    __rfloordiv__ = _reflected("floor_divide")
    __rmod__ = _reflected("remainder")
    __rmatmul__ = _reflected("matmul")


# __eq__ is defined, so Python would drop __hash__: tensors hash by identity, as in PyTorch.
Tensor.__hash__ = lambda self: id(self)


_LEGACY_TYPE_NAMES = None


def _clear_grad(t, set_to_none):
    """What Module.zero_grad and Optimizer.zero_grad do to one tensor's ``.grad``.

    ``set_to_none``: drop it, so the next backward allocates a fresh one. Otherwise zero it
    in place, first cutting it out of any graph it was recorded in (create_graph=True).
    """
    if t.grad is None:
        return
    if set_to_none:
        t.grad = None
        return
    if t.grad.grad_fn is not None:
        t.grad.detach_()
    else:
        t.grad.requires_grad_(False)
    t.grad.zero_()


def _parse_legacy_type_name(name):
    """'torch.DoubleTensor' -> (torch.float64, 'cpu'); 'torch.cuda.FloatTensor' -> (torch.float32, 'cuda')."""
    global _LEGACY_TYPE_NAMES
    if _LEGACY_TYPE_NAMES is None:
        _LEGACY_TYPE_NAMES = {}
        for dtype, base in _legacy_names().items():
            _LEGACY_TYPE_NAMES["torch." + base] = (dtype, "cpu")
            _LEGACY_TYPE_NAMES["torch.cuda." + base] = (dtype, "cuda")
    if name not in _LEGACY_TYPE_NAMES:
        raise ValueError(f"invalid type: '{name}'")
    return _LEGACY_TYPE_NAMES[name]


def _legacy_names():
    return {
        torch.float32: "FloatTensor", torch.float64: "DoubleTensor", torch.float16: "HalfTensor",
        torch.bfloat16: "BFloat16Tensor", torch.int64: "LongTensor", torch.int32: "IntTensor",
        torch.int16: "ShortTensor", torch.int8: "CharTensor", torch.uint8: "ByteTensor", torch.bool: "BoolTensor",
        torch.complex64: "ComplexFloatTensor", torch.complex128: "ComplexDoubleTensor",
    }


def _legacy_type_name(t):
    names = {
        torch.float32: "FloatTensor", torch.float64: "DoubleTensor", torch.float16: "HalfTensor",
        torch.bfloat16: "BFloat16Tensor", torch.int64: "LongTensor", torch.int32: "IntTensor",
        torch.int16: "ShortTensor", torch.int8: "CharTensor", torch.uint8: "ByteTensor", torch.bool: "BoolTensor",
        torch.complex64: "ComplexFloatTensor", torch.complex128: "ComplexDoubleTensor",
    }
    prefix = "torch." if t.device.type == "cpu" else f"torch.{t.device.type}."
    return prefix + names.get(t.dtype, "Tensor")


def _rebuild_from_type_v2(func, new_type, args, state):
    """Rebuild a tensor subclass, or a tensor with Python attributes (PyTorch's torch._tensor one)."""
    ret = func(*args)
    if type(ret) is not new_type:
        ret = ret.as_subclass(new_type)
    if getattr(ret.__class__, "__setstate__", None) is not None and "__setstate__" in ret.__class__.__dict__:
        ret.__setstate__(state)
    else:
        ret = torch._utils._set_obj_state(ret, state)
    return ret
