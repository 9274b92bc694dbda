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

import copyreg
import ctypes
import functools
import inspect
import io
import os
import pickle
import random
import re
import struct
import sys
import threading
import warnings
import zipfile
import zlib

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


# ---- the zip container, read back (PyTorchStreamReader over miniz) ----
# [marker: zip_reader]
# PyTorch reads its files with miniz (third_party/miniz), and PyTorchStreamReader
# (caffe2/serialize/inline_container.cc) turns the error miniz leaves behind into a
# RuntimeError after each step: "PytorchStreamReader failed <step> <record>: <miniz error>".
# A damaged or hostile file fails wherever miniz's checks catch it, so this reader makes the
# same checks in the same order, to give the same error for the same file. miniz is built
# there with MINIZ_DISABLE_ZIP_READER_CRC32_CHECKS: a record's CRC-32 is never checked, and
# flipped bits inside a record's bytes load as they are, in PyTorch as here.

_ZIP_ERROR_SUFFIX = (
    ". This is an internal miniz error. If you are seeing this error, there is a high likelihood that "
    "your checkpoint file is corrupted. This can happen if the checkpoint was not saved properly, was "
    "transferred incorrectly, or the file was modified after saving.")
_MZ_UINT32_MAX = 0xFFFFFFFF
_EOCD_SIG, _EOCD_SIZE = 0x06054B50, 22                       # end of central directory
_ZIP64_LOCATOR_SIG, _ZIP64_LOCATOR_SIZE = 0x07064B50, 20
_ZIP64_EOCD_SIG, _ZIP64_EOCD_SIZE = 0x06064B50, 56
_CDH_SIG, _CDH_SIZE = 0x02014B50, 46                         # central directory header
_LDH_SIG, _LDH_SIZE = 0x04034B50, 30                         # local header, before each record


class _MinizError(Exception):
    """An mz_zip_error, by the text mz_zip_get_error_string gives it."""


def _le(buf, ofs, n):
    return int.from_bytes(buf[ofs:ofs + n], "little")


def _c_str(name: bytes) -> bytes:
    # PyTorch passes record names to miniz, and its messages to Python, as C strings.
    return name.split(b"\0", 1)[0]


_ASCII_LOWER = bytes.maketrans(bytes(range(65, 91)), bytes(range(97, 123)))  # MZ_TOLOWER


