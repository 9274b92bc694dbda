"""torch.save and torch.load: objects with tensors to a file in PyTorch's zip format, and back.

Mirrors PyTorch's torch/serialization.py (and, for the zip container, the PyTorchStreamWriter /
PyTorchStreamReader of caffe2/serialize/inline_container.cc, written here in Python).
Guide: docs/source/internals/saving_loading.rst

The file is a zip archive (stored, not compressed) whose records live under one folder,
``<archive_name>/`` (the file's name without its extension, or ``archive`` for a buffer):

    archive/data.pkl                 the object, pickled; each storage is a persistent id
                                     ('storage', torch.FloatStorage, '0', 'cpu', numel)
    archive/.format_version          "1"
    archive/.storage_alignment       "64"
    archive/byteorder                "little"
    archive/data/0, data/1, ...      the raw bytes of each storage, once, 64-byte aligned
    archive/version                  "3"
    archive/.data/serialization_id   40 digits naming this save

A tensor pickles as ``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, ...)``
(torch/_tensor.py), so views of one storage share one record, and share one storage again
after loading.
"""

import ctypes
import io
import os
import pickle
import random
import re
import struct
import sys
import threading
import zipfile
import zlib
from typing import Any

import torch
import torch._utils
import torch._weights_only_unpickler as _weights_only_unpickler
from torch.storage import _get_dtype_from_pickle_storage_type

DEFAULT_PROTOCOL = 2

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a "
    "trusted source."
)

__all__ = ["save", "load", "register_package", "location_tag", "default_restore_location",
           "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals", "StorageType"]


class _SerializationLocal(threading.local):
    def __init__(self):
        super().__init__()
        self.map_location = None
        # This build has no Tensor.set_: while loading, each storage made from a record is
        # remembered with the flat tensor over it (by StorageImpl address), so that a storage
        # moved by map_location can still be turned back into tensors.
        self.storage_tensors = {}


_serialization_tls = _SerializationLocal()


# ---- safe globals for weights_only=True (torch/_weights_only_unpickler.py) ----

def clear_safe_globals() -> None:
    """Clears the list of globals that are safe for ``weights_only`` load."""
    _weights_only_unpickler._clear_safe_globals()


def get_safe_globals():
    """Returns the list of user-added globals that are safe for ``weights_only`` load."""
    return _weights_only_unpickler._get_safe_globals()


def add_safe_globals(safe_globals) -> None:
    """Marks the given globals as safe for ``weights_only`` load (a class, a function, or
    a ``(global, "module.name")`` pair)."""
    _weights_only_unpickler._add_safe_globals(safe_globals)


class safe_globals(_weights_only_unpickler._safe_globals):
    """Context manager that adds certain globals as safe for ``weights_only`` load."""


# ---- locations: where a storage lives, and how to put it back there ----
# [marker: location_tags]
_package_registry = []


def register_package(priority, tagger, deserializer):
    """Register a tagger (storage -> location string or None) and a deserializer
    ((storage, location) -> storage or None), tried in priority order."""
    queue_elem = (priority, tagger, deserializer)
    _package_registry.append(queue_elem)
    _package_registry.sort()


def _cpu_tag(obj):
    if obj.device.type == "cpu":
        return "cpu"


def _cuda_tag(obj):
    if obj.device.type == "cuda":
        return "cuda" if obj.device.index is None else "cuda:" + str(obj.device.index)


def _cpu_deserialize(obj, location):
    if location == "cpu":
        return obj


def _validate_device(location, backend_name):
    device_module = getattr(torch, backend_name)
    device = torch.device(location)
    device_index = device.index if device.index else 0
    if not device_module.is_available():
        raise RuntimeError(
            f"Attempting to deserialize object on a {backend_name.upper()} "
            f"device but torch.{backend_name}.is_available() is False. "
            "If you are running on a CPU-only machine, "
            "please use torch.load with map_location=torch.device('cpu') "
            "to map your storages to the CPU.")
    device_count = device_module.device_count()
    if device_index >= device_count:
        raise RuntimeError(
            f"Attempting to deserialize object on {backend_name.upper()} device "
            f"{device_index} but torch.{backend_name}.device_count() is {device_count}. "
            "Please use torch.load with map_location to map your storages "
            "to an existing device.")
    return torch.device(backend_name, device_index)


def _cuda_deserialize(obj, location):
    if location == "cuda" or re.match("cuda(:|[0-9]+)", location):
        device = _validate_device(location, "cuda")
        return _storage_to(obj, device)  # PyTorch: obj.to(device=device)


