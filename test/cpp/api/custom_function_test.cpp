// test/cpp/api/custom_function_test.cpp - custom autograd Functions written in C++ (Function<T>).
// Mirrors the custom Function tests of PyTorch's test/cpp/api/autograd.cpp. Guide: docs/source/internals/cpp_extensions.rst.
#include <ATen/ATen.h>
#include <ATen/TensorOperators.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace torch::autograd;

namespace {

// Double precision: the finite differences below are then accurate to ~1e-8.
at::Tensor leaf(std::vector<double> values, bool requires_grad = true) {
  auto t = at::empty({static_cast<int64_t>(values.size())}, at::kDouble);
  for (size_t i = 0; i < values.size(); ++i) {
    t.data_ptr<double>()[i] = values[i];
  }
  t.set_requires_grad(requires_grad);
  return t;
}

double at_(const at::Tensor& t, int64_t i) {
  return t.contiguous().to(at::kDouble).data_ptr<double>()[i];
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// d f(x) / d x[i] by central differences, f evaluated without recording a graph.
std::vector<double> finite_difference(const std::function<at::Tensor(const at::Tensor&)>& f, const at::Tensor& x,
                                      double eps = 1e-6) {
  c10::NoGradGuard no_grad;
  std::vector<double> grad;
  for (int64_t i = 0; i < x.numel(); ++i) {
    auto plus = x.detach().clone();
    auto minus = x.detach().clone();
    plus.data_ptr<double>()[i] += eps;
    minus.data_ptr<double>()[i] -= eps;
    grad.push_back((at_(f(plus), 0) - at_(f(minus), 0)) / (2 * eps));
  }
  return grad;
}

// y = x * x, saving its input.
struct Square : public Function<Square> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor x) {
    ctx->save_for_backward({x});
    return x * x;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    auto x = ctx->get_saved_variables()[0];
    return {grad_outputs[0] * 2 * x};
  }
};

// z = x * y + y, saving both inputs.
struct MulAdd : public Function<MulAdd> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor x, at::Tensor y) {
    ctx->save_for_backward({x, y});
    return x * y + y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    auto saved = ctx->get_saved_variables();
    auto x = saved[0], y = saved[1];
    return {grad_outputs[0] * y, grad_outputs[0] * (x + 1)};
  }
};

// y = x * c with c a double: the non-tensor argument gets an undefined gradient.
struct MulConst : public Function<MulConst> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor x, double c) {
    ctx->saved_data["c"] = c;
    return x * c;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    auto c = ctx->saved_data["c"].toDouble();
    return {grad_outputs[0] * c, at::Tensor()};
  }
};

// y = x^3, backward written with differentiable operations: it can be differentiated again.
struct Cube : public Function<Cube> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor x) {
    ctx->save_for_backward({x});
    return x * x * x;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    auto x = ctx->get_saved_variables()[0];
    return {grad_outputs[0] * 3 * x * x};
  }
};

}  // namespace

TEST(CustomFunction, OneInputMatchesExactGradientAndFiniteDifference) {
  auto x = leaf({1, -2, 3});
  auto y = Square::apply(x);
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  EXPECT_NE(y.grad_fn()->name().find("CppNode<"), std::string::npos) << y.grad_fn()->name();
  EXPECT_NE(y.grad_fn()->name().find("Square>"), std::string::npos) << y.grad_fn()->name();
  EXPECT_DOUBLE_EQ(at_(y, 1), 4);
  y.sum().backward();
  auto fd = finite_difference([](const at::Tensor& t) { return Square::apply(t).sum(); }, x);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(at_(x.grad(), i), 2 * at_(x, i));  // d(x^2)/dx = 2x: 2, -4, 6
    EXPECT_NEAR(at_(x.grad(), i), fd[i], 1e-6);
  }
}

