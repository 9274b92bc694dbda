"""cuda_sim_figures: a Sphinx extension that draws the simulated CUDA device chapter's pictures.

This tree's docs tooling (no PyTorch counterpart). Guide: docs/source/internals/cuda_simulated_device.rst.
At every build, before any page is read, it runs the chapter's two programs on the simulated
device, each in a fresh interpreter with TORCH_CUDA_SIMULATE set (the runtime is chosen when
torch loads), and draws what they recorded into docs/source/_generated/ (ignored by git):

* stream_timeline.svg, from docs/source/internals/examples/stream_timeline.py: events on two
  streams and the host, drawn by that module's draw();
* caching_loop_memory.svg and caching_loop_segments.svg, from
  docs/source/internals/examples/caching_loop.py: the allocator's snapshot, drawn by
  torch.cuda._memory_viz;
* training_step_memory.svg, from docs/source/internals/examples/training_step.py (three training
  steps of an MLP, for docs/source/internals/cuda_training.rst), drawn the same way.

A torch built without CUDA has no simulated device; the pictures then say so, and the
chapter's doctests, which need CUDA, are skipped.
"""

import os
import sys

from figure_files import generate_at_build_start, write_if_changed

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internals", "examples")
FIGURES = ("stream_timeline.svg", "caching_loop_memory.svg", "caching_loop_segments.svg",
           "training_step_memory.svg")


def _placeholder(name):
    text = f"{name}: this torch was built without CUDA, so there is no simulated device to run on"
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="760" height="40" viewBox="0 0 760 40">\n'
            f'<text x="10" y="24" font-family="monospace" font-size="12">{text}</text>\n</svg>\n')


def generate(out_dir):
    """Run the programs on the simulated device and write the chapter's SVGs into out_dir."""
    import torch
    from torch.cuda import _memory_viz

    os.makedirs(out_dir, exist_ok=True)
    if not torch._C._has_cuda:
        svgs = {name: _placeholder(name) for name in FIGURES}
    else:
        if EXAMPLES not in sys.path:
            sys.path.insert(0, EXAMPLES)
        import caching_loop
        import stream_timeline
        import training_step

        snapshot = caching_loop.run_simulated()["snapshot"]
        svgs = {
            "stream_timeline.svg": stream_timeline.draw(stream_timeline.run_simulated()),
            "caching_loop_memory.svg": _memory_viz.memory_over_time_svg(snapshot),
            "caching_loop_segments.svg": _memory_viz.segments_svg(snapshot),
            "training_step_memory.svg": _memory_viz.memory_over_time_svg(training_step.run_simulated()["snapshot"]),
        }
    written = []
    for name, svg in svgs.items():
        path = os.path.join(out_dir, name)
        write_if_changed(path, svg)  # the timeline's times differ run to run
        written.append(path)
    return written


def setup(app):
    return generate_at_build_start(app, generate)
