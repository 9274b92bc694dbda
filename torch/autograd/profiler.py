"""torch/autograd/profiler.py - profile (the context manager) and record_function (a labelled scope).

Mirrors PyTorch's torch/autograd/profiler.py. Guide: docs/source/internals/profiler.rst.

``profile`` enables the C++ collector (torch._C._autograd._enable_profiler_legacy: a
RecordFunction callback, torch/csrc/autograd/profiler_legacy.cpp) on entry, so that every
operator the dispatcher runs, every backward node the engine runs and every
``record_function`` scope becomes an event; on exit it takes the events and builds
FunctionEvents (profiler_util.py). PyTorch records through Kineto, which also traces GPU
kernels; this collector sees what runs on the CPU.
"""

from contextlib import ContextDecorator as _ContextDecorator
from time import perf_counter_ns
from typing import Any, Optional
from warnings import warn

import torch
from torch.autograd.profiler_util import (  # noqa: F401
    _filter_name,
    _rewrite_name,
    DeviceType,
    EventList,
    FunctionEvent,
    FunctionEventAvg,
)

__all__ = ["profile", "record_function", "EventList", "FunctionEvent"]

# global python state - whether profiler is currently enabled
# useful for fast python checks to reduce latency
_is_profiler_enabled: bool = False


def _set_is_profiler_enabled(enable: bool):
    global _is_profiler_enabled
    _is_profiler_enabled = enable


def _run_on_profiler_start():
    _set_is_profiler_enabled(True)


def _run_on_profiler_stop():
    _set_is_profiler_enabled(False)


class profile:
    """Context manager that manages autograd profiler state and holds a summary of results.

    .. note::
        This is the backend, most people should use :mod:`torch.profiler` instead.

    Under the hood it just records events of functions being executed in C++ and
    exposes those events to Python. You can wrap any code into it and it will
    only report runtime of PyTorch functions.

    Args:
        enabled (bool, optional): Setting this to False makes this context manager a no-op.
        use_cuda (bool, optional): deprecated; CUDA kernels are not timed by this profiler
            (the CPU side of CUDA operators is).
        use_device (str, optional): accepted for PyTorch's signature; see use_cuda.
        record_shapes (bool, optional): keep each operator's input shapes, so that
            ``prof.key_averages(group_by_input_shape=True)`` can group by them.
        profile_memory (bool, optional): not recorded by this profiler (a warning says so).
        with_stack (bool, optional): not recorded by this profiler (a warning says so).

    .. warning::
        This context managers should not be called recursively, i.e. no nested
        instances are allowed
    """

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None,
                 post_processing_timeout_s=None):
        self.enabled: bool = enabled
        if not self.enabled:
            return
        self.use_cuda = use_cuda
        if self.use_cuda:
            warn("The attribute `use_cuda` will be deprecated soon, please use ``use_device = 'cuda'`` instead.",
                 FutureWarning, stacklevel=2)
            self.use_device: Optional[str] = "cuda"
        else:
            self.use_device = use_device
        self._function_events = None
        self._old_function_events = None
        self._needs_processing = False
        self.entered = False
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.record_shapes |= self.with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.use_cpu = use_cpu
        self.acc_events = acc_events
        self.profiling_start_time_ns = 0
        self.profiling_end_time_ns = 0

        if self.use_device == "cuda" and not torch.cuda.is_available():
            warn("CUDA is not available, disabling CUDA profiling", stacklevel=2)
            self.use_cuda = False
            self.use_device = None
        if not self.use_cpu and self.use_device is None:
            raise AssertionError("No activities specified for the profiler")
        # Device kernels are not traced here: the table shows CPU columns only.
        self.use_device = None
        if self.profile_memory:
            warn("profile_memory=True: this profiler does not record memory; no memory columns are shown",
                 stacklevel=2)
            self.profile_memory = False
        if self.with_stack:
            warn("with_stack=True: this profiler does not record Python stacks", stacklevel=2)

    def __enter__(self):
        if not self.enabled:
            return
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self._prepare_trace()
        self._start_trace()
        return self

    def _prepare_trace(self):
        self.entered = True

    def _start_trace(self):
        self.entered = True
        # Raises "Profiler is already enabled on this thread" under another profile.
        torch._C._autograd._enable_profiler_legacy(self.record_shapes)
        _run_on_profiler_start()
        self.profiling_start_time_ns = perf_counter_ns()

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.enabled:
            return
        if self._function_events and self.acc_events:
            self._old_function_events = self._function_events
        self._function_events = None
        self._needs_processing = True

        self.profiling_end_time_ns = perf_counter_ns()
        self._records = torch._C._autograd._disable_profiler_legacy()
        _run_on_profiler_stop()
        if self.acc_events:
            self._ensure_function_events()
        return False

    def __repr__(self):
        if self._needs_processing:
            self._ensure_function_events()
        if self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return repr(self._function_events)

    def __str__(self):
        if self._needs_processing:
            self._ensure_function_events()
        if self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return str(self._function_events)

    def _ensure_function_events(self):
        """Process function events lazily if required"""
        if self._function_events is not None:
            return
        self._needs_processing = False
        self._function_events = EventList(
            _parse_legacy_records(self._records, self.use_device) if getattr(self, "_records", None) else [],
            use_device=self.use_device,
            profile_memory=self.profile_memory,
            with_flops=self.with_flops,
        )
        self._function_events._build_tree()
        if self._old_function_events and self.acc_events:
            for evt in self._old_function_events:
                self._function_events.append(evt)
            self._old_function_events = None

    @property
    def function_events(self):
        if self._function_events is None or self._needs_processing:
            self._ensure_function_events()
        return self._function_events

    def events(self):
        """The recorded FunctionEvents (an EventList); the same as ``function_events``."""
        return self.function_events

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.table(
            sort_by=sort_by,
            row_limit=row_limit,
            max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width,
            header=header,
            top_level_events_only=top_level_events_only,
        )

    table.__doc__ = EventList.table.__doc__

    def export_chrome_trace(self, path):
        self._ensure_function_events()
        return self._function_events.export_chrome_trace(path)

    export_chrome_trace.__doc__ = EventList.export_chrome_trace.__doc__

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.key_averages(group_by_input_shape, group_by_stack_n, group_by_overload_name)

    key_averages.__doc__ = EventList.key_averages.__doc__

    def total_average(self):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.total_average()

    total_average.__doc__ = EventList.total_average.__doc__

    @property
    def self_cpu_time_total(self):
        """Returns total time spent on CPU.

        The total time is a sum of all self times across all the events.
        """
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.self_cpu_time_total


