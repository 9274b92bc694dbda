"""torch/autograd/profiler_util.py - the profiler's events, their tree, averages, table and trace.

Mirrors PyTorch's torch/autograd/profiler_util.py (its CPU part). Guide: docs/source/internals/profiler.rst.

The C++ collector (torch/csrc/autograd/profiler_legacy.cpp) hands back flat records: a name,
a start and an end time, a thread. Everything else is rebuilt here: which call ran inside
which (intervals nest, per thread), hence each event's self time (its total minus its
children's), the per-name averages, PyTorch's table and the Chrome trace.
"""

import enum
import itertools
import json
from collections import defaultdict
from operator import attrgetter

__all__ = ["EventList", "FormattedTimesMixin", "Interval", "FunctionEvent", "FunctionEventAvg", "StringTable",
           "DeviceType"]


class DeviceType(enum.Enum):
    """Where an event ran (PyTorch binds c10::DeviceType; this collector only sees the CPU)."""

    CPU = 0
    CUDA = 1


class EventList(list):
    """A list of FunctionEvent (or FunctionEventAvg) with the profiler's views of it."""

    def __init__(self, *args, **kwargs):
        use_device = kwargs.pop("use_device", None)
        profile_memory = kwargs.pop("profile_memory", False)
        with_flops = kwargs.pop("with_flops", False)
        super().__init__(*args, **kwargs)
        self._use_device = use_device
        self._profile_memory = profile_memory
        self._tree_built = False
        self._with_flops = with_flops

    def _build_tree(self):
        self._populate_cpu_children()
        self._remove_dup_nodes()
        self._tree_built = True

    def __str__(self):
        return self.table()

    def _remove_dup_nodes(self):
        # An event whose only child has its own name (a wrapper that calls itself) is one call.
        while True:
            to_delete = set()
            for idx in range(len(self)):
                if (
                    self[idx].cpu_parent is not None
                    and self[idx].cpu_parent.name == self[idx].name
                    and len(self[idx].cpu_parent.cpu_children) == 1
                ):
                    self[idx].cpu_parent.cpu_children = self[idx].cpu_children
                    for ch in self[idx].cpu_children:
                        ch.cpu_parent = self[idx].cpu_parent
                    to_delete.add(idx)
            if len(to_delete) == 0:
                break
            new_evts = [ev for ind, ev in enumerate(self) if ind not in to_delete]
            self.clear()
            self.extend(new_evts)

    # [marker: _populate_cpu_children]
    def _populate_cpu_children(self):
        """Make each event the child of the innermost event whose interval contains it.

        One event is a child of another if [s1, e1) is inside [s2, e2), on the same thread.
        Sorted by start (and longest first on ties), a stack of open intervals finds the parent
        of each event in O(N log N): pop what ended before it starts, the top is its parent.
        Two intervals that only overlap are not related.
        """
        events = sorted((evt for evt in self if not evt.is_async), key=attrgetter("thread"))
        threads = itertools.groupby(events, key=lambda event: (event.thread, event.node_id))
        for _thread_id, thread_events in threads:
            thread_events_ = sorted(thread_events, key=lambda event: [event.time_range.start, -event.time_range.end])
            current_events = []
            for event in thread_events_:
                while len(current_events) > 0:
                    parent = current_events[-1]
                    if event.time_range.start >= parent.time_range.end or event.time_range.end > parent.time_range.end:
                        # this can't be a parent
                        current_events.pop()
                    else:
                        parent.append_cpu_child(event)
                        if event.cpu_parent is not None:
                            raise AssertionError(f"There is already a CPU parent event for {event.key}")
                        event.set_cpu_parent(parent)
                        break
                current_events.append(event)
    # [end marker: _populate_cpu_children]

    @property
    def self_cpu_time_total(self):
        return sum(event.self_cpu_time_total for event in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False, time_unit=None):
        """Print an EventList as a nicely formatted table.

        Args:
            sort_by (str, optional): Attribute used to sort entries. By default
                they are printed in the same order as they were registered.
                Valid keys include: ``cpu_time``, ``cpu_time_total``, ``self_cpu_time_total``,
                ``cpu_memory_usage``, ``self_cpu_memory_usage``, ``count``.
            top_level_events_only(bool, optional): only events without a parent.
            time_unit(str, optional): ``s``, ``ms`` or ``us`` for every time in the table.

        Returns:
            A string containing the table.
        """
        return _build_table(
            self,
            sort_by=sort_by,
            row_limit=row_limit,
            max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width,
            header=header,
            profile_memory=self._profile_memory,
            with_flops=self._with_flops,
            top_level_events_only=top_level_events_only,
            time_unit=time_unit,
        )

    def export_chrome_trace(self, path):
        """Export an EventList as a Chrome tracing tools file.

        The file can be loaded and inspected under ``chrome://tracing`` (or ui.perfetto.dev):
        one complete event (``"ph": "X"``) per call, ``ts`` and ``dur`` in microseconds.

        Args:
            path (str): Path where the trace will be written.
        """
        import os

        pid = os.getpid()
        trace_events = []
        for evt in self:
            if evt.trace_name is None:
                continue
            args = {}
            if evt.sequence_nr >= 0:
                args["Sequence number"] = evt.sequence_nr
            if evt.input_shapes:
                args["Input Dims"] = evt.input_shapes
            trace_events.append({
                "ph": "X",
                "cat": "user_annotation" if evt.is_user_annotation else "cpu_op",
                "name": evt.trace_name,
                "pid": pid,
                "tid": evt.thread,
                "ts": evt.time_range.start,
                "dur": evt.time_range.elapsed_us(),
                "args": args,
            })
        with open(path, "w") as f:
            json.dump({"displayTimeUnit": "ms", "traceEvents": trace_events}, f, indent=1)

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0, group_by_overload_name=False):
        """Averages all function events over their keys.

        Args:
            group_by_input_shapes: group entries by (event name, input shapes) rather than
                just event name: which shapes contribute most to the time.
            group_by_stack_n: group by top n stack trace entries (no stacks are recorded here).
            group_by_overload_name: accepted for PyTorch's signature; events carry no overload name.

        Returns:
            An EventList containing FunctionEventAvg objects.
        """
        if not self._tree_built:
            raise AssertionError("Expected tree to be built before calling key_averages")
        stats = defaultdict(FunctionEventAvg)

        def get_key(event, group_by_input_shapes, group_by_stack_n):
            key = [str(event.key), str(event.node_id), str(event.device_type), str(event.is_legacy),
                   str(event.is_user_annotation)]
            if group_by_input_shapes:
                key.append(str(event.input_shapes))
            if group_by_stack_n > 0:
                key += event.stack[:group_by_stack_n]
            return tuple(key)

        for evt in self:
            stats[get_key(evt, group_by_input_shapes, group_by_stack_n)].add(evt)

        avg_list = EventList(stats.values(), use_device=self._use_device, profile_memory=self._profile_memory,
                             with_flops=self._with_flops)
        for evt in avg_list:
            evt.stack = evt.stack[:group_by_stack_n]
            if not group_by_input_shapes:
                evt.input_shapes = ""
        return avg_list

    def total_average(self):
        """Sum every event into one FunctionEventAvg with key "Total"."""
        total_stat = FunctionEventAvg()
        for evt in self:
            total_stat += evt
            total_stat.key = None
        total_stat.key = "Total"
        return total_stat


