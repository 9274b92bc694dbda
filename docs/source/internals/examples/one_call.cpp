// docs/source/internals/examples/one_call.cpp - at::zeros through the dispatcher, from C++.
// Run by the doctests of docs/source/internals/dispatcher.rst (with TORCH_SHOW_DISPATCH_TRACE=1).
#include <ATen/ATen.h>

#include <iostream>

int main() {
  at::Tensor t = at::zeros({2, 3});  // BackendSelect -> CompositeExplicitAutograd -> CPU kernels
  std::cout << "zeros: " << t << " first=" << t.data_ptr<float>()[0] << std::endl;
  at::Tensor m = at::full({4}, 7, std::nullopt, std::nullopt, at::Device("meta"));
  std::cout << "full on meta: " << m.sizes() << " " << m.device() << " dtype=" << m.scalar_type() << std::endl;
  return 0;
}