_USER_SCOPE = 7  # at::RecordScope::USER_SCOPE


def _parse_legacy_records(records, use_device=None):
    """Turn the collector's tuples into FunctionEvents, ordered by start time.

    Each record is (name, start_ns, end_ns, thread, sequence_nr, scope, input_shapes, fwd_thread),
    times counted from the moment the profiler was enabled; FunctionEvent keeps microseconds.
    """
    records = sorted(records, key=lambda r: (r[1], -r[2]))
    functions = []
    for name, start_ns, end_ns, thread, sequence_nr, scope, shapes, fwd_thread in records:
        if _filter_name(name):
            continue
        is_user_annotation = scope == _USER_SCOPE
        functions.append(FunctionEvent(
            id=len(functions) + 1,
            name=_rewrite_name(name=name, with_wildcard=True),
            trace_name=_rewrite_name(name=name, with_wildcard=False),
            thread=thread,
            start_us=start_ns / 1000.0,
            end_us=end_ns / 1000.0,
            fwd_thread=fwd_thread,
            input_shapes=shapes if shapes is not None else [],
            stack=[],
            scope=scope,
            use_device=use_device,
            sequence_nr=sequence_nr,
            is_legacy=False,
            is_user_annotation=is_user_annotation,
        ))
    return functions


class record_function(_ContextDecorator):
    """Context manager/function decorator that adds a label to a code block/function when running autograd profiler.

    The label becomes an event of its own whose children are the operators run inside it.

    Args:
        name (str): Label assigned to the block of code.
        args (str, optional): recorded as the scope's input when shapes are recorded.
    """

    def __init__(self, name: str, args: Optional[str] = None):
        self.name: str = name
        self.args: Optional[str] = args
        # Whether or not we should run record function's end callbacks when exiting.
        self.run_callbacks_on_exit: bool = True
        self.record = None

    def __enter__(self):
        # PyTorch calls torch.ops.profiler._record_function_enter_new here.
        self.record = torch._C._autograd._record_function_enter(self.name, self.args)
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any):
        if not self.run_callbacks_on_exit:
            return
        # Local variable is needed by TorchScript to refine Optional[T] to T
        record = self.record
        if record is None:
            raise AssertionError("Expected record to be set")
        torch._C._autograd._record_function_exit(record)