class _ZipReader:
    """miniz's zip reader (mz_zip_reader_init, _locate_file, _file_stat, _extract_to_mem).

    ``read(pos, n)`` reads up to n bytes at pos; ``readinto(pos, view)`` fills a writable view."""

    def __init__(self, read, readinto, archive_size):
        self.read, self.readinto, self.archive_size = read, readinto, archive_size
        self.zip64 = False
        self.zip64_has_extended_info_fields = False
        self._read_central_dir()

    # mz_zip_reader_locate_header_sig: scan back from the end, 4 KiB at a time, for the last
    # signature that leaves a whole record after it, no further back than 64 KiB (a comment).
    def _locate_eocd(self):
        size = self.archive_size
        cur = max(size - 4096, 0)
        while True:
            n = min(4096, size - cur)
            buf = self.read(cur, n)
            if len(buf) != n:
                return None
            end = min(n, size - _EOCD_SIZE - cur + 4)
            i = buf.rfind(_EOCD_SIG.to_bytes(4, "little"), 0, end) if end >= 4 else -1
            if i >= 0:
                return cur + i
            if cur == 0 or size - cur >= 0xFFFF + _EOCD_SIZE:
                return None
            cur = max(cur - (4096 - 3), 0)

    # mz_zip_reader_read_central_dir
    def _read_central_dir(self):
        size = self.archive_size
        if size < _EOCD_SIZE:
            raise _MinizError("not a ZIP archive")
        ofs = self._locate_eocd()
        if ofs is None:
            raise _MinizError("failed finding central directory")
        eocd = self.read(ofs, _EOCD_SIZE)
        if len(eocd) != _EOCD_SIZE:
            raise _MinizError("file read failed")
        if _le(eocd, 0, 4) != _EOCD_SIG:
            raise _MinizError("not a ZIP archive")
        locator = zip64_eocd = b""
        if ofs >= _ZIP64_LOCATOR_SIZE + _ZIP64_EOCD_SIZE:
            locator = self.read(ofs - _ZIP64_LOCATOR_SIZE, _ZIP64_LOCATOR_SIZE)
            if len(locator) == _ZIP64_LOCATOR_SIZE and _le(locator, 0, 4) == _ZIP64_LOCATOR_SIG:
                zip64_ofs = _le(locator, 8, 8)
                if zip64_ofs > size - _ZIP64_EOCD_SIZE:
                    raise _MinizError("not a ZIP archive")
                zip64_eocd = self.read(zip64_ofs, _ZIP64_EOCD_SIZE)
                if len(zip64_eocd) == _ZIP64_EOCD_SIZE and _le(zip64_eocd, 0, 4) == _ZIP64_EOCD_SIG:
                    self.zip64 = True
        total_files, entries_on_this_disk = _le(eocd, 10, 2), _le(eocd, 8, 2)
        num_this_disk, cdir_disk_index = _le(eocd, 4, 2), _le(eocd, 6, 2)
        cdir_size, cdir_ofs = _le(eocd, 12, 4), _le(eocd, 16, 4)
        if self.zip64:
            if _le(zip64_eocd, 4, 8) < _ZIP64_EOCD_SIZE - 12:
                raise _MinizError("invalid header or archive is corrupted")
            if _le(locator, 16, 4) != 1:
                raise _MinizError("unsupported multidisk archive")
            total_files, entries_on_this_disk = _le(zip64_eocd, 32, 8), _le(zip64_eocd, 24, 8)
            if total_files > _MZ_UINT32_MAX or entries_on_this_disk > _MZ_UINT32_MAX:
                raise _MinizError("too many files")
            cdir_size = _le(zip64_eocd, 40, 8)
            if cdir_size > _MZ_UINT32_MAX:
                raise _MinizError("unsupported central directory size")
            num_this_disk, cdir_disk_index = _le(zip64_eocd, 16, 4), _le(zip64_eocd, 20, 4)
            cdir_ofs = _le(zip64_eocd, 48, 8)
        if total_files != entries_on_this_disk:
            raise _MinizError("unsupported multidisk archive")
        if (num_this_disk | cdir_disk_index) != 0 and (num_this_disk != 1 or cdir_disk_index != 1):
            raise _MinizError("unsupported multidisk archive")
        if cdir_size < total_files * _CDH_SIZE or cdir_ofs + cdir_size > size:
            raise _MinizError("invalid header or archive is corrupted")
        self.offsets = []  # where each file's header starts in self.central_dir, in file order
        self.central_dir = b""
        if total_files:
            self.central_dir = cd = self.read(cdir_ofs, cdir_size)
            if len(cd) != cdir_size:
                raise _MinizError("file read failed")
            p, n = 0, cdir_size
            for _ in range(total_files):
                if n < _CDH_SIZE or _le(cd, p, 4) != _CDH_SIG:
                    raise _MinizError("invalid header or archive is corrupted")
                self.offsets.append(p)
                comp_size, decomp_size, local_header_ofs = _le(cd, p + 20, 4), _le(cd, p + 24, 4), _le(cd, p + 42, 4)
                filename_size, ext_data_size = _le(cd, p + 28, 2), _le(cd, p + 30, 2)
                if (not self.zip64_has_extended_info_fields and ext_data_size
                        and max(comp_size, decomp_size, local_header_ofs) == _MZ_UINT32_MAX):
                    if _CDH_SIZE + filename_size + ext_data_size > n:
                        # (miniz reads it from the start of the central directory, not this header)
                        extra = self.read(cdir_ofs + _CDH_SIZE + filename_size, ext_data_size)
                        if len(extra) != ext_data_size:
                            raise _MinizError("file read failed")
                    else:
                        extra = cd[p + _CDH_SIZE + filename_size:p + _CDH_SIZE + filename_size + ext_data_size]
                    if self._find_zip64_field(extra) is not None:
                        # an archive not marked zip64 that uses zip64 fields is zip64 anyway
                        self.zip64 = self.zip64_has_extended_info_fields = True
                if comp_size != _MZ_UINT32_MAX and decomp_size != _MZ_UINT32_MAX:
                    # (miniz reads method and modification time as one 32-bit word here)
                    if (_le(cd, p + 10, 4) == 0 and decomp_size != comp_size) or (decomp_size and not comp_size):
                        raise _MinizError("invalid header or archive is corrupted")
                disk_index = _le(cd, p + 34, 2)
                if disk_index == 0xFFFF or (disk_index != num_this_disk and disk_index != 1):
                    raise _MinizError("unsupported multidisk archive")
                if comp_size != _MZ_UINT32_MAX and local_header_ofs + _LDH_SIZE + comp_size > size:
                    raise _MinizError("invalid header or archive is corrupted")
                if _le(cd, p + 8, 2) & 0x2000:  # the local directory is masked (encrypted)
                    raise _MinizError("unsupported encryption")
                total_header_size = _CDH_SIZE + filename_size + ext_data_size + _le(cd, p + 32, 2)
                if total_header_size > n:
                    raise _MinizError("invalid header or archive is corrupted")
                n -= total_header_size
                p += total_header_size
        self._sort_by_filename()

    @staticmethod
    def _find_zip64_field(extra):
        """The zip64 extended information field (id 1) among extra fields, or None."""
        q, remaining = 0, len(extra)
        while remaining:
            if remaining < 4:
                raise _MinizError("invalid header or archive is corrupted")
            field_id, field_size = _le(extra, q, 2), _le(extra, q + 2, 2)
            if field_size + 4 > remaining:
                raise _MinizError("invalid header or archive is corrupted")
            if field_id == 0x0001:
                return extra[q + 4:q + 4 + field_size]
            q += 4 + field_size
            remaining -= 4 + field_size
        return None

    def num_files(self):
        return len(self.offsets)

    def filename(self, index) -> bytes:
        p = self.offsets[index]
        return self.central_dir[p + _CDH_SIZE:p + _CDH_SIZE + _le(self.central_dir, p + 28, 2)]

    # Records are found by a binary search over the names sorted without case (ASCII), after
    # miniz's own heap sort (mz_zip_reader_sort_central_dir_offsets_by_filename), so that
    # names equal but for case resolve to the same record as there. miniz compares bytes
    # lowered, a shorter name first when one is the other's start: as Python compares bytes.
    def _sort_by_filename(self):
        self.lowered = [self.filename(i).translate(_ASCII_LOWER) for i in range(len(self.offsets))]
        key = self.lowered
        idx = list(range(len(self.offsets)))
        size = len(idx)

        def sift(root, end):
            while True:
                child = root * 2 + 1
                if child >= end:
                    return
                if child + 1 < end and key[idx[child]] < key[idx[child + 1]]:
                    child += 1
                if not key[idx[root]] < key[idx[child]]:
                    return
                idx[root], idx[child] = idx[child], idx[root]
                root = child

        if size > 1:
            for start in range((size - 2) >> 1, -1, -1):
                sift(start, size)
            for end in range(size - 1, 0, -1):
                idx[end], idx[0] = idx[0], idx[end]
                sift(0, end)
        self.sorted_indices = idx

    def locate(self, name: bytes) -> int:
        """mz_zip_reader_locate_file: the index of the file called name, without case."""
        name = _c_str(name).translate(_ASCII_LOWER)
        lo, hi = 0, len(self.sorted_indices) - 1
        while lo <= hi:
            mid = lo + ((hi - lo) >> 1)
            index = self.sorted_indices[mid]
            stored = self.lowered[index]
            if stored == name:
                return index
            if stored < name:
                lo = mid + 1
            else:
                hi = mid - 1
        raise _MinizError("file not found")

    def stat(self, index):
        """mz_zip_reader_file_stat: the file's header fields, and the error it leaves (or None)."""
        cd, p = self.central_dir, self.offsets[index]
        filename_size = _le(cd, p + 28, 2)
        st = {
            "bit_flag": _le(cd, p + 8, 2), "method": _le(cd, p + 10, 2),
            "comp_size": _le(cd, p + 20, 4), "uncomp_size": _le(cd, p + 24, 4),
            "local_header_ofs": _le(cd, p + 42, 4),
            "is_directory": (filename_size and cd[p + _CDH_SIZE + filename_size - 1] == ord("/"))
            or bool(_le(cd, p + 38, 4) & 0x10),  # the DOS directory attribute
        }
        error = None
        if st["method"] not in (0, 8):  # stored, deflated
            error = "unsupported method"
        elif st["bit_flag"] & (0x01 | 0x40):
            error = "unsupported encryption"
        elif st["bit_flag"] & 0x20:  # a compressed patch
            error = "unsupported feature"
        if max(st["comp_size"], st["uncomp_size"], st["local_header_ofs"]) == _MZ_UINT32_MAX:
            ext_data_size = _le(cd, p + 30, 2)
            extra = cd[p + _CDH_SIZE + filename_size:p + _CDH_SIZE + filename_size + ext_data_size]
            try:
                field = self._find_zip64_field(extra)
                if field is not None:
                    for key in ("uncomp_size", "comp_size", "local_header_ofs"):
                        if st[key] == _MZ_UINT32_MAX:
                            if len(field) < 8:
                                raise _MinizError("invalid header or archive is corrupted")
                            st[key], field = _le(field, 0, 8), field[8:]
            except _MinizError as e:
                error = str(e)
        return st, error

    def extract(self, index, out):
        """mz_zip_reader_extract_to_mem into the writable view ``out``, as long as the file.
        Returns how many bytes were written: the rest of ``out`` is left as it was."""
        st, error = self.stat(index)
        if error is not None:
            raise _MinizError(error)
        if st["is_directory"] or not st["comp_size"]:
            return 0
        if st["bit_flag"] & (0x01 | 0x40 | 0x20):
            raise _MinizError("unsupported encryption")
        if st["method"] not in (0, 8):
            raise _MinizError("unsupported method")
        header = self.read(st["local_header_ofs"], _LDH_SIZE)
        if len(header) != _LDH_SIZE:
            raise _MinizError("file read failed")
        if _le(header, 0, 4) != _LDH_SIG:
            raise _MinizError("invalid header or archive is corrupted")
        cur = st["local_header_ofs"] + _LDH_SIZE + _le(header, 26, 2) + _le(header, 28, 2)
        if cur + st["comp_size"] > self.archive_size:
            raise _MinizError("invalid header or archive is corrupted")
        total = len(out)
        if st["method"] == 0:  # stored
            if self.readinto(cur, out) != total:
                raise _MinizError("file read failed")
            return total
        # Deflated. A stream that is damaged, or longer than the header says, stops without an
        # error (tinfl's status is not DONE); only one that ends short is an error.
        inflater = zlib.decompressobj(-15)
        remaining, written = st["comp_size"], 0
        while remaining and written < total:
            chunk = self.read(cur, min(remaining, 64 * 1024))
            if not chunk:
                raise _MinizError("decompression failed or archive is corrupted")
            cur += len(chunk)
            remaining -= len(chunk)
            try:
                piece = inflater.decompress(chunk, total - written)
            except zlib.error:
                break
            out[written:written + len(piece)] = piece
            written += len(piece)
            if inflater.eof or inflater.unconsumed_tail:
                break
        if inflater.eof and written != total:
            raise _MinizError("unexpected decompressed size")
        return written