def _format_time(time_us):
    """Define how to format time in FunctionEvent."""
    US_IN_SECOND = 1000.0 * 1000.0
    US_IN_MS = 1000.0
    if time_us >= US_IN_SECOND:
        return f"{time_us / US_IN_SECOND:.3f}s"
    if time_us >= US_IN_MS:
        return f"{time_us / US_IN_MS:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us, total_time_us):
    """Define how to format time in FunctionEvent."""
    if total_time_us == 0:
        if time_us != 0:
            raise AssertionError(f"Expected time_us == 0 but got {time_us}")
        return "NaN"
    return f"{time_us * 100.0 / total_time_us:.2f}%"


def _format_memory(nbytes):
    """Return a formatted memory size string."""
    KB = 1024
    MB = 1024 * KB
    GB = 1024 * MB
    if abs(nbytes) >= GB:
        return f"{nbytes * 1.0 / GB:.2f} GB"
    elif abs(nbytes) >= MB:
        return f"{nbytes * 1.0 / MB:.2f} MB"
    elif abs(nbytes) >= KB:
        return f"{nbytes * 1.0 / KB:.2f} KB"
    else:
        return str(nbytes) + " B"


def _attr_formatter(name):
    return property(lambda self: _format_time(getattr(self, name)))


class FormattedTimesMixin:
    """Helpers for FunctionEvent and FunctionEventAvg.

    The subclass should define `*_time_total` and `count` attributes.
    """

    cpu_time_str = _attr_formatter("cpu_time")
    device_time_str = _attr_formatter("device_time")
    cpu_time_total_str = _attr_formatter("cpu_time_total")
    device_time_total_str = _attr_formatter("device_time_total")
    self_cpu_time_total_str = _attr_formatter("self_cpu_time_total")
    self_device_time_total_str = _attr_formatter("self_device_time_total")

    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else 1.0 * self.cpu_time_total / self.count

    @property
    def device_time(self):
        return 0.0 if self.count == 0 else 1.0 * self.device_time_total / self.count


