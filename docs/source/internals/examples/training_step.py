"""training_step: three training steps of a small network on CUDA, and what the caching allocator recorded.

No PyTorch counterpart (it uses torch.cuda.memory's history and torch.cuda._memory_viz).
Guide: docs/source/internals/cuda_training.rst, section "Memory over a training step".
``python training_step.py`` trains on the current CUDA device and prints, as JSON, the
allocator's snapshot and the bytes allocated after each phase of each step; ``run_simulated()``
does that in a fresh interpreter on the simulated device. docs/source/_ext/cuda_sim_figures.py
draws the chapter's picture from the snapshot at every docs build.
"""

import json


# [marker: training_step]
def record(steps=3):
    """Train a 3-layer MLP for `steps` steps; return the snapshot and the bytes allocated and
    reserved after the forward, the backward and the optimizer step of each."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                          nn.Linear(1024, 10)).cuda()                 # 6 MiB of parameters
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(256, 512, device="cuda")                          # the batch: 512 KiB
    y = torch.randint(0, 10, (256,), device="cuda")
    torch.cuda.memory._record_memory_history()                        # from here on, every event
    phases = []

    def mark(phase):
        phases.append((phase, torch.cuda.memory_allocated(), torch.cuda.memory_reserved()))

    for step in range(steps):
        optimizer.zero_grad()                                         # .grad = None: freed
        loss = nn.functional.cross_entropy(model(x), y)               # activations are saved
        mark("forward")
        loss.backward()                                               # saved tensors are freed
        mark("backward")
        optimizer.step()                                              # momentum buffers, once
        del loss
        mark("step")
    return {"snapshot": torch.cuda.memory._snapshot(), "phases": phases, "summary": torch.cuda.memory_summary(),
            "peak": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.memory_reserved()}
# [end marker: training_step]


def run_simulated(devices=1):
    """``record()`` in a fresh interpreter on the simulated device (chosen when torch loads)."""
    from simulated import run_script
    return run_script(__file__, devices)


if __name__ == "__main__":
    print(json.dumps(record()))
