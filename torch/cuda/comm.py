"""torch.cuda.comm: broadcast, scatter, gather and reduce tensors across CUDA devices, by copies.

Mirrors PyTorch's torch/nn/parallel/comm.py (which PyTorch's torch/cuda/comm.py re-exports) and
the C++ under it, torch/csrc/cuda/comm.cpp, whose algorithm is followed here in Python, with
its checks and messages. Guide: docs/source/internals/cuda_comm.rst.

Everything is built from operations that already run on CUDA tensors: ``torch.empty`` on a
device, views (``narrow``, ``view``, ``split_with_sizes``, ``chunk``), ``copy_`` and ``.to()``
between devices with ``non_blocking=True``, and ``add`` for the sums. PyTorch hands broadcast and
reduce to NCCL when it can; this tree has no NCCL, so every function takes the path PyTorch takes
without it: one copy per device. For the same reason there is no ``_handle_complex`` (a real view
of complex tensors, for NCCL): complex tensors are copied as they are.

* ``broadcast``: ``torch.empty`` on each other device, ``copy_`` into it; the source device
  gets the source tensor itself.
* ``broadcast_coalesced``: tensors grouped into buckets of one dtype up to ``buffer_size``
  bytes, each bucket flattened into one buffer, the buffer broadcast, then viewed back.
* ``reduce_add``: copies every input to the destination and adds them there.
* ``scatter``: ``chunk``/``split_with_sizes`` views of the source, each copied to its device,
  on the given stream.
* ``gather``: one result on the destination; each input copied into its slice of it.
"""

import warnings
from collections import defaultdict

import torch
from torch._utils import _get_device_index

__all__ = [
    "broadcast",
    "broadcast_coalesced",
    "reduce_add",
    "reduce_add_coalesced",
    "scatter",
    "gather",
]


# ---------------------------------------------------------------------------------------
# Helpers. _get_device_index is torch/_utils.py's. PyTorch has the others there too (_take_tensors,
# _reorder_tensors_as, _flatten_dense_tensors, _unflatten_dense_tensors), in C++ in
# torch/csrc/utils/tensor_flatten.cpp (take_tensors, reorder_tensors_like,
# flatten_dense_tensors, unflatten_dense_tensors) and c10/core/WrapDimMinimal.h (maybe_wrap_dim).
# ---------------------------------------------------------------------------------------

def _sizes(shape):
    """A shape as C++ prints an IntArrayRef in messages: [3, 4]."""
    return str(list(shape))


def _maybe_wrap_dim(dim, ndim):
    """A dim in [-ndim, ndim) made non-negative (c10::maybe_wrap_dim; a 0-d tensor counts as 1-d)."""
    if ndim <= 0:
        ndim = 1
    lo, hi = -ndim, ndim - 1
    if dim < lo or dim > hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
    return dim + ndim if dim < 0 else dim


def _type_key(tensor):
    """What coalescing groups by: the tensor type (backend and dtype), e.g. torch.cuda.FloatTensor."""
    return tensor.type()


def _take_tensor_groups(tensors, size_limit):
    """Buckets of tensors of one type for broadcast_coalesced (C++ take_tensors): a bucket is
    closed as soon as its bytes reach ``size_limit``; the unfinished ones come last, one per
    type. Within a type the order is kept."""
    results = []
    groups = {}  # type -> [tensors, bytes]
    for tensor in tensors:
        group = groups.setdefault(_type_key(tensor), [[], 0])
        group[0].append(tensor)
        group[1] += tensor.numel() * tensor.element_size()
        if group[1] >= size_limit:
            results.append(group[0])
            groups[_type_key(tensor)] = [[], 0]
    results.extend(group[0] for group in groups.values() if group[0])
    return results


def _take_tensors(tensors, size_limit):
    """Buckets of tensors of one type for reduce_add_coalesced (PyTorch's Python
    torch._utils._take_tensors): a tensor that would push a non-empty bucket past
    ``size_limit`` starts a new one."""
    buf_dict = defaultdict(lambda: [[], 0])
    for tensor in tensors:
        t = _type_key(tensor)
        size = tensor.numel() * tensor.element_size()
        buf_and_size = buf_dict[t]
        if buf_and_size[1] + size > size_limit and buf_and_size[1] > 0:
            yield buf_and_size[0]
            buf_and_size = buf_dict[t] = [[], 0]
        buf_and_size[0].append(tensor)
        buf_and_size[1] += size
    for buf, _ in buf_dict.values():
        if len(buf) > 0:
            yield buf


