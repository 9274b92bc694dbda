// aten/src/ATen/test/reduce_test.cpp - reductions through TensorIterator::reduce_op against
// hand-computed values: result dtypes, keepdim shapes, non-contiguous inputs, NaN, errors.
// Mirrors PyTorch's aten/src/ATen/test/reduce_ops_test.cpp (and test/test_reductions.py cases).
// Guide: docs/source/internals/tensor_iterator.rst ("Reductions").
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

using at::Tensor;

// 0, 1, ..., n-1 as float, shaped.
Tensor iota(std::vector<int64_t> shape, at::ScalarType dtype = at::kFloat) {
  int64_t n = 1;
  for (auto s : shape) n *= s;
  Tensor t = at::empty({n}, at::kDouble);
  for (int64_t i = 0; i < n; i++) t.data_ptr<double>()[i] = static_cast<double>(i);
  return t.view(shape).to(dtype);
}

std::vector<double> V(const Tensor& t) {
  Tensor c = t.to(at::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

TEST(ReduceTest, SumOverAllAndOneDim) {
  Tensor a = iota({2, 3});  // [[0,1,2],[3,4,5]]
  EXPECT_EQ(V(at::sum(a)), std::vector<double>({15}));
  EXPECT_EQ(V(at::sum(a, at::IntArrayRef{0})), std::vector<double>({3, 5, 7}));
  EXPECT_EQ(V(at::sum(a, at::IntArrayRef{1})), std::vector<double>({3, 12}));
  EXPECT_EQ(V(at::sum(a, at::IntArrayRef{-1})), std::vector<double>({3, 12}));
  EXPECT_EQ(at::sum(a, at::IntArrayRef{1}, true).sizes(), at::IntArrayRef({2, 1}));
  EXPECT_EQ(at::sum(a, at::IntArrayRef{0, 1}).dim(), 0);
}

TEST(ReduceTest, SumOfIntsAndBoolsIsInt64) {
  EXPECT_EQ(at::sum(iota({4}, at::kInt)).scalar_type(), at::kLong);
  EXPECT_EQ(at::sum(iota({4}, at::kBool)).scalar_type(), at::kLong);
  EXPECT_EQ(V(at::sum(iota({4}, at::kBool))), std::vector<double>({3}));
  EXPECT_EQ(at::sum(iota({4}), at::kDouble).scalar_type(), at::kDouble);
}

TEST(ReduceTest, SumOfTransposedInput) {
  Tensor a = iota({2, 3}).t();  // [[0,3],[1,4],[2,5]]
  EXPECT_EQ(V(at::sum(a, at::IntArrayRef{0})), std::vector<double>({3, 12}));
  EXPECT_EQ(V(at::sum(a, at::IntArrayRef{1})), std::vector<double>({3, 5, 7}));
}

TEST(ReduceTest, SumOfEmptyIsZero) {
  EXPECT_EQ(V(at::sum(at::empty({0}))), std::vector<double>({0}));
  EXPECT_EQ(V(at::sum(at::empty({2, 0}), at::IntArrayRef{1})), std::vector<double>({0, 0}));
}

TEST(ReduceTest, LargeSumIsAccurate) {
  // 1e6 ones in float32: a running float sum would still be exact; 0.1s would not be.
  Tensor a = at::empty({1000000}, at::kFloat).fill_(0.1);
  EXPECT_NEAR(V(at::sum(a))[0], 100000.0, 0.05);
}

TEST(ReduceTest, MeanDividesAndRejectsInts) {
  EXPECT_EQ(V(at::mean(iota({2, 3}), at::IntArrayRef{1})), std::vector<double>({1, 4}));
  try {
    at::mean(iota({3}, at::kLong));
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("mean(): could not infer output dtype. Input dtype must be either a floating "
                                         "point or complex dtype. Got: Long"),
              std::string::npos);
  }
}

TEST(ReduceTest, ProdAndCumulative) {
  Tensor a = iota({4}).add(at::Scalar(1));  // 1 2 3 4
  EXPECT_EQ(V(at::prod(a)), std::vector<double>({24}));
  EXPECT_EQ(V(at::cumsum(a, 0)), std::vector<double>({1, 3, 6, 10}));
  EXPECT_EQ(V(at::cumprod(a, 0)), std::vector<double>({1, 2, 6, 24}));
  EXPECT_EQ(at::cumsum(iota({3}, at::kInt), 0).scalar_type(), at::kLong);
}

TEST(ReduceTest, MaxMinWithIndicesAndNaN) {
  Tensor a = iota({2, 3});
  auto [v, i] = at::max(a, 1);
  EXPECT_EQ(V(v), std::vector<double>({2, 5}));
  EXPECT_EQ(V(i), std::vector<double>({2, 2}));
  EXPECT_EQ(i.scalar_type(), at::kLong);
  auto [v2, i2] = at::min(a, 0, true);
  EXPECT_EQ(v2.sizes(), at::IntArrayRef({1, 3}));
  EXPECT_EQ(V(i2), std::vector<double>({0, 0, 0}));
  Tensor n = iota({3});
  n.data_ptr<float>()[1] = NAN;
  EXPECT_TRUE(std::isnan(V(at::max(n))[0]));
  EXPECT_TRUE(std::isnan(V(at::amin(n))[0]));
  EXPECT_EQ(V(at::argmax(n))[0], 1);
}

TEST(ReduceTest, ArgmaxReturnsFirstOccurrence) {
  Tensor a = at::empty({5}, at::kFloat).fill_(1);
  EXPECT_EQ(V(at::argmax(a))[0], 0);
  EXPECT_EQ(V(at::argmax(iota({2, 3}), 0)), std::vector<double>({1, 1, 1}));
}

TEST(ReduceTest, VarStdWelford) {
  Tensor a = iota({4});  // 0 1 2 3: mean 1.5, sum sq dev 5
  EXPECT_NEAR(V(at::var(a, true))[0], 5.0 / 3, 1e-6);
  EXPECT_NEAR(V(at::var(a, false))[0], 5.0 / 4, 1e-6);
  EXPECT_NEAR(V(at::std(a, true))[0], std::sqrt(5.0 / 3), 1e-6);
  auto [var, mean] = at::var_mean(a, true);
  EXPECT_NEAR(V(mean)[0], 1.5, 1e-6);
}

TEST(ReduceTest, AllAnyNorm) {
  Tensor a = iota({3});
  EXPECT_EQ(V(at::all(a, int64_t{0}))[0], 0);
  EXPECT_EQ(V(at::any(a, int64_t{0}))[0], 1);
  EXPECT_EQ(at::all(a, int64_t{0}).scalar_type(), at::kBool);
  EXPECT_NEAR(V(at::norm(a))[0], std::sqrt(5.0), 1e-6);
  EXPECT_NEAR(V(at::linalg_vector_norm(a, 1, std::nullopt, false, std::nullopt))[0], 3, 1e-6);
}

TEST(ReduceTest, SoftmaxIsStable) {
  Tensor a = iota({3}).mul(at::Scalar(1000));  // exp(2000) would overflow
  auto s = V(at::softmax(a, 0));
  EXPECT_NEAR(s[2], 1.0, 1e-6);
  EXPECT_NEAR(V(at::log_softmax(a, 0))[2], 0.0, 1e-6);
}

TEST(ReduceTest, SortTopkUnique) {
  Tensor a = iota({4});
  a.data_ptr<float>()[0] = 5;  // 5 1 2 3
  auto [v, i] = at::sort(a);
  EXPECT_EQ(V(v), std::vector<double>({1, 2, 3, 5}));
  EXPECT_EQ(V(i), std::vector<double>({1, 2, 3, 0}));
  auto [tv, ti] = at::topk(a, 2);
  EXPECT_EQ(V(tv), std::vector<double>({5, 3}));
  auto [u, inv, cnt] = at::_unique2(a.floor_divide(at::Scalar(2)), true, true, true);  // 2 0 1 1
  EXPECT_EQ(V(u), std::vector<double>({0, 1, 2}));
  EXPECT_EQ(V(inv), std::vector<double>({2, 0, 1, 1}));
  EXPECT_EQ(V(cnt), std::vector<double>({1, 2, 1}));
}

TEST(ReduceTest, Errors) {
  EXPECT_THROW(at::max(at::empty({0})), c10::Error);
  EXPECT_THROW(at::max(at::empty({2, 0}), 1), c10::IndexError);
  EXPECT_THROW(at::sum(iota({2, 3}), at::IntArrayRef{0, 0}), c10::Error);
  EXPECT_THROW(at::topk(iota({3}), 4), c10::Error);
}

}  // namespace
