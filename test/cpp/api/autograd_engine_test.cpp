// test/cpp/api/autograd_engine_test.cpp - the autograd engine on graphs built in C++.
// Mirrors PyTorch's test/cpp/api/autograd.cpp. Guide: docs/source/internals/autograd.rst.
//
// No Python here: the engine, nodes, saved variables and hooks are C++ and are tested as C++.
#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <ATen/TensorOperators.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/accumulate_grad.h>
#include <torch/csrc/autograd/saved_variable.h>
#include <torch/csrc/autograd/variable.h>

#include <string>
#include <vector>

using namespace torch::autograd;

namespace {

at::Tensor leaf(std::vector<float> values) {
  auto t = at::empty({static_cast<int64_t>(values.size())}, at::kFloat);
  for (size_t i = 0; i < values.size(); ++i) {
    t.data_ptr<float>()[i] = values[i];
  }
  t.set_requires_grad(true);
  return t;
}

float at_(const at::Tensor& t, int64_t i) {
  return t.contiguous().data_ptr<float>()[i];
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "";
}

// A hand-written node: multiplies its gradient by a constant and counts its calls.
struct Scale : public Node {
  Scale(float factor, int* calls) : factor(factor), calls(calls) {}
  variable_list apply(variable_list&& grads) override {
    ++*calls;
    return {grads[0] * factor};
  }
  float factor;
  int* calls;
};

}  // namespace

TEST(AutogradEngine, ChainOfGeneratedNodes) {
  auto x = leaf({1, 2, 3});
  auto y = (x * x).sum();  // MulBackward0 -> SumBackward0
  EXPECT_EQ(y.grad_fn()->name(), "SumBackward0");
  EXPECT_EQ(y.grad_fn()->next_edge(0).function->name(), "MulBackward0");
  y.backward();
  EXPECT_FLOAT_EQ(at_(x.grad(), 0), 2);
  EXPECT_FLOAT_EQ(at_(x.grad(), 2), 6);
}

TEST(AutogradEngine, DiamondRunsEachNodeOnceWithSummedGradient) {
  // root -> (a, b) -> shared -> leaf: shared must run once, with both gradients summed.
  int shared_calls = 0, a_calls = 0, b_calls = 0;
  auto x = leaf({1});
  auto shared = std::shared_ptr<Scale>(new Scale(1.0f, &shared_calls), deleteNode);
  shared->set_next_edges({impl::gradient_edge(x)});
  shared->add_input_metadata(x);
  auto a = std::make_shared<Scale>(2.0f, &a_calls);
  a->set_next_edges({Edge(shared, 0)});
  a->add_input_metadata(x);
  auto b = std::make_shared<Scale>(3.0f, &b_calls);
  b->set_next_edges({Edge(shared, 0)});
  b->add_input_metadata(x);
  auto g = at::ones({1}, at::kFloat);
  Engine::get_default_engine().execute({Edge(a, 0), Edge(b, 0)}, {g, g}, false, false, true);
  EXPECT_EQ(shared_calls, 1);
  EXPECT_EQ(a_calls, 1);
  EXPECT_EQ(b_calls, 1);
  EXPECT_FLOAT_EQ(at_(x.grad(), 0), 5);  // 2 + 3
}

TEST(AutogradEngine, ReusedTensorAccumulates) {
  auto x = leaf({2});
  auto y = x * x + x;  // dy/dx = 2x + 1 = 5
  y.sum().backward();
  EXPECT_FLOAT_EQ(at_(x.grad(), 0), 5);
  // A second backward through a new graph accumulates into .grad.
  (x * 3).sum().backward();
  EXPECT_FLOAT_EQ(at_(x.grad(), 0), 8);
}

TEST(AutogradEngine, GradDoesNotTouchDotGrad) {
  auto x = leaf({3});
  auto y = (x * x).sum();
  auto grads = torch::autograd::grad({y}, {x});
  EXPECT_FLOAT_EQ(at_(grads[0], 0), 6);
  EXPECT_FALSE(x.grad().defined());
}