# [marker: flatten]
def _flatten_dense_tensors(tensors):
    """One contiguous 1-D buffer holding ``tensors`` (all of one dtype, on one device) end to
    end. PyTorch's flatten_dense_tensors concatenates ``t.contiguous().view(-1)`` with
    ``at::cat``; here the buffer is allocated once and each tensor copied into its slice."""
    if len(tensors) == 1:
        return tensors[0].contiguous().view(-1)
    first = tensors[0]
    flat = torch.empty(sum(t.numel() for t in tensors), dtype=first.dtype, device=first.device)
    offset = 0
    for t in tensors:
        numel = t.numel()
        flat.narrow(0, offset, numel).view(t.size()).copy_(t)
        offset += numel
    return flat


def _unflatten_dense_tensors(flat, tensors):
    """Views of ``flat`` with the sizes of ``tensors`` (an empty tensor gets a new 1-D empty one,
    so that it shares no storage, as in PyTorch's unflatten_dense_tensors)."""
    outputs = []
    offset = 0
    for tensor in tensors:
        numel = tensor.numel()
        if numel == 0:
            outputs.append(torch.empty((0,), dtype=flat.dtype, device=flat.device))
        else:
            outputs.append(flat.narrow(0, offset, numel).view(tensor.size()))
            offset += numel
    return outputs
# [end marker: flatten]


def _reorder_tensors_as(tensors, ordered_tensors):
    """``tensors``, in order within each type, put in the order of ``ordered_tensors``."""
    type_dict = defaultdict(list)
    for tensor in tensors:
        type_dict[_type_key(tensor)].append(tensor)
    type_dict_ = {t: iter(coll) for t, coll in type_dict.items()}
    return tuple(next(type_dict_[_type_key(tensor)]) for tensor in ordered_tensors)


def _to_stream_list(streams):
    """``streams`` as a list of torch.cuda.Stream or None (THPUtils_PySequence_to_CUDAStreamList)."""
    if streams is None:
        return None
    if not isinstance(streams, (list, tuple)):
        raise RuntimeError("Expected a sequence in THPUtils_PySequence_to_CUDAStreamList")
    for stream in streams:
        if stream is not None and not isinstance(stream, torch.cuda.Stream):
            raise RuntimeError("Unknown data type found in stream list. Need torch.cuda.Stream or None")
    return list(streams)


def _stream_at(streams, i, device_index):
    """The stream to copy chunk ``i`` on (None: the current one), checked against its device."""
    if streams is None or i >= len(streams) or streams[i] is None:
        return None
    if streams[i].device_index != device_index:
        raise RuntimeError(
            f"Expected the device associated with the stream at index {i} (was {streams[i].device_index}) "
            f"to match the device supplied at that index (expected {device_index})")
    return streams[i]


# ---------------------------------------------------------------------------------------
# Broadcast (C++: broadcast, broadcast_out, _broadcast_out_impl, broadcast_coalesced)
# ---------------------------------------------------------------------------------------

# [marker: broadcast_impl]
def _broadcast_out_impl(tensor, out_tensors):
    """No checks: copy ``tensor`` into each output (NCCL's broadcast in PyTorch when it can)."""
    for out_tensor in out_tensors:
        out_tensor.copy_(tensor, non_blocking=True)
    return out_tensors


def _broadcast(tensor, devices):
    """A new tensor on each device of ``devices`` holding a copy of ``tensor``; on the device
    ``tensor`` is already on, ``tensor`` itself."""
    diff_device_dst_tensors = []
    for device in devices:
        if device < 0:
            raise RuntimeError(f"Expected non-negative device index, but got {device}")
        if device != tensor.get_device():
            diff_device_dst_tensors.append(
                torch.empty(tensor.size(), dtype=tensor.dtype, device=torch.device("cuda", device)))
    _broadcast_out_impl(tensor, diff_device_dst_tensors)
    it = iter(diff_device_dst_tensors)
    return [next(it) if device != tensor.get_device() else tensor for device in devices]
