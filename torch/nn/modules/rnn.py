"""torch/nn/modules/rnn.py - RNN, LSTM, GRU (multi-layer, batch_first, bidirectional) and their cells.

Mirrors PyTorch's torch/nn/modules/rnn.py. Guide: docs/source/internals/python_layer.rst.

PyTorch hands the whole sequence to one fused operator (aten::lstm, cuDNN on a GPU). Here
the recurrence is written out in Python over mm, sigmoid and tanh, one time step after
another, so autograd records every step (backpropagation through time is just backward
over that graph); an LSTM layer that is not packed is one autograd node instead
(_LSTMLayer, which walks the steps back itself, as PyTorch's oneDNN layer does). The parameters have PyTorch's names and layout: weight_ih_l{k} is the
gates' input weights of layer k stacked in PyTorch's gate order (LSTM: i, f, g, o;
GRU: r, z, n), "_reverse" marks the backward direction; all start as
U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)). A state_dict therefore loads into PyTorch.

A PackedSequence input (torch/nn/utils/rnn.py) is walked step by step over its batch_sizes:
step t runs the first batch_sizes[t] rows of the state (the sequences still running, as they
are sorted longest first). Guide: docs/source/internals/programs/nn_utils.rst.
"""

import math
import numbers
import warnings
from typing import List, Optional, Tuple

import torch
from torch import Tensor
from torch.nn import functional as F
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.utils.rnn import PackedSequence

from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


# ---- one time step of each cell (the gates precomputed from the input: gi = x W_ih^T + b_ih) ----
def _rnn_tanh_step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Optional[Tensor]) -> Tensor:
    return torch.tanh(gi + F.linear(h, w_hh, b_hh))


def _rnn_relu_step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Optional[Tensor]) -> Tensor:
    return torch.relu(gi + F.linear(h, w_hh, b_hh))


def _lstm_step(gi: Tensor, hc: Tuple[Tensor, Tensor], w_hh: Tensor, b_hh: Optional[Tensor]):
    # gates = gi + h W_hh^T + b_hh, in chunks i, f, g, o; c' = sigmoid(f) c + sigmoid(i) tanh(g),
    # h' = sigmoid(o) tanh(c'). The elementwise part is one fused kernel and one autograd node
    # (aten/src/ATen/native/RNN.cpp), where written out it would be eleven of each.
    h, c = hc
    h, c, _ = torch._thnn_fused_lstm_cell(gi, F.linear(h, w_hh, b_hh), c)
    return h, c