TEST(CustomFunction, TwoInputsMatchFiniteDifference) {
  auto x = leaf({1, 2});
  auto y = leaf({3, -4});
  auto z = MulAdd::apply(x, y);  // x*y + y = [6, -12]
  EXPECT_DOUBLE_EQ(at_(z, 0), 6);
  EXPECT_DOUBLE_EQ(at_(z, 1), -12);
  ASSERT_EQ(z.grad_fn()->num_outputs(), 2u);  // one next edge per tensor input
  (z * z).sum().backward();                   // d/dx = 2z*y, d/dy = 2z*(x+1)
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 36);     // 2*6*3
  EXPECT_DOUBLE_EQ(at_(y.grad(), 1), -72);    // 2*(-12)*3
  auto fd_x = finite_difference([&](const at::Tensor& t) { auto r = MulAdd::apply(t, y); return (r * r).sum(); }, x);
  auto fd_y = finite_difference([&](const at::Tensor& t) { auto r = MulAdd::apply(x, t); return (r * r).sum(); }, y);
  for (int64_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(at_(x.grad(), i), fd_x[i], 1e-5);
    EXPECT_NEAR(at_(y.grad(), i), fd_y[i], 1e-5);
  }
}

TEST(CustomFunction, NonTensorArgumentAndSavedData) {
  auto x = leaf({1, 2});
  auto y = MulConst::apply(x, 2.5);
  // One next edge (x); the double takes no edge but still counts among backward's results.
  ASSERT_EQ(y.grad_fn()->num_outputs(), 1u);
  EXPECT_DOUBLE_EQ(at_(y, 1), 5);
  y.sum().backward();
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 2.5);
  EXPECT_DOUBLE_EQ(at_(x.grad(), 1), 2.5);
}

TEST(CustomFunction, SavedDataHoldsIValues) {
  struct KeepAll : public Function<KeepAll> {
    static at::Tensor forward(AutogradContext* ctx, at::Tensor x, int64_t n, std::string tag) {
      ctx->saved_data["n"] = n;
      ctx->saved_data["tag"] = tag;
      ctx->saved_data["flag"] = true;
      ctx->saved_data["sizes"] = x.sizes();
      ctx->saved_data["t"] = x * 10;  // a tensor kept as an IValue (no version check)
      return x * static_cast<double>(n);
    }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
      const auto& d = ctx->saved_data;
      EXPECT_EQ(d.at("n").toInt(), 3);
      EXPECT_EQ(d.at("tag").toStringRef(), "scale");
      EXPECT_TRUE(d.at("flag").toBool());
      EXPECT_EQ(d.at("sizes").toIntVector(), std::vector<int64_t>{2});
      EXPECT_DOUBLE_EQ(at_(d.at("t").toTensor(), 1), 20);
      auto msg = error_of([&] { d.at("n").toDouble(); });
      EXPECT_NE(msg.find("Expected Double but got Int"), std::string::npos) << msg;
      return {grad_outputs[0] * d.at("n").toInt(), at::Tensor(), at::Tensor()};
    }
  };
  auto x = leaf({1, 2});
  KeepAll::apply(x, int64_t(3), std::string("scale")).sum().backward();
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 3);
}

TEST(CustomFunction, NeedsInputGrad) {
  static std::vector<bool> seen;
  struct Mul : public Function<Mul> {
    static at::Tensor forward(AutogradContext* ctx, at::Tensor x, double unused, at::Tensor y) {
      ctx->save_for_backward({x, y});
      return x * y;
    }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
      // Indices count tensor inputs only: 0 is x, 1 is y.
      seen = {ctx->needs_input_grad(0), ctx->needs_input_grad(1), ctx->needs_input_grad({{0, 2}})};
      auto saved = ctx->get_saved_variables();
      auto gx = ctx->needs_input_grad(0) ? grad_outputs[0] * saved[1] : at::Tensor();
      auto gy = ctx->needs_input_grad(1) ? grad_outputs[0] * saved[0] : at::Tensor();
      return {gx, at::Tensor(), gy};
    }
  };
  auto x = leaf({2, 3});
  auto y = leaf({5, 7}, /*requires_grad=*/false);
  Mul::apply(x, 1.0, y).sum().backward();
  EXPECT_EQ(seen, (std::vector<bool>{true, false, true}));
  EXPECT_DOUBLE_EQ(at_(x.grad(), 1), 7);
  EXPECT_FALSE(y.grad().defined());
}