# [end marker: broadcast_impl]


def _broadcast_out(tensor, out):
    for i, out_tensor in enumerate(out):
        if not out_tensor.is_cuda:
            raise RuntimeError(
                "Expected all output tensors to be CUDA tensors, but output tensor at index "
                f"{i} has device '{out_tensor.device}'")
        if out_tensor.size() != tensor.size():
            raise RuntimeError(
                f"Expected all output tensors to have same shape as the source tensor {_sizes(tensor.size())}, "
                f"but output tensor at index {i} has shape {_sizes(out_tensor.size())}")
    return _broadcast_out_impl(tensor, list(out))


def broadcast(tensor, devices=None, *, out=None):
    r"""Broadcasts a tensor to specified GPU devices.

    Args:
        tensor (Tensor): tensor to broadcast. Can be on CPU or GPU.
        devices (Iterable[torch.device, str or int], optional): an iterable of
          GPU devices, among which to broadcast.
        out (Sequence[Tensor], optional, keyword-only): the GPU tensors to
          store output results.

    .. note::
        Exactly one of :attr:`devices` and :attr:`out` must be specified.

    Returns:
        - If :attr:`devices` is specified,
            a list containing copies of :attr:`tensor`, placed on
            :attr:`devices` (on the device :attr:`tensor` is on: :attr:`tensor` itself).
        - If :attr:`out` is specified,
            a list containing :attr:`out` tensors, each containing a copy of
            :attr:`tensor`.
    """
    if not ((devices is None) ^ (out is None)):
        raise RuntimeError(
            f"Exactly one of 'devices' and 'out' must be specified, but got devices={devices} and out={out}"
        )
    if devices is not None:
        devices = [_get_device_index(d) for d in devices]
        return _broadcast(tensor, devices)
    else:
        return _broadcast_out(tensor, out)


# [marker: broadcast_coalesced]
def broadcast_coalesced(tensors, devices, buffer_size=10485760):
    """Broadcast a sequence of tensors to the specified GPUs.

    Small tensors are first coalesced into a buffer to reduce the number of synchronizations.

    Args:
        tensors (sequence): tensors to broadcast. Must be on the same device,
          ``devices[0]``.
        devices (Iterable[torch.device, str or int]): an iterable of GPU
          devices, among which to broadcast.
        buffer_size (int): maximum size of the buffer used for coalescing

    Returns:
        A list with, for each device of :attr:`devices`, a list of copies of :attr:`tensors`
        placed on it (for ``devices[0]``: :attr:`tensors` themselves).
    """
    devices = [_get_device_index(d) for d in devices]
    tensors = list(tensors)
    if not all(t.get_device() == devices[0] for t in tensors):
        raise RuntimeError(f"All tensors must be on devices[0]: {devices[0]}")

    outputs = [list(tensors)] + [[] for _ in devices[1:]]
    seen_types = set()
    for chunk in _take_tensor_groups(tensors, buffer_size):
        seen_types.add(_type_key(chunk[0]))
        # One buffer per bucket, broadcast with one copy per device, then viewed back.
        results = _broadcast(_flatten_dense_tensors(chunk), devices)
        for i in range(1, len(devices)):
            for t in _unflatten_dense_tensors(results[i], chunk):
                # .data: each output gets its own version counter, as the C++ re-wraps them
                # (NOTE [ Version Counter in comm.*_coalesced ] in comm.cpp).
                outputs[i].append(t.data)

    # Buckets hold one type each: with several types, put each list back in input order.
    if len(seen_types) > 1:
        outputs = [list(_reorder_tensors_as(o, tensors)) for o in outputs]
    return outputs
# [end marker: broadcast_coalesced]


# ---------------------------------------------------------------------------------------
# Reduce (Python in PyTorch as well)
# ---------------------------------------------------------------------------------------

