// test/cpp/api/frontend_test.cpp - the C++ frontend: torch::nn modules (names, modes, values)
// and torch::optim (SGD and Adam steps against their formulas). Mirrors parts of PyTorch's
// test/cpp/api/{module,modules,sequential,optim}.cpp. Guide: docs/source/internals/cpp_extensions.rst.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

double value(const torch::Tensor& t) { return t.item().to<double>(); }

// t[i] as a double (this tree's Tensor has no operator[]; select() is what it would call).
double elem(const torch::Tensor& t, int64_t i) { return value(t.select(0, i)); }

double max_abs_diff(const torch::Tensor& a, const torch::Tensor& b) { return value((a - b).abs().max()); }

// A leaf of doubles with the given values, requiring grad: exact arithmetic to compare against.
torch::Tensor leaf(const std::vector<double>& values) {
  auto t = torch::empty({static_cast<int64_t>(values.size())}, torch::dtype(torch::kFloat64));
  for (size_t i = 0; i < values.size(); ++i) t.data_ptr<double>()[i] = values[i];
  t.set_requires_grad(true);
  return t;
}

std::vector<std::string> keys_of(const torch::OrderedDict<std::string, torch::Tensor>& dict) { return dict.keys(); }

// A user-defined module, as in PyTorch's C++ tutorial: submodules registered by name.
struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(4, 8));
    fc2 = register_module("fc2", torch::nn::Linear(8, 2));
    scale = register_parameter("scale", torch::ones({2}));
    register_buffer("steps", torch::zeros({1}));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))) * scale; }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(Net);

}  // namespace

// ---- Module ----

TEST(FrontendModuleTest, RegisteredNamesAreDottedAsInPyTorch) {
  Net net;
  EXPECT_EQ(keys_of(net->named_parameters()),
            (std::vector<std::string>{"scale", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}));
  EXPECT_EQ(keys_of(net->named_parameters(/*recurse=*/false)), (std::vector<std::string>{"scale"}));
  EXPECT_EQ(net->parameters().size(), 5u);
  EXPECT_EQ(keys_of(net->named_buffers()), (std::vector<std::string>{"steps"}));
  EXPECT_EQ(net->named_children().keys(), (std::vector<std::string>{"fc1", "fc2"}));
  // The holder returned by register_module is the registered child, not a copy.
  EXPECT_TRUE(net->named_parameters()["fc1.weight"].is_same(net->fc1->weight));
  EXPECT_EQ(net->children()[0].get(), net->fc1.get());
  for (const auto& p : net->parameters()) EXPECT_TRUE(p.requires_grad());
  EXPECT_FALSE(net->named_buffers()["steps"].requires_grad());
  EXPECT_EQ(net->named_modules().keys(), (std::vector<std::string>{"", "fc1", "fc2"}));
  EXPECT_EQ(net->forward(torch::randn({3, 4})).sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(net(torch::randn({3, 4})).sizes(), (std::vector<int64_t>{3, 2}));
}

TEST(FrontendModuleTest, RegistrationErrors) {
  struct M : torch::nn::Module {
    void add(const std::string& name) { register_parameter(name, torch::zeros({1})); }
    void add_module(const std::string& name) { register_module(name, torch::nn::Linear(1, 1)); }
  } m;
  m.add("w");
  EXPECT_NE(error_of([&] { m.add("w"); }).find("Parameter 'w' already defined"), std::string::npos);
  EXPECT_NE(error_of([&] { m.add("a.b"); }).find("Parameter name must not contain a dot (got 'a.b')"),
            std::string::npos);
  EXPECT_NE(error_of([&] { m.add(""); }).find("Parameter name must not be empty"), std::string::npos);
  EXPECT_NE(error_of([&] { m.add_module("x.y"); }).find("Submodule name must not contain a dot"), std::string::npos);
  // modules() hands out shared_ptrs to the module itself: not possible on the stack.
  EXPECT_NE(error_of([&] { m.modules(); }).find("not stored in a shared_ptr"), std::string::npos);
}

TEST(FrontendModuleTest, TrainAndEvalReachEverySubmodule) {
  Net net;
  EXPECT_TRUE(net->is_training());
  net->eval();
  EXPECT_FALSE(net->is_training());
  EXPECT_FALSE(net->fc1->is_training());
  EXPECT_FALSE(net->fc2->is_training());
  net->train();
  EXPECT_TRUE(net->fc2->is_training());
}

TEST(FrontendModuleTest, ToKeepsTheParametersIdentity) {
  Net net;
  auto weight = net->fc1->weight;  // the handle an optimizer would hold
  net->to(torch::kFloat64);
  EXPECT_EQ(weight.scalar_type(), torch::kFloat64);
  EXPECT_TRUE(weight.is_same(net->fc1->weight));
  EXPECT_TRUE(weight.requires_grad());
  EXPECT_EQ(net->named_buffers()["steps"].scalar_type(), torch::kFloat64);
  net->to(torch::Device(torch::kCPU));
  EXPECT_EQ(net->fc2->bias.device().type(), torch::kCPU);
  EXPECT_EQ(net->forward(torch::randn({3, 4}, torch::dtype(torch::kFloat64))).scalar_type(), torch::kFloat64);
}

TEST(FrontendModuleTest, ZeroGradDropsOrZeroesGradients) {
  torch::nn::Linear fc(3, 2);
  fc(torch::randn({4, 3})).sum().backward();
  ASSERT_TRUE(fc->weight.grad().defined());
  fc->zero_grad(/*set_to_none=*/false);
  EXPECT_EQ(value(fc->weight.grad().abs().sum()), 0.0);
  fc->zero_grad();
  EXPECT_FALSE(fc->weight.grad().defined());
  EXPECT_FALSE(fc->bias.grad().defined());
}

TEST(FrontendModuleTest, PrintsLikePyTorch) {
  torch::nn::Sequential seq(torch::nn::Linear(4, 3), torch::nn::Functional(torch::relu),
                            torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3).padding(1)));
  std::ostringstream out;
  out << seq;
  EXPECT_EQ(out.str(),
            "torch::nn::Sequential(\n"
            "  (0): torch::nn::Linear(in_features=4, out_features=3, bias=true)\n"
            "  (1): torch::nn::Functional()\n"
            "  (2): torch::nn::Conv2d(1, 8, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1])\n"
            ")");
  Net net;
  EXPECT_NE(net->name().find("NetImpl"), std::string::npos);
}

