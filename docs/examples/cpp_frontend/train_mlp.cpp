// docs/examples/cpp_frontend/train_mlp.cpp - a C++ program that trains a small MLP on y = sin(x)
// with torch::nn and torch::optim, as PyTorch's C++ frontend tutorial does (no Python involved).
// Guide: docs/source/internals/cpp_extensions.rst.
//
//   train_mlp [adam|sgd] [steps]      prints "step N loss L" every 50 steps
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  const std::string optimizer_name = argc > 1 ? argv[1] : "adam";
  const int steps = argc > 2 ? std::atoi(argv[2]) : 500;
  if (optimizer_name != "adam" && optimizer_name != "sgd") {
    std::cerr << "usage: train_mlp [adam|sgd] [steps]\n";
    return 2;
  }
  // The same seed gives the same initial weights, hence the same losses, on every run.
  torch::manual_seed(0);

  // The data: 256 points of sin on [-pi, pi], as a (256, 1) batch of one-feature samples.
  const auto x = torch::linspace(-M_PI, M_PI, 256).unsqueeze(1);
  const auto y = torch::sin(x);

  // The model: children "0", "1", "2" of the Sequential; the ReLU is a plain function.
  torch::nn::Sequential model(torch::nn::Linear(1, 64), torch::nn::Functional(torch::relu),
                              torch::nn::Linear(64, 64), torch::nn::Functional(torch::relu),
                              torch::nn::Linear(64, 1));
  std::cout << model << "\n";
  for (const auto& parameter : model->named_parameters()) {
    std::cout << "  " << parameter.key() << " " << parameter.value().sizes() << "\n";
  }

  // Either optimizer updates the same parameters; zero_grad(), backward(), step() is the loop.
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (optimizer_name == "adam") {
    optimizer = std::make_unique<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(1e-2));
  } else {
    optimizer = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  }

  model->train();
  for (int step = 0; step <= steps; ++step) {
    optimizer->zero_grad();
    const auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer->step();
    if (step % 50 == 0) std::printf("step %d loss %.6f\n", step, loss.item().to<double>());
  }

  // Evaluation needs no graph: NoGradGuard is Python's `with torch.no_grad():`.
  model->eval();
  torch::NoGradGuard no_grad;
  const auto probe = torch::linspace(-2.0, 2.0, 5).unsqueeze(1);
  const auto predicted = model->forward(probe);
  for (int64_t i = 0; i < probe.size(0); ++i) {
    const double at = probe.select(0, i).item().to<double>();
    std::printf("sin(%+.2f) = %+.4f, model: %+.4f\n", at, std::sin(at), predicted.select(0, i).item().to<double>());
  }
  return 0;
}
