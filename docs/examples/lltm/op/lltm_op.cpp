// docs/examples/lltm/op/lltm_op.cpp - the LLTM as a custom operator of the dispatcher: schemas in
// TORCH_LIBRARY, a CPU kernel, and an Autograd kernel (a torch::autograd::Function) that records
// the backward. Python calls it as torch.ops.lltm_ops.lltm(...); the library defines no Python
// module of its own (load(..., is_python_module=False)).
// The same recipe as PyTorch's extension-cpp tutorial (extension_cpp/csrc/lltm.cpp).
// Guide: docs/source/internals/cpp_extensions.rst.
#include <Python.h>
#include <torch/all.h>
#include <torch/library.h>

#include <vector>

namespace lltm_ops {

using torch::Tensor;

Tensor d_sigmoid(const Tensor& z) {
  auto s = torch::sigmoid(z);
  return (1 - s) * s;
}

Tensor d_tanh(const Tensor& z) {
  return 1 - z.tanh().pow(2);
}

Tensor d_elu(const Tensor& z, torch::Scalar alpha = 1.0) {
  auto e = z.exp();
  auto mask = (alpha * (e - 1)) < 0;
  return (z > 0).type_as(z) + mask.type_as(z) * (alpha * e);
}

// The CPU kernel of lltm_forward: every intermediate the backward needs, as the pybind11 version.
std::vector<Tensor> lltm_forward_cpu(const Tensor& input, const Tensor& weights, const Tensor& bias,
                                     const Tensor& old_h, const Tensor& old_cell) {
  auto X = torch::cat({old_h, input}, /*dim=*/1);
  auto gate_weights = torch::addmm(bias, X, weights.transpose(0, 1));
  auto gates = gate_weights.chunk(3, /*dim=*/1);
  auto input_gate = torch::sigmoid(gates[0]);
  auto output_gate = torch::sigmoid(gates[1]);
  auto candidate_cell = torch::elu(gates[2], /*alpha=*/1.0);
  auto new_cell = old_cell + candidate_cell * input_gate;
  auto new_h = torch::tanh(new_cell) * output_gate;
  return {new_h, new_cell, input_gate, output_gate, candidate_cell, X, gate_weights};
}

std::vector<Tensor> lltm_backward_cpu(const Tensor& grad_h, const Tensor& grad_cell, const Tensor& new_cell,
                                      const Tensor& input_gate, const Tensor& output_gate,
                                      const Tensor& candidate_cell, const Tensor& X, const Tensor& gate_weights,
                                      const Tensor& weights) {
  auto d_output_gate = torch::tanh(new_cell) * grad_h;
  auto d_tanh_new_cell = output_gate * grad_h;
  auto d_new_cell = d_tanh(new_cell) * d_tanh_new_cell + grad_cell;
  auto d_old_cell = d_new_cell;
  auto d_candidate_cell = input_gate * d_new_cell;
  auto d_input_gate = candidate_cell * d_new_cell;
  auto gates = gate_weights.chunk(3, /*dim=*/1);
  d_input_gate *= d_sigmoid(gates[0]);
  d_output_gate *= d_sigmoid(gates[1]);
  d_candidate_cell *= d_elu(gates[2]);
  auto d_gates = torch::cat({d_input_gate, d_output_gate, d_candidate_cell}, /*dim=*/1);
  auto d_weights = d_gates.t().mm(X);
  auto d_bias = d_gates.sum(/*dim=*/0, /*keepdim=*/true);
  auto d_X = d_gates.mm(weights);
  const auto state_size = grad_h.size(1);
  return {d_X.slice(/*dim=*/1, 0, state_size), d_X.slice(/*dim=*/1, state_size), d_weights, d_bias, d_old_cell};
}

// The autograd formula: forward calls lltm_forward below autograd and keeps what backward
// needs; backward calls lltm_backward. Both go through the dispatcher, so a CUDA kernel
// registered for the same operators would serve CUDA tensors with this same formula.
class LLTMFunction : public torch::autograd::Function<LLTMFunction> {
 public:
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, const Tensor& input,
                                                const Tensor& weights, const Tensor& bias, const Tensor& old_h,
                                                const Tensor& old_cell) {
    static auto op = c10::Dispatcher::singleton()
                         .findSchemaOrThrow("lltm_ops::lltm_forward", "")
                         .typed<std::vector<Tensor>(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                                    const Tensor&)>();
    auto outputs = op.call(input, weights, bias, old_h, old_cell);
    // new_cell, input_gate, output_gate, candidate_cell, X, gate_weights, and the weights.
    ctx->save_for_backward({outputs[1], outputs[2], outputs[3], outputs[4], outputs[5], outputs[6], weights});
    return {outputs[0], outputs[1]};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    static auto op = c10::Dispatcher::singleton()
                         .findSchemaOrThrow("lltm_ops::lltm_backward", "")
                         .typed<std::vector<Tensor>(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                                    const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                                    const Tensor&)>();
    auto saved = ctx->get_saved_variables();
    auto grads = op.call(grad_outputs[0].contiguous(), grad_outputs[1].contiguous(), saved[0], saved[1], saved[2],
                         saved[3], saved[4], saved[5], saved[6]);
    // d_old_h, d_input, d_weights, d_bias, d_old_cell -> in the order of forward's inputs.
    return {grads[1], grads[2], grads[3].squeeze(0), grads[0], grads[4]};
  }
};

std::vector<Tensor> lltm_autograd(const Tensor& input, const Tensor& weights, const Tensor& bias, const Tensor& old_h,
                                  const Tensor& old_cell) {
  return LLTMFunction::apply(input, weights, bias, old_h, old_cell);
}

// Without autograd (no input requires grad, or under no_grad): the forward's two outputs.
std::vector<Tensor> lltm_cpu(const Tensor& input, const Tensor& weights, const Tensor& bias, const Tensor& old_h,
                             const Tensor& old_cell) {
  auto outputs = lltm_forward_cpu(input, weights, bias, old_h, old_cell);
  return {outputs[0], outputs[1]};
}

TORCH_LIBRARY(lltm_ops, m) {
  m.def("lltm(Tensor input, Tensor weights, Tensor bias, Tensor old_h, Tensor old_cell) -> Tensor[]");
  m.def("lltm_forward(Tensor input, Tensor weights, Tensor bias, Tensor old_h, Tensor old_cell) -> Tensor[]");
  m.def("lltm_backward(Tensor grad_h, Tensor grad_cell, Tensor new_cell, Tensor input_gate, Tensor output_gate, "
        "Tensor candidate_cell, Tensor X, Tensor gate_weights, Tensor weights) -> Tensor[]");
}

TORCH_LIBRARY_IMPL(lltm_ops, CPU, m) {
  m.impl("lltm", TORCH_FN(lltm_cpu));
  m.impl("lltm_forward", TORCH_FN(lltm_forward_cpu));
  m.impl("lltm_backward", TORCH_FN(lltm_backward_cpu));
}

TORCH_LIBRARY_IMPL(lltm_ops, Autograd, m) {
  m.impl("lltm", TORCH_FN(lltm_autograd));
}

}  // namespace lltm_ops

// An extension module with no Python functions, so that the library can also be imported as
// a package's _C (import lltm_ops._C): importing it runs the registrations above.
extern "C" PyObject* PyInit__C(void) {
  static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_C", nullptr, -1, nullptr};
  return PyModule_Create(&module_def);
}
