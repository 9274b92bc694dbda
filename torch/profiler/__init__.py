"""torch.profiler - where the time of a PyTorch program goes, operator by operator.

Mirrors PyTorch's torch/profiler/__init__.py. Guide: docs/source/internals/profiler.rst.

Every operator call passes the dispatcher's RecordFunction check (aten/src/ATen/record_function.h);
while a profiler is on, each call, each backward node and each ``record_function`` scope
becomes an event. ``profile`` collects them, ``key_averages().table()`` sums them up.
PyTorch's ``tensorboard_trace_handler`` and ``ExecutionTraceObserver`` are not here.
"""

from torch.autograd.profiler import record_function
from torch.autograd.profiler_util import DeviceType

from .profiler import (
    _KinetoProfile,
    profile,
    ProfilerAction,
    ProfilerActivity,
    schedule,
    supported_activities,
)

__all__ = [
    "profile",
    "schedule",
    "supported_activities",
    "ProfilerAction",
    "ProfilerActivity",
    "DeviceType",
    "record_function",
]
