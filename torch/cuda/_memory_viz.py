"""torch.cuda._memory_viz: draw a caching allocator snapshot as SVG (segments, memory over time).

Mirrors PyTorch's torch/cuda/_memory_viz.py (same command line; PyTorch also writes flame
graphs and an interactive HTML page). Guide: docs/source/internals/cuda_caching_allocator.rst.

    python -m torch.cuda._memory_viz [segments|memory] SNAPSHOT.pickle -o OUT.svg

SNAPSHOT.pickle is what ``torch.cuda.memory._dump_snapshot(path)`` or
``CachingAllocatorSimulator.dump_snapshot(path)`` writes: ``{"segments": [...],
"device_traces": [[entry, ...] per device]}`` (keys from torch/csrc/cuda/memory_snapshot.cpp).

* ``segments`` draws every segment (one device allocation) as a bar and its blocks as
  rectangles coloured by state: allocated, freed but waiting for another stream
  (``active_pending_free``), or free in the cache (``inactive``).
* ``memory`` replays the recorded history (``_record_memory_history``) and plots the bytes
  handed out (allocated) and the bytes held from the device (reserved) after each event.

The SVG is written by hand with the standard library, so it needs nothing but Python.
"""

import argparse
import pickle
import sys
from xml.sax.saxutils import escape, quoteattr

__all__ = ["segments_svg", "memory_over_time", "memory_over_time_svg", "main"]

# One colour per block state (the three values of BlockInfo::state()).
STATE_COLORS = {
    "active_allocated": "#4c78a8",     # handed out by malloc, not yet freed
    "active_pending_free": "#f58518",  # freed, waiting for events on other streams
    "inactive": "#e0e0e0",             # free in the cache, reusable on its stream
}
STATE_MEANING = {
    "active_allocated": "allocated",
    "active_pending_free": "freed, waiting for other streams",
    "inactive": "free, cached",
}
FONT = 'font-family="monospace" font-size="12"'


def _format_size(size):
    """Sizes as the allocator prints them (c10::CachingAllocator::format_size)."""
    if size <= 1024:
        return f"{size} bytes"
    if size <= 1048576:
        return f"{size / 1024:.2f} KiB"
    if size <= 1073741824:
        return f"{size / 1048576:.2f} MiB"
    return f"{size / 1073741824:.2f} GiB"


def _normalize(snapshot):
    """Accept _snapshot()'s dict or memory_snapshot()'s bare list of segments."""
    if isinstance(snapshot, list):
        return {"segments": snapshot, "device_traces": []}
    return snapshot


def _text(x, y, content, extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" {FONT} {extra}>{escape(content)}</text>'


def _svg(width, height, body):
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">\n'
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="white"/>\n'
        + "\n".join(body)
        + "\n</svg>\n"
    )


# ---------------------------------------------------------------------------------------
# segments
# ---------------------------------------------------------------------------------------

# A 2 MiB segment is BAR_MIN pixels long; each doubling of the size adds BAR_PER_DOUBLING.
# Lengths grow with log2(size), so 2 MiB, 20 MiB and 1 GiB segments are all readable; the
# blocks inside one bar are drawn to scale (linear), each at least BLOCK_MIN pixels wide.
BAR_MIN = 160.0
BAR_PER_DOUBLING = 80.0
BLOCK_MIN = 3.0
BAR_HEIGHT = 22.0


def _bar_length(total_size):
    import math

    doublings = math.log2(max(total_size, 1) / 2097152) if total_size > 0 else 0.0
    return BAR_MIN + BAR_PER_DOUBLING * max(doublings, 0.0)


def _block_widths(sizes, length):
    """Widths proportional to sizes that add up to `length`, none below BLOCK_MIN."""
    n = len(sizes)
    total = sum(sizes) or 1
    length = max(length, n * BLOCK_MIN)
    widths = [length * s / total for s in sizes]
    small = [w < BLOCK_MIN for w in widths]
    if any(small):
        # Give the tiny blocks BLOCK_MIN and share what is left among the others by size.
        rest = length - BLOCK_MIN * sum(small)
        big_total = sum(s for s, is_small in zip(sizes, small) if not is_small) or 1
        widths = [BLOCK_MIN if is_small else rest * s / big_total for s, is_small in zip(sizes, small)]
    return widths


