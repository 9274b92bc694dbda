"""torch/nn/utils/rnn.py - PackedSequence and the pack / pad functions around it.

Mirrors PyTorch's torch/nn/utils/rnn.py (and the packing kernels of
aten/src/ATen/native/PackedSequence.cpp, written here in Python over cat, stack and slicing,
so autograd differentiates them). Guide: docs/source/internals/programs/nn_utils.rst.

A batch of sequences of different lengths is kept as one tensor `data` holding, time step
after time step, the rows of the sequences still running at that step, and `batch_sizes`,
how many rows each step has. The sequences are sorted longest first, so the rows of step t
are always the first batch_sizes[t] sequences: an RNN walks step t on h[:batch_sizes[t]].
"""

from collections.abc import Iterable
from typing import List, NamedTuple, Optional, Tuple, Union

import torch
from torch import Tensor

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Optional[Tensor]
    unsorted_indices: Optional[Tensor]


def bind(optional, fn):
    """fn(optional), or None when optional is None."""
    if optional is None:
        return None
    return fn(optional)


# [marker: packed_sequence]
class PackedSequence(PackedSequence_):
    r"""Holds the data and list of :attr:`batch_sizes` of a packed sequence.

    data (Tensor): the rows of every sequence, time step after time step.
    batch_sizes (Tensor): int64 on the CPU, how many sequences are still running at each step.
    sorted_indices (Tensor, optional): the original batch index of each sorted sequence.
    unsorted_indices (Tensor, optional): its inverse, to put results back in the caller's order.

    Made by pack_padded_sequence and pack_sequence, not by hand: for the sequences ``abc``
    and ``x`` the data is ``axbc`` and batch_sizes is ``[2, 1, 1]``.
    """

    def __new__(cls, data: Tensor, batch_sizes: Optional[Tensor] = None, sorted_indices: Optional[Tensor] = None,
                unsorted_indices: Optional[Tensor] = None):
        return super().__new__(cls, *_packed_sequence_init_args(data, batch_sizes, sorted_indices,
                                                                unsorted_indices))
    # [end marker: packed_sequence]

    # batch_sizes stays an int64 CPU tensor whatever happens to data: the RNN reads it as
    # plain integers to decide how many rows each step has.
    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes,
                          bind(self.sorted_indices, lambda t: t.pin_memory()),
                          bind(self.unsorted_indices, lambda t: t.pin_memory()))

    def to(self, *args, **kwargs):
        r"""Tensor.to on data (the indices follow data's device); self when nothing changes."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        non_blocking = kwargs.get("non_blocking", False)

        def call_to(t):
            return t.to(data.device, non_blocking=non_blocking)

        return type(self)(data, self.batch_sizes, bind(self.sorted_indices, call_to),
                          bind(self.unsorted_indices, call_to))

    def cuda(self, *args, **kwargs):
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.is_cuda:
            return self.to(*args, **kwargs)
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.device.type == "cpu":
            return self.to(*args, **kwargs)
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    def long(self):
        return self.to(dtype=torch.long)

    def int(self):
        return self.to(dtype=torch.int)

    def short(self):
        return self.to(dtype=torch.short)

    def char(self):
        return self.to(dtype=torch.int8)

    def byte(self):
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self) -> bool:
        r"""Whether data is on a GPU."""
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        r"""Whether data is in pinned memory."""
        return self.data.is_pinned()


def _packed_sequence_init_args(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    # unsorted_indices, when given, is trusted to be sorted_indices' inverse.
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:
        if batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. "
                "Instances of PackedSequence should never be created manually. "
                "They should be instantiated by functions like pack_sequence "
                "and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"
            )
        return data, batch_sizes, sorted_indices, unsorted_indices
    # PackedSequence((data, batch_sizes), sorted_indices=...)
    if not (isinstance(data, (list, tuple)) and len(data) == 2):
        raise AssertionError("Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def _packed_sequence_init(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None) -> PackedSequence:
    return PackedSequence(*_packed_sequence_init_args(data, batch_sizes, sorted_indices, unsorted_indices))


def invert_permutation(permutation: Optional[Tensor]) -> Optional[Tensor]:
    r"""The inverse of a 1-D permutation tensor (None for None): output[permutation[i]] = i."""
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


# [marker: pack_kernel]
def _pack_padded_sequence(input: Tensor, lengths: Tensor, batch_first: bool) -> Tuple[Tensor, Tensor]:
    """(data, batch_sizes) from a padded (T, B, *) batch sorted by decreasing length."""
    if lengths.dim() != 1 or lengths.device.type != "cpu" or lengths.dtype != torch.int64:
        raise RuntimeError(
            "'lengths' argument should be a 1D CPU int64 tensor, but got "
            f"{lengths.dim()}D {lengths.device.type} {_type_name(lengths.dtype)} tensor"
        )
    if batch_first:
        input = input.transpose(0, 1)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    batch_size = input.size(1)
    lens = lengths.tolist()
    if len(lens) != batch_size:
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lens)} (batch_size={batch_size})"
        )
    if lens[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
        )
    for i in range(batch_size - 1):
        if lens[i + 1] > lens[i]:
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                "sidestep this requirement if you do not need ONNX exportability."
            )
    # Step t holds the sequences longer than t: the first batch_sizes[t], as they are sorted.
    batch_sizes = [sum(1 for n in lens if n > t) for t in range(lens[0])]
    data = torch.cat([input[t, :bs] for t, bs in enumerate(batch_sizes)], 0)
    return data, torch.tensor(batch_sizes, dtype=torch.int64)
# [end marker: pack_kernel]


def _type_name(dtype) -> str:
    # The legacy names PyTorch's message uses ("Long tensor").
    return {torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char",
            torch.uint8: "Byte", torch.bool: "Bool", torch.float32: "Float", torch.float64: "Double",
            torch.float16: "Half", torch.bfloat16: "BFloat16"}.get(dtype, str(dtype))


def pack_padded_sequence(input: Tensor, lengths: Union[Tensor, List[int]], batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    r"""Pack a padded batch (T x B x *, or B x T x * with batch_first) of sequences of the given
    lengths. With enforce_sorted=False the batch is sorted by decreasing length first and the
    permutation kept in sorted_indices / unsorted_indices."""
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=torch.int64)

    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)

    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return _packed_sequence_init(data, batch_sizes, sorted_indices, None)


def _pad_packed_sequence(data: Tensor, batch_sizes: Tensor, batch_first: bool, padding_value: float,
                         total_length: int) -> Tuple[Tensor, Tensor]:
    """The padded (total_length, B, *) tensor and the lengths, from packed data (sorted order)."""
    sizes = batch_sizes.tolist()
    max_batch = sizes[0]
    trailing = tuple(data.shape[1:])
    steps = []
    offset = 0
    for bs in sizes:
        rows = data[offset:offset + bs]
        offset += bs
        if bs < max_batch:
            pad = torch.full((max_batch - bs,) + trailing, padding_value, dtype=data.dtype, device=data.device)
            rows = torch.cat([rows, pad], 0)
        steps.append(rows)
    for _ in range(total_length - len(sizes)):
        steps.append(torch.full((max_batch,) + trailing, padding_value, dtype=data.dtype, device=data.device))
    output = torch.stack(steps, 0)
    if batch_first:
        output = output.transpose(0, 1)
    # Sequence b runs for as many steps as have more than b rows.
    lengths = torch.tensor([sum(1 for n in sizes if n > b) for b in range(max_batch)], dtype=torch.int64)
    return output, lengths


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    r"""The inverse of pack_padded_sequence: (padded T x B x * tensor, lengths), the batch back
    in the order it was given in. total_length pads the time dimension further."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length "
                "of the longest sequence in input, but got "
                f"total_length={total_length} and max sequence length being {max_seq_length}"
            )
        max_seq_length = total_length
    padded_output, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first,
                                                  padding_value, max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded_output, lengths