TEST(FrontendModuleTest, EmptyHolder) {
  torch::nn::Linear fc{nullptr};
  EXPECT_TRUE(fc.is_empty());
  EXPECT_FALSE(static_cast<bool>(fc));
  EXPECT_NE(error_of([&] { fc->reset(); }).find("Accessing empty ModuleHolder"), std::string::npos);
  fc = torch::nn::Linear(2, 2);
  EXPECT_TRUE(static_cast<bool>(fc));
}

// ---- Linear ----

TEST(FrontendLinearTest, ShapeValueAndInit) {
  torch::manual_seed(0);
  torch::nn::Linear fc(torch::nn::LinearOptions(4, 3));
  EXPECT_EQ(fc->weight.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(fc->bias.sizes(), (std::vector<int64_t>{3}));
  // PyTorch's default init keeps everything within 1/sqrt(in_features).
  EXPECT_LE(value(fc->weight.abs().max()), 0.5);
  EXPECT_LE(value(fc->bias.abs().max()), 0.5);
  EXPECT_GT(value(fc->weight.abs().max()), 0.0);

  auto x = torch::randn({5, 4});
  auto y = fc(x);
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{5, 3}));
  EXPECT_LT(max_abs_diff(y, x.matmul(fc->weight.t()) + fc->bias), 1e-6);
  EXPECT_TRUE(y.requires_grad());
  // Leading batch dimensions pass through, as in PyTorch.
  EXPECT_EQ(fc(torch::randn({2, 5, 4})).sizes(), (std::vector<int64_t>{2, 5, 3}));
}

TEST(FrontendLinearTest, NoBias) {
  torch::nn::Linear fc(torch::nn::LinearOptions(4, 3).bias(false));
  EXPECT_FALSE(fc->bias.defined());
  EXPECT_EQ(keys_of(fc->named_parameters()), (std::vector<std::string>{"weight"}));
  auto x = torch::randn({2, 4});
  EXPECT_LT(max_abs_diff(fc(x), x.matmul(fc->weight.t())), 1e-6);
}

