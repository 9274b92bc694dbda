"""The restricted unpickler behind torch.load(..., weights_only=True).

Mirrors PyTorch's torch/_weights_only_unpickler.py. Guide: docs/source/internals/saving_loading.rst

A pickle is a small program for a stack machine; its GLOBAL instruction imports any name
and REDUCE calls it, which is how a file can run ``os.system``. This unpickler interprets
the instructions itself and never imports: a GLOBAL is looked up in an allowlist (torch
types, dtypes, storages, the ``torch._utils._rebuild_*`` functions, OrderedDict, ...) plus
what ``torch.serialization.add_safe_globals`` added; anything else is refused. BUILD,
APPEND and SETITEM act only on the types a state dict is made of.
"""

import functools as _functools
import warnings
from _codecs import encode
from collections import Counter, OrderedDict
from pickle import (
    APPEND, APPENDS, BINFLOAT, BINGET, BININT, BININT1, BININT2, BINPERSID, BINPUT, BINUNICODE, BUILD,
    EMPTY_DICT, EMPTY_LIST, EMPTY_SET, EMPTY_TUPLE, GLOBAL, LONG1, LONG_BINGET, LONG_BINPUT, MARK,
    NEWFALSE, NEWOBJ, NEWTRUE, NONE, PROTO, REDUCE, SETITEM, SETITEMS, SHORT_BINSTRING, STOP, TUPLE,
    TUPLE1, TUPLE2, TUPLE3, UnpicklingError, bytes_types, decode_long,
)
from struct import unpack
from sys import maxsize
from typing import Any

import torch

# Modules whose names are refused outright, whatever the allowlist says.
_blocklisted_modules = ["sys", "os", "posix", "nt"]

# Names PyTorch refuses with a message of their own: types of modules this build does not have.
_NJT_GLOBALS = ["torch.nested._internal.nested_tensor.NestedTensor",
                "torch.nested._internal.nested_tensor._rebuild_njt", "torch._dynamo.decorators._DimRange"]
_DTENSOR_GLOBALS = ["torch.distributed.device_mesh.DeviceMesh", "torch.distributed.tensor._dtensor_spec.DTensorSpec",
                    "torch.distributed.tensor._dtensor_spec.TensorMeta", "torch.distributed.tensor.DTensor",
                    "torch.distributed.tensor.placement_types.Partial",
                    "torch.distributed.tensor.placement_types.Replicate",
                    "torch.distributed.tensor.placement_types.Shard"]

_marked_safe_globals_set: set = set()


def _add_safe_globals(safe_globals):
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set.union(set(safe_globals))


def _get_safe_globals():
    return list(_marked_safe_globals_set)


def _clear_safe_globals():
    global _marked_safe_globals_set
    _marked_safe_globals_set = set()


def _remove_safe_globals(globals_to_remove):
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set - set(globals_to_remove)


class _safe_globals:
    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        _add_safe_globals(self.safe_globals)

    def __exit__(self, type, value, tb):
        _remove_safe_globals(self.safe_globals)


