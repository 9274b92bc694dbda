"""torch.cuda.Stream and torch.cuda.Event.

Mirrors PyTorch's torch/cuda/streams.py. Guide: docs/source/internals/c10_cuda.rst.

The C++ halves are ``torch._C._CudaStreamBase`` (torch/csrc/cuda/Stream.cpp, holding a
``c10::cuda::CUDAStream``) and ``torch._C._CudaEventBase`` (torch/csrc/cuda/Event.cpp,
holding a ``c10::cuda::CUDAEvent``). A build without CUDA has neither: placeholder bases
raise PyTorch's errors when instantiated, so the classes still exist to be named.
"""

import ctypes

import torch

__all__ = ["Stream", "ExternalStream", "Event"]


def _dummy_type(name):
    """A class that refuses to be instantiated (PyTorch's torch._utils._dummy_type)."""

    def get_err_fn(is_init):
        def err_fn(obj, *args, **kwargs):
            class_name = obj.__class__.__name__ if is_init else obj.__name__
            raise RuntimeError(f"Tried to instantiate dummy base class {class_name}")

        return err_fn

    return type(name, (object,), {"__init__": get_err_fn(True), "__new__": get_err_fn(False)})


if not hasattr(torch._C, "_CudaStreamBase"):
    # A build without CUDA: define placeholder base classes.
    torch._C.__dict__["_CudaStreamBase"] = _dummy_type("_CudaStreamBase")
    torch._C.__dict__["_CudaEventBase"] = _dummy_type("_CudaEventBase")


class Stream(torch._C._CudaStreamBase):
    """A CUDA stream: a queue of GPU work, independent of the other streams of its device.

    ``Stream()`` takes the next stream of the device's pool for ``priority`` (0, or
    negative for higher priority): PyTorch keeps 32 streams per priority per device and hands
    them out round robin, so creating a Stream is cheap and never makes a new cudaStream_t.
    """

    def __new__(cls, device=None, priority=0, **kwargs):
        if not torch._C._has_cuda:
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        return super().__new__(cls)

    def __init__(self, device=None, priority=0, **kwargs):
        # The pool stream comes from the current device: make `device` current meanwhile.
        if device is None or ("stream_id" in kwargs and "device_index" in kwargs):
            super().__init__(priority=priority, **kwargs)
        else:
            with torch.cuda.device(device):
                super().__init__(priority=priority, **kwargs)

    def wait_event(self, event):
        """Make all future work submitted to this stream wait for ``event``."""
        event.wait(self)

    def wait_stream(self, stream):
        """Future work on this stream waits for the work queued on ``stream`` so far."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        """Record ``event`` (a new one if None) at the end of this stream's work; return it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def query(self):
        """True if all the work submitted to this stream has completed."""
        return super().query()

    def synchronize(self):
        """Wait for all the work of this stream to complete (cudaStreamSynchronize)."""
        super().synchronize()

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self.cuda_stream)

    def __eq__(self, o):
        if isinstance(o, Stream):
            return super().__eq__(o)
        return False

    def __hash__(self):
        return hash((self.cuda_stream, self.device))

    def __repr__(self):
        return f"<torch.cuda.Stream device={self.device} cuda_stream={self.cuda_stream:#x}>"


class ExternalStream(Stream):
    """A cudaStream_t created by another library (``stream_ptr``, an int); not owned."""

    def __init__(self, stream_ptr, device=None, **kwargs):
        with torch.cuda.device(device):
            super().__init__(stream_ptr=stream_ptr, **kwargs)


class Event(torch._C._CudaEventBase):
    """A CUDA event: a marker in a stream's work, to wait for or to time.

    The cudaEvent_t is created by the first ``record()``, on the recording stream's device.
    """

    def __init__(self, enable_timing=False, blocking=False, interprocess=False, external=False):
        super().__init__(enable_timing=enable_timing, blocking=blocking, interprocess=interprocess,
                         external=external)

    def record(self, stream=None):
        """Record the event on ``stream`` (default: the current stream)."""
        if stream is None:
            stream = torch.cuda.current_stream()
        super().record(stream)

    def wait(self, stream=None):
        """Make future work on ``stream`` (default: the current stream) wait for this event."""
        if stream is None:
            stream = torch.cuda.current_stream()
        super().wait(stream)

    def query(self):
        """True if the work recorded before the event has completed."""
        return super().query()

    def elapsed_time(self, end_event):
        """Milliseconds between this event and ``end_event`` (both with enable_timing=True)."""
        return super().elapsed_time(end_event)

    def synchronize(self):
        """Wait until the work recorded before the event has completed."""
        super().synchronize()

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self.cuda_event)

    def __repr__(self):
        if self.cuda_event:
            return f"<torch.cuda.Event {self._as_parameter_.value:#x}>"
        return "<torch.cuda.Event uninitialized>"