def _c10_error(message: bytes):
    # A c10::Error reaches Python as a RuntimeError whose text is read as a C string, as UTF-8
    # (a name in a damaged file that is not UTF-8 raises UnicodeDecodeError instead).
    return RuntimeError(_c_str(message).decode("utf-8"))


def _enforce_fail(line, message: bytes):
    # CAFFE_THROW's text: the place in inline_container.cc (PyTorch 2.13) that threw, then why.
    return _c10_error(b"[enforce fail at inline_container.cc:%d] . " % line + message)


def _strncmp_equal(a: bytes, b: bytes, n) -> bool:
    """strncmp(a, b, n) == 0, for a and b read as C strings."""
    for i in range(n):
        ca, cb = (a[i] if i < len(a) else 0), (b[i] if i < len(b) else 0)
        if ca != cb:
            return False
        if ca == 0:
            return True
    return True


def _stoull(text: bytes) -> int:
    """std::stoull (strtoull, base 10): leading spaces, a sign, digits; the rest is ignored."""
    s = text.lstrip(b" \t\n\v\f\r")
    negative = s[:1] == b"-"
    if s[:1] in (b"+", b"-"):
        s = s[1:]
    digits = re.match(rb"[0-9]*", s).group()
    if not digits:
        raise ValueError  # std::invalid_argument
    value = int(digits)
    if value > 2**64 - 1:
        raise IndexError("stoull")  # std::out_of_range, which reaches Python as an IndexError
    return (-value) % 2**64 if negative else value