def _get_user_allowed_globals():
    rc: dict[str, Any] = {}
    for f in _marked_safe_globals_set:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(
                    f"Expected tuple of length 2 (global, str of callable full path), but got tuple of length: {len(f)}")
            if type(f[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full path, but got: {type(f[1])}")
            f, name = f
            rc[name] = f
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


def _tensor_rebuild_functions():
    # PyTorch 2.13's list; those this build does not have (quantized, sparse, nested, meta,
    # wrapper-subclass and numpy tensors) are left out.
    names = ["_rebuild_parameter", "_rebuild_parameter_with_state", "_rebuild_qtensor", "_rebuild_tensor",
             "_rebuild_tensor_v2", "_rebuild_tensor_v3", "_rebuild_sparse_tensor",
             "_rebuild_meta_tensor_no_storage", "_rebuild_nested_tensor", "_rebuild_wrapper_subclass",
             "_rebuild_device_tensor_from_numpy", "_rebuild_device_tensor_from_cpu_tensor"]
    return {getattr(torch._utils, name) for name in names if hasattr(torch._utils, name)}


# The dtypes PyTorch 2.13 allows beyond those with a legacy storage name (torch.storage._new_dtypes
# and the sub-byte integers), where this build has them.
_OTHER_DTYPE_NAMES = (
    ["float8_e5m2", "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2",
     "bits8", "bits16", "bits1x8", "bits2x4", "bits4x2", "complex32", "uint16", "uint32", "uint64"]
    + [f"uint{x}" for x in range(1, 8)] + [f"int{x}" for x in range(1, 8)])


# [marker: allowed_globals]
# Exactly PyTorch 2.13's names, for what this build has. A name is looked up here, never
# imported. torch.UntypedStorage is named by its module (torch.storage.UntypedStorage), as
# pickle writes it; the alias torch.UntypedStorage is not a name PyTorch allows.
@_functools.lru_cache(maxsize=1)
def _get_allowed_globals():
    rc: dict[str, Any] = {
        "collections.OrderedDict": OrderedDict,
        "collections.Counter": Counter,
        "torch.serialization._get_layout": torch.serialization._get_layout,
        "torch.Size": torch.Size,
        "torch.Tensor": torch.Tensor,
        "torch.device": torch.device,
        "_codecs.encode": encode,  # for bytes
        "builtins.bytearray": bytearray,  # for bytearray
        "builtins.set": set,  # for set
        "builtins.complex": complex,  # for complex
    }
    if hasattr(torch, "nn") and hasattr(torch.nn, "Parameter"):
        rc["torch.nn.parameter.Parameter"] = torch.nn.Parameter
    # dtype
    for t in torch.storage._dtype_to_storage_type_map():
        rc[str(t)] = t  # "torch.float32" -> torch.float32
    for name in _OTHER_DTYPE_NAMES:
        if isinstance(getattr(torch, name, None), torch.dtype):
            rc[f"torch.{name}"] = getattr(torch, name)
    # Tensor classes (the legacy names: torch.FloatTensor ...)
    for name in torch._legacy_tensor_types.__all__:
        rc[f"torch.{name}"] = getattr(torch, name)
    # Storage classes: a legacy name, CPU or CUDA, stands for its dtype
    # (torch.serialization.StorageType), never the class; the two storage classes are themselves.
    for name in torch.storage._storage_type_to_dtype_map():
        rc[f"torch.{name}"] = rc[f"torch.cuda.{name}"] = torch.serialization.StorageType(name)
    rc["torch.storage.TypedStorage"] = torch.storage.TypedStorage
    rc["torch.storage.UntypedStorage"] = torch.storage.UntypedStorage
    # Rebuild functions. This build has no Tensor.set_, so the two that build a tensor over a
    # storage come with set_'s checks in front (torch/serialization.py, _with_set_checks).
    for f in _tensor_rebuild_functions():
        rc[f"torch._utils.{f.__name__}"] = f
    rc.update(torch.serialization._rebuild_functions_with_set_checks)
    # Handles Tensor Subclasses, Tensor's with attributes.
    rc["torch._tensor._rebuild_from_type_v2"] = torch._tensor._rebuild_from_type_v2
    return rc
# [end marker: allowed_globals]


# Python 2 names, mapped as PyTorch maps them (it keeps these in torch/_utils.py, after
# Lib/_compat_pickle.py), so that a refused name is reported under its Python 3 name.
IMPORT_MAPPING = {
    "__builtin__": "builtins", "copy_reg": "copyreg", "Queue": "queue", "repr": "reprlib",
    "_abcoll": "collections.abc", "UserDict": "collections", "UserList": "collections",
    "UserString": "collections", "whichdb": "dbm", "StringIO": "io", "cStringIO": "io",
}
NAME_MAPPING = {
    ("__builtin__", "xrange"): ("builtins", "range"),
    ("__builtin__", "reduce"): ("functools", "reduce"),
    ("__builtin__", "intern"): ("sys", "intern"),
    ("__builtin__", "unichr"): ("builtins", "chr"),
    ("__builtin__", "unicode"): ("builtins", "str"),
    ("__builtin__", "long"): ("builtins", "int"),
    ("itertools", "izip"): ("builtins", "zip"),
    ("itertools", "imap"): ("builtins", "map"),
    ("itertools", "ifilter"): ("builtins", "filter"),
    ("itertools", "ifilterfalse"): ("itertools", "filterfalse"),
    ("itertools", "izip_longest"): ("itertools", "zip_longest"),
    ("UserDict", "IterableUserDict"): ("collections", "UserDict"),
    ("UserList", "UserList"): ("collections", "UserList"),
    ("UserString", "UserString"): ("collections", "UserString"),
    ("__builtin__", "basestring"): ("builtins", "str"),
    ("exceptions", "StandardError"): ("builtins", "Exception"),
    ("UserDict", "UserDict"): ("collections", "UserDict"),
}


def _read_global_instruction(readline):
    module = readline()[:-1].decode("utf-8")
    name = readline()[:-1].decode("utf-8")
    # Patch since torch.save default protocol is 2: files written under Python 2
    if (module, name) in NAME_MAPPING:
        module, name = NAME_MAPPING[(module, name)]
    elif module in IMPORT_MAPPING:
        module = IMPORT_MAPPING[module]
    return module, name


class Unpickler:
    def __init__(self, file, *, encoding: str = "bytes"):
        self.encoding = encoding
        self.readline = file.readline
        self.read = file.read
        self.memo: dict[int, Any] = {}
        self.proto: int = -1

    def load(self):
        """Read a pickled object representation from the open file, allowing only safe instructions."""
        self.metastack = []
        self.stack: list[Any] = []
        self.append = self.stack.append
        read = self.read
        while True:
            key = read(1)
            if not key:
                raise EOFError
            if not isinstance(key, bytes_types):
                raise AssertionError(f"Expected bytes, got {type(key).__name__}")
            # Risky operators
            if key[0] == GLOBAL[0]:
                module, name = _read_global_instruction(self.readline)
                full_path = f"{module}.{name}"
                if module in _blocklisted_modules:
                    raise UnpicklingError(
                        f"Trying to load unsupported GLOBAL {full_path} whose module {module} is blocked.")
                if full_path in _get_allowed_globals():
                    self.append(_get_allowed_globals()[full_path])
                elif full_path in _get_user_allowed_globals():
                    self.append(_get_user_allowed_globals()[full_path])
                elif full_path in _NJT_GLOBALS:
                    raise UnpicklingError(
                        "``torch.nested`` and ``torch._dynamo`` must be imported to load nested jagged tensors (NJTs)")
                elif full_path in _DTENSOR_GLOBALS:
                    raise UnpicklingError("``torch.distributed.tensor`` must be imported to load DTensors")
                else:
                    if full_path.startswith("builtins."):
                        full_path = full_path[len("builtins."):]
                    raise UnpicklingError(
                        f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
                        f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
                        f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this global "
                        "if you trust this class/function.")
            elif key[0] == NEWOBJ[0]:
                args = self.stack.pop()
                cls = self.stack.pop()
                if hasattr(torch, "nn") and cls is getattr(torch.nn, "Parameter", None):
                    self.append(torch.nn.Parameter(*args))
                elif cls in _get_user_allowed_globals().values() or cls in _get_allowed_globals().values():
                    self.append(cls.__new__(cls, *args))
                else:
                    raise UnpicklingError(
                        "Can only create new object for nn.Parameter or classes allowlisted "
                        f"via `add_safe_globals` but got {cls}")
            elif key[0] == REDUCE[0]:
                args = self.stack.pop()
                func = self.stack[-1]
                if func not in _get_allowed_globals().values() and func not in _get_user_allowed_globals().values():
                    error_msg = f"Trying to call reduce for unrecognized function {func}"
                    if hasattr(func, "__self__"):
                        error_msg += f" which belongs to {func.__self__}"
                    raise UnpicklingError(error_msg)
                self.stack[-1] = func(*args)
            elif key[0] == BUILD[0]:
                state = self.stack.pop()
                inst = self.stack[-1]
                if type(inst) is torch.Tensor:
                    # Legacy unpickling (this build has no Tensor.set_: such a file is refused)
                    inst.set_(*state)
                elif hasattr(torch, "nn") and type(inst) is getattr(torch.nn, "Parameter", None):
                    inst.__setstate__(state)
                elif type(inst) is OrderedDict:
                    inst.__dict__.update(state)
                elif type(inst) in _get_user_allowed_globals().values() or type(inst) in _get_allowed_globals().values():
                    if hasattr(inst, "__setstate__"):
                        inst.__setstate__(state)
                    else:
                        # mimics load_build in pickle
                        slotstate = None
                        if isinstance(state, tuple) and len(state) == 2:
                            state, slotstate = state
                        if state:
                            inst.__dict__.update(state)
                        if slotstate:
                            for k, v in slotstate.items():
                                setattr(inst, k, v)
                else:
                    raise UnpicklingError(
                        "Can only build Tensor, Parameter, OrderedDict or types allowlisted "
                        f"via `add_safe_globals`, but got {type(inst)}")
            # Stack manipulation
            elif key[0] == APPEND[0]:
                item = self.stack.pop()
                list_obj = self.stack[-1]
                if type(list_obj) is not list:
                    raise UnpicklingError(f"Can only append to lists, but got {type(list_obj)}")
                list_obj.append(item)
            elif key[0] == APPENDS[0]:
                items = self.pop_mark()
                list_obj = self.stack[-1]
                if type(list_obj) is not list:
                    raise UnpicklingError(f"Can only extend lists, but got {type(list_obj)}")
                list_obj.extend(items)
            elif key[0] == SETITEM[0]:
                (v, k) = (self.stack.pop(), self.stack.pop())
                self._check_set_item_target("SETITEM")
                self.stack[-1][k] = v
            elif key[0] == SETITEMS[0]:
                items = self.pop_mark()
                self._check_set_item_target("SETITEMS")
                for i in range(0, len(items), 2):
                    self.stack[-1][items[i]] = items[i + 1]
            elif key[0] == MARK[0]:
                self.metastack.append(self.stack)
                self.stack = []
                self.append = self.stack.append
            elif key[0] == TUPLE[0]:
                items = self.pop_mark()
                self.append(tuple(items))
            elif key[0] == TUPLE1[0]:
                self.stack[-1] = (self.stack[-1],)
            elif key[0] == TUPLE2[0]:
                self.stack[-2:] = [(self.stack[-2], self.stack[-1])]
            elif key[0] == TUPLE3[0]:
                self.stack[-3:] = [(self.stack[-3], self.stack[-2], self.stack[-1])]
            # Basic types construction
            elif key[0] == NONE[0]:
                self.append(None)
            elif key[0] == NEWFALSE[0]:
                self.append(False)
            elif key[0] == NEWTRUE[0]:
                self.append(True)
            elif key[0] == EMPTY_TUPLE[0]:
                self.append(())
            elif key[0] == EMPTY_LIST[0]:
                self.append([])
            elif key[0] == EMPTY_DICT[0]:
                self.append({})
            elif key[0] == EMPTY_SET[0]:
                self.append(set())
            elif key[0] == BININT[0]:
                self.append(unpack("<i", read(4))[0])
            elif key[0] == BININT1[0]:
                self.append(self.read(1)[0])
            elif key[0] == BININT2[0]:
                self.append(unpack("<H", read(2))[0])
            elif key[0] == BINFLOAT[0]:
                self.append(unpack(">d", self.read(8))[0])
            elif key[0] == BINUNICODE[0]:
                strlen = unpack("<I", read(4))[0]
                if strlen > maxsize:
                    raise UnpicklingError("String is too long")
                self.append(str(read(strlen), "utf-8", "surrogatepass"))
            elif key[0] == SHORT_BINSTRING[0]:
                strlen = read(1)[0]
                strdata = read(strlen)
                if self.encoding != "bytes":
                    strdata = strdata.decode(self.encoding, "strict")
                self.append(strdata)
            elif key[0] == BINPERSID[0]:
                pid = self.stack.pop()
                # Only allow persistent load of storage
                if type(pid) is not tuple and type(pid) is not int:
                    raise UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
                if type(pid) is tuple and len(pid) > 0 and torch.serialization._maybe_decode_ascii(pid[0]) != "storage":
                    raise UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
                self.append(self.persistent_load(pid))
            elif key[0] in [BINGET[0], LONG_BINGET[0]]:
                idx = (read(1) if key[0] == BINGET[0] else unpack("<I", read(4)))[0]
                self.append(self.memo[idx])
            elif key[0] in [BINPUT[0], LONG_BINPUT[0]]:
                i = (read(1) if key[0] == BINPUT[0] else unpack("<I", read(4)))[0]
                if i < 0:
                    raise ValueError("negative argument")
                self.memo[i] = self.stack[-1]
            elif key[0] == LONG1[0]:
                n = read(1)[0]
                self.append(decode_long(read(n)))
            # First and last deserializer ops
            elif key[0] == PROTO[0]:
                self.proto = read(1)[0]
                if self.proto != 2:
                    warnings.warn(
                        f"Detected pickle protocol {self.proto} in the checkpoint, which was "
                        "not the default pickle protocol used by `torch.load` (2). The weights_only "
                        "Unpickler might not support all instructions implemented by this protocol, "
                        "please file an issue for adding support if you encounter this.", stacklevel=2)
            elif key[0] == STOP[0]:
                return self.stack.pop()
            else:
                raise UnpicklingError(f"Unsupported operand {key[0]}")

    def pop_mark(self):
        """The items pushed on the stack since the last MARK."""
        items = self.stack
        self.stack = self.metastack.pop()
        self.append = self.stack.append
        return items

    def _check_set_item_target(self, opcode: str):
        if type(self.stack[-1]) not in [dict, OrderedDict, Counter]:
            raise UnpicklingError(
                f"Can only {opcode} for dict, collections.OrderedDict, "
                f"collections.Counter, but got {type(self.stack[-1])}")

    def persistent_load(self, pid):
        raise UnpicklingError("unsupported persistent id encountered")


def load(file, *, encoding: str = "ASCII"):
    return Unpickler(file, encoding=encoding).load()
