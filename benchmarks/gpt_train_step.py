"""benchmarks/gpt_train_step.py - one training step of a small nanoGPT-style GPT, this tree against PyTorch.

The model of test/programs/nanogpt.py (after nanoGPT's model.py and train.py) at n_layer 4, n_head 4,
n_embd 128, vocabulary 65, batch 8, block 64: zero_grad, forward, cross-entropy, backward,
clip_grad_norm_, AdamW step. Guide: docs/source/internals/programs/index.rst.

Run from the repository root: `.venv/bin/python benchmarks/gpt_train_step.py`. With
TORCH_REFERENCE_PYTHON naming an interpreter that has PyTorch, the same script runs there too as a
worker process (`--worker`), and the two take turns, round by round, at 1 and 2 threads; each row
is the best per-step time over the rounds and the ratio this tree / PyTorch (below 1.0: faster).
"""
import math
import os
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn as nn
from torch.nn import functional as F

from _timing import MISSING, print_missing

N_LAYER, N_HEAD, N_EMBD, VOCAB, BATCH, BLOCK = 4, 4, 128, 65, 8, 64
ROUNDS = 5


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(N_EMBD, 3 * N_EMBD)
        self.c_proj = nn.Linear(N_EMBD, N_EMBD)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(N_EMBD, dim=2)
        q, k, v = (t.view(B, T, N_HEAD, C // N_HEAD).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(N_EMBD)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(N_EMBD)
        self.mlp = nn.Sequential(nn.Linear(N_EMBD, 4 * N_EMBD), nn.GELU(), nn.Linear(4 * N_EMBD, N_EMBD))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, N_EMBD)
        self.wpe = nn.Embedding(BLOCK, N_EMBD)
        self.h = nn.ModuleList([Block() for _ in range(N_LAYER)])
        self.ln_f = nn.LayerNorm(N_EMBD)
        self.lm_head = nn.Linear(N_EMBD, VOCAB, bias=False)
        self.wte.weight = self.lm_head.weight  # weight tying
        for name, p in self.named_parameters():
            if p.dim() >= 2:
                std = 0.02 / math.sqrt(2 * N_LAYER) if name.endswith("c_proj.weight") else 0.02
                torch.nn.init.normal_(p, mean=0.0, std=std)

    def forward(self, idx, targets):
        pos = torch.arange(0, idx.size(1), dtype=torch.long)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


class Trainer:
    """The model, its AdamW (decay for 2-D parameters only) and one fixed batch."""

    def __init__(self):
        torch.manual_seed(0)
        self.model = GPT()
        params = list(self.model.parameters())
        groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": 0.1},
                  {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
        self.optimizer = torch.optim.AdamW(groups, lr=6e-4, betas=(0.9, 0.99))
        data = torch.randint(VOCAB, (BATCH, BLOCK + 1))
        self.x, self.y = data[:, :-1].contiguous(), data[:, 1:].contiguous()

    def step(self):
        self.optimizer.zero_grad(set_to_none=True)
        loss = self.model(self.x, self.y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        return loss

    def time_round(self, steps):
        """Seconds per step over `steps` consecutive steps."""
        start = time.perf_counter()
        for _ in range(steps):
            self.step()
        return (time.perf_counter() - start) / steps


def worker():
    """Answer the parent, one line per command: 'setup', 'threads N', 'round STEPS'."""
    trainer = None
    for line in sys.stdin:
        cmd, *arg = line.split()
        try:
            if cmd == "setup":
                trainer = Trainer()
                reply = f"{torch.__version__} {trainer.step().item():.6f}"
            elif cmd == "threads":
                torch.set_num_threads(int(arg[0]))
                reply = "ok"
            else:
                reply = repr(trainer.time_round(int(arg[0])))
        except MISSING as e:
            reply = f"missing {type(e).__name__}: {str(e).splitlines()[0][:60]}"
        print(reply, flush=True)


class Reference:
    """The same script as a worker under TORCH_REFERENCE_PYTHON, outside the tree (no PYTHONPATH)."""

    def __init__(self, python):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.cwd = tempfile.TemporaryDirectory()
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), "--worker"], cwd=self.cwd.name,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().strip()
        if not reply or reply.startswith("missing"):
            raise RuntimeError(f"PyTorch worker, on {command!r}: {reply or 'no answer'}")
        return reply

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()
        self.cwd.cleanup()


def main():
    reference_python = os.environ.get("TORCH_REFERENCE_PYTHON")
    ref = Reference(reference_python) if reference_python else None
    name = f"GPT {N_LAYER}x{N_HEAD}x{N_EMBD}, batch {BATCH}x{BLOCK}"
    try:
        trainer = Trainer()
        loss = trainer.step().item()
    except MISSING as e:
        print_missing(name, e)
        if ref:
            ref.close()
        return
    print(f"{name}: {sum(p.numel() for p in trainer.model.parameters()):,} parameters, AdamW")
    if ref:
        version, ref_loss = ref.ask("setup").split()
        agree = "agree" if abs(loss - float(ref_loss)) <= 1e-4 * abs(float(ref_loss)) else "differ"
        print(f"first-step loss: this tree {loss:.6f}, PyTorch {version} {ref_loss} ({agree})")
    else:
        print(f"first-step loss: this tree {loss:.6f} (set TORCH_REFERENCE_PYTHON to time PyTorch too)")
    print(f"{'benchmark':<34} {'this tree':>12} {'PyTorch':>12} {'ratio':>9}")
    for threads in (1, 2):
        torch.set_num_threads(threads)
        steps = max(1, int(0.3 / trainer.time_round(1)))  # a round of about 0.3 s here
        mine, theirs = [], []
        if ref:
            ref.ask(f"threads {threads}")
            ref.ask("round 1")  # warm up at this thread count
        for _ in range(ROUNDS):
            mine.append(trainer.time_round(steps))
            if ref:
                theirs.append(float(ref.ask(f"round {steps}")))
        t = min(mine)
        row = f"{'train step, ' + str(threads) + ' thread' + 's' * (threads > 1):<34} {t * 1e3:>9.2f} ms"
        if theirs:
            n = min(theirs)
            row += f" {n * 1e3:>9.2f} ms {t / n:>8.2f}x"
        else:
            row += f" {'-':>12} {'-':>9}"
        print(row + f"   {BATCH * BLOCK / t:,.0f} tokens/s here")
    if ref:
        ref.close()


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main()