# [marker: reduce_add]
def reduce_add(inputs, destination=None):
    """Sum tensors from multiple GPUs.

    All inputs should have matching shapes, dtype, and layout. The output tensor
    will be of the same shape, dtype, and layout.

    Args:
        inputs (Iterable[Tensor]): an iterable of tensors to add.
        destination (int, optional): a device on which the output will be
            placed (default: current device).

    Returns:
        A tensor containing an elementwise sum of all inputs, placed on the
        :attr:`destination` device.
    """
    destination = _get_device_index(destination, optional=True)
    input_size = inputs[0].size()
    root_index = None  # index of input tensor that already is on the correct device
    for i, inp in enumerate(inputs):
        if inp.device.type == "cpu":
            raise AssertionError(f"reduce_add expects all inputs to be on GPUs, but input {i} is on CPU")
        if inp.get_device() == destination:
            root_index = i
        if inp.size() != input_size:
            got = "x".join(str(x) for x in inp.size())
            expected = "x".join(str(x) for x in input_size)
            raise ValueError(f"input {i} has invalid size: got {got}, but expected {expected}")
    if root_index is None:
        raise RuntimeError("reduce_add expects destination to be on the same GPU with one of the tensors")

    if len(inputs) == 1:
        return inputs[0]

    # No NCCL: copy each other input to the destination and add it there.
    destination_device = torch.device(inputs[root_index].device.type, destination)
    nonroot = [t for i, t in enumerate(inputs) if i != root_index]
    # make a new tensor w/o clone
    result = inputs[root_index] + nonroot[0].to(device=destination_device, non_blocking=True)
    for other in nonroot[1:]:
        result.add_(other.to(device=destination_device, non_blocking=True))
    return result
# [end marker: reduce_add]


def reduce_add_coalesced(inputs, destination=None, buffer_size=10485760):
    """Sum tensors from multiple GPUs.

    Small tensors are first coalesced into a buffer to reduce the number
    of synchronizations.

    Args:
        inputs (Iterable[Iterable[Tensor]]): iterable of iterables that
            contain tensors from a single device.
        destination (int, optional): a device on which the output will be
            placed (default: current device).
        buffer_size (int): maximum size of the buffer used for coalescing

    Returns:
        A tuple of tensors containing an elementwise sum of each group of
        inputs, placed on the ``destination`` device.
    """
    dense_tensors = [[] for _ in inputs]  # shape (num_gpus, num_tensors)
    output = []
    ref_order = []
    for tensor_at_gpus in zip(*inputs, strict=True):
        for coll, t in zip(dense_tensors, tensor_at_gpus, strict=True):
            coll.append(t)
        ref_order.append(dense_tensors[0][-1])
    itrs = [_take_tensors(tensors, buffer_size) for tensors in dense_tensors]
    for chunks in zip(*itrs, strict=True):
        flat_tensors = [_flatten_dense_tensors(chunk) for chunk in chunks]  # (num_gpus,)
        flat_result = reduce_add(flat_tensors, destination)
        for t in _unflatten_dense_tensors(flat_result, chunks[0]):
            # See NOTE [ Version Counter in comm.*_coalesced ]
            output.append(t.data)
    return tuple(_reorder_tensors_as(output, ref_order))


# ---------------------------------------------------------------------------------------
# Scatter (C++: scatter, scatter_out)
# ---------------------------------------------------------------------------------------

# [marker: scatter_impl]
def _scatter(tensor, devices, chunk_sizes, dim, streams):
    streams = _to_stream_list(streams)
    if not devices:
        raise RuntimeError("Expected at least one device to scatter to")
    if chunk_sizes is not None:
        chunk_sizes = [int(s) for s in chunk_sizes]
        if len(chunk_sizes) != len(devices):
            raise RuntimeError(
                "Expected devices and chunk_sizes to be of same length, but got "
                f"len(devices) = {len(devices)} and len(chunk_sizes) = {len(chunk_sizes)}")
    dim = _maybe_wrap_dim(dim, tensor.dim())
    # Views of the source: no copy yet.
    chunks = list(tensor.split_with_sizes(chunk_sizes, dim) if chunk_sizes is not None
                  else tensor.chunk(len(devices), dim))
    for i in range(len(chunks)):
        device_index = devices[i]
        if device_index != tensor.get_device():
            stream = _stream_at(streams, i, device_index)
            if device_index < 0:
                raise RuntimeError(f"Expected non-negative device index, but got {device_index}")
            # One copy per device, queued on the given stream (the current one without).
            with torch.cuda.stream(stream):
                chunks[i] = chunks[i].to(torch.device("cuda", device_index), non_blocking=True)
    return chunks
