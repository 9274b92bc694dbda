# test/c10/test_memory_viz.py - torch.cuda._memory_viz draws what the caching allocator holds.
# Mirrors the SVG checks of PyTorch's test/test_cuda.py (memory viz), on the simulator, so no GPU
# is needed. Guide: docs/source/internals/cuda_caching_allocator.rst.
import pickle
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import torch
import torch.cuda.memory
from torch.cuda import _memory_viz

MiB = 1024 * 1024
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def sim():
    """Small and large segments, a split block, a freed block waiting for stream 1, reuse."""
    s = torch.cuda.memory.CachingAllocatorSimulator(1024 * MiB)
    s._record_memory_history()
    a = s.malloc(4)
    s.malloc(11 * MiB + 1)  # a 12 MiB segment of its own
    s.malloc(1 * MiB + 1)   # a 20 MiB segment, split
    pending = s.malloc(2048)
    s.record_stream(pending, 1)
    s.free(pending)
    s.free(a)
    s.malloc(300)
    return s


def blocks_of(snapshot):
    return [b for seg in snapshot["segments"] for b in seg["blocks"]]


def test_segments_svg_parses_and_has_one_rect_per_block(sim):
    snapshot = sim._snapshot()
    root = ET.fromstring(_memory_viz.segments_svg(snapshot))
    rects = [r for r in root.iter(SVG + "rect") if r.get("class") == "block"]
    blocks = blocks_of(snapshot)
    assert len(rects) == len(blocks)
    assert [r.get("data-state") for r in rects] == [b["state"] for b in blocks]
    assert [int(r.get("data-size")) for r in rects] == [b["size"] for b in blocks]
    assert {b["state"] for b in blocks} == {"active_allocated", "active_pending_free", "inactive"}


def test_segments_svg_colours_each_state_differently(sim):
    root = ET.fromstring(_memory_viz.segments_svg(sim._snapshot()))
    fills = {r.get("data-state"): r.get("fill") for r in root.iter(SVG + "rect") if r.get("class") == "block"}
    assert len(set(fills.values())) == 3


def test_segments_svg_legend_names_the_three_states_and_the_pools(sim):
    root = ET.fromstring(_memory_viz.segments_svg(sim._snapshot()))
    legend = " ".join(t.text for t in root.iter(SVG + "text") if t.get("class") == "legend-label")
    for state in ("active_allocated", "active_pending_free", "inactive"):
        assert state in legend
    text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "small pool  2.00 MiB" in text
    assert "large pool  20.00 MiB" in text and "large pool  12.00 MiB" in text
    assert "512 bytes allocated (requested 300 bytes)" in text


def test_segments_svg_bars_grow_with_segment_size(sim):
    root = ET.fromstring(_memory_viz.segments_svg(sim._snapshot()))
    rects = [r for r in root.iter(SVG + "rect") if r.get("class") == "block"]
    bars = {}
    for r in rects:
        bars.setdefault(r.get("y"), 0.0)
        bars[r.get("y")] += float(r.get("width"))
    lengths = sorted(round(v) for v in bars.values())
    assert lengths[0] < lengths[-1]  # a 2 MiB bar is shorter than a 20 MiB bar, both visible
    assert all(float(r.get("width")) >= _memory_viz.BLOCK_MIN - 1e-6 for r in rects)


def test_memory_plot_last_point_is_the_final_allocated_bytes(sim):
    snapshot = sim._snapshot()
    root = ET.fromstring(_memory_viz.memory_over_time_svg(snapshot))
    plot = next(g for g in root.iter(SVG + "g") if g.get("class") == "plot")
    paths = {p.get("id"): p for p in root.iter(SVG + "path")}
    for name, expected in (("allocated", sim.memory_allocated()), ("reserved", sim.memory_reserved())):
        values = [int(v) for v in paths[name].get("data-values").split(",")]
        assert values[-1] == expected
        assert values[0] == 0
        # The drawn y of the last step, converted back to bytes through the axis.
        *_, last_v, last_y, last_h, _ = paths[name].get("d").split()  # "... V <y> H <x-end>"
        assert (last_v, last_h) == ("V", "H")
        last_y = float(last_y)
        y0, ytop = float(plot.get("data-y-zero")), float(plot.get("data-y-max"))
        drawn = (y0 - last_y) / (y0 - ytop) * int(plot.get("data-y-max-bytes"))
        assert abs(drawn - expected) <= 0.01 * int(plot.get("data-y-max-bytes"))


def test_memory_over_time_follows_memory_allocated_at_every_step():
    s = torch.cuda.memory.CachingAllocatorSimulator(64 * MiB)
    s._record_memory_history()
    seen = []
    p = s.malloc(40 * MiB)
    seen.append(s.memory_allocated())
    s.free(p)
    seen.append(s.memory_allocated())
    q = s.malloc(50 * MiB)  # retries after giving the cached 40 MiB back
    seen.append(s.memory_allocated())
    allocated, reserved = _memory_viz.memory_over_time(s._snapshot())
    assert seen == [40 * MiB, 0, 50 * MiB]
    assert [v for i, v in enumerate(allocated) if i == 0 or v != allocated[i - 1]] == [0] + seen
    assert max(reserved) == 50 * MiB and reserved[-1] == s.memory_reserved()
    assert 40 * MiB in reserved and reserved.count(0) >= 2  # given back before the retry
    s.free(q)


def test_cli_writes_both_views(sim, tmp_path):
    snapshot = tmp_path / "snapshot.pickle"
    sim.dump_snapshot(str(snapshot))
    for args, name in (([], "default.svg"), (["segments"], "segments.svg"), (["memory"], "memory.svg")):
        out = tmp_path / name
        subprocess.run([sys.executable, "-m", "torch.cuda._memory_viz", *args, str(snapshot), "-o", str(out)],
                       check=True, capture_output=True, timeout=60)
        assert ET.parse(out).getroot().tag == SVG + "svg"
    assert (tmp_path / "default.svg").read_text() == (tmp_path / "segments.svg").read_text()


def test_accepts_memory_snapshot_list_and_empty_history():
    s = torch.cuda.memory.CachingAllocatorSimulator(64 * MiB)
    s.malloc(4)
    ET.fromstring(_memory_viz.segments_svg(s.memory_snapshot()))
    allocated, reserved = _memory_viz.memory_over_time(pickle.loads(pickle.dumps(s._snapshot())))
    assert allocated == [512] and reserved == [2 * MiB]