TEST(CustomFunction, MarkNonDifferentiable) {
  static bool second_grad_was_zeros = false;
  // Returns (x * 2, x > 1 as a float mask): the mask gets no gradient.
  struct DoubleAndMask : public Function<DoubleAndMask> {
    static variable_list forward(AutogradContext* ctx, at::Tensor x) {
      auto mask = (x > 1).to(at::kDouble);
      ctx->mark_non_differentiable({mask});
      return {x * 2, mask};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
      // Materialized: the mask's gradient never comes, backward sees zeros of its shape.
      second_grad_was_zeros = grad_outputs[1].defined() && at_(grad_outputs[1].abs().sum(), 0) == 0;
      return {grad_outputs[0] * 2};
    }
  };
  auto x = leaf({0.5, 3});
  auto outs = DoubleAndMask::apply(x);
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_TRUE(outs[0].requires_grad());
  EXPECT_FALSE(outs[1].requires_grad());
  EXPECT_FALSE(outs[1].grad_fn());
  EXPECT_DOUBLE_EQ(at_(outs[1], 0), 0);
  EXPECT_DOUBLE_EQ(at_(outs[1], 1), 1);
  EXPECT_EQ(outs[0].output_nr(), 0);
  outs[0].sum().backward();
  EXPECT_TRUE(second_grad_was_zeros);
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 2);
}

TEST(CustomFunction, SetMaterializeGradsFalse) {
  static bool second_grad_defined = true;
  struct TwoOutputs : public Function<TwoOutputs> {
    static variable_list forward(AutogradContext* ctx, at::Tensor x) {
      ctx->set_materialize_grads(false);
      return {x * 2, x * 3};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
      second_grad_defined = grad_outputs[1].defined();
      return {grad_outputs[0] * 2};
    }
  };
  auto x = leaf({1});
  auto outs = TwoOutputs::apply(x);
  EXPECT_EQ(outs[1].output_nr(), 1);
  outs[0].sum().backward();  // only output 0 gets a gradient
  EXPECT_FALSE(second_grad_defined);
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 2);
}

TEST(CustomFunction, MarkDirtyRebasesHistoryAndBumpsVersion) {
  // ReLU in place: h * (h > 0), with the input itself returned.
  struct ReluInPlace : public Function<ReluInPlace> {
    static at::Tensor forward(AutogradContext* ctx, at::Tensor x) {
      auto mask = (x > 0).to(x.scalar_type());
      x.mul_(mask);
      ctx->mark_dirty({x});
      ctx->save_for_backward({mask});
      return x;
    }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
      return {grad_outputs[0] * ctx->get_saved_variables()[0]};
    }
  };
  auto x = leaf({-1, 2, -3, 4});
  auto h = x * 1;  // not a leaf: a leaf that requires grad cannot be written in place
  const auto version_before = h._version();
  auto out = ReluInPlace::apply(h);
  EXPECT_EQ(out.unsafeGetTensorImpl(), h.unsafeGetTensorImpl());  // the input itself, as PyTorch returns it
  EXPECT_EQ(h._version(), version_before + 2);                     // mul_, then mark_dirty
  EXPECT_NE(h.grad_fn()->name().find("ReluInPlace"), std::string::npos);
  EXPECT_DOUBLE_EQ(at_(h, 0), 0);
  (out * 3).sum().backward();
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 0);
  EXPECT_DOUBLE_EQ(at_(x.grad(), 1), 3);

  auto leaf_msg = error_of([&] { ReluInPlace::apply(leaf({1})); });
  EXPECT_NE(leaf_msg.find("a leaf Variable that requires grad has been used in an in-place operation."),
            std::string::npos)
      << leaf_msg;
}

TEST(CustomFunction, SavedTensorModifiedInPlaceIsAnError) {
  auto x = leaf({1, 2});
  auto h = x * 1;
  auto y = Square::apply(h);
  h.add_(1);  // Square saved h at version 0; h is now output 0 of the add_
  auto msg = error_of([&] { y.sum().backward(); });
  EXPECT_NE(msg.find("one of the variables needed for gradient computation has been modified by an inplace "
                     "operation: [torch.DoubleTensor [2]], which is output 0 of Add, is at version 1; expected "
                     "version 0 instead."),
            std::string::npos)
      << msg;
}

