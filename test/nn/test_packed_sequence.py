# test/nn/test_packed_sequence.py - PackedSequence, pack/pad, and RNN, LSTM, GRU on packed input.
# Mirrors the packed-sequence parts of PyTorch's test/nn/test_packed_sequence.py and
# test/test_nn.py. Guide: docs/source/internals/programs/nn_utils.rst.
#
# The REF_ numbers are PyTorch 2.13's on the setup of record_packed_sequence.py (next to this
# file; its docstring says how to regenerate them).
import importlib.util
import os

import numpy as np
import pytest
import torch
import torch.nn as nn
from torch.autograd import gradcheck
from torch.nn.utils.rnn import (PackedSequence, invert_permutation, pack_padded_sequence, pack_sequence,
                                pad_packed_sequence, pad_sequence, unpack_sequence, unpad_sequence)

D = torch.float64

_spec = importlib.util.spec_from_file_location(
    "record_packed_sequence", os.path.join(os.path.dirname(__file__), "record_packed_sequence.py"))
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)

REF_LSTM2_BI = {'padded': [-0.1047251508, 0.0751091024, -0.0909805268, -0.1051048846, 0.2097342646, -0.1201808051,
            -0.0156643956, -0.2907787631, 0.0205527253, -0.0060311761, 0.0206074495, 0.2354443233, 0.1628279641,
            -0.0275761565, -0.1155510474, -0.0770453045, -0.3406632614, 0.0664473353, 0.0602899883,
            0.2122860697, 0.2679593237, -0.1378956683, -0.0949320867, -0.3682481697, 0.0177031747, 0.0898670166,
            -0.0499680682, -0.1588765731, 0.2179676204, -0.0946615774, -0.0229477724, -0.0733194958,
            0.0640182396, 0.0968522256, 0.0623298499, 0.2265764099, 0.1470893973, -0.0300118205, -0.1103519518,
            0.0118242386, -0.1251324834, 0.1111804424, 0.0694781881, 0.1712374868, 0.3079669979, -0.0962143849,
            -0.1118825848, -0.2778152096, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1089088077, 0.1431390888,
            0.0692286428, 0.0877141818, 0.0825534099, 0.046544084, -0.0872601834, 0.1313280885, 0.0019709902,
            0.15383379, 0.0713094159, 0.0852921727, 0.472443979, -0.1062454564, -0.0704356449, -0.175460751,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0970340011, 0.140118512, 0.0781627377, -0.0158409675,
            -0.0123175845, 0.1329351833, -0.0876511239, 0.2697072196, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
 'h_n': [0.224013836, 0.0148293635, 0.0640581715, -0.1145921571, 0.0892986802, 0.0364308856, 0.2003347019,
         0.0214635463, 0.0395959005, 0.0575231506, 0.1343239218, 0.1538000008, 0.0116639988, 0.0357509023,
         0.2016534942, 0.1814261471, -0.1210111144, 0.2541103598, -0.1662516861, -0.1749534208, 0.0825790187,
         0.0501040993, 0.0739607964, -0.2193623187, 0.0177031747, 0.0898670166, -0.0499680682, -0.1588765731,
         0.0970340011, 0.140118512, 0.0781627377, -0.0158409675, 0.0019709902, 0.15383379, 0.0713094159,
         0.0852921727, 0.2097342646, -0.1201808051, -0.0156643956, -0.2907787631, 0.1628279641, -0.0275761565,
         -0.1155510474, -0.0770453045, 0.2679593237, -0.1378956683, -0.0949320867, -0.3682481697],
 'x_grad': [0.1326615677, -0.0222383093, -0.2686450687, 0.2470401627, -0.0098613154, -0.0893965476,
            0.0308739447, 0.0011868345, -0.2774331546, 0.265285843, -0.0814387195, 0.052492388, -0.0093870477,
            0.0170125867, -0.1786827214, 0.1226971803, -0.0304068361, -0.0467085701, 0.0, 0.0, 0.0,
            0.0046948122, -0.0237953191, -0.1503562167, 0.0205300688, 0.031412468, -0.1915094585, 0.0, 0.0, 0.0,
            0.1047380357, -0.1301596134, 0.0084380917, 0.0, 0.0, 0.0],
 'c_n': [0.8208815751, 0.028775429, 0.3891943695, -0.1761848187, 0.1876137091, 0.0760387106, 0.6177527655,
         0.0343809, 0.0683923098, 0.0973697292, 0.2918850467, 0.2480145981, 0.0573308757, 0.1536976344,
         0.2886995317, 0.3378817428, -0.2846324973, 0.5313457894, -0.2888633101, -0.230880542, 0.369312924,
         0.1930129584, 0.1050182868, -0.4282993632, 0.0318012519, 0.2320570493, -0.1429590638, -0.4103463957,
         0.1743146015, 0.3035389323, 0.1772049853, -0.03846192, 0.0037891915, 0.3431022803, 0.156005549,
         0.2209734295, 0.5159802499, -0.2273226286, -0.0351460614, -0.4585494526, 0.379122057, -0.0652789733,
         -0.263708915, -0.1331444192, 0.5858523611, -0.2857767746, -0.2312415874, -0.6109533442]}
REF_GRU = {'padded': [-0.6235978267, 0.4191894985, -1.1135204523, 0.8874503233, -1.2457942052, -0.4276911317,
            0.5747002131, -1.1180897599, -0.9051797454, 0.0308026084, 0.0341907067, 1.7503984794, -0.4672211226,
            0.2230940861, -0.1009312251, -0.1970745389, -0.8643012476, -0.3140324375, 0.5157066013,
            -0.9856151935, -0.322696032, -0.1939831709, -0.0496771513, 0.5799802411, 0.0, 0.0, 0.0, 0.0,
            -0.8122613144, 0.2643192792, 0.4731845, -0.9358322607, -0.5457270957, 0.1392901037, -0.2961143813,
            0.4356743702, 0.0, 0.0, 0.0, 0.0, -0.456796796, 0.1920756242, 0.2799182922, -0.7643131062, 0.0, 0.0,
            0.0, 0.0],
 'h_n': [-0.4672211226, 0.2230940861, -0.1009312251, -0.1970745389, -0.456796796, 0.1920756242, 0.2799182922,
         -0.7643131062, -0.5457270957, 0.1392901037, -0.2961143813, 0.4356743702],
 'x_grad': [0.0758013343, -0.0845054167, -0.4053161191, 0.2886508986, -0.0324367537, -0.0339168683,
            0.5666704533, 0.3855266692, 0.1858059984, 0.2597173119, -0.1951653391, -0.2607149335, -0.2378280632,
            0.133817518, -0.2240041941, -0.2337426311, -0.2516034776, -0.0059954974, 0.0, 0.0, 0.0,
            0.2636640209, 0.2960049557, -0.2767836135, 0.2988472529, 0.3201653762, -0.2436425681, 0.0, 0.0, 0.0,
            -0.3307685823, 0.0907068954, -0.1514417796, 0.0, 0.0, 0.0]}
REF_RNN_RELU_BI = {'padded': [0.0581947183, 0.2196092406, 0.0, 1.6512707902, 0.0, 0.0, 1.14377, 0.0320394936, 0.0, 0.0, 0.0,
            0.5366212453, 0.0, 0.0, 0.0, 0.0261306229, 0.0, 1.372836529, 0.0, 1.0749096011, 0.3050076552, 0.0,
            1.5195285337, 0.015289975, 0.0, 0.2158319161, 0.0, 1.5307236429, 0.0, 0.0, 0.1779729275,
            0.5855893884, 0.0, 0.3619121522, 0.0, 0.5887903399, 0.4089167455, 0.0, 1.1483234221, 0.0, 0.0,
            0.6731812436, 0.0, 1.1144711456, 0.0, 0.0, 0.3181404165, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            0.0, 0.1904616953, 0.3771923168, 0.0715488168, 0.8484339312, 0.5228925196, 0.0, 0.6958040859, 0.0,
            0.0, 0.6940808555, 0.0, 0.6736182309, 0.2631401037, 0.0, 1.4038929852, 0.7213722725, 0.0, 0.0, 0.0,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2500020095, 0.0, 0.6687169568, 0.0, 0.0, 0.4507203793, 0.0, 0.0,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
 'h_n': [0.0, 0.2158319161, 0.0, 1.5307236429, 0.0, 0.2500020095, 0.0, 0.6687169568, 0.0, 0.6940808555, 0.0,
         0.6736182309, 0.0, 0.0, 1.14377, 0.0320394936, 0.0, 0.0, 0.0, 0.0261306229, 0.3050076552, 0.0,
         1.5195285337, 0.015289975],
 'x_grad': [0.4820722701, -0.9958158228, -0.1231621875, -0.0372467737, 0.3681392935, -0.648311439, 0.7144378808,
            -0.5359777283, 0.8563152227, 0.0626928664, -0.0488858425, 0.6443712068, -0.0160805544, 0.3091542241,
            0.7447852387, 0.0546794653, 0.0091688658, 0.5908355281, 0.0, 0.0, 0.0, 0.0142677045, 0.4966722794,
            1.3463345046, 0.2911401617, -0.0337941433, 0.806792037, 0.0, 0.0, 0.0, 0.0636155573, -0.0297872657,
            0.5242218788, 0.0, 0.0, 0.0]}


@pytest.mark.parametrize("mode,kwargs,ref", [
    ("LSTM", {"num_layers": 2, "bidirectional": True}, REF_LSTM2_BI),
    ("GRU", {}, REF_GRU),
    ("RNN", {"nonlinearity": "relu", "bidirectional": True}, REF_RNN_RELU_BI),
])
def test_packed_rnn_outputs_states_and_gradients_match_pytorch(mode, kwargs, ref):
    got = record.record(mode, **kwargs)
    assert got.keys() == ref.keys()
    for key in ref:
        np.testing.assert_allclose(got[key], ref[key], rtol=0, atol=2e-10, err_msg=key)


@pytest.mark.parametrize("mode", ["RNN", "LSTM", "GRU"])
def test_packed_run_equals_each_sequence_run_alone(mode):
    # h_n of each sequence is the state after its own last step, in the caller's order, and
    # the packed output is the unpadded output of that sequence run by itself.
    m = record.make(mode, num_layers=2, bidirectional=True)
    x, hx = record.inputs(mode, 4)
    out, h = m(pack_padded_sequence(x, record.LENGTHS, enforce_sorted=False), hx)
    padded, lengths = pad_packed_sequence(out, batch_first=True)
    assert lengths.tolist() == record.LENGTHS and lengths.dtype == torch.int64
    states = h if mode == "LSTM" else (h,)
    for b, n in enumerate(record.LENGTHS):
        hb = (hx[0][:, b:b + 1], hx[1][:, b:b + 1]) if mode == "LSTM" else hx[:, b:b + 1]
        out_b, h_b = m(x[:n, b:b + 1], hb)
        np.testing.assert_allclose(padded[b, :n].detach().numpy(), out_b[:, 0].detach().numpy(), atol=1e-14)
        assert padded[b, n:].abs().sum().item() == 0
        for s_all, s_b in zip(states, h_b if mode == "LSTM" else (h_b,)):
            np.testing.assert_allclose(s_all[:, b].detach().numpy(), s_b[:, 0].detach().numpy(), atol=1e-14)


def test_packed_output_keeps_batch_sizes_and_indices():
    m = nn.GRU(3, 2, batch_first=True)
    p = pack_sequence([torch.ones(2, 3), torch.ones(4, 3), torch.ones(1, 3)], enforce_sorted=False)
    out, h = m(p)
    assert isinstance(out, PackedSequence)
    assert out.batch_sizes is p.batch_sizes and out.sorted_indices is p.sorted_indices
    assert out.unsorted_indices is p.unsorted_indices
    assert out.data.shape == (7, 2) and h.shape == (1, 3, 2)


def test_gradcheck_through_pack_and_pad():
    x = torch.randn(4, 3, 2, dtype=D, requires_grad=True)

    def roundtrip(inp):
        packed = pack_padded_sequence(inp, [2, 4, 3], enforce_sorted=False)
        return pad_packed_sequence(packed, batch_first=True, padding_value=0.5, total_length=5)[0]

    assert gradcheck(roundtrip, (x,))
    seqs = [torch.randn(n, 2, dtype=D, requires_grad=True) for n in (3, 1, 2)]
    assert gradcheck(lambda *s: pad_sequence(list(s), padding_side="left"), tuple(seqs))
    m = nn.LSTM(2, 3, bidirectional=True, dtype=D)
    assert gradcheck(lambda inp: m(pack_padded_sequence(inp, [2, 4, 3], enforce_sorted=False))[0].data, (x,))


def test_pack_padded_sequence_layout():
    seq = torch.tensor([[1, 2, 0], [3, 0, 0], [4, 5, 6]])
    packed = pack_padded_sequence(seq, [2, 1, 3], batch_first=True, enforce_sorted=False)
    assert packed.data.tolist() == [4, 1, 3, 5, 2, 6]
    assert packed.batch_sizes.tolist() == [3, 2, 1] and packed.batch_sizes.dtype == torch.int64
    assert packed.sorted_indices.tolist() == [2, 0, 1] and packed.unsorted_indices.tolist() == [1, 2, 0]
    padded, lengths = pad_packed_sequence(packed, batch_first=True)
    assert padded.tolist() == seq.tolist() and lengths.tolist() == [2, 1, 3]
    padded, _ = pad_packed_sequence(packed, padding_value=-1, total_length=4)
    assert padded.shape == (4, 3) and padded[:, 1].tolist() == [3, -1, -1, -1]
    sorted_pack = pack_padded_sequence(torch.arange(6.0).reshape(3, 2), torch.tensor([3, 2]))
    assert sorted_pack.sorted_indices is None and sorted_pack.unsorted_indices is None
    assert sorted_pack.data.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_pack_sequence_unpack_sequence_roundtrip():
    a, b, c = torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])
    packed = pack_sequence([a, b, c])
    assert repr(packed) == ("PackedSequence(data=tensor([1, 4, 6, 2, 5, 3]), batch_sizes=tensor([3, 2, 1]), "
                            "sorted_indices=None, unsorted_indices=None)")
    unsorted = [torch.tensor([4, 5]), torch.tensor([1, 2, 3, 7]), torch.tensor([6])]
    assert [t.tolist() for t in unpack_sequence(pack_sequence(unsorted, enforce_sorted=False))] == \
        [[4, 5], [1, 2, 3, 7], [6]]
    padded = pad_sequence(unsorted)
    assert [t.tolist() for t in unpad_sequence(padded, torch.tensor([2, 4, 1]))] == [[4, 5], [1, 2, 3, 7], [6]]