TEST(AutogradEngine, CreateGraphGivesSecondDerivative) {
  auto x = leaf({3});
  auto y = (x * x * x).sum();
  auto g = torch::autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true)[0];  // 3x^2 = 27
  EXPECT_FLOAT_EQ(at_(g, 0), 27);
  EXPECT_TRUE(g.requires_grad());
  auto gg = torch::autograd::grad({g.sum()}, {x})[0];  // 6x = 18
  EXPECT_FLOAT_EQ(at_(gg, 0), 18);
}

TEST(AutogradEngine, RetainGraphAndBackwardTwice) {
  auto x = leaf({1, 2});
  auto y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();  // allowed: the first kept the saved tensors
  EXPECT_FLOAT_EQ(at_(x.grad(), 1), 8);
  auto msg = error_of([&] { y.backward(); });
  EXPECT_NE(msg.find("Trying to backward through the graph a second time"), std::string::npos) << msg;
}

TEST(AutogradEngine, VersionCounterCatchesInplaceChange) {
  // sigmoid saves its output; writing into it afterwards must make backward refuse.
  auto x = leaf({1, 2});
  auto w = x.sigmoid();
  auto s = w.sum();
  w.add_(1);
  auto msg = error_of([&] { s.backward(); });
  EXPECT_NE(msg.find("one of the variables needed for gradient computation has been modified by an inplace "
                     "operation: [torch.FloatTensor [2]], which is output 0 of Sigmoid, is at version 1; expected "
                     "version 0 instead."),
            std::string::npos)
      << msg;
  // mul by a scalar saves no tensor: the same in-place write is harmless there.
  auto x2 = leaf({1, 2});
  auto y2 = x2 * 2;
  auto s2 = (y2 * 3).sum();
  y2.add_(1);
  EXPECT_EQ(error_of([&] { s2.backward(); }), "");
  EXPECT_FLOAT_EQ(at_(x2.grad(), 0), 6);
}

TEST(AutogradEngine, HooksSeeAndReplaceGradients) {
  auto x = leaf({1, 2});
  auto y = x * 2;
  std::vector<float> seen;
  y.register_hook([&](const at::TensorBase& g) {
    seen.push_back(at_(at::Tensor(g), 0));
    return at::TensorBase(at::Tensor(g) * 10);
  });
  y.sum().backward();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FLOAT_EQ(seen[0], 1);
  EXPECT_FLOAT_EQ(at_(x.grad(), 0), 20);  // (1 * 10) * 2
}

TEST(AutogradEngine, InplaceOnLeafIsAnError) {
  auto x = leaf({1});
  auto msg = error_of([&] { x.add_(1); });
  EXPECT_NE(msg.find("a leaf Variable that requires grad is being used in an in-place operation."), std::string::npos);
}

TEST(AutogradEngine, InplaceThroughViewRebasesHistory) {
  auto x = leaf({1, 2, 3});
  auto base = x.clone();
  auto view = base.select(0, 1);
  view.mul_(5);  // base = [1, 10, 3]
  EXPECT_EQ(base.grad_fn()->name(), "torch::autograd::CopySlices");  // PyTorch's name for it
  base.sum().backward();
  EXPECT_FLOAT_EQ(at_(x.grad(), 0), 1);
  EXPECT_FLOAT_EQ(at_(x.grad(), 1), 5);
  EXPECT_FLOAT_EQ(at_(x.grad(), 2), 1);
}

TEST(AutogradEngine, BroadcastGradientIsSummedToInputShape) {
  auto x = leaf({1, 2});
  auto y = at::ones({3, 2}, at::kFloat);
  (x * y).sum().backward();
  ASSERT_EQ(x.grad().sizes(), x.sizes());
  EXPECT_FLOAT_EQ(at_(x.grad(), 0), 3);
}

TEST(AutogradEngine, SavedVariableOfOutputHasNoCycle) {
  std::weak_ptr<Node> weak_fn;
  {
    auto x = leaf({1});
    auto y = x.exp();  // ExpBackward0 saves y (its own output)
    weak_fn = y.grad_fn();
  }
  EXPECT_TRUE(weak_fn.expired());  // the node died with the tensors: no reference cycle
}

TEST(AutogradEngine, LongChainIsFreedWithoutRecursion) {
  auto x = leaf({1});
  at::Tensor y = x;
  for (int i = 0; i < 100000; ++i) {
    y = y + 1;
  }
  y = at::Tensor();  // 100000 nodes freed by deleteNode's loop, not by recursion
  SUCCEED();
}