TEST(FrontendLinearTest, GradientsReachTheParameters) {
  torch::nn::Linear fc(3, 1);
  auto x = torch::randn({4, 3});
  fc(x).sum().backward();
  // d sum(x W^T + b) / dW = the column sums of x (as a row: ones(1, 4) x); / db = batch size.
  EXPECT_LT(max_abs_diff(fc->weight.grad(), torch::ones({1, 4}).matmul(x)), 1e-5);
  EXPECT_NEAR(elem(fc->bias.grad(), 0), 4.0, 1e-6);
}

// ---- Conv2d ----

TEST(FrontendConv2dTest, ShapesFromTheOptions) {
  torch::nn::Conv2d same(torch::nn::Conv2dOptions(1, 8, 3).stride(1).padding(1));
  EXPECT_EQ(same->weight.sizes(), (std::vector<int64_t>{8, 1, 3, 3}));
  EXPECT_EQ(same(torch::randn({2, 1, 5, 5})).sizes(), (std::vector<int64_t>{2, 8, 5, 5}));
  torch::nn::Conv2d strided(torch::nn::Conv2dOptions(2, 4, {3, 2}).stride(2).bias(false));
  EXPECT_EQ(strided->weight.sizes(), (std::vector<int64_t>{4, 2, 3, 2}));
  EXPECT_FALSE(strided->bias.defined());
  EXPECT_EQ(strided(torch::randn({1, 2, 7, 7})).sizes(), (std::vector<int64_t>{1, 4, 3, 3}));
  torch::nn::Conv2d plain(3, 6, 5);
  EXPECT_EQ(plain(torch::randn({1, 3, 8, 8})).sizes(), (std::vector<int64_t>{1, 6, 4, 4}));
  EXPECT_NE(error_of([] { torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 4, 3).groups(2)); })
                .find("in_channels must be divisible by groups"),
            std::string::npos);
  EXPECT_NE(error_of([] { torch::nn::Conv2dOptions(1, 1, {3, 3, 3}); }).find("Expected 2 values, but instead got 3"),
            std::string::npos);
}

TEST(FrontendConv2dTest, OneValueByHand) {
  torch::manual_seed(1);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(2, 3, 3).stride(2).padding(1));
  auto x = torch::randn({1, 2, 6, 6});
  auto y = conv(x).contiguous();
  ASSERT_EQ(y.sizes(), (std::vector<int64_t>{1, 3, 3, 3}));
  // Output (c=2, i=1, j=2) reads input rows 1..3 and columns 3..5 (stride 2, one row and
  // column of zero padding): y = b[c] + sum over channels and the 3x3 window of x * w.
  auto xa = x.accessor<float, 4>();
  auto w = conv->weight.detach().contiguous();
  auto wa = w.accessor<float, 4>();
  const int64_t c = 2, i = 1, j = 2;
  double expected = elem(conv->bias, c);
  for (int64_t ci = 0; ci < 2; ++ci) {
    for (int64_t kh = 0; kh < 3; ++kh) {
      for (int64_t kw = 0; kw < 3; ++kw) {
        const int64_t row = i * 2 + kh - 1, col = j * 2 + kw - 1;
        if (row < 0 || row >= 6 || col < 0 || col >= 6) continue;
        expected += static_cast<double>(xa[0][ci][row][col]) * wa[c][ci][kh][kw];
      }
    }
  }
  EXPECT_NEAR((y.accessor<float, 4>()[0][c][i][j]), expected, 1e-5);
  // And a corner, where the padding takes part: (c=0, i=0, j=0) reads rows and columns 0..1.
  expected = elem(conv->bias, 0);
  for (int64_t ci = 0; ci < 2; ++ci) {
    for (int64_t kh = 1; kh < 3; ++kh) {
      for (int64_t kw = 1; kw < 3; ++kw) expected += static_cast<double>(xa[0][ci][kh - 1][kw - 1]) * wa[0][ci][kh][kw];
    }
  }
  EXPECT_NEAR((y.accessor<float, 4>()[0][0][0][0]), expected, 1e-5);
}

// ---- Sequential and Functional ----