def _lstm_cell(gi: Tensor, h: Tensor, c: Tensor, w_hh_t: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    # One step given W_hh^T (hidden_size, 4H): h @ W_hh^T as a product of row-major operands,
    # whose oneDNN kernel is faster on these small matrices than the one that reads W_hh
    # transposed. Returns h', c' and the fused cell's workspace (its activated gates).
    return torch._thnn_fused_lstm_cell(gi, torch.mm(h, w_hh_t), c)


# [marker: lstm_layer]
class _LSTMLayer(torch.autograd.Function):
    r"""One LSTM layer in one direction, all time steps, as one autograd node.

    gi (T, N, 4H) holds the input's contribution to the gates, biases included; the step is
    h, c = fused_cell(gi[t] + h W_hh^T, c). Recorded step by step, autograd would make a
    node per matmul and per cell, accumulate W_hh's gradient with 31 additions, and take it
    as 32 small products. Here the backward walks the steps back itself, keeps every step's
    gate gradient, and makes W_hh's gradient one large product, dG^T @ H_prev: PyTorch's
    CPU build does the same with oneDNN's whole-layer RNN (mkldnn_rnn_layer and its backward).
    A second derivative (create_graph=True) recomputes the steps with autograd recording.
    """

    @staticmethod
    def forward(ctx, gi, h0, c0, w_hh, reverse):
        w_hh_t = w_hh.t().contiguous()
        h, c = h0, c0
        hs, cs, works = [], [c0], []
        for t in (range(gi.size(0) - 1, -1, -1) if reverse else range(gi.size(0))):
            h, c, work = _lstm_cell(gi[t], h, c, w_hh_t)
            hs.append(h)
            cs.append(c)
            works.append(work)
        out = torch.stack(hs[::-1] if reverse else hs, 0)
        ctx.reverse = reverse
        ctx.steps = len(hs)
        ctx.save_for_backward(gi, h0, w_hh, *hs, *cs, *works)
        return out, h, c

    @staticmethod
    def backward(ctx, d_out, d_h, d_c):
        T, reverse = ctx.steps, ctx.reverse
        saved = ctx.saved_tensors
        gi, h0, w_hh = saved[:3]
        hs, cs, works = saved[3:3 + T], saved[3 + T:4 + 2 * T], saved[4 + 2 * T:]
        if torch.is_grad_enabled():
            return _lstm_layer_double_backward(gi, h0, cs[0], w_hh, reverse, d_out, d_h, d_c)
        dh, dc = d_h, d_c
        d_gates = [None] * T
        for k in range(T - 1, -1, -1):  # k counts steps in the order they ran
            t = T - 1 - k if reverse else k
            if d_out is not None:
                dh = d_out[t] if dh is None else dh + d_out[t]
            dg, dc, _ = torch._thnn_fused_lstm_cell_backward_impl(dh, dc, cs[k], cs[k + 1], works[k], False)
            d_gates[t] = dg
            dh = torch.mm(dg, w_hh)
        d_gi = torch.stack(d_gates, 0)
        # The state each step started from, in time order.
        h_prev = torch.stack([h0, *hs[:-1]][::-1] if reverse else [h0, *hs[:-1]], 0)
        d_w_hh = torch.mm(d_gi.view(-1, d_gi.size(-1)).t(), h_prev.view(-1, h_prev.size(-1)))
        return d_gi, dh, dc, d_w_hh, None


def _lstm_layer_double_backward(gi, h0, c0, w_hh, reverse, d_out, d_h, d_c):
    """The layer's gradients as differentiable functions of its inputs (for create_graph)."""
    with torch.enable_grad():
        inputs = [x.detach().requires_grad_() if not x.requires_grad else x for x in (gi, h0, c0, w_hh)]
        gi_, state = inputs[0], (inputs[1], inputs[2])
        outs = [None] * gi.size(0)
        for t in (range(gi.size(0) - 1, -1, -1) if reverse else range(gi.size(0))):
            state = _lstm_step(gi_[t], state, inputs[3], None)
            outs[t] = state[0]
        grads = torch.autograd.grad((torch.stack(outs, 0), state[0], state[1]), inputs,
                                    (d_out, d_h, d_c), create_graph=True, allow_unused=True)
    return (*grads, None)
# [end marker: lstm_layer]


def _gru_step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Optional[Tensor]) -> Tensor:
    gh = F.linear(h, w_hh, b_hh)
    i_r, i_z, i_n = gi.chunk(3, -1)
    h_r, h_z, h_n = gh.chunk(3, -1)
    r = (i_r + h_r).sigmoid()
    z = (i_z + h_z).sigmoid()
    n = (i_n + r * h_n).tanh()
    return (1 - z) * n + z * h