register_package(10, _cpu_tag, _cpu_deserialize)
register_package(20, _cuda_tag, _cuda_deserialize)


def location_tag(storage):
    for _, tagger, _ in _package_registry:
        location = tagger(storage)
        if location:
            return location
    raise RuntimeError("don't know how to determine data location of " + torch.typename(storage))


def default_restore_location(storage, location):
    """Restore ``storage`` with the first registered deserializer that accepts ``location``."""
    for _, _, fn in _package_registry:
        result = fn(storage, location)
        if result is not None:
            return result
    raise RuntimeError("don't know how to restore data location of " + torch.typename(storage)
                       + " (tagged with " + location + ")")
# [end marker: location_tags]


def _storage_to(storage, device):
    """A copy of a loaded storage on ``device`` (through the flat tensor over it)."""
    tensor = _serialization_tls.storage_tensors[storage._cdata].to(device)
    moved = tensor.untyped_storage()
    _serialization_tls.storage_tensors[moved._cdata] = tensor
    return moved


def _get_restore_location(map_location):
    if map_location is None:
        restore_location = default_restore_location
    elif isinstance(map_location, dict):
        def restore_location(storage, location):
            location = map_location.get(location, location)
            return default_restore_location(storage, location)
    elif isinstance(map_location, (str, bytes)):
        def restore_location(storage, location):
            return default_restore_location(storage, map_location)
    elif isinstance(map_location, torch.device):
        def restore_location(storage, location):
            return default_restore_location(storage, str(map_location))
    else:
        def restore_location(storage, location):
            result = map_location(storage, location)
            if result is None:
                result = default_restore_location(storage, location)
            return result
    return restore_location