# [end marker: scatter_impl]


def _scatter_out(tensor, out_tensors, dim, streams):
    streams = _to_stream_list(streams)
    out_tensors = list(out_tensors)
    if not out_tensors:
        raise RuntimeError("Expected at least one output tensor to scatter to")
    dim = _maybe_wrap_dim(dim, tensor.dim())
    total_size = 0
    chunk_sizes = []
    for i, out_tensor in enumerate(out_tensors):
        if not out_tensor.is_cuda:
            raise RuntimeError(
                "Expected all output tensors to be CUDA tensors, but output tensor at index "
                f"{i} has device '{out_tensor.device}'")
        out_sizes = list(out_tensor.size())
        same_ndim = len(out_sizes) == tensor.dim()
        if same_ndim:
            total_size += out_sizes[dim]
            chunk_sizes.append(out_sizes[dim])
            out_sizes[dim] = tensor.size(dim)
        if not (same_ndim and out_sizes == list(tensor.size())):
            raise RuntimeError(
                f"Output tensor at index {i} has incorrect shape: {_sizes(out_tensor.size())}. Expected same "
                f"shape except for scatter dim {dim} as the source tensor: {_sizes(tensor.size())}")
    if total_size != tensor.size(dim):
        raise RuntimeError(
            f"Total size for output tensors along scatter dim {dim} does not match "
            f"the source tensor size at dim {dim}. Expected {tensor.size(dim)}, but got total size {total_size}")

    chunks = tensor.split_with_sizes(chunk_sizes, dim)
    for i in range(len(chunks)):
        stream = _stream_at(streams, i, out_tensors[i].get_device())
        with torch.cuda.stream(stream):
            out_tensors[i].copy_(chunks[i], non_blocking=True)
    return out_tensors


def scatter(tensor, devices=None, chunk_sizes=None, dim=0, streams=None, *, out=None):
    """Scatters tensor across multiple GPUs.

    Args:
        tensor (Tensor): tensor to scatter. Can be on CPU or GPU.
        devices (Iterable[torch.device, str or int], optional): an iterable of
          GPU devices, among which to scatter.
        chunk_sizes (Iterable[int], optional): sizes of chunks to be placed on
          each device. It should match :attr:`devices` in length and sums to
          ``tensor.size(dim)``. If not specified, :attr:`tensor` will be divided
          into equal chunks.
        dim (int, optional): A dimension along which to chunk :attr:`tensor`.
          Default: ``0``.
        streams (Iterable[torch.cuda.Stream], optional): an iterable of Streams, among
          which to execute the scatter. If not specified, the default stream will
          be utilized.
        out (Sequence[Tensor], optional, keyword-only): the GPU tensors to
          store output results. Sizes of these tensors must match that of
          :attr:`tensor`, except for :attr:`dim`, where the total size must
          sum to ``tensor.size(dim)``.

    .. note::
        Exactly one of :attr:`devices` and :attr:`out` must be specified. When
        :attr:`out` is specified, :attr:`chunk_sizes` must not be specified and
        will be inferred from sizes of :attr:`out`.

    Returns:
        - If :attr:`devices` is specified,
            a tuple containing chunks of :attr:`tensor`, placed on
            :attr:`devices`.
        - If :attr:`out` is specified,
            a tuple containing :attr:`out` tensors, each containing a chunk of
            :attr:`tensor`.
    """
    if out is None:
        devices = [_get_device_index(d) for d in devices]
        return tuple(_scatter(tensor, devices, chunk_sizes, dim, streams))
    else:
        if devices is not None:
            raise RuntimeError(
                f"'devices' must not be specified when 'out' is specified, but got devices={devices}"
            )
        if chunk_sizes is not None:
            raise RuntimeError(
                f"'chunk_sizes' must not be specified when 'out' is specified, but got chunk_sizes={chunk_sizes}"
            )
        return tuple(_scatter_out(tensor, out, dim, streams))


# ---------------------------------------------------------------------------------------
# Gather (C++: gather, gather_out, _gather_out_impl)
# ---------------------------------------------------------------------------------------