class RNNBase(Module):
    r"""What RNN, LSTM and GRU share: the parameters, their names, the layer/direction loop."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 proj_size: int = 0, device=None, dtype=None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1

        if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool)):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last "
                "recurrent layer, so non-zero dropout expects "
                f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}"
            )
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size != 0:
            raise NotImplementedError("proj_size (LSTM with projections) is not implemented in this tree")

        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode in ("RNN_TANH", "RNN_RELU"):
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)

        self._flat_weights_names: List[str] = []
        self._all_weights: List[List[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                w_ih = Parameter(torch.empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, hidden_size), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]
                for name, param in zip(param_names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> List[Optional[Parameter]]:
        return [getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names]

    @property
    def all_weights(self) -> List[List[Parameter]]:
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def flatten_parameters(self) -> None:
        r"""Does nothing here. PyTorch copies the weights into one contiguous buffer for cuDNN,
        which wants them in a single block; this tree's recurrence uses each Parameter as it
        is (one matmul per gate block), so there is nothing to compact. Kept so programs that
        call it (after .cuda(), or each forward) run unmodified."""
        return None

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # ---- argument checks (PyTorch's texts) ----
    def check_input(self, input: Tensor, batch_sizes: Optional[Tensor] = None) -> None:
        w_dtype = self._flat_weights[0].dtype
        if input.dtype != w_dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({w_dtype}). "
                f"Convert input: input.to({w_dtype}), or convert model: model.to({input.dtype})"
            )
        # Packed data is (sum of lengths, input_size): the time steps are in batch_sizes.
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}"
            )

    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Optional[Tensor] = None) -> Tuple[int, int, int]:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size, msg: str = "Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    # ---- the recurrence ----
    def _step_fn(self):
        return {"RNN_TANH": _rnn_tanh_step, "RNN_RELU": _rnn_relu_step, "LSTM": _lstm_step,
                "GRU": _gru_step}[self.mode]

    def _cell_weights(self, params):
        """w_ih, w_hh, b_ih, b_hh of one layer and direction (the biases None without bias)."""
        b_ih, b_hh = (params[2], params[3]) if self.bias else (None, None)
        return params[0], params[1], b_ih, b_hh

    def _layer_output(self, outputs, layer: int, dim: int) -> Tensor:
        """One layer's output: its directions' outputs joined along dim, then dropout
        (when training) unless it is the last layer."""
        layer_output = outputs[0] if len(outputs) == 1 else torch.cat(outputs, dim)
        if self.dropout != 0 and self.training and layer < self.num_layers - 1:
            layer_output = F.dropout(layer_output, self.dropout, True)
        return layer_output

    @staticmethod
    def _output_and_state(output: Tensor, h_n, c_n, is_lstm: bool):
        """The last layer's output and the final state: the stacked h (and c for LSTM)."""
        h_n = torch.stack(h_n, 0)
        if is_lstm:
            return output, (h_n, torch.stack(c_n, 0))
        return output, h_n

    def _run(self, input: Tensor, hx):
        """input (T, N, input_size); hx (L*D, N, H), or a pair of them for LSTM.
        Returns output (T, N, D*H) and the final state in hx's form."""
        is_lstm = self.mode == "LSTM"
        step = self._step_fn()
        num_directions = 2 if self.bidirectional else 1
        weights = self.all_weights
        layer_input = input
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(num_directions):
                idx = layer * num_directions + direction
                w_ih, w_hh, b_ih, b_hh = self._cell_weights(weights[idx])
                state = (hx[0][idx], hx[1][idx]) if is_lstm else hx[idx]
                if is_lstm and layer_input.size(0) > 0:
                    # Both biases enter every gate the same way: add them once, up front.
                    bias = b_ih + b_hh if b_ih is not None else None
                    out, h, c = _LSTMLayer.apply(F.linear(layer_input, w_ih, bias), state[0], state[1], w_hh,
                                                 direction == 1)
                    outputs.append(out)
                    h_n.append(h)
                    c_n.append(c)
                    continue
                # The input's contribution to the gates, for all time steps in one matmul,
                # unbound into steps: one UnbindBackward0 node stacks the steps' gradients,
                # where indexing gi_all[t] would make a zero tensor of gi_all's size per step.
                gi_steps = F.linear(layer_input, w_ih, b_ih).unbind(0)
                steps = range(layer_input.size(0))
                if direction == 1:
                    steps = reversed(steps)
                out_steps = [None] * layer_input.size(0)
                for t in steps:
                    state = step(gi_steps[t], state, w_hh, b_hh)
                    out_steps[t] = state[0] if is_lstm else state
                outputs.append(torch.stack(out_steps, 0))
                if is_lstm:
                    h_n.append(state[0])
                    c_n.append(state[1])
                else:
                    h_n.append(state)
            layer_input = self._layer_output(outputs, layer, 2)
        return self._output_and_state(layer_input, h_n, c_n, is_lstm)

    # [marker: run_packed]
    def _run_packed(self, data: Tensor, batch_sizes: List[int], hx):
        """data (sum(batch_sizes), input_size) in packed order; hx (L*D, batch_sizes[0], H), or a
        pair for LSTM. Returns the output data (packed order, D*H features) and the final
        state: for each sequence, the state after its own last step."""
        is_lstm = self.mode == "LSTM"
        step = self._step_fn()
        num_directions = 2 if self.bidirectional else 1
        weights = self.all_weights
        num_steps = len(batch_sizes)
        layer_input = data
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(num_directions):
                idx = layer * num_directions + direction
                w_ih, w_hh, b_ih, b_hh = self._cell_weights(weights[idx])
                # The state as a tuple of tensors, (h,) or (h, c), so rows slice alike.
                init_state = (hx[0][idx], hx[1][idx]) if is_lstm else (hx[idx],)

                if is_lstm:
                    # The arithmetic of _LSTMLayer (biases summed up front, W_hh^T row-major), so
                    # a packed sequence's states are bit for bit those of running it alone.
                    bias = b_ih + b_hh if b_ih is not None else None
                    w_hh_t = w_hh.t().contiguous()

                    def advance(gi, state):
                        return _lstm_cell(gi, state[0], state[1], w_hh_t)[:2]
                else:
                    bias = b_ih

                    def advance(gi, state):
                        return (step(gi, state[0], w_hh, b_hh),)

                # One piece per step (split_with_sizes: one SplitBackward node, as in _run).
                gi_steps = F.linear(layer_input, w_ih, bias).split(list(batch_sizes), 0)
                out_steps = [None] * num_steps
                if direction == 0:
                    # Forward in time the batch shrinks: when step t has fewer rows than
                    # step t-1, the rows past batch_sizes[t] are finished sequences; set
                    # their final state aside.
                    state = init_state
                    finished = []
                    for t in range(num_steps):
                        bs = batch_sizes[t]
                        if bs < state[0].size(0):
                            finished.append(tuple(s[bs:] for s in state))
                            state = tuple(s[:bs] for s in state)
                        state = advance(gi_steps[t], state)
                        out_steps[t] = state[0]
                    finished.append(state)
                    # Finished last are the first rows: put the pieces back in row order.
                    final = tuple(torch.cat([f[k] for f in reversed(finished)], 0) for k in range(len(state)))
                else:
                    # Backward in time the batch grows: a sequence starts at its own last
                    # step, from its own rows of the initial state.
                    state = tuple(s[:batch_sizes[-1]] for s in init_state)
                    for t in reversed(range(num_steps)):
                        bs = batch_sizes[t]
                        if bs > state[0].size(0):
                            state = tuple(torch.cat([s, s0[s.size(0):bs]], 0) for s, s0 in zip(state, init_state))
                        state = advance(gi_steps[t], state)
                        out_steps[t] = state[0]
                    final = state
                outputs.append(torch.cat(out_steps, 0))
                h_n.append(final[0])
                if is_lstm:
                    c_n.append(final[1])
            layer_input = self._layer_output(outputs, layer, 1)
        return self._output_and_state(layer_input, h_n, c_n, is_lstm)
    # [end marker: run_packed]

    def permute_hidden(self, hx, permutation: Optional[Tensor]):
        """hx with its batch dimension reordered by permutation (None: unchanged)."""
        if permutation is None:
            return hx
        if self.mode == "LSTM":
            return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)
        return hx.index_select(1, permutation)

    def _forward_packed(self, packed: PackedSequence, hx):
        input, batch_sizes, sorted_indices, unsorted_indices = packed
        is_lstm = self.mode == "LSTM"
        self.check_input(input, batch_sizes)
        expected = self.get_expected_hidden_size(input, batch_sizes)
        if hx is None:
            zeros = torch.zeros(expected, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros) if is_lstm else zeros
        else:
            # The caller's hx is in the caller's batch order; the walk is in sorted order.
            hx = self.permute_hidden(hx, sorted_indices)
            if is_lstm:
                self.check_hidden_size(hx[0], expected, "Expected hidden[0] size {}, got {}")
                self.check_hidden_size(hx[1], expected, "Expected hidden[1] size {}, got {}")
            else:
                self.check_hidden_size(hx, expected)
        output, hidden = self._run_packed(input, batch_sizes.tolist(), hx)
        output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        return output, self.permute_hidden(hidden, unsorted_indices)

    def _forward(self, input: Tensor, hx, name: str):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D "
                             + ("tensor instead" if name == "RNN" else "instead"))
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        is_lstm = self.mode == "LSTM"
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if is_lstm:
                    if hx[0].dim() != 2 or hx[1].dim() != 2:
                        raise RuntimeError(
                            "For unbatched 2-D input, hx and cx should also be 2-D but got "
                            f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                        )
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
                else:
                    if hx.dim() != 2:
                        raise RuntimeError(
                            f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
        elif hx is not None:
            if is_lstm:
                if hx[0].dim() != 3 or hx[1].dim() != 3:
                    raise RuntimeError(
                        "For batched 3-D input, hx and cx should also be 3-D but got "
                        f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                    )
            elif hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")

        self.check_input(input)
        expected = self.get_expected_hidden_size(input)
        if hx is None:
            zeros = torch.zeros(expected, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros) if is_lstm else zeros
        elif is_lstm:
            self.check_hidden_size(hx[0], expected, "Expected hidden[0] size {}, got {}")
            self.check_hidden_size(hx[1], expected, "Expected hidden[1] size {}, got {}")
        else:
            self.check_hidden_size(hx, expected)

        if self.batch_first:
            input = input.transpose(0, 1)
        output, hidden = self._run(input, hx)
        if self.batch_first:
            output = output.transpose(0, 1)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1)) if is_lstm else hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    r"""Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu).

    RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0.0, bidirectional=False). forward(input, h_0=None)
    returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor, hx: Optional[Tensor] = None):
        return self._forward(input, hx, "RNN")


class LSTM(RNNBase):
    r"""Long short-term memory: gates i, f, g, o from x_t and h_{t-1};
    c_t = f * c_{t-1} + i * g, h_t = o * tanh(c_t). forward(input, (h_0, c_0)=None)
    returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor) -> Tuple[int, int, int]:
        return self.get_expected_hidden_size(input)

    def forward(self, input: Tensor, hx: Optional[Tuple[Tensor, Tensor]] = None):
        return self._forward(input, hx, "LSTM")