class _PyTorchFileReader:
    """Reads the records of a zip archive written by torch.save (PyTorchStreamReader)."""

    kMinSupportedFileFormatVersion = 0x1
    kMaxSupportedFileFormatVersion = 0xA

    def __init__(self, file):
        # Offsets count from where the file-like object stands now (PyTorch's adapters do too).
        self.file = file
        self.start = file.tell()
        size = file.seek(0, io.SEEK_END) - self.start
        file.seek(self.start)
        try:
            self.zip = _ZipReader(self._read, self._readinto, size)
        except _MinizError as e:
            raise self._failed("reading zip archive", "", e) from None
        if self.zip.num_files() == 0:
            raise _enforce_fail(171, b"archive does not contain any files")
        # The archive name is the folder of the first file; every lookup is inside it.
        first = self.zip.filename(0)
        if b"/" not in first:
            raise _enforce_fail(180, b"file in archive is not in a subdirectory: " + first)
        self.archive_name = first[:first.index(b"/")]
        self.prefix = self.archive_name + b"/"
        self._serialization_id = b""
        if self.has_record(".data/serialization_id"):
            self._serialization_id = self.get_record(".data/serialization_id")
        if self.has_record(".data/version"):
            version = self.get_record(".data/version")
        elif self.has_record("version"):
            version = self.get_record("version")
        else:
            raise RuntimeError('Expected hasRecord("version") to be true, but got false.  (Could this error message '
                               'be improved?  If so, please report an enhancement request to PyTorch.)')
        try:
            self.version = _stoull(version)
        except ValueError:
            raise _enforce_fail(215, b"Couldn't parse the version " + version + b" as Long Long.") from None
        if self.version >= 2**63:  # PyTorch keeps it in an int64_t
            self.version -= 2**64
        if self.version < self.kMinSupportedFileFormatVersion:
            raise _enforce_fail(219, (
                f"Attempted to read a PyTorch file with version {self.version}, but the minimum supported version "
                f"for reading is {self.kMinSupportedFileFormatVersion}. Your PyTorch script module file is too old. "
                "Please regenerate it with latest version of PyTorch to mitigate this issue.").encode())
        if self.version > self.kMaxSupportedFileFormatVersion:
            raise _enforce_fail(230, (
                f"Attempted to read a PyTorch file with version {self.version}, but the maximum supported version "
                f"for reading is {self.kMaxSupportedFileFormatVersion}. The version of your PyTorch installation "
                "may be too old, please upgrade PyTorch to latest version to mitigate this issue.").encode())

    def _read(self, pos, n):
        self.file.seek(self.start + pos)
        return self.file.read(n)

    def _readinto(self, pos, view):
        self.file.seek(self.start + pos)
        readinto = getattr(self.file, "readinto", None)
        done = 0
        while done < len(view):
            if readinto is not None:
                got = readinto(view[done:])
            else:
                chunk = self.file.read(len(view) - done)
                view[done:done + len(chunk)] = chunk
                got = len(chunk)
            if not got:
                break
            done += got
        return done

    @classmethod
    def _failed(cls, what, name, error):
        # PyTorchStreamReader::valid: the step, the record (a C string), and miniz's error.
        return RuntimeError(f"PytorchStreamReader failed {what}{name.split(chr(0))[0]}: {error}{_ZIP_ERROR_SUFFIX}")

    def _record_id(self, name):
        try:
            return self.zip.locate(self.prefix + name.encode("utf-8"))
        except _MinizError as e:
            raise self._failed("locating file ", name, e) from None

    def _stat(self, name, index):
        st, error = self.zip.stat(index)
        if error is not None:
            raise self._failed("retrieving file meta-data for ", name, error)
        return st

    def _read_record(self, name):
        """The record's bytes, in a new uint8 tensor (PyTorch's getRecord, from the CPU allocator)."""
        index = self._record_id(name)
        st = self._stat(name, index)
        data = torch.empty(st["uncomp_size"], dtype=torch.uint8)
        total = st["uncomp_size"]
        written = 0
        if total:
            view = memoryview((ctypes.c_char * total).from_address(data.data_ptr())).cast("B")
            try:
                written = self.zip.extract(index, view)
            except _MinizError as e:
                raise self._failed("reading file ", name, e) from None
            # What miniz did not write (a damaged deflate stream, a directory) stays whatever the
            # allocator gave in PyTorch; here it is zeros, so no stale memory reaches a tensor.
            ctypes.memset(data.data_ptr() + written, 0, total - written)
        return data

    def has_record(self, name):
        try:
            self.zip.locate(self.prefix + name.encode("utf-8"))
        except _MinizError:
            return False
        return True

    def get_record(self, name) -> bytes:
        data = self._read_record(name)
        return ctypes.string_at(data.data_ptr(), data.numel()) if data.numel() else b""

    def get_storage_from_record(self, name, nbytes):
        """The record's bytes in a new uint8 tensor, which must be exactly nbytes long."""
        if type(nbytes) is not int or not 0 <= nbytes < 2**64:
            # PyTorch's pybind11 binding refuses an argument that is not a size_t.
            raise TypeError(
                "get_storage_from_record(): incompatible function arguments. The following argument types are "
                "supported:\n    1. (self: torch._C.PyTorchFileReader, arg0: str, arg1: typing.SupportsInt | "
                "typing.SupportsIndex, arg2: object) -> torch.Tensor\n\n"
                f"Invoked with: {self!r}, {name!r}, {nbytes!r}, {torch.UntypedStorage!r}")
        data = self._read_record(name)
        # A record shorter than the tensors it holds would leave their tail reading past it,
        # and one longer would not be the storage the file describes: both are refused.
        if data.numel() != nbytes:
            raise RuntimeError(
                f"record size ({data.numel()} bytes) does not match expected size ({nbytes} bytes = "
                f"{nbytes} elements * 1 bytes/element) for dtype Byte")
        return data

    def get_all_records(self):
        records = []
        for i in range(self.zip.num_files()):
            name = _c_str(self.zip.filename(i)[:511])  # miniz copies names into a 512-byte buffer
            if not _strncmp_equal(name, self.prefix, len(self.prefix)):
                raise _enforce_fail(340, b"file in archive is not in a subdirectory " + self.prefix + b": " + name)
            records.append(name[len(self.prefix):])
        # pybind11 gives std::string to Python as str, decoding it as UTF-8 (strictly)
        return [r.decode("utf-8") for r in records]

    def get_record_offset(self, name):
        """Where the bytes of record ``name`` start in the file (after its local header)."""
        index = self._record_id(name)
        st = self._stat(name, index)
        header = self._read(st["local_header_ofs"], _LDH_SIZE)
        return st["local_header_ofs"] + _LDH_SIZE + _le(header, 26, 2) + _le(header, 28, 2)

    def serialization_id(self):
        return self._serialization_id.decode("utf-8")