class Interval:
    def __init__(self, start, end):
        self.start = start
        self.end = end

    def elapsed_us(self):
        r"""
        Returns the length of the interval
        """
        return self.end - self.start


class FunctionEvent(FormattedTimesMixin):
    """Profiling information about a single function.

    Attributes:
        id (int): Unique identifier for this event.
        name (str): Name of the profiled function/operator ("aten::mm", a record_function label,
            "autograd::engine::evaluate_function: MmBackward0").
        time_range (Interval): start and end in microseconds since the profiler started.
        thread (int): the thread it ran on (at::RecordFunction::currentThreadId: 1, 2, ...).
        cpu_children (List[FunctionEvent]): the calls made directly inside this one.
        cpu_parent (FunctionEvent): the call this one was made in, or None.
        input_shapes (List[List[int]]): one entry per argument, a tensor's sizes or [] (record_shapes=True).
        scope (int): at::RecordScope (0 = an operator, 1 = a backward node, 7 = record_function).
        sequence_nr (int): ties a forward operator to the autograd node it made (-1: none).
    """

    def __init__(self, id, name, thread, start_us, end_us, overload_name=None, fwd_thread=None, input_shapes=None,
                 stack=None, scope=0, use_device=None, cpu_memory_usage=0, device_memory_usage=0, is_async=False,
                 is_remote=False, sequence_nr=-1, node_id=-1, device_type=DeviceType.CPU, device_index=0,
                 device_resource_id=None, is_legacy=False, flops=None, trace_name=None, concrete_inputs=None,
                 kwinputs=None, is_user_annotation=False):
        self.id: int = id
        self.node_id: int = node_id
        self.name: str = name
        self.overload_name: str = overload_name
        self.trace_name: str = trace_name
        self.time_range: Interval = Interval(start_us, end_us)
        self.thread: int = thread
        self.fwd_thread = fwd_thread
        self.kernels = []
        self.count: int = 1
        self.cpu_children = []
        self.cpu_parent = None
        self.input_shapes = input_shapes
        self.concrete_inputs = concrete_inputs
        self.kwinputs = kwinputs
        self.stack = stack
        self.scope: int = scope
        self.use_device = use_device
        self.cpu_memory_usage: int = cpu_memory_usage
        self.device_memory_usage: int = device_memory_usage
        self.is_async: bool = is_async
        self.is_remote: bool = is_remote
        self.sequence_nr: int = sequence_nr
        self.device_type: DeviceType = device_type
        self.device_index: int = device_index
        self.device_resource_id: int = thread if device_resource_id is None else device_resource_id
        self.is_legacy: bool = is_legacy
        self.flops = flops
        self.is_user_annotation = is_user_annotation
        self.self_cpu_percent = -1
        self.total_cpu_percent = -1
        self.total_device_percent = -1

    def append_cpu_child(self, child):
        """Append a CPU child of type FunctionEvent.

        One is supposed to append only direct children to the event to have
        correct self cpu time being reported.
        """
        if not isinstance(child, FunctionEvent):
            raise AssertionError("Expected child to be a FunctionEvent")
        self.cpu_children.append(child)

    def set_cpu_parent(self, parent):
        """Set the immediate CPU parent of type FunctionEvent.

        One profiling FunctionEvent should have only one CPU parent such that
        the child's range interval is completely inside the parent's. We use
        this connection to determine the event is from top-level op or not.
        """
        if not isinstance(parent, FunctionEvent):
            raise AssertionError("Expected parent to be a FunctionEvent")
        self.cpu_parent = parent

    # Note: async events don't have children, are not used when computing 'self'
    # metrics of other events, have only total cpu time
    @property
    def self_cpu_memory_usage(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.cpu_memory_usage - sum(child.cpu_memory_usage for child in self.cpu_children)

    @property
    def self_device_memory_usage(self):
        return 0

    @property
    def cpu_time_total(self):
        if self.device_type == DeviceType.CPU:
            return self.time_range.elapsed_us()
        else:
            return 0

    # [marker: self_cpu_time_total]
    @property
    def self_cpu_time_total(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)
    # [end marker: self_cpu_time_total]

    @property
    def device_time_total(self):
        # Device kernels are not traced by this collector.
        return 0

    @property
    def self_device_time_total(self):
        return 0

    @property
    def key(self):
        return self.name

    def __repr__(self):
        device_name = self.use_device
        device_time = self.device_time_str
        device_memory_usage = self.device_memory_usage
        return (
            f"<FunctionEvent id={self.id} name={self.name} overload_name={self.overload_name} "
            f"device_type={self.device_type} node_id={self.node_id} cpu_time={self.cpu_time_str} "
            f"start_us={self.time_range.start} end_us={self.time_range.end} "
            f"cpu_children={str([child.id for child in self.cpu_children])} {device_name}_time={device_time} "
            f"name={self.name} thread={self.thread} input_shapes={str(self.input_shapes)} "
            f"cpu_memory_usage={self.cpu_memory_usage} {device_name}_memory_usage={device_memory_usage} "
            f"is_async={self.is_async} is_remote={self.is_remote} seq_nr={self.sequence_nr} is_legacy={self.is_legacy}>"
        )


class FunctionEventAvg(FormattedTimesMixin):
    """Averaged profiling statistics over multiple FunctionEvent objects (one key_averages row)."""

    def __init__(self) -> None:
        self.key = None
        self.count: int = 0
        self.node_id: int = 0
        self.is_async: bool = False
        self.is_remote: bool = False
        self.use_device = None
        self.cpu_time_total: int = 0
        self.device_time_total: int = 0
        self.self_cpu_time_total: int = 0
        self.self_device_time_total: int = 0
        self.input_shapes = None
        self.overload_name = None
        self.stack = None
        self.scope = None
        self.cpu_memory_usage: int = 0
        self.device_memory_usage: int = 0
        self.self_cpu_memory_usage: int = 0
        self.self_device_memory_usage: int = 0
        self.cpu_children = None
        self.cpu_parent = None
        self.device_type: DeviceType = DeviceType.CPU
        self.is_legacy: bool = False
        self.flops: int = 0

    def add(self, other):
        if self.key is None:
            # First function being recorded as part of FunctionEventAvg, propagate
            # fields.
            self.key = other.key
            self.node_id = other.node_id
            self.is_async = other.is_async
            self.is_remote = other.is_remote
            self.cpu_parent = other.cpu_parent
            self.cpu_children = other.cpu_children

            self.overload_name = other.overload_name
            self.input_shapes = other.input_shapes
            self.stack = other.stack
            self.scope = other.scope
            self.device_type = other.device_type
            self.is_legacy = other.is_legacy
            self.use_device = other.use_device
            self.is_user_annotation = other.is_user_annotation

        if not isinstance(other, (FunctionEvent, FunctionEventAvg)):
            raise AssertionError("Expected other to be a FunctionEvent or FunctionEventAvg")
        if other.key != self.key:
            raise AssertionError(f"Expected keys to match, but got {other.key} vs {self.key}")

        self.cpu_time_total += other.cpu_time_total
        self.device_time_total += other.device_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.self_device_time_total += other.self_device_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.device_memory_usage += other.device_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.self_device_memory_usage += other.self_device_memory_usage
        self.count += other.count
        if self.flops is None:
            self.flops = other.flops
        elif other.flops is not None:
            self.flops += other.flops
        return self

    def __iadd__(self, other):
        return self.add(other)

    def __repr__(self):
        device_name = "cuda" if not self.use_device else self.use_device
        self_device_time = self.self_device_time_total_str
        device_time = self.device_time_str
        device_memory = self.device_memory_usage
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} cpu_time={self.cpu_time_str} "
            f" self_{device_name}_time={self_device_time} {device_name}_time={device_time} input_shapes={str(self.input_shapes)} "
            f"cpu_memory_usage={self.cpu_memory_usage} {device_name}_memory_usage={device_memory}>"
        )