def _check_copy_shape(dst_shape, src_shape) -> None:
    # pad_sequence copies each sequence into its slot with broadcasting; these are the
    # messages that copy gives when the shapes do not fit.
    ndim = max(len(dst_shape), len(src_shape))
    a = (1,) * (ndim - len(dst_shape)) + tuple(dst_shape)
    b = (1,) * (ndim - len(src_shape)) + tuple(src_shape)
    out = []
    for i in range(ndim - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            raise RuntimeError(
                f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) "
                f"at non-singleton dimension {i}"
            )
        out.insert(0, a[i] if b[i] == 1 else b[i])
    if tuple(out) != tuple(dst_shape):
        raise RuntimeError(f"output with shape {list(dst_shape)} doesn't match the broadcast shape {out}")


def pad_sequence(sequences: Union[Tensor, List[Tensor]], batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    r"""Stack sequences of shape L_i x * into one T x B x * tensor (B x T x * with batch_first),
    T the longest L_i, the rest filled with padding_value on padding_side ('right' or 'left').
    The dtype and trailing shape are the first sequence's."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(
            f"pad_sequence: Expected iterable for input sequences, but got arg of type: {type(sequences)}"
        )
    sequences = tuple(sequences)
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    first = sequences[0]
    trailing = tuple(first.shape[1:])
    max_len = max(s.size(0) for s in sequences)
    columns = []
    for seq in sequences:
        length = seq.size(0)
        _check_copy_shape((length,) + trailing, tuple(seq.shape))
        seq = seq.to(dtype=first.dtype).expand((length,) + trailing)
        if length < max_len:
            pad = torch.full((max_len - length,) + trailing, padding_value, dtype=first.dtype, device=first.device)
            seq = torch.cat([seq, pad] if padding_side == "right" else [pad, seq], 0)
        columns.append(seq)
    return torch.stack(columns, 0 if batch_first else 1)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> List[Tensor]:
    r"""The list of sequences, each cut to its length, from a padded batch."""
    unpadded_sequences = []
    if not batch_first:
        # PyTorch transposes the argument in place (transpose_); this tree has no in-place
        # transpose, so a transposed view is used and the argument is left as it was.
        padded_sequences = padded_sequences.transpose(0, 1)
    max_length = padded_sequences.shape[1]
    idx = torch.arange(max_length, device=lengths.device)
    for seq, length in zip(padded_sequences, lengths):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences: List[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    r"""pad_sequence then pack_padded_sequence: a PackedSequence from a list of L_i x * tensors."""
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> List[Tensor]:
    r"""The list of sequences (in their original order) held by a PackedSequence."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