# [end marker: zip_reader]


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
        if isinstance(storage, torch.storage._LegacyStorage):
            # torch.cuda.FloatStorage: its CPU twin, copied down by THC
            return _storage_bytes(storage.cpu())
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
            else:  # a legacy TH/THC storage (torch.FloatStorage, torch.cuda.FloatStorage ...)
                storage = obj.untyped()
                # The CPU class names the type in the file, wherever the storage is (PyTorch's
                # normalize_storage_type); the location says the device.
                storage_type = getattr(torch, type(obj).__name__)
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
        has_import = re.search(r"(\S+) must be (\S+) to load", message) is not None
        if has_unsafe_global:
            updated_message = (
                "Weights only load failed. This file can still be loaded, to do so you have two options, "
                "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
                f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
                "the recommended steps in the following error message.\n\tWeightsUnpickler error: " + message)
        elif has_import:  # a module that must be imported first (NJTs, DTensors)
            return f"Weights only load failed. {message}\n {UNSAFE_MESSAGE}\n"
        else:
            updated_message = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
            if not has_blocklist:
                updated_message += (
                    "Please file an issue with the following so that we can make "
                    "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
            updated_message += "\n\n" + message
        return updated_message + DOCS_MESSAGE

    weights_only_not_set = weights_only is None
    if weights_only_not_set:
        weights_only = pickle_module is None

    # The environment can force either way: TORCH_FORCE_WEIGHTS_ONLY_LOAD wins over the call's
    # own weights_only=False; TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD only changes the default (a call
    # that passes weights_only=True keeps it). Setting both is an error.
    true_values = ["1", "y", "yes", "true"]
    force_weights_only_load = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in true_values
    force_no_weights_only_load = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in true_values
    if force_weights_only_load and force_no_weights_only_load:
        raise RuntimeError(
            "Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` "
            "should be set, but both were set.")
    elif force_weights_only_load:
        weights_only = True
    elif force_no_weights_only_load:
        if weights_only_not_set:
            warnings.warn(
                "Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the"
                "`weights_only` argument was not explicitly passed to `torch.load`, forcing weights_only=False.",
                UserWarning, stacklevel=2)
            weights_only = False

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
        if mmap:
            f_name = "" if not isinstance(f, str) else f"{f}, "
            raise RuntimeError(
                "mmap can only be used with files saved with "
                f"`torch.save({f_name}_use_new_zipfile_serialization=True), "
                "please torch.save your checkpoint with this option in order to use mmap.")
        if weights_only:
            try:
                return _legacy_load(opened_file, map_location, _weights_only_unpickler, **pickle_load_args)
            except pickle.UnpicklingError as e:
                raise pickle.UnpicklingError(_get_wo_message(str(e))) from None
        return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)
    opened_zipfile = _PyTorchFileReader(opened_file)
    if "constants.pkl" in opened_zipfile.get_all_records():
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


# ---- Tensor.set_'s checks, for the tensors a file rebuilds ----
# [marker: set_checks]
# PyTorch rebuilds each tensor of a file with
#     torch.empty((0,), dtype=storage.dtype).set_(storage, storage_offset, size, stride)
# (torch._utils._rebuild_tensor), and set_ refuses sizes, strides and an offset that reach past
# the storage: the storage of a loaded tensor is not resizable, so set_ cannot grow it to fit.
# This build has no Tensor.set_; it rebuilds with as_strided over a flat tensor. So torch.load
# runs set_'s checks itself, in set_'s order (set_storage_cpu_ in aten/src/ATen/native/
# TensorShape.cpp: checkSetStorage and resize_impl_cpu_ in Resize.h, which call
# TensorImpl::set_sizes_and_strides and computeStorageNbytes), before either rebuild function
# that takes a storage builds anything: a file that PyTorch refuses is refused here with the
# same error, and a tensor that loads there gets the strides set_ gives it.

_INT64_MAX = 2**63 - 1


def _typename(obj):
    t = type(obj)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def _is_int(obj):
    return isinstance(obj, int) and not isinstance(obj, bool)


def _set_arguments_error(args):
    # python_arg_parser's TypeError when no signature of set_ takes these argument types. Its
    # list marks with !...! every argument but an int storage_offset (sequences always).
    got = ", ".join(_typename(a) for a in args)

    def describe(arg, ok):
        text = _typename(arg)
        if isinstance(arg, tuple):
            text += " of (" + ", ".join(_typename(x) for x in arg) + ("," if len(arg) == 1 else "") + ")"
        elif isinstance(arg, list):
            text += " of [" + ", ".join(_typename(x) for x in arg) + "]"
        return text if ok else f"!{text}!"

    desc = ", ".join(describe(a, i == 1 and _is_int(a)) for i, a in enumerate(args))
    signature = "int storage_offset, tuple of ints size, tuple of ints stride = None)"
    return TypeError(
        f"set_() received an invalid combination of arguments - got ({got}), but expected one of:\n"
        " * ()\n * (torch.Storage source)\n"
        f" * (torch.Storage source, {signature}\n"
        f"      didn't match because some of the arguments have invalid types: ({desc})\n"
        " * (Tensor source)\n"
        f" * (Tensor source, {signature}\n"
        f"      didn't match because some of the arguments have invalid types: ({desc})\n")


def _check_set_arguments(untyped, storage_offset, size, stride):
    def int_list(arg):
        # a tuple or list whose first element is an int (the rest are unpacked later)
        return isinstance(arg, (tuple, list)) and (len(arg) == 0 or _is_int(arg[0]))

    if not (_is_int(storage_offset) and int_list(size) and (stride is None or int_list(stride))):
        raise _set_arguments_error((untyped, storage_offset, size, stride))
    if not -2**63 <= storage_offset <= _INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    for arg_name, arg in (("size", size), ("stride", stride)):
        for pos, x in enumerate(arg or (), start=1):
            error = None
            if not _is_int(x):
                error = f"type must be tuple of ints,but got {_typename(x)}"
            elif not -2**63 <= x <= _INT64_MAX:
                error = "Overflow when unpacking long long"
            if error is not None:
                raise TypeError(f"set_(): argument '{arg_name}' failed to unpack the object at pos {pos} with error "
                                f"\"{error}\"")


