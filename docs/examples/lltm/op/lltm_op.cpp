// docs/examples/lltm/op/lltm_op.cpp - the LLTM as a custom operator of the dispatcher: schemas in
// TORCH_LIBRARY, CPU kernels (cpp/lltm.cpp's functions), and an Autograd kernel (a
// torch::autograd::Function) that records the backward. Python calls it as
// torch.ops.lltm_ops.lltm(...) once the library is loaded (load(..., is_python_module=False)).
// The same recipe as PyTorch's extension-cpp tutorial (extension_cpp/csrc/lltm.cpp).
// Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/all.h>
#include <torch/library.h>

#include <vector>

// The forward and backward of cpp/lltm.cpp, compiled into the same library (lltm.py's load_op
// builds both files): the operator gives the tutorial's functions a place in the dispatcher.
std::vector<torch::Tensor> lltm_forward(torch::Tensor input, torch::Tensor weights, torch::Tensor bias,
                                        torch::Tensor old_h, torch::Tensor old_cell);
std::vector<torch::Tensor> lltm_backward(torch::Tensor grad_h, torch::Tensor grad_cell, torch::Tensor new_cell,
                                         torch::Tensor input_gate, torch::Tensor output_gate,
                                         torch::Tensor candidate_cell, torch::Tensor X, torch::Tensor gate_weights,
                                         torch::Tensor weights);

namespace lltm_ops {

using torch::Tensor;

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
                         .typed<std::vector<Tensor>(Tensor, Tensor, Tensor, Tensor, Tensor)>();
    auto outputs = op.call(input, weights, bias, old_h, old_cell);
    // new_cell, input_gate, output_gate, candidate_cell, X, gate_weights, and the weights.
    ctx->save_for_backward({outputs[1], outputs[2], outputs[3], outputs[4], outputs[5], outputs[6], weights});
    return {outputs[0], outputs[1]};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    static auto op =
        c10::Dispatcher::singleton()
            .findSchemaOrThrow("lltm_ops::lltm_backward", "")
            .typed<std::vector<Tensor>(Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor)>();
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
  auto outputs = ::lltm_forward(input, weights, bias, old_h, old_cell);
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
  m.impl("lltm_forward", TORCH_FN(::lltm_forward));
  m.impl("lltm_backward", TORCH_FN(::lltm_backward));
}

TORCH_LIBRARY_IMPL(lltm_ops, Autograd, m) {
  m.impl("lltm", TORCH_FN(lltm_autograd));
}

}  // namespace lltm_ops