# ---- the zip container (caffe2/serialize/inline_container.cc in PyTorch) ----
# [marker: zip_writer]
class _PyTorchFileWriter:
    """Writes records into a zip archive under ``<archive_name>/``, each record's bytes
    starting at a multiple of 64 in the file (PyTorchStreamWriter, kFieldAlignment), so a
    loader can map the file and use the bytes in place. The padding goes in a local-header
    extra field with id ``FB``, filled with ``Z``, as PyTorch writes it."""

    alignment = 64

    def __init__(self, file, archive_name="archive"):
        self.archive_name = archive_name
        self.zip = zipfile.ZipFile(file, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True)
        self.written = []

    def write_record(self, name, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        info = zipfile.ZipInfo(f"{self.archive_name}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
        # header: 30 fixed bytes + file name + extra field (4 bytes of id and size + padding)
        header_end = self.zip.start_dir + 30 + len(info.filename.encode("utf-8")) + 4
        if len(data) > zipfile.ZIP64_LIMIT:
            header_end += 20  # zipfile adds a zip64 extra field to the local header
        padding = -header_end % self.alignment
        info.extra = b"FB" + struct.pack("<H", padding) + b"Z" * padding
        self.zip.writestr(info, data)
        self.written.append((name, zlib.crc32(data)))

    def write_end_of_file(self):
        self.write_record("version", "3\n")
        # PyTorch: 20 digits of a random number, then 20 of a hash of the records written.
        records_hash = zlib.crc32(repr(self.written).encode()) * 0x9E3779B1 % 10**20
        self.write_record(".data/serialization_id", f"{random.getrandbits(64) % 10**20:020d}{records_hash:020d}")
        self.zip.close()
# [end marker: zip_writer]


class _PyTorchFileReader:
    """Reads the records of a zip archive written by torch.save (PyTorchStreamReader)."""

    def __init__(self, file):
        self.zip = zipfile.ZipFile(file, mode="r")
        names = self.zip.namelist()
        if not names:
            raise RuntimeError("PytorchStreamReader failed reading zip archive: no records")
        # the archive name is the folder of the first record
        self.archive_name = names[0].split("/")[0]
        self.prefix = self.archive_name + "/"
        self.records = {n[len(self.prefix):] for n in names if n.startswith(self.prefix)}

    def has_record(self, name):
        return name in self.records

    def get_record(self, name):
        if name not in self.records:
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found")
        return self.zip.read(self.prefix + name)

    def get_all_records(self):
        return sorted(self.records)

    def get_record_offset(self, name):
        """Where the bytes of record ``name`` start in the file (after its local header)."""
        info = self.zip.getinfo(self.prefix + name)
        self.zip.fp.seek(info.header_offset + 26)
        name_len, extra_len = struct.unpack("<HH", self.zip.fp.read(4))
        return info.header_offset + 30 + name_len + extra_len

    def serialization_id(self):
        if self.has_record(".data/serialization_id"):
            return self.get_record(".data/serialization_id").decode()
        return ""


def _is_path(name_or_buffer):
    return isinstance(name_or_buffer, (str, os.PathLike))


def _is_zipfile(f):
    start = f.tell()
    byte = f.read(4)
    f.seek(start)
    return byte == b"PK\x03\x04"


def _archive_name(f):
    """The folder the records go in: the file's name without its extension, else 'archive'."""
    if _is_path(f):
        base = os.path.basename(os.fspath(f))
        stem, dot, _ = base.rpartition(".")
        return stem if dot and stem else base
    return "archive"


def _check_save_filelike(f):
    if not _is_path(f) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")


def _maybe_decode_ascii(bytes_str):
    # Internal keys (typename, location) stored as bytes by Python 2 come back as bytes.
    if isinstance(bytes_str, bytes):
        return bytes_str.decode("ascii")
    return bytes_str


def _storage_bytes(storage):
    """The raw bytes of a storage (a TypedStorage, a legacy storage or an UntypedStorage)."""
    untyped = storage._untyped_storage if isinstance(storage, torch.storage.TypedStorage) else storage
    nbytes = untyped.nbytes()
    if nbytes == 0:
        return b""
    if untyped.device.type != "cpu":
        # copy through the flat tensor over the storage (the storage itself cannot cross devices)
        flat = storage._base_tensor().cpu()
        return ctypes.string_at(flat.data_ptr(), nbytes)
    return ctypes.string_at(untyped.data_ptr(), nbytes)


# ---- save ----

def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True)

    Saves an object to a disk file (a path, or a file-like object with ``write``), in
    PyTorch's zip format: the pickle of ``obj`` and one record per storage. Storage sharing
    is kept: views of one tensor are saved with one copy of its bytes.
    """
    _check_save_filelike(f)
    if not _use_new_zipfile_serialization:
        raise NotImplementedError(
            "torch.save: this build writes only the zip format (PyTorch >= 1.6); "
            "_use_new_zipfile_serialization=False is not supported")
    if _is_path(f):
        f = os.fspath(f)
        with open(f, "wb") as opened_file:
            writer = _PyTorchFileWriter(opened_file, _archive_name(f))
            _save(obj, writer, pickle_module, pickle_protocol, _disable_byteorder_record)
    else:
        writer = _PyTorchFileWriter(f, "archive")
        _save(obj, writer, pickle_module, pickle_protocol, _disable_byteorder_record)
        if hasattr(f, "flush"):
            f.flush()


# [marker: save]
def _save(obj, zip_file, pickle_module, pickle_protocol, _disable_byteorder_record):
    serialized_storages = {}
    id_map: dict[int, str] = {}
    # Storages that view the same data must be saved with the same dtype.
    storage_dtypes: dict[int, torch.dtype] = {}

    def persistent_id(obj):
        if isinstance(obj, torch.storage.TypedStorage) or isinstance(obj, torch.storage._LegacyStorage):
            if isinstance(obj, torch.storage.TypedStorage):
                storage = obj._untyped_storage
                storage_type = getattr(torch, obj._pickle_storage_type())
            else:  # a legacy TH storage (torch.FloatStorage ...)
                storage = obj.untyped()
                storage_type = type(obj)
            storage_dtype = obj.dtype
            storage_numel = storage.nbytes() // storage_dtype.itemsize
        elif isinstance(obj, torch.UntypedStorage):
            storage = obj
            storage_dtype = torch.uint8
            storage_type = torch.UntypedStorage
            storage_numel = storage.nbytes()
        else:
            return None

        if str(storage.device) != "meta" and storage.data_ptr() != 0:
            if storage.data_ptr() in storage_dtypes:
                if storage_dtype != storage_dtypes[storage.data_ptr()]:
                    raise RuntimeError(
                        "Cannot save multiple tensors or storages that view the same data as different types")
            else:
                storage_dtypes[storage.data_ptr()] = storage_dtype

        # One key per StorageImpl: every view of it refers to the same record.
        storage_key = id_map.setdefault(storage._cdata, str(len(id_map)))
        location = location_tag(storage)
        serialized_storages[storage_key] = obj
        return ("storage", storage_type, storage_key, location, storage_numel)

    # Write the pickle data for `obj`
    data_buf = io.BytesIO()

    class PyTorchPickler(pickle_module.Pickler):
        def persistent_id(self, obj):
            return persistent_id(obj)

    pickler = PyTorchPickler(data_buf, protocol=pickle_protocol)
    pickler.dump(obj)
    zip_file.write_record("data.pkl", data_buf.getvalue())
    zip_file.write_record(".format_version", "1")
    zip_file.write_record(".storage_alignment", str(_PyTorchFileWriter.alignment))
    if not _disable_byteorder_record:
        zip_file.write_record("byteorder", sys.byteorder)
    # Write each storage to a record named data/<key>
    for key, storage in serialized_storages.items():
        zip_file.write_record(f"data/{key}", _storage_bytes(storage))
    zip_file.write_end_of_file()
# [end marker: save]


# ---- load ----

def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """load(f, map_location=None, pickle_module=pickle, *, weights_only=True, mmap=None, **pickle_load_args)

    Loads an object saved with :func:`torch.save` from a file (a path, or a file-like object
    with ``read``, ``readline``, ``tell`` and ``seek``). Storages are read on the CPU, then
    put where they were saved from, or where ``map_location`` says (a device, a string, a
    dict from saved location to new one, or a callable ``(storage, location) -> storage``).

    With ``weights_only=True`` (the default) the pickle may name only tensors, dtypes,
    containers and globals added with :func:`add_safe_globals`; anything else raises
    ``pickle.UnpicklingError``. ``weights_only=False`` runs the pickle as it is: only for
    files from a trusted source.
    """
    DOCS_MESSAGE = (
        "\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")

    def _get_wo_message(message: str) -> str:
        has_unsafe_global = re.search(r"GLOBAL (\S+) was not an allowed global by default.", message) is not None
        has_blocklist = re.search(r"whose module (\S+) is blocked", message) is not None
        if has_unsafe_global:
            updated_message = (
                "Weights only load failed. This file can still be loaded, to do so you have two options, "
                "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
                f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
                "the recommended steps in the following error message.\n\tWeightsUnpickler error: " + message)
        else:
            updated_message = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
            if not has_blocklist:
                updated_message += (
                    "Please file an issue with the following so that we can make "
                    "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
            updated_message += "\n\n" + message
        return updated_message + DOCS_MESSAGE

    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only:
        if pickle_module is not None:
            raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    elif pickle_module is None:
        pickle_module = pickle
    if "encoding" not in pickle_load_args:
        pickle_load_args["encoding"] = "utf-8"

    if _is_path(f):
        with open(f, "rb") as opened_file:
            return _load_from(opened_file, f, map_location, pickle_module, weights_only, mmap, _get_wo_message,
                              pickle_load_args)
    return _load_from(f, f, map_location, pickle_module, weights_only, mmap, _get_wo_message, pickle_load_args)


def _load_from(opened_file, f, map_location, pickle_module, weights_only, mmap, _get_wo_message,
               pickle_load_args):
    if not _is_zipfile(opened_file):
        if opened_file.read(1) == b"":
            raise EOFError("")
        raise RuntimeError(
            "torch.load: this file is not in PyTorch's zip format; files written with "
            "torch.save(..., _use_new_zipfile_serialization=False) or before PyTorch 1.6 are not "
            "supported by this build")
    opened_zipfile = _PyTorchFileReader(opened_file)
    if "constants.pkl" in opened_zipfile.records:
        raise RuntimeError("torch.load: this is a TorchScript archive (torch.jit.save); this build has no torch.jit")
    overall_storage = None
    if mmap:
        if not _is_path(f):
            raise ValueError("f must be a file path in order to use the mmap argument")
        # A uint8 tensor over the whole file, mapped (THMapAllocator): records are used in place.
        size = os.path.getsize(f)
        overall_storage = torch.ByteStorage.from_file(os.fspath(f), False, size)._legacy_tensor()
    if weights_only:
        try:
            return _load(opened_zipfile, map_location, _weights_only_unpickler,
                         overall_storage=overall_storage, **pickle_load_args)
        except pickle.UnpicklingError as e:
            raise pickle.UnpicklingError(_get_wo_message(str(e))) from None
    return _load(opened_zipfile, map_location, pickle_module, overall_storage=overall_storage, **pickle_load_args)


class StorageType:
    """What a storage name in a file (``torch.FloatStorage``) unpickles to: its dtype."""

    def __init__(self, name):
        self._dtype = _get_dtype_from_pickle_storage_type(name)

    @property
    def dtype(self):
        return self._dtype

    def __str__(self):
        return f"StorageType(dtype={self.dtype})"

    def __eq__(self, other):
        return isinstance(other, StorageType) and other._dtype == self._dtype

    def __hash__(self):
        return hash(self._dtype)


def _byteswap(data, dtype):
    """The bytes of elements of dtype, each element's bytes reversed (a complex's two halves apart)."""
    width = dtype.itemsize // 2 if dtype.is_complex else dtype.itemsize
    if width == 1:
        return data
    out = bytearray(data)
    for i in range(0, len(out), width):
        out[i:i + width] = out[i:i + width][::-1]
    return bytes(out)


# [marker: load]
def _load(zip_file, map_location, pickle_module, pickle_file="data.pkl", overall_storage=None, **pickle_load_args):
    restore_location = _get_restore_location(map_location)
    loaded_storages = {}

    byteorderdata = b"little"  # files without a byteorder record are little-endian
    if zip_file.has_record("byteorder"):
        byteorderdata = zip_file.get_record("byteorder")
        if byteorderdata not in [b"little", b"big"]:
            raise ValueError("Unknown endianness type: " + byteorderdata.decode())

    def load_tensor(dtype, nbytes, key, location):
        name = f"data/{key}"
        numel = nbytes // dtype.itemsize
        if overall_storage is not None and nbytes > 0 and byteorderdata.decode() == sys.byteorder:
            # mmap: the elements are the file's bytes, where the record starts (64-aligned)
            offset = zip_file.get_record_offset(name)
            tensor = overall_storage[offset:offset + nbytes].view(dtype)
        else:
            data = zip_file.get_record(name)
            if byteorderdata.decode() != sys.byteorder:
                data = _byteswap(data, dtype)
            # PyTorch reads the record into a new UntypedStorage; here into a flat tensor's storage.
            tensor = torch.empty(numel, dtype=dtype)
            if nbytes > 0:
                ctypes.memmove(tensor.data_ptr(), data, nbytes)
        storage = tensor.untyped_storage()
        _serialization_tls.storage_tensors[storage._cdata] = tensor
        wrap_storage = restore_location(storage, location)
        if wrap_storage._cdata not in _serialization_tls.storage_tensors:
            raise NotImplementedError(
                "torch.load: map_location returned a storage that torch.load did not make; this build has no "
                "Tensor.set_, so map_location may return the storage it was given, None, or a storage from "
                "torch.serialization.default_restore_location")
        typed_storage = torch.storage.TypedStorage(
            wrap_storage=wrap_storage, dtype=dtype, _internal=True,
            _tensor=_serialization_tls.storage_tensors[wrap_storage._cdata])
        loaded_storages[key] = typed_storage
        return typed_storage

    def persistent_load(saved_id):
        assert isinstance(saved_id, tuple)
        typename = _maybe_decode_ascii(saved_id[0])
        data = saved_id[1:]
        assert typename == "storage", f"Unknown typename for persistent_load, expected 'storage' but got '{typename}'"
        storage_type, key, location, numel = data
        if storage_type is torch.UntypedStorage:
            dtype = torch.uint8
        else:
            dtype = storage_type.dtype
        if key in loaded_storages:
            typed_storage = loaded_storages[key]
        else:
            nbytes = numel * torch._utils._element_size(dtype)
            typed_storage = load_tensor(dtype, nbytes, key, _maybe_decode_ascii(location))
        return typed_storage

    load_module_mapping: dict[str, str] = {
        # See https://github.com/pytorch/pytorch/pull/51633
        "torch.tensor": "torch._tensor"
    }

    # Need to subclass Unpickler instead of directly monkey-patching the find_class method
    # because it's marked readonly in pickle.
    class UnpicklerWrapper(pickle_module.Unpickler):
        # A storage name (torch.FloatStorage) stands for its dtype; module paths that moved
        # are mapped to where they are now.
        def find_class(self, mod_name, name):
            if type(name) is str and "Storage" in name:
                try:
                    return StorageType(name)
                except KeyError:
                    pass
            mod_name = load_module_mapping.get(mod_name, mod_name)
            return super().find_class(mod_name, name)

    # Load the data (which may in turn use `persistent_load` to load tensors)
    data_file = io.BytesIO(zip_file.get_record(pickle_file))
    unpickler = UnpicklerWrapper(data_file, **pickle_load_args)
    unpickler.persistent_load = persistent_load
    _serialization_tls.map_location = map_location
    try:
        result = unpickler.load()
    finally:
        _serialization_tls.map_location = None
        _serialization_tls.storage_tensors = {}
    return result
# [end marker: load]


def _get_layout(name):
    """Get layout extension object from its string representation."""
    return getattr(torch, name[len("torch."):] if name.startswith("torch.") else name)