def _check_set_storage(storage, storage_offset, size, stride):
    """Raises what ``torch.empty((0,), dtype=storage.dtype).set_(storage, storage_offset, size, stride)``
    raises in PyTorch for a storage that cannot grow (all that torch.load makes); else returns
    the strides set_ gives the tensor (or None for a non-storage, which the rebuild refuses)."""
    if not isinstance(storage, torch.storage.TypedStorage):
        return None
    _check_set_arguments(storage._untyped_storage, storage_offset, size, stride)
    size = [int(s) for s in size]
    # An empty stride list reaches set_ as no strides at all: contiguous ones.
    stride = [int(s) for s in stride] if stride else None
    itemsize = storage.dtype.itemsize
    # the bytes of the storage the tensor is built over (for mmap, the record's window of the file)
    storage_nbytes = storage._base_tensor().numel() * itemsize

    def numel_or_raise():
        # Sizes are int64_t, multiplied as uint64_t: a negative one wraps around, and overflows.
        numel, overflowed = 1, False
        for s in size:
            numel *= s % 2**64
            overflowed |= numel >= 2**64
            numel %= 2**64
        if overflowed or numel > _INT64_MAX:
            raise RuntimeError("numel: integer multiplication overflow")
        return numel

    def next_stride(inner_stride, inner_size):
        # one dimension out from a contiguous (or rewritten) inner one, int64_t
        result = inner_stride * max(inner_size, 1)
        if not -2**63 <= result <= _INT64_MAX:
            raise RuntimeError("Stride calculation overflowed")
        return result

    # checkSetStorage
    if stride is not None and len(size) != len(stride):
        raise RuntimeError(f"unequal size length ({len(size)}) and stride length ({len(stride)})")
    if storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    # resize_impl_cpu_: nothing more to do when the sizes and strides are the empty tensor's own
    if size == [0] and (stride is None or stride == [1]):
        return [1]
    if stride is None:
        # set_sizes_contiguous, then computeStorageNbytesContiguous
        numel = numel_or_raise()
        strides = [1] * len(size)
        for i in range(len(size) - 2, -1, -1):
            strides[i] = next_stride(strides[i + 1], size[i + 1])
        needed = (numel + storage_offset) * itemsize
        if needed > _INT64_MAX:
            raise RuntimeError(f"Storage size calculation overflowed with sizes={size}")
    else:
        # TensorImpl::set_sizes_and_strides keeps strides >= 0 and rewrites a negative one as
        # if that dimension were contiguous with the next...
        strides = list(stride)
        for i in range(len(size) - 1, -1, -1):
            if stride[i] < 0:
                strides[i] = 1 if i == len(size) - 1 else next_stride(strides[i + 1], size[i + 1])
        numel = numel_or_raise()
        # ... but computeStorageNbytes is given the strides as they came: one past the last
        # element's offset, counted in uint64_t (none when a size is 0)
        needed, overflowed = storage_offset + 1, False
        for s, st in zip(size, stride):
            if s == 0:
                needed = None
                break
            strided = (st % 2**64) * ((s - 1) % 2**64)
            overflowed |= strided >= 2**64
            needed += strided % 2**64
            overflowed |= needed >= 2**64
            needed %= 2**64
        if needed is None:
            needed = 0
        else:
            needed *= itemsize
            if overflowed or needed > _INT64_MAX:
                raise RuntimeError(f"Storage size calculation overflowed with sizes={size} and strides={stride}")
    # maybe_resize_storage_cpu: a tensor with no elements needs no bytes
    if numel != 0 and needed > storage_nbytes:
        raise RuntimeError("Trying to resize storage that is not resizable")
    return strides