def test_pad_sequence_sides_dtypes_and_shapes():
    seqs = [torch.ones(2, 3), torch.ones(4, 3), torch.ones(1, 3)]
    assert pad_sequence(seqs).shape == (4, 3, 3) and pad_sequence(seqs, batch_first=True).shape == (3, 4, 3)
    left = pad_sequence([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])], batch_first=True,
                        padding_value=9, padding_side="left")
    assert left.tolist() == [[9.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    # The first sequence decides the dtype; a (L, 1) sequence broadcasts into (L, 3).
    mixed = pad_sequence([torch.tensor([1, 1]), torch.tensor([0.5, 1.5, 2.5])])
    assert mixed.dtype == torch.int64 and mixed.tolist() == [[1, 0], [1, 1], [0, 2]]
    assert pad_sequence([torch.ones(2, 3), 2 * torch.ones(1, 1)])[0, 1].tolist() == [2.0, 2.0, 2.0]


def test_packed_sequence_object():
    p = pack_sequence([torch.ones(3, 2), torch.ones(1, 2)])
    assert isinstance(p, tuple) and len(p) == 4
    data, batch_sizes, sorted_indices, unsorted_indices = p
    assert data is p.data and sorted_indices is None and unsorted_indices is None
    assert p.to(torch.float32) is p
    q = p.to(D)
    assert isinstance(q, PackedSequence) and q.data.dtype == D and q.batch_sizes.dtype == torch.int64
    assert p.double().data.dtype == D and not p.is_cuda
    r = PackedSequence((p.data, p.batch_sizes), sorted_indices=torch.tensor([1, 0]))
    assert r.batch_sizes.tolist() == [2, 1, 1] and r.unsorted_indices.tolist() == [1, 0]
    assert invert_permutation(torch.tensor([2, 0, 3, 1])).tolist() == [1, 3, 0, 2]
    assert invert_permutation(None) is None


def test_flatten_parameters_is_a_no_op():
    m = nn.LSTM(3, 4, num_layers=2)
    before = [p.detach().clone() for p in m.parameters()]
    assert m.flatten_parameters() is None
    assert all(torch.equal(a, b) for a, b in zip(before, m.parameters()))


def test_errors_match_pytorch():
    x = torch.arange(12.0).reshape(3, 2, 2)
    with pytest.raises(RuntimeError, match=r"^`lengths` array must be sorted in decreasing order when "
                       r"`enforce_sorted` is True. You can pass `enforce_sorted=False` to pack_padded_sequence "
                       r"and/or pack_sequence to sidestep this requirement if you do not need ONNX exportability.$"):
        pack_padded_sequence(x, [1, 3])
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order"):
        pack_sequence([torch.ones(2), torch.ones(3)])
    with pytest.raises(RuntimeError, match=r"^Expected `len\(lengths\)` to be equal to batch_size, but got 3 "
                       r"\(batch_size=2\)$"):
        pack_padded_sequence(x, [3, 1, 1])
    with pytest.raises(RuntimeError, match="^Length of all samples has to be greater than 0, but found an element "
                       "in 'lengths' that is <= 0$"):
        pack_padded_sequence(x, [3, 0])
    with pytest.raises(RuntimeError, match="^'lengths' argument should be a 1D CPU int64 tensor, but got 2D cpu "
                       "Long tensor$"):
        pack_padded_sequence(x, torch.tensor([[3, 1]]))
    with pytest.raises(RuntimeError, match="^Cannot pack empty tensors.$"):
        pack_padded_sequence(torch.ones(0, 2, 3), [1, 1])
    with pytest.raises(ValueError, match="^Expected total_length to be at least the length of the longest sequence "
                       "in input, but got total_length=2 and max sequence length being 3$"):
        pad_packed_sequence(pack_padded_sequence(x, [3, 1]), total_length=2)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                       "non-singleton dimension 1$"):
        pad_sequence([torch.ones(2, 3), torch.ones(3, 2)])
    with pytest.raises(RuntimeError, match=r"^output with shape \[3, 1\] doesn't match the broadcast shape \[3, 3\]$"):
        pad_sequence([torch.ones(2, 1), torch.ones(3, 3)])
    with pytest.raises(RuntimeError, match="^received an empty list of sequences$"):
        pad_sequence([])
    with pytest.raises(RuntimeError, match="^pad_sequence: Expected iterable for input sequences, but got arg of "
                       "type: <class 'int'>$"):
        pad_sequence(5)
    with pytest.raises(RuntimeError, match="^Expected padding_side to be one of left or right, but got up.$"):
        pad_sequence([torch.ones(2)], padding_side="up")
    packed = pack_padded_sequence(torch.ones(3, 2, 3), [3, 1])
    with pytest.raises(RuntimeError, match=r"^Expected hidden size \(1, 2, 4\), got \[4\]$"):
        nn.GRU(3, 4)(packed, torch.zeros(4))
    with pytest.raises(RuntimeError, match="^input must have 2 dimensions, got 3$"):
        nn.GRU(3, 4)(PackedSequence(torch.ones(4, 1, 3), torch.tensor([2, 1, 1])))
    with pytest.raises(ValueError, match="^batch_sizes should always be on CPU."):
        PackedSequence(torch.ones(3), torch.tensor([2, 1], device="meta"))