TEST(FrontendSequentialTest, ForwardChainsTheModules) {
  torch::nn::Linear a(3, 4), b(4, 2);
  torch::nn::Sequential seq(a, torch::nn::Functional(torch::relu), b);
  EXPECT_EQ(seq->size(), 3u);
  EXPECT_EQ(keys_of(seq->named_parameters()), (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  auto x = torch::randn({5, 3});
  EXPECT_LT(max_abs_diff(seq->forward(x), b(torch::relu(a(x)))), 1e-6);
  EXPECT_LT(max_abs_diff(seq(x), b(torch::relu(a(x)))), 1e-6);
  // The Sequential shares its modules with the holders it was given.
  EXPECT_EQ(seq[0].get(), a.get());
  EXPECT_EQ(seq->ptr<torch::nn::LinearImpl>(2).get(), b.get());
  EXPECT_EQ(&seq->at<torch::nn::LinearImpl>(0), a.get());
  EXPECT_EQ(seq->ptr<torch::nn::LinearImpl>(1), nullptr);
  EXPECT_NE(error_of([] { torch::nn::Sequential()->forward(torch::ones({1})); }).find("empty Sequential"),
            std::string::npos);
}

TEST(FrontendSequentialTest, NamedAndPushBack) {
  torch::nn::Sequential seq({{"fc1", torch::nn::Linear(2, 3)}, {"act", torch::nn::Functional(torch::relu)}});
  seq->push_back("fc2", torch::nn::Linear(3, 1));
  seq->push_back(torch::nn::Functional(torch::sigmoid));
  EXPECT_EQ(keys_of(seq->named_parameters()),
            (std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}));
  EXPECT_EQ(seq->named_children().keys(), (std::vector<std::string>{"fc1", "act", "fc2", "3"}));
  auto y = seq(torch::randn({4, 2}));
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{4, 1}));
  EXPECT_GT(value(y.min()), 0.0);  // through the final sigmoid
  EXPECT_LT(value(y.max()), 1.0);
}

TEST(FrontendSequentialTest, FunctionalBindsExtraArguments) {
  auto leaky = [](torch::Tensor x, double slope) { return torch::where(x > 0, x, x * slope); };
  torch::nn::Functional f(leaky, 0.5);
  auto y = f(leaf({-2.0, 3.0}));
  EXPECT_DOUBLE_EQ(elem(y, 0), -1.0);
  EXPECT_DOUBLE_EQ(elem(y, 1), 3.0);
  EXPECT_TRUE(f->parameters().empty());
}

TEST(FrontendModuleTest, NoGradGuardStopsRecording) {
  torch::nn::Linear fc(2, 2);
  auto x = torch::randn({1, 2});
  {
    torch::NoGradGuard no_grad;
    auto y = fc(x);
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.grad_fn(), nullptr);
  }
  EXPECT_TRUE(fc(x).requires_grad());
}

// ---- Optimizers ----

TEST(FrontendOptimTest, SGDOneStepIsPMinusLrGrad) {
  auto p = leaf({1.0, -2.0, 0.5});
  const auto p0 = p.detach().clone();
  torch::optim::SGD sgd({p}, torch::optim::SGDOptions(0.1));
  (p * p).sum().backward();  // grad = 2p
  const auto grad = p.grad().clone();
  sgd.step();
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(elem(p, i), elem(p0, i) - 0.1 * elem(grad, i));
  }
  EXPECT_TRUE(p.requires_grad());
  EXPECT_TRUE(p.is_leaf());
}

TEST(FrontendOptimTest, SGDMomentumAfterTwoSteps) {
  const double lr = 0.1, momentum = 0.9, weight_decay = 0.01;
  auto p = leaf({1.0, -2.0});
  torch::optim::SGD sgd({p}, torch::optim::SGDOptions(lr).momentum(momentum).weight_decay(weight_decay));
  // The same two steps by hand, loss = sum(p^3) so the gradient 3p^2 changes between steps.
  std::vector<double> q = {1.0, -2.0}, v = {0.0, 0.0};
  for (int step = 0; step < 2; ++step) {
    sgd.zero_grad();
    (p * p * p).sum().backward();
    sgd.step();
    for (size_t i = 0; i < 2; ++i) {
      const double g = 3 * q[i] * q[i] + weight_decay * q[i];
      v[i] = step == 0 ? g : momentum * v[i] + g;
      q[i] -= lr * v[i];
    }
  }
  EXPECT_NEAR(elem(p, 0), q[0], 1e-12);
  EXPECT_NEAR(elem(p, 1), q[1], 1e-12);
  EXPECT_EQ(sgd.state().size(), 1u);
}