def _check_set_storage_or_grow(storage, storage_offset, size, stride):
    """_check_set_storage, except that a storage read from a legacy-format file grows to fit:
    PyTorch's legacy loader makes resizable storages, which set_ enlarges; the bytes the file
    then holds for the storage must match the enlarged size (see _legacy_load)."""
    try:
        return _check_set_storage(storage, storage_offset, size, stride)
    except RuntimeError as e:
        if not getattr(storage, "_legacy_resizable", False) or str(e) != "Trying to resize storage that is not resizable":
            raise
    # The arguments passed every other check: the sizes and strides are valid int64s.
    size = [int(v) for v in size]
    stride = [int(v) for v in stride] if stride else None
    if stride is None:
        stride, running = [], 1
        for v in reversed(size):
            stride.insert(0, running)
            running *= max(v, 1)
    itemsize = storage.dtype.itemsize
    needed = (int(storage_offset) + 1 + sum((v - 1) * st for v, st in zip(size, stride))) * itemsize
    untyped = storage._untyped_storage
    untyped.resize_(needed)
    # The flat tensor over the storage covers the new bytes too (the tensors built before see
    # them through the shared StorageImpl).
    storage._tensor = storage._base_tensor().as_strided((needed // itemsize,), (1,), 0)
    return _check_set_storage(storage, storage_offset, size, stride)


def _with_set_checks(rebuild):
    """``rebuild`` (a function that takes storage, storage_offset, size, stride first), running
    Tensor.set_'s checks on them before it builds the tensor, with the strides set_ would give."""
    signature = inspect.signature(rebuild)
    params = list(signature.parameters.values())
    required = sum(p.default is inspect.Parameter.empty for p in params)

    @functools.wraps(rebuild)
    def rebuild_with_set_checks(*args, **kwargs):
        if not kwargs and required <= len(args) <= len(params):  # how a pickle calls it
            strides = _check_set_storage_or_grow(*args[:4])
            if strides is not None:
                args = args[:3] + (tuple(strides),) + args[4:]
            return rebuild(*args)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return rebuild(*args, **kwargs)  # the call's own TypeError comes first, as in PyTorch
        a = bound.arguments
        strides = _check_set_storage_or_grow(a["storage"], a["storage_offset"], a["size"], a["stride"])
        if strides is not None:
            a["stride"] = tuple(strides)
        return rebuild(*bound.args, **bound.kwargs)

    return rebuild_with_set_checks


# What a file's pickle gets for these names, under either unpickler (see _load and
# torch/_weights_only_unpickler.py).
_rebuild_functions_with_set_checks = {
    f"torch._utils.{f.__name__}": _with_set_checks(f)
    for f in (torch._utils._rebuild_tensor, torch._utils._rebuild_tensor_v2)
}
# [end marker: set_checks]


def _restored_typed_storage(tensor, dtype, location, restore_location):
    """The TypedStorage of a loaded tensor's storage, once ``map_location`` (through
    ``restore_location``) has placed it; the storage keeps ``tensor`` as its view."""
    storage = tensor.untyped_storage()
    _serialization_tls.storage_tensors[storage._cdata] = tensor
    wrap_storage = restore_location(storage, location)
    if wrap_storage._cdata not in _serialization_tls.storage_tensors:
        raise NotImplementedError(
            "torch.load: map_location returned a storage that torch.load did not make; this build has no "
            "Tensor.set_, so map_location may return the storage it was given, None, or a storage from "
            "torch.serialization.default_restore_location")
    return torch.storage.TypedStorage(
        wrap_storage=wrap_storage, dtype=dtype, _internal=True,
        _tensor=_serialization_tls.storage_tensors[wrap_storage._cdata])


def _load(zip_file, map_location, pickle_module, pickle_file="data.pkl", overall_storage=None, **pickle_load_args):
    restore_location = _get_restore_location(map_location)
    loaded_storages = {}

    # PyTorch reads these two to work out where records lie without reading their headers
    # (torch.utils.serialization.config.load.calculate_storage_offsets, off by default); they
    # are read as it reads them, so that a damaged one fails here as it does there.
    if zip_file.has_record(".format_version"):
        zip_file.get_record(".format_version")
    byteorderdata = b"little"  # files without a byteorder record are little-endian
    if zip_file.has_record("byteorder"):
        byteorderdata = zip_file.get_record("byteorder")
        if byteorderdata not in [b"little", b"big"]:
            raise ValueError("Unknown endianness type: " + byteorderdata.decode())
    if zip_file.has_record(".storage_alignment"):
        int(zip_file.get_record(".storage_alignment"))

    def load_tensor(dtype, nbytes, key, location):
        name = f"data/{key}"
        if overall_storage is not None:
            # mmap: the elements are the file's bytes, from where the record starts
            storage_offset = zip_file.get_record_offset(name)
            tensor = _mapped_record(overall_storage, storage_offset, nbytes, dtype)
        else:
            # PyTorch reads the record into a new UntypedStorage of nbytes (after checking that
            # the record is exactly that long); here into a flat tensor's storage.
            tensor = zip_file.get_storage_from_record(name, nbytes).view(dtype)
        if byteorderdata.decode() != sys.byteorder:
            swapped = _byteswap(ctypes.string_at(tensor.data_ptr(), tensor.numel() * dtype.itemsize), dtype)
            tensor = torch.empty(tensor.numel(), dtype=dtype)
            ctypes.memmove(tensor.data_ptr(), swapped, len(swapped))
        typed_storage = _restored_typed_storage(tensor, dtype, location, restore_location)
        loaded_storages[key] = typed_storage
        return typed_storage

    def persistent_load(saved_id):
        if not isinstance(saved_id, tuple):
            raise AssertionError(f"saved_id must be a tuple, got {type(saved_id).__name__}")
        typename = _maybe_decode_ascii(saved_id[0])
        data = saved_id[1:]
        if typename != "storage":
            raise AssertionError(f"Unknown typename for persistent_load, expected 'storage' but got '{typename}'")
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
        # are mapped to where they are now; the rebuild functions come with set_'s checks.
        def find_class(self, mod_name, name):
            if type(name) is str and "Storage" in name:
                try:
                    return StorageType(name)
                except KeyError:
                    pass
            mod_name = load_module_mapping.get(mod_name, mod_name)
            if f"{mod_name}.{name}" in _rebuild_functions_with_set_checks:
                return _rebuild_functions_with_set_checks[f"{mod_name}.{name}"]
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
    # PyTorch logs the file's id here (torch.load.metadata); reading it as text can fail.
    zip_file.serialization_id()
    return result


def _mapped_record(overall_storage, storage_offset, nbytes, dtype):
    """A flat tensor of dtype over the bytes of the mapped file that a record of nbytes at
    storage_offset covers. PyTorch slices the file's UntypedStorage: the slice stops at the end
    of the file, so a record that claims more gets a shorter storage, and set_'s checks then
    refuse any tensor that would reach past it."""
    start, stop, _ = slice(storage_offset, storage_offset + nbytes).indices(overall_storage.numel())
    numel = max(stop - start, 0) // dtype.itemsize
    window = overall_storage[start:start + numel * dtype.itemsize]
    if start % dtype.itemsize == 0:
        return window.view(dtype)
    # A record that does not start at a multiple of the element size (only in a damaged or
    # hand-made file) cannot be viewed in place; its bytes are copied.
    tensor = torch.empty(numel, dtype=dtype)
    if numel:
        ctypes.memmove(tensor.data_ptr(), window.data_ptr(), numel * dtype.itemsize)
    return tensor


MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001


class SourceChangeWarning(Warning):
    pass


def _check_container_source(container_type, source_file, original_source):
    """Warn when the source of a module class saved whole differs from the class loaded now."""
    try:
        current_source = "".join(inspect.getsourcelines(container_type)[0])
    except Exception:  # the source is only for this check
        warnings.warn(
            "Couldn't retrieve source code for container of type " + container_type.__name__
            + ". It won't be checked for correctness upon loading.", stacklevel=2)
        return
    if original_source != current_source:
        msg = ("you can retrieve the original source code by accessing the object's source attribute or set "
               "`torch.nn.Module.dump_patches = True` and use the patch tool to revert the changes.")
        msg = f"source code of class '{torch.typename(container_type)}' has changed. {msg}"
        warnings.warn(msg, SourceChangeWarning, stacklevel=2)


def _read_exactly(f, nbytes):
    data = f.read(nbytes)
    if len(data) != nbytes:
        raise RuntimeError(f"unexpected EOF, expected {nbytes - len(data)} more bytes. The file might be corrupted.")
    return data


def _legacy_load(f, map_location, pickle_module, **pickle_load_args):
    """Load the format torch.save wrote before PyTorch 1.6 (and with _use_new_zipfile_serialization=False).

    Pickles one after another: the magic number, the protocol version, system info, the object
    (storages as persistent ids ``("storage", type, key, location, numel, view)``), the list of
    storage keys; then, per key, the storage's element count (int64) and its bytes. A storage is
    allocated from the pickle's numel, grows if set_ needs it (PyTorch's are resizable), and its
    bytes are read only when the count in the file matches its size: the file never writes
    past a storage, and a short file is an error, not a short storage.
    """
    restore_location = _get_restore_location(map_location)
    deserialized_objects = {}

    class UnpicklerWrapper(pickle_module.Unpickler):
        def find_class(self, mod_name, name):
            if type(name) is str and "Storage" in name:
                try:
                    return StorageType(name)
                except KeyError:
                    pass
            if f"{mod_name}.{name}" in _rebuild_functions_with_set_checks:
                return _rebuild_functions_with_set_checks[f"{mod_name}.{name}"]
            return super().find_class(mod_name, name)

    def persistent_load(saved_id):
        if not isinstance(saved_id, tuple):
            raise AssertionError(f"saved_id must be a tuple, got {type(saved_id).__name__}")
        typename = _maybe_decode_ascii(saved_id[0])
        data = saved_id[1:]
        if typename == "module":
            # A module class saved whole (its source kept to compare): the class itself.
            if all(data[1:]):
                _check_container_source(*data)
            return data[0]
        if typename != "storage":
            raise RuntimeError(f"Unknown saved id type: {saved_id[0]}")
        storage_type, root_key, location, numel, view_metadata = data
        location = _maybe_decode_ascii(location)
        dtype = storage_type.dtype
        if root_key not in deserialized_objects:
            # PyTorch's UntypedStorage(nbytes) refuses a negative size and fails to allocate a
            # huge one; the bytes come later, from the end of the file.
            if not isinstance(numel, int) or numel < 0:
                raise RuntimeError(
                    f"[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have been "
                    f"called with negative number: {(numel * dtype.itemsize) % 2**64}")
            tensor = torch.empty(numel, dtype=dtype)  # uninitialised until its bytes are read, as in PyTorch
            typed_storage = _restored_typed_storage(tensor, dtype, location, restore_location)
            typed_storage._legacy_resizable = True
            deserialized_objects[root_key] = typed_storage
        else:
            typed_storage = deserialized_objects[root_key]
        if view_metadata is None:
            return typed_storage
        # A view: elements [offset, offset + size) of the root, clamped to it as a slice of
        # PyTorch's storage is; it cannot grow.
        view_key, offset, view_size = view_metadata
        if view_key not in deserialized_objects:
            base = typed_storage._base_tensor()
            start, stop, _ = slice(offset, offset + view_size).indices(base.numel())
            window = base[start:max(start, stop)]
            deserialized_objects[view_key] = torch.storage.TypedStorage(
                wrap_storage=window.untyped_storage(), dtype=dtype, _internal=True, _tensor=window)
        return deserialized_objects[view_key]

    magic_number = pickle_module.load(f, **pickle_load_args)
    if magic_number != MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    protocol_version = pickle_module.load(f, **pickle_load_args)
    if protocol_version != PROTOCOL_VERSION:
        raise RuntimeError(f"Invalid protocol version: {protocol_version}")
    _sys_info = pickle_module.load(f, **pickle_load_args)
    unpickler = UnpicklerWrapper(f, **pickle_load_args)
    unpickler.persistent_load = persistent_load
    _serialization_tls.map_location = map_location
    try:
        result = unpickler.load()
        deserialized_storage_keys = pickle_module.load(f, **pickle_load_args)
        for key in deserialized_storage_keys:
            if key not in deserialized_objects:
                raise AssertionError(f"storage key {key!r} not found in deserialized_objects")
            typed_storage = deserialized_objects[key]
            itemsize = typed_storage.dtype.itemsize
            (count,) = struct.unpack("<q", _read_exactly(f, 8))
            nbytes = typed_storage._untyped_storage.nbytes()
            if count * itemsize != nbytes:
                # PyTorch's message, printf placeholders and all (its TORCH_CHECK does not format them).
                raise RuntimeError(f"storage has wrong byte size: expected %ld got %ld{count * itemsize}{nbytes}")
            data = _read_exactly(f, nbytes)
            if nbytes:
                base = typed_storage._base_tensor()
                ctypes.memmove(base.data_ptr() - base.storage_offset() * itemsize, data, nbytes)
    finally:
        _serialization_tls.map_location = None
        _serialization_tls.storage_tensors = {}
    return result


# Register pickling support for layout instances such as torch.sparse_coo, etc.
def _get_layout(name):
    """Get layout extension object from its string representation."""
    # Only layouts: the weights_only unpickler lets a file call this with any string.
    cache = _get_layout.cache
    if not cache:
        for v in torch.__dict__.values():
            if isinstance(v, torch.layout):
                cache[str(v)] = v
    return cache[name]


_get_layout.cache = {}
copyreg.pickle(torch.layout, lambda obj: (_get_layout, (str(obj),)))