def segments_svg(snapshot):
    """An SVG of every segment and its blocks, from ``_snapshot()`` (or ``memory_snapshot()``)."""
    segments = sorted(_normalize(snapshot)["segments"], key=lambda s: (s.get("device", 0), s["address"]))
    left = 20.0
    body = []
    y = 24.0
    reserved = sum(s["total_size"] for s in segments)
    allocated = sum(s["allocated_size"] for s in segments)
    active = sum(s["active_size"] for s in segments)
    plural = "" if len(segments) == 1 else "s"
    body.append(_text(left, y, f"{len(segments)} segment{plural}: reserved {_format_size(reserved)}, "
                               f"allocated {_format_size(allocated)}, active {_format_size(active)}",
                      'font-weight="bold"'))
    y += 10.0

    # Legend: one swatch per state.
    y += 14.0
    x = left
    for state, color in STATE_COLORS.items():
        body.append(f'<rect class="legend" x="{x:.1f}" y="{y - 11:.1f}" width="14" height="14" '
                    f'fill="{color}" stroke="#555"/>')
        label = f"{state} ({STATE_MEANING[state]})"
        body.append(_text(x + 20, y, label, 'class="legend-label"'))
        x += 20 + 7.3 * len(label) + 24
    width = x
    y += 10.0
    body.append(_text(left, y + 12, "bar length grows with log2(segment size); blocks inside a bar are to scale",
                      'fill="#666"'))
    y += 22.0

    for index, segment in enumerate(segments):
        blocks = segment["blocks"]
        pool = "small pool" if segment.get("segment_type") == "small" else "large pool"
        y += 20.0
        body.append(_text(left, y, f"segment {index}  {pool}  {_format_size(segment['total_size'])}  "
                                   f"stream {segment.get('stream', 0)}  at {segment['address']:#x}  "
                                   f"({len(blocks)} block{'s' if len(blocks) != 1 else ''})"))
        y += 6.0
        length = _bar_length(segment["total_size"])
        widths = _block_widths([b["size"] for b in blocks], length)
        bx = left
        for block, w in zip(blocks, widths):
            state = block["state"]
            tip = (f"{block['address']:#x}: {block['size']} bytes, {state}"
                   + (f", requested {block['requested_size']} bytes" if block.get("requested_size") else ""))
            body.append(
                f'<rect class="block" data-state="{state}" data-size="{block["size"]}" '
                f'x="{bx:.2f}" y="{y:.1f}" width="{w:.2f}" height="{BAR_HEIGHT:.0f}" '
                f'fill="{STATE_COLORS.get(state, "#ccc")}" stroke="#333" stroke-width="0.5">'
                f"<title>{escape(tip)}</title></rect>"
            )
            bx += w
        width = max(width, bx + left)
        y += BAR_HEIGHT + 14.0
        # The block sizes as text, in address order (the first few if there are many).
        parts = []
        for block in blocks[:6]:
            part = f"{_format_size(block['size'])} {STATE_MEANING.get(block['state'], block['state'])}"
            if block.get("requested_size"):
                part += f" (requested {_format_size(block['requested_size'])})"
            parts.append(part)
        if len(blocks) > 6:
            parts.append(f"... {len(blocks) - 6} more")
        line = " | ".join(parts)
        body.append(_text(left, y, line, 'fill="#333"'))
        width = max(width, left + 7.3 * len(line) + left)
        y += 8.0
    if not segments:
        y += 20.0
        body.append(_text(left, y, "no segments: the allocator holds no device memory"))
    return _svg(width, y + 16.0, body)


# ---------------------------------------------------------------------------------------
# memory over time
# ---------------------------------------------------------------------------------------