class StringTable(defaultdict):
    # PyTorch demangles C++ symbol names here; this collector's names are never mangled.
    def __missing__(self, key):
        self[key] = key
        return self[key]


MEMORY_EVENT_NAME = "[memory]"
OUT_OF_MEMORY_EVENT_NAME = "[OutOfMemory]"


def _filter_name(name):
    # ignoring the following utility ops
    filtered_out_names = [
        MEMORY_EVENT_NAME,  # used only for the top-level memory events
        OUT_OF_MEMORY_EVENT_NAME,
        "profiler::_record_function_enter",
        "profiler::_record_function_enter_new",
        "profiler::_record_function_exit",
        "aten::is_leaf",
        "aten::output_nr",
        "aten::_version",
    ]
    return name in filtered_out_names


# Demangles and optionally rewrites the provided event name,
# with_wildcard - whether to replace certain numbered event names
# with a wildcard name to aggregate them together in the profiler table
# output
def _rewrite_name(name, with_wildcard=False):
    string_table = StringTable()
    name = string_table[name]
    if with_wildcard:
        if name.startswith("ProfilerStep#"):
            name = "ProfilerStep*"
    return name


def _build_table(events, sort_by=None, header=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
                 max_shapes_column_width=80, with_flops=False, profile_memory=False, top_level_events_only=False,
                 time_unit=None):
    """Print a summary of events (which can be a list of FunctionEvent or FunctionEventAvg)."""
    if len(events) == 0:
        return ""

    use_device = events[0].use_device
    has_input_shapes = any((event.input_shapes is not None and len(event.input_shapes) > 0) for event in events)

    if sort_by is not None:
        events = EventList(
            sorted(events, key=lambda evt: getattr(evt, sort_by.replace("cuda", "device").replace("xpu", "device")),
                   reverse=True),
            use_device=use_device,
            profile_memory=profile_memory,
            with_flops=with_flops,
        )

    name_column_width = max(len(evt.key) for evt in events) + 4
    if max_name_column_width is not None:
        name_column_width = min(name_column_width, max_name_column_width)

    shapes_column_width = max(len(str(evt.input_shapes)) for evt in events) + 4
    if max_shapes_column_width is not None:
        shapes_column_width = min(shapes_column_width, max_shapes_column_width)

    DEFAULT_COLUMN_WIDTH = 12

    headers = [
        "Name",
        "Self CPU %",
        "Self CPU",
        "CPU total %",
        "CPU total",
        "CPU time avg",
    ]
    if profile_memory:
        headers.extend(["CPU Mem", "Self CPU Mem"])
    headers.append("# of Calls")
    # Only append Node ID if any event has a valid (>= 0) Node ID
    append_node_id = any(evt.node_id != -1 for evt in events)
    if append_node_id:
        headers.append("Node ID")

    SPACING_SIZE = 2
    row_format_lst = [""]
    header_sep_lst = [""]
    line_length_lst = [-SPACING_SIZE]

    def add_column(padding, text_dir=">"):
        row_format_lst[0] += "{: " + text_dir + str(padding) + "}" + (" " * SPACING_SIZE)
        header_sep_lst[0] += "-" * padding + (" " * SPACING_SIZE)
        line_length_lst[0] += padding + SPACING_SIZE

    add_column(name_column_width)
    for _ in headers[1:]:
        add_column(DEFAULT_COLUMN_WIDTH)

    if has_input_shapes:
        headers.append("Input Shapes")
        add_column(shapes_column_width)

    row_format = row_format_lst[0]
    header_sep = header_sep_lst[0]
    line_length = line_length_lst[0]
    add_column = None  # type: ignore[assignment]

    result = []

    def append(s):
        result.append(s)
        result.append("\n")  # Yes, newline after the end as well

    sum_self_cpu_time_total = 0
    for evt in events:
        sum_self_cpu_time_total += evt.self_cpu_time_total

    # Actual printing
    if header is not None:
        append("=" * line_length)
        append(header)
    if top_level_events_only:
        append("=" * line_length)
        append("This report only display top-level ops statistics")
    append(header_sep)
    append(row_format.format(*headers))

    append(header_sep)

    def override_time_unit(time_us, default_str, time_unit):
        US_IN_SECOND = 1000.0 * 1000.0
        US_IN_MS = 1000.0
        if time_unit == "s":
            return f"{time_us / US_IN_SECOND:.3f}s"
        elif time_unit == "ms":
            return f"{time_us / US_IN_MS:.3f}ms"
        elif time_unit == "us":
            return f"{time_us:.3f}us"
        else:
            return default_str

    event_limit = 0
    for evt in events:
        if event_limit == row_limit:
            break
        if top_level_events_only and evt.cpu_parent is not None:
            continue
        else:
            event_limit += 1
        name = evt.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[: (max_name_column_width - 3)] + "..."

        evt.self_cpu_percent = _format_time_share(evt.self_cpu_time_total, sum_self_cpu_time_total)
        evt.total_cpu_percent = (
            _format_time_share(evt.cpu_time_total, sum_self_cpu_time_total) if not evt.is_async else 0
        )

        row_values = [name]
        row_values += [
            # Self CPU total %, 0 for async events.
            evt.self_cpu_percent,
            override_time_unit(evt.self_cpu_time_total, evt.self_cpu_time_total_str, time_unit),  # Self CPU total
            # CPU total %, 0 for async events.
            evt.total_cpu_percent,
            override_time_unit(evt.cpu_time_total, evt.cpu_time_total_str, time_unit),  # CPU total
            override_time_unit(evt.cpu_time, evt.cpu_time_str, time_unit),  # CPU time avg
        ]
        if profile_memory:
            row_values.extend([
                # CPU Mem Total
                _format_memory(evt.cpu_memory_usage),
                # Self CPU Mem Total
                _format_memory(evt.self_cpu_memory_usage),
            ])
        row_values.append(
            evt.count,  # Number of calls
        )

        if append_node_id:
            row_values.append(evt.node_id)
        if has_input_shapes:
            row_values.append(str(evt.input_shapes)[:shapes_column_width])
        append(row_format.format(*row_values))

    append(header_sep)
    append(
        f"Self CPU time total: {override_time_unit(sum_self_cpu_time_total, _format_time(sum_self_cpu_time_total), time_unit)}"
    )
    return "".join(result)
