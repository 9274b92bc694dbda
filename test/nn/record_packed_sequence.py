"""Records the PyTorch 2.13 reference numbers in test/nn/test_packed_sequence.py.

Run it under a PyTorch 2.13 installation from a directory outside this tree (so that
`import torch` is PyTorch's) and paste what it prints over the REF_ block of the test:

    python test/nn/record_packed_sequence.py

Setup (float64): each parameter, in named_parameters() order, is filled from
numpy.random.RandomState(0).uniform(-0.5, 0.5); the padded input (T=4, B=3, 3) is
RandomState(1).randn; lengths [2, 4, 3] (unsorted, enforce_sorted=False); h_0 is
RandomState(2).randn, c_0 = 0.5 * h_0. Guide: docs/source/internals/programs/nn_utils.rst.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

LENGTHS = [2, 4, 3]


def make(mode, **kwargs):
    m = getattr(nn, mode)(3, 4, dtype=torch.float64, **kwargs)
    rs = np.random.RandomState(0)
    with torch.no_grad():
        for _, p in m.named_parameters():
            p.copy_(torch.tensor(rs.uniform(-0.5, 0.5, tuple(p.shape))))
    return m


def inputs(mode, num_states):
    x = torch.tensor(np.random.RandomState(1).randn(4, 3, 3), requires_grad=True)
    h0 = torch.tensor(np.random.RandomState(2).randn(num_states, 3, 4))
    return x, ((h0, h0 * 0.5) if mode == "LSTM" else h0)


def record(mode, **kwargs):
    m = make(mode, **kwargs)
    num_states = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    x, hx = inputs(mode, num_states)
    out, h = m(pack_padded_sequence(x, LENGTHS, enforce_sorted=False), hx)
    padded, _ = pad_packed_sequence(out)
    h_n = h[0] if mode == "LSTM" else h
    (padded.sum() + h_n.sum()).backward()
    r = lambda t: [round(v, 10) for v in t.detach().flatten().tolist()]  # noqa: E731
    res = {"padded": r(padded), "h_n": r(h_n), "x_grad": r(x.grad)}
    if mode == "LSTM":
        res["c_n"] = r(h[1])
    return res


if __name__ == "__main__":
    print("REF_LSTM2_BI =", record("LSTM", num_layers=2, bidirectional=True))
    print("REF_GRU =", record("GRU"))
    print("REF_RNN_RELU_BI =", record("RNN", nonlinearity="relu", bidirectional=True))