# [marker: gather_impl]
def _gather_out_impl(tensors, out_tensor, dim):
    """No checks: copy each input into its slice of ``out_tensor`` along ``dim``."""
    chunk_sizes = [tensor.size(dim) for tensor in tensors]
    chunks = out_tensor.split_with_sizes(chunk_sizes, dim)  # narrow() views of out_tensor
    for chunk, tensor in zip(chunks, tensors):
        chunk.copy_(tensor, non_blocking=out_tensor.is_cuda)
    return out_tensor


def _gather_shape(tensors, dim, device_quotes):
    """The checks of gather and gather_out: the wrapped dim and the shape of the result."""
    if not tensors:
        raise RuntimeError("Expected at least one tensor to gather from")
    first = tensors[0]
    dim = _maybe_wrap_dim(dim, first.dim())
    expected_size = list(first.size())
    total_size = 0
    for i, tensor in enumerate(tensors):
        if not tensor.is_cuda:
            device = f"'{tensor.device}'" if device_quotes else f"{tensor.device}"
            raise RuntimeError(
                f"Expected all input tensors to be CUDA tensors, but tensor at index {i} has device {device}")
        if tensor.dim() != len(expected_size):
            raise RuntimeError(
                "Expected all input tensors to have the same number of dimensions, but tensor at index "
                f"{i} has {tensor.dim()} dimensions, (expected {len(expected_size)})")
        expected_size[dim] = tensor.size(dim)
        if list(tensor.size()) != expected_size:
            raise RuntimeError(
                f"Input tensor at index {i} has invalid shape {_sizes(tensor.size())}, "
                f"but expected {_sizes(expected_size)}")
        total_size += tensor.size(dim)
    expected_size[dim] = total_size
    return dim, expected_size


def _gather(tensors, dim, destination_index):
    dim, expected_size = _gather_shape(tensors, dim, device_quotes=False)
    # -1 is the CPU; None the current CUDA device.
    if destination_index == -1:
        device = torch.device("cpu")
    elif destination_index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    else:
        device = torch.device("cuda", destination_index)
    result = torch.empty(expected_size, dtype=tensors[0].dtype, device=device)
    return _gather_out_impl(tensors, result, dim)
# [end marker: gather_impl]


def _gather_out(tensors, out_tensor, dim):
    dim, expected_size = _gather_shape(tensors, dim, device_quotes=True)
    if list(out_tensor.size()) != expected_size:
        raise RuntimeError(
            f"Expected out tensor to have shape {_sizes(expected_size)}, but got {_sizes(out_tensor.size())}")
    return _gather_out_impl(tensors, out_tensor, dim)


def gather(tensors, dim=0, destination=None, *, out=None):
    r"""Gathers tensors from multiple GPU devices.

    Args:
        tensors (Iterable[Tensor]): an iterable of tensors to gather.
          Tensor sizes in all dimensions other than :attr:`dim` have to match.
        dim (int, optional): a dimension along which the tensors will be
          concatenated. Default: ``0``.
        destination (torch.device, str, or int, optional): the output device.
          Can be CPU or CUDA. Default: the current CUDA device.
        out (Tensor, optional, keyword-only): the tensor to store gather result.
          Its sizes must match those of :attr:`tensors`, except for :attr:`dim`,
          where the size must equal ``sum(tensor.size(dim) for tensor in tensors)``.
          Can be on CPU or CUDA.

    .. note::
        :attr:`destination` must not be specified when :attr:`out` is specified.

    Returns:
        - If :attr:`destination` is specified,
            a tensor located on :attr:`destination` device, that is a result of
            concatenating :attr:`tensors` along :attr:`dim`.
        - If :attr:`out` is specified,
            the :attr:`out` tensor, now containing results of concatenating
            :attr:`tensors` along :attr:`dim`.
    """
    tensors = list(tensors)
    if out is None:
        if destination == -1:
            warnings.warn(
                "Using -1 to represent CPU tensor is deprecated. Please use a "
                'device object or string instead, e.g., "cpu".',
                FutureWarning,
                stacklevel=2,
            )
        destination = _get_device_index(destination, allow_cpu=True, optional=True)
        return _gather(tensors, dim, destination)
    else:
        if destination is not None:
            raise RuntimeError(
                f"'destination' must not be specified when 'out' is specified, but got destination={destination}"
            )
        return _gather_out(tensors, out, dim)