class GRU(RNNBase):
    r"""Gated recurrent unit: r, z = sigmoid(...), n = tanh(x W_in + b_in + r * (h W_hn + b_hn)),
    h_t = (1 - z) * n + z * h_{t-1}. forward(input, h_0=None) returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Optional[Tensor] = None):
        return self._forward(input, hx, "GRU")


# ---- cells: one time step, as a module ----
class RNNCellBase(Module):
    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None,
                 dtype=None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batch_input_and_hx(self, input: Tensor, hx, name: str, num_states: int = 1):
        """(is_batched, input, hx) with a batch dimension on input and hx (a 1-D input is one
        sample); hx None becomes zeros. LSTMCell's hx is a pair of tensors (num_states=2)."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hx = zeros if num_states == 1 else (zeros,) * num_states
        elif not is_batched:
            hx = hx.unsqueeze(0) if num_states == 1 else tuple(h.unsqueeze(0) for h in hx)
        return is_batched, input, hx


class RNNCell(RNNCellBase):
    r"""h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        is_batched, input, hx = self._batch_input_and_hx(input, hx, "RNNCell")
        if self.nonlinearity == "tanh":
            step = _rnn_tanh_step
        elif self.nonlinearity == "relu":
            step = _rnn_relu_step
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    r"""One LSTM step: (h', c') from x and (h, c)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Optional[Tuple[Tensor, Tensor]] = None) -> Tuple[Tensor, Tensor]:
        is_batched, input, hx = self._batch_input_and_hx(input, hx, "LSTMCell", num_states=2)
        h, c = _lstm_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    r"""One GRU step: h' from x and h."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        is_batched, input, hx = self._batch_input_and_hx(input, hx, "GRUCell")
        ret = _gru_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