def _round_up_512(size):
    return max(512, (size + 511) // 512 * 512)


def memory_over_time(snapshot, device=0):
    """Replay ``device_traces[device]``: (allocated, reserved) bytes after each event.

    Both lists start with the value before the first event. Allocated bytes follow
    ``memory_allocated()``: a block counts from its ``alloc`` until its ``free_requested``
    (or ``free_completed`` where no request was recorded), at its block size. Reserved
    bytes follow ``memory_reserved()``: ``segment_alloc`` adds, ``segment_free`` subtracts.

    An ``alloc`` entry carries the requested size, so the block size is worked out as the
    allocator does: round to 512 bytes, then keep the whole free block if the rest would be
    too small to split (under 512 bytes in the small pool, at most 1 MiB in the large one;
    a free block reaches up to the next block in use or the end of its segment). Settings
    that change this (roundup_power2_divisions, max_split_size_mb) are not replayed; and if
    history was switched on after memory was already in use, both lines are shifted so that
    they end at the snapshot's totals.
    """
    snapshot = _normalize(snapshot)
    traces = snapshot.get("device_traces") or []
    trace = traces[device] if device < len(traces) else []

    segments = {}   # address -> size of the segments the history has seen allocated
    in_use = {}     # address -> block size of allocated and pending-free blocks
    allocated_now = {}  # address -> block size, allocated (not yet free_requested)
    allocated, reserved = [0], [0]
    for entry in trace:
        action, addr, size = entry["action"], entry["addr"], entry["size"]
        a, r = allocated[-1], reserved[-1]
        if action == "segment_alloc":
            segments[addr] = size
            r += size
        elif action == "segment_free":
            segments.pop(addr, None)
            r -= size
        elif action == "alloc":
            block = _round_up_512(size)
            seg = next((s for s, n in segments.items() if s <= addr < s + n), None)
            if seg is not None:
                end = min([p for p in in_use if addr < p < seg + segments[seg]] + [seg + segments[seg]])
                rest = end - addr - block
                split = rest >= 512 if block <= 1048576 else rest > 1048576
                if not split and rest >= 0:
                    block = end - addr
            in_use[addr] = allocated_now[addr] = block
            a += block
        elif action == "free_requested" and addr in allocated_now:
            a -= allocated_now.pop(addr)
        elif action == "free_completed" and addr in in_use:
            block = in_use.pop(addr)
            if addr in allocated_now:  # no free_requested was recorded for it
                a -= allocated_now.pop(addr)
        allocated.append(a)
        reserved.append(r)

    final = [s for s in snapshot.get("segments", []) if s.get("device", 0) == device]
    if final or trace:
        final_allocated = sum(s["allocated_size"] for s in final)
        final_reserved = sum(s["total_size"] for s in final)
        allocated = [a + final_allocated - allocated[-1] for a in allocated]
        reserved = [r + final_reserved - reserved[-1] for r in reserved]
    return allocated, reserved


def _nice_step(max_value, ticks=5):
    """A round tick spacing (1, 2 or 5 times a power of two of a byte unit) for max_value."""
    step = 1
    while max_value / step > ticks:
        for factor in (2, 2.5, 2):
            step = int(step * factor)
            if max_value / step <= ticks:
                break
    return step


def memory_over_time_svg(snapshot, device=0):
    """An SVG plot of allocated and reserved bytes over the recorded events of ``device``."""
    allocated, reserved = memory_over_time(snapshot, device)
    n_events = len(allocated) - 1
    width, height = 760.0, 380.0
    ml, mr, mt, mb = 90.0, 170.0, 40.0, 50.0
    pw, ph = width - ml - mr, height - mt - mb
    top = max(max(allocated), max(reserved), 1)
    # The y axis in a unit that suits the data.
    unit, unit_name = 1, "bytes"
    for u, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if top >= u:
            unit, unit_name = u, name
            break
    step = _nice_step(top / unit) * unit if top / unit > 1 else unit
    y_max = step * -(-top // step)
    # Half an event of room after the last one, so the final values show as a flat step.
    x_max = max(n_events, 1) + 0.5

    def px(i):
        return ml + pw * i / x_max

    def py(v):
        return mt + ph * (1 - v / y_max)

    body = [_text(ml, 22, f"Allocator memory over {n_events} recorded events (device {device})",
                  'font-weight="bold"')]
    body.append(f'<g class="plot" data-y-zero="{py(0):.4f}" data-y-max="{py(y_max):.4f}" '
                f'data-y-max-bytes="{y_max}">')
    # Axes, ticks and grid.
    body.append(f'<line x1="{ml}" y1="{mt + ph}" x2="{ml + pw}" y2="{mt + ph}" stroke="black"/>')
    body.append(f'<line x1="{ml}" y1="{mt}" x2="{ml}" y2="{mt + ph}" stroke="black"/>')
    v = 0
    while v <= y_max:
        y = py(v)
        body.append(f'<line x1="{ml - 4}" y1="{y:.1f}" x2="{ml + pw}" y2="{y:.1f}" stroke="#eee"/>')
        label = f"{v / unit:g} {unit_name}"
        body.append(_text(ml - 8, y + 4, label, 'text-anchor="end"'))
        v += step
    x_step = _nice_step(n_events, 8) if n_events > 8 else 1
    for i in range(0, max(n_events, 1) + 1, x_step):
        x = px(i)
        body.append(f'<line x1="{x:.1f}" y1="{mt + ph}" x2="{x:.1f}" y2="{mt + ph + 4}" stroke="black"/>')
        body.append(_text(x, mt + ph + 18, str(i), 'text-anchor="middle"'))
    body.append(_text(ml + pw / 2, height - 10, "event index (recorded allocator events)", 'text-anchor="middle"'))
    body.append(_text(18, mt + ph / 2, "bytes", f'transform="rotate(-90 18 {mt + ph / 2:.1f})" text-anchor="middle"'))

    # Two step lines: the value holds until the next event changes it.
    for name, values, color, dash in (("reserved", reserved, "#e45756", ' stroke-dasharray="6 3"'),
                                      ("allocated", allocated, "#4c78a8", "")):
        d = [f"M {px(0):.2f} {py(values[0]):.2f}"]
        for i in range(1, len(values)):
            d.append(f"H {px(i):.2f} V {py(values[i]):.2f}")
        d.append(f"H {px(x_max):.2f}")
        body.append(f'<path id="{name}" class="series" d="{" ".join(d)}" fill="none" stroke="{color}" '
                    f'stroke-width="2"{dash} data-values={quoteattr(",".join(str(v) for v in values))}/>')
    body.append("</g>")
    # Legend with the final values.
    lx, ly = ml + pw + 16, mt + 10
    for name, values, color, dash in (("allocated", allocated, "#4c78a8", ""),
                                      ("reserved", reserved, "#e45756", ' stroke-dasharray="6 3"')):
        body.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke="{color}" stroke-width="2"{dash}/>')
        body.append(_text(lx + 30, ly + 4, name))
        body.append(_text(lx + 30, ly + 20, f"now {_format_size(values[-1])}", 'fill="#555"'))
        body.append(_text(lx + 30, ly + 36, f"peak {_format_size(max(values))}", 'fill="#555"'))
        ly += 60
    return _svg(width, height, body)


# ---------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------

def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("segments", "memory", "-h", "--help"):
        argv.insert(0, "segments")  # the default subcommand
    parser = argparse.ArgumentParser(
        prog="python -m torch.cuda._memory_viz",
        description="Draw a CUDA caching allocator snapshot (torch.cuda.memory._dump_snapshot) as SVG.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (("segments", "every segment as a bar, its blocks coloured by state (default)"),
                            ("memory", "allocated and reserved bytes over the recorded events")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("input", help="the snapshot pickle")
        p.add_argument("-o", "--output", default="output.svg", help="the SVG to write (default: output.svg)")
        if name == "memory":
            p.add_argument("--device", type=int, default=0, help="which device's history (default: 0)")
    args = parser.parse_args(argv)
    with open(args.input, "rb") as f:
        snapshot = pickle.load(f)
    if args.command == "segments":
        svg = segments_svg(snapshot)
    else:
        svg = memory_over_time_svg(snapshot, args.device)
    with open(args.output, "w") as f:
        f.write(svg)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