TEST(FrontendOptimTest, AdamOneStepClosedForm) {
  const double lr = 0.01, beta1 = 0.8, beta2 = 0.99, eps = 1e-6;
  auto p = leaf({1.0, -2.0, 0.003});
  const auto p0 = p.detach().clone();
  torch::optim::Adam adam({p}, torch::optim::AdamOptions(lr).betas({beta1, beta2}).eps(eps));
  (p * p).sum().backward();
  adam.step();
  // Step 1: m = (1-b1) g, v = (1-b2) g^2; after bias correction m/(1-b1) = g and
  // sqrt(v/(1-b2)) = |g|, so p1 = p0 - lr * g / (|g| + eps): a step of about lr whatever g's size.
  for (int64_t i = 0; i < 3; ++i) {
    const double g = 2 * elem(p0, i);
    EXPECT_NEAR(elem(p, i), elem(p0, i) - lr * g / (std::abs(g) + eps), 1e-12);
  }
  // Step 2 against the general formula.
  std::vector<double> q(3), m(3), v(3);
  for (int64_t i = 0; i < 3; ++i) {
    const double g = 2 * elem(p0, i);
    m[i] = (1 - beta1) * g;
    v[i] = (1 - beta2) * g * g;
    q[i] = elem(p, i);
  }
  adam.zero_grad();
  (p * p).sum().backward();
  adam.step();
  for (int64_t i = 0; i < 3; ++i) {
    const double g = 2 * q[i];
    m[i] = beta1 * m[i] + (1 - beta1) * g;
    v[i] = beta2 * v[i] + (1 - beta2) * g * g;
    const double denom = std::sqrt(v[i]) / std::sqrt(1 - beta2 * beta2) + eps;
    EXPECT_NEAR(elem(p, i), q[i] - lr / (1 - beta1 * beta1) * m[i] / denom, 1e-12);
  }
  auto& state = static_cast<torch::optim::AdamParamState&>(*adam.state().at(p.unsafeGetTensorImpl()));
  EXPECT_EQ(state.step(), 2);
}

TEST(FrontendOptimTest, ZeroGradAndOptions) {
  torch::nn::Linear fc(2, 1);
  torch::optim::SGD sgd(fc->parameters(), torch::optim::SGDOptions(0.5));
  EXPECT_EQ(sgd.size(), 2u);
  fc(torch::ones({1, 2})).sum().backward();
  ASSERT_TRUE(fc->weight.grad().defined());
  sgd.zero_grad(/*set_to_none=*/false);
  EXPECT_EQ(value(fc->weight.grad().abs().sum()), 0.0);
  sgd.zero_grad();
  EXPECT_FALSE(fc->weight.grad().defined());
  // A step with no gradients leaves the parameters alone.
  const auto before = fc->weight.detach().clone();
  sgd.step();
  EXPECT_EQ(max_abs_diff(fc->weight, before), 0.0);
  // Each group holds its own options; lr is reachable through the base class.
  EXPECT_DOUBLE_EQ(sgd.param_groups()[0].options().get_lr(), 0.5);
  sgd.param_groups()[0].options().set_lr(0.25);
  EXPECT_DOUBLE_EQ(static_cast<torch::optim::SGDOptions&>(sgd.param_groups()[0].options()).lr(), 0.25);
  EXPECT_DOUBLE_EQ(static_cast<torch::optim::SGDOptions&>(sgd.defaults()).lr(), 0.5);
  EXPECT_NE(error_of([&] { torch::optim::SGD({fc->weight * 2}, 0.1); }).find("can't optimize a non-leaf Tensor"),
            std::string::npos);
  EXPECT_NE(error_of([&] { torch::optim::SGD(fc->parameters(), torch::optim::SGDOptions(0.1).nesterov(true)); })
                .find("Nesterov momentum requires a momentum and zero dampening"),
            std::string::npos);
}

TEST(FrontendOptimTest, AnMLPLearns) {
  torch::manual_seed(0);
  auto x = torch::linspace(-2, 2, 64).unsqueeze(1);
  auto y = x * x;
  torch::nn::Sequential model(torch::nn::Linear(1, 16), torch::nn::Functional(torch::relu), torch::nn::Linear(16, 1));
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(0.05));
  double first = 0, last = 0;
  for (int step = 0; step < 200; ++step) {
    adam.zero_grad();
    auto loss = torch::mse_loss(model(x), y);
    loss.backward();
    adam.step();
    (step == 0 ? first : last) = value(loss);
  }
  EXPECT_LT(last, first / 10);
}
