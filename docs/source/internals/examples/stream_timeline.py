"""stream_timeline: two CUDA streams timed with events, drawn as a timeline (SVG).

No PyTorch counterpart (PyTorch has no timeline drawing; its profiler exports traces instead).
Guide: docs/source/internals/cuda_simulated_device.rst, section "A stream timeline".
``python stream_timeline.py`` runs the program on the current CUDA device and prints what the
events recorded as JSON; ``run_simulated()`` does that in a fresh interpreter on the simulated
device, and ``draw()`` turns the result into an SVG. docs/source/_ext/cuda_sim_figures.py
draws the chapter's picture with them at every docs build.
"""

import json
import time
from xml.sax.saxutils import escape

HOST = "host"


# [marker: program]
def record(n=1 << 20):
    """Queue work on two streams, timed with events; return the timeline in milliseconds."""
    import torch

    a = torch.ones(n, device="cuda")
    b = torch.ones(n // 4, device="cuda")
    out = torch.empty(n, device="cuda")
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    idle = torch.cuda.Stream()
    names = {s1: "stream s1", s2: "stream s2"}

    def timed(stream, label, fn):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        with torch.cuda.stream(stream):
            start.record()
            result = fn()
            end.record()
        events.append((names[stream], label, start, end))
        return result, end

    def same_instant():
        # An event on an idle stream is reached between the host's two readings around it;
        # the tightest of ten tries pins the host clock to the events' clock.
        tries = []
        for _ in range(10):
            event = torch.cuda.Event(enable_timing=True)
            before = time.perf_counter()
            idle.record_event(event).synchronize()
            after = time.perf_counter()
            tries.append((after - before, event, (before + after) / 2))
        _, event, host_time = min(tries, key=lambda t: t[0])
        return event, host_time

    runs = []
    # The first run pays one-time costs (first calls, the allocator's first segments for s1
    # and s2). The streams' times are CPU times, disturbed by whatever else the machine runs,
    # so, as for a benchmark, the fastest of the runs that follow is the one drawn.
    for run in range(6):
        events = []  # (lane, label, start event, end event)
        ref_event, ref_host = same_instant()
        host = [time.perf_counter()]
        y, y_done = timed(s1, "y = a * 2 + 1", lambda: a * 2 + 1)
        timed(s2, "z = b.sin()", lambda: b.sin())
        s2.wait_event(y_done)     # s2's next work waits until s1 has finished y
        y.record_stream(s2)       # y is used on s2: its block must not be reused before s2 is done
        timed(s2, "out.copy_(y)", lambda: out.copy_(y))  # noqa: F821 - called here, before `del y`
        timed(s1, "y.sum()", lambda: y.sum())  # noqa: F821 - called here, before `del y`
        host.append(time.perf_counter())  # everything is queued
        torch.cuda.synchronize()          # the host waits for every stream here
        host.append(time.perf_counter())
        del y
        h = [(t - ref_host) * 1000 for t in host]
        work = [(HOST, "queue the work", h[0], h[1]), (HOST, "torch.cuda.synchronize()", h[1], h[2])]
        work += [(lane, label, ref_event.elapsed_time(start), ref_event.elapsed_time(end))
                 for lane, label, start, end in events]
        if run > 0:
            runs.append(work)

    work = min(runs, key=lambda w: max(x[3] for x in w) - min(x[2] for x in w))
    origin = min(x[2] for x in work)  # time 0 is the earliest mark of all
    return {
        "lanes": [HOST, "stream s1", "stream s2"],
        "work": [{"lane": lane, "label": label, "start": start - origin, "end": end - origin}
                 for lane, label, start, end in work],
        "waits": [{"after": "y = a * 2 + 1", "before": "out.copy_(y)", "call": "s2.wait_event"}],
    }
# [end marker: program]


def run_simulated(devices=2):
    """``record()`` in a fresh interpreter on the simulated device (chosen when torch loads)."""
    from simulated import run_script
    return run_script(__file__, devices)


# ---- drawing ---------------------------------------------------------------------------

FONT = 'font-family="monospace" font-size="12"'
CHAR_W = 7.3        # width of one 12px monospace character
LEFT = 110.0        # lane names
PLOT_W = 620.0
LANE_H = 80.0       # a box and, below it, two rows for labels that do not fit inside
ROW_H = 16.0
BOX_H = 24.0
TOP = 52.0
COLORS = {HOST: "#bab0ac", "stream s1": "#4c78a8", "stream s2": "#f58518"}


def _text(x, y, content, extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" {FONT} {extra}>{escape(content)}</text>'


def _tick_step(end_ms):
    """A round step (1, 2 or 5 times a power of ten) giving at most 8 ticks up to end_ms."""
    step = 0.001
    while end_ms / step > 8:
        for factor in (2, 2.5, 2):
            step *= factor
            if end_ms / step <= 8:
                break
    return step


def _place(rows, x, width, low, high):
    """(row, x) for a label of `width` wanted at x: the free spot nearest to x in the first
    row that has one, so that no two labels overlap. rows: lists of taken (start, end)."""
    for row, taken in enumerate(rows):
        candidates = [x, high - width] + [end + 8 for _, end in taken]
        candidates += [start - 8 - width for start, _ in taken]
        free = [c for c in candidates if low <= c <= high - width
                and all(c + width + 8 <= start or end + 8 <= c for start, end in taken)]
        if free:
            best = min(free, key=lambda c: abs(c - x))
            taken.append((best, best + width))
            return row, best
    rows[-1].append((x, x + width))  # no room anywhere: overlap in the last row
    return len(rows) - 1, x


def draw(timeline):
    """An SVG of ``record()``'s result: a lane per stream, a box per timed piece of work."""
    lanes = timeline["lanes"]
    work = timeline["work"]
    end_ms = max(w["end"] for w in work) or 1.0
    step = _tick_step(end_ms)
    x_max = step * -(-end_ms // step)

    def px(ms):
        return LEFT + PLOT_W * ms / x_max

    def lane_y(lane):
        return TOP + LANE_H * lanes.index(lane)

    width = LEFT + PLOT_W + 30
    axis_y = TOP + LANE_H * len(lanes) + 4
    height = axis_y + 62
    body = [_text(10, 20, "Work on two streams, timed with torch.cuda.Event (simulated device)",
                  'font-weight="bold"'),
            _text(10, 38, "CPU times of the host and of each stream's worker thread: "
                          "order and overlap, not GPU speed", 'fill="#555"'),
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
            'fill="#d62728"/></marker></defs>']

    for i, lane in enumerate(lanes):
        y = lane_y(lane)
        if i % 2 == 0:
            body.append(f'<rect x="{LEFT - 100:.1f}" y="{y - 6:.1f}" width="{PLOT_W + 100:.1f}" '
                        f'height="{LANE_H:.1f}" fill="#f6f6f6"/>')
        body.append(_text(LEFT - 96, y + BOX_H / 2 + 4, lane, 'font-weight="bold"'))

    # Time axis, with grid lines under the boxes.
    body.append(f'<line x1="{LEFT}" y1="{axis_y}" x2="{LEFT + PLOT_W}" y2="{axis_y}" stroke="black"/>')
    t = 0.0
    while t <= x_max + step / 2:
        x = px(t)
        body.append(f'<line x1="{x:.1f}" y1="{TOP - 6}" x2="{x:.1f}" y2="{axis_y}" stroke="#ddd"/>')
        body.append(f'<line x1="{x:.1f}" y1="{axis_y}" x2="{x:.1f}" y2="{axis_y + 4}" stroke="black"/>')
        body.append(_text(x, axis_y + 18, f"{t:g}", 'text-anchor="middle"'))
        t = round(t + step, 6)
    body.append(_text(LEFT + PLOT_W / 2, axis_y + 38, "milliseconds since the earliest mark",
                      'text-anchor="middle"'))

    # Boxes; a label that does not fit inside goes below its box, in the lane's label rows.
    rows = {lane: [[], []] for lane in lanes}
    right = LEFT + PLOT_W + 20
    for w in work:
        x0, x1 = px(w["start"]), px(w["end"])
        y = lane_y(w["lane"])
        color = COLORS.get(w["lane"], "#54a24b")
        body.append(f'<rect class="work" data-lane="{escape(w["lane"])}" x="{x0:.2f}" y="{y:.1f}" '
                    f'width="{max(x1 - x0, 1.5):.2f}" height="{BOX_H:.0f}" fill="{color}" '
                    f'fill-opacity="0.85" stroke="#333" stroke-width="0.6">'
                    f'<title>{escape(w["label"])}: {w["start"]:.3f} to {w["end"]:.3f} ms</title></rect>')
        label = w["label"]
        label_w = CHAR_W * len(label)
        if label_w + 8 <= x1 - x0:
            fill = "#222" if w["lane"] == HOST else "white"
            body.append(_text((x0 + x1) / 2, y + BOX_H / 2 + 4, label, f'text-anchor="middle" fill="{fill}"'))
        else:
            row, lx = _place(rows[w["lane"]], x0, label_w, LEFT - 96, right)
            ly = y + BOX_H + 16 + ROW_H * row
            body.append(f'<line x1="{(x0 + x1) / 2:.1f}" y1="{y + BOX_H:.1f}" x2="{lx + 3:.1f}" '
                        f'y2="{ly - 11:.1f}" stroke="#777" stroke-width="0.6"/>')
            body.append(_text(lx, ly, label, 'fill="#222"'))

    # Each cross-stream wait: an arrow from the end of the awaited work to the start of the
    # first work queued after the wait, named in the label rows of the awaited stream.
    by_label = {w["label"]: w for w in work}
    for wait in timeline.get("waits", []):
        src, dst = by_label[wait["after"]], by_label[wait["before"]]
        x0, x1 = px(src["end"]), px(dst["start"])
        y0 = lane_y(src["lane"]) + BOX_H
        y1 = lane_y(dst["lane"])
        body.append(f'<path class="wait" d="M {x0:.1f} {y0:.1f} C {x0:.1f} {y0 + 30:.1f} {x1:.1f} '
                    f'{y1 - 30:.1f} {x1:.1f} {y1:.1f}" fill="none" stroke="#d62728" stroke-width="1.5" '
                    f'marker-end="url(#arrow)"/>')
        row, lx = _place(rows[src["lane"]], max(x0, x1) + 8, CHAR_W * len(wait["call"]), LEFT - 96, right)
        body.append(_text(lx, y0 + 16 + ROW_H * row, wait["call"], 'fill="#d62728"'))

    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}">\n'
            f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="white"/>\n'
            + "\n".join(body) + "\n</svg>\n")


if __name__ == "__main__":
    print(json.dumps(record()))
