// ${generated_comment}
// The apply() of every backward node: unpack what was saved, evaluate each formula of
// derivatives.yaml for the inputs that need a gradient.
// Template: tools/autograd/templates/Functions.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/generated/Functions.h>

#include <ATen/ExpandUtils.h>
#include <torch/csrc/autograd/FunctionsManual.h>

namespace torch::autograd::generated {

using namespace torch::autograd::generated::details;

namespace {

// The gradients of a node's inputs are numbered in order; a Tensor[] input takes a range.
struct IndexRangeGenerator {
  IndexRange range(size_t range_size) {
    i += range_size;
    return {i - range_size, i};
  }
  size_t size() const { return i; }

 private:
  size_t i = 0;
};

void copy_range(variable_list& out, IndexRange range, const at::Tensor& t) {
  TORCH_INTERNAL_ASSERT(range.second <= out.size() && range.second - range.first == 1);
  out[range.first] = t;
}

void copy_range(variable_list& out, IndexRange range, const std::vector<at::Tensor>& t) {
  TORCH_INTERNAL_ASSERT(range.second <= out.size() && range.second - range.first == t.size());
  std::copy(t.begin(), t.end(), out.begin() + range.first);
}

}  // namespace

${autograd_function_definitions}

}  // namespace torch::autograd::generated
