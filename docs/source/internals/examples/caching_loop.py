"""caching_loop: a training-like loop of CUDA tensors, and what the caching allocator recorded.

No PyTorch counterpart (it uses torch.cuda.memory's history and torch.cuda._memory_viz).
Guide: docs/source/internals/cuda_simulated_device.rst, section "Memory over a loop".
``python caching_loop.py`` runs the loop on the current CUDA device and prints the allocator's
snapshot and the bytes after each iteration as JSON; ``run_simulated()`` does that in a fresh
interpreter on the simulated device. docs/source/_ext/cuda_sim_figures.py draws the chapter's
pictures from the snapshot at every docs build.
"""

import json


# [marker: loop]
def record(steps=4):
    """Run `steps` iterations; return the snapshot and the bytes held after each iteration."""
    import torch

    torch.cuda.memory._record_memory_history()          # from here on, every event is kept
    w = torch.randn(1024, device="cuda")                # 4 KiB of weights, kept: small pool
    after = []
    for step in range(steps):
        x = torch.randn(3, 1024, 1024, device="cuda")   # a 12 MiB batch: a segment of its own
        h = (x.sum(0) * w).relu()                       # 4 MiB, and two 4 MiB temporaries
        loss = h.mean()                                 # 4 bytes: small pool
        loss.item()                                     # the host waits, as a logged loss does
        del x, h, loss                                  # back to the cache, not to the device
        after.append({"allocated": torch.cuda.memory_allocated(),
                      "reserved": torch.cuda.memory_reserved(),
                      "events": len(torch.cuda.memory._snapshot()["device_traces"][0])})
    return {"snapshot": torch.cuda.memory._snapshot(), "after": after}
# [end marker: loop]


def run_simulated(devices=1):
    """``record()`` in a fresh interpreter on the simulated device (chosen when torch loads)."""
    from simulated import run_script
    return run_script(__file__, devices)


if __name__ == "__main__":
    print(json.dumps(record()))