TEST(CustomFunction, WrongNumberOfGradientsIsAnError) {
  struct TooFew : public Function<TooFew> {
    static at::Tensor forward(AutogradContext* ctx, at::Tensor x, at::Tensor y) { return x + y; }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) { return {grad_outputs[0]}; }
  };
  auto x = leaf({1});
  auto y = leaf({2});
  auto z = TooFew::apply(x, y).sum();
  EXPECT_THROW(z.backward({}, /*retain_graph=*/true), std::runtime_error);
  auto msg = error_of([&] { z.backward(); });
  EXPECT_NE(msg.find("returned an incorrect number of gradients (expected 2, got 1)"), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind("function torch::autograd::CppNode<", 0), 0u) << msg;
}

TEST(CustomFunction, GradientForNonTensorInputIsAnError) {
  struct Bad : public Function<Bad> {
    static at::Tensor forward(AutogradContext* ctx, at::Tensor x, double c) { return x * c; }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
      return {grad_outputs[0], grad_outputs[0]};
    }
  };
  auto msg = error_of([&] { Bad::apply(leaf({1}), 2.0).sum().backward(); });
  EXPECT_NE(msg.find("returned a gradient different that is defined at position 2, but the corresponding forward "
                     "input was not a Variable"),
            std::string::npos)
      << msg;
}

TEST(CustomFunction, GradThroughCustomFunction) {
  auto x = leaf({2, -1});
  auto y = Cube::apply(x).sum();
  auto g = torch::autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true)[0];  // 3x^2
  EXPECT_DOUBLE_EQ(at_(g, 0), 12);
  EXPECT_DOUBLE_EQ(at_(g, 1), 3);
  EXPECT_FALSE(x.grad().defined());
  // backward's own operations were recorded: differentiate again, 6x.
  auto gg = torch::autograd::grad({g.sum()}, {x})[0];
  EXPECT_DOUBLE_EQ(at_(gg, 0), 12);
  EXPECT_DOUBLE_EQ(at_(gg, 1), -6);
}

TEST(CustomFunction, InsideALargerGraph) {
  // sum(Square(x * 2)) = sum(4x^2): gradient 8x, through MulBackward0 before the node.
  auto x = leaf({1, 2, 3});
  auto y = Square::apply(x * 2);
  EXPECT_EQ(y.grad_fn()->next_edge(0).function->name(), "MulBackward1");  // mul.Scalar
  auto loss = y.sum();
  EXPECT_EQ(loss.grad_fn()->next_edge(0).function, y.grad_fn());
  loss.backward();
  auto fd = finite_difference([](const at::Tensor& t) { return Square::apply(t * 2).sum(); }, x);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(at_(x.grad(), i), 8 * (i + 1));
    EXPECT_NEAR(at_(x.grad(), i), fd[i], 1e-5);
  }
}

TEST(CustomFunction, NoGraphWithoutGradOrInNoGradMode) {
  auto x = leaf({1, 2});
  {
    c10::NoGradGuard no_grad;
    auto y = Square::apply(x);
    EXPECT_FALSE(y.requires_grad());
    EXPECT_FALSE(y.grad_fn());
  }
  auto y = Square::apply(leaf({1, 2}, /*requires_grad=*/false));
  EXPECT_FALSE(y.requires_grad());
  EXPECT_DOUBLE_EQ(at_(y, 1), 4);
}

TEST(CustomFunction, InputReturnedAsIsGetsANewAlias) {
  struct Identity : public Function<Identity> {
    static at::Tensor forward(AutogradContext* ctx, at::Tensor x) { return x; }
    static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) { return grad_outputs; }
  };
  auto x = leaf({1, 2});
  auto y = Identity::apply(x);
  EXPECT_NE(y.unsafeGetTensorImpl(), x.unsafeGetTensorImpl());
  EXPECT_TRUE(x.is_leaf());  // the input keeps its own history
  EXPECT_NE(y.grad_fn()->name().find("Identity"), std::string::npos);
  (y * 5).sum().backward();
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 5);
}

TEST(CustomFunction, SavedTensorsAreFreedAfterBackward) {
  auto x = leaf({3});
  auto y = Square::apply(x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();  // the first kept the saved tensors
  EXPECT_DOUBLE_EQ(at_(x.grad(), 0), 12);
  auto msg = error_of([&] { y.backward(); });
  EXPECT_NE(msg.find("Trying to backward through the graph a second time"), std::string::npos) << msg;
}
