// Tests mm, bmm, addmm, mv, dot, matmul, tensordot and einsum from C++: values against a naive
// triple loop for every dtype, transposed and sliced operands (read in place), PyTorch's
// error texts, and cpublas::gemm's BLAS-readable layouts.
// Mirrors PyTorch's aten/src/ATen/test/basic.cpp (matmul cases) and test/test_linalg.py.
// Guide: docs/source/internals/one_call.rst.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/native/CPUBlas.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

using at::Tensor;

// A (rows x cols) tensor of small integers (exact in every dtype), row-major.
Tensor ints(int64_t rows, int64_t cols, at::ScalarType dtype, int64_t seed = 0) {
  Tensor t = at::empty({rows, cols}, at::kDouble);
  double* p = t.mutable_data_ptr<double>();
  const double shift = dtype == at::kByte ? 0 : 2;  // uint8 has no negatives
  for (int64_t i = 0; i < rows * cols; i++) p[i] = static_cast<double>((i * 7 + seed * 3) % 5) - shift;
  return t.to(dtype);
}

// The reference product in double, element by element.
std::vector<double> naive_mm(const Tensor& a, const Tensor& b) {
  Tensor ad = a.to(at::kDouble), bd = b.to(at::kDouble);
  std::vector<double> out(a.size(0) * b.size(1), 0.0);
  for (int64_t i = 0; i < a.size(0); i++)
    for (int64_t j = 0; j < b.size(1); j++)
      for (int64_t p = 0; p < a.size(1); p++)
        out[i * b.size(1) + j] += ad.select(0, i).select(0, p).item().toDouble() *
                                  bd.select(0, p).select(0, j).item().toDouble();
  return out;
}

void expect_values(const Tensor& t, const std::vector<double>& expected) {
  Tensor c = t.to(at::kDouble).contiguous();
  ASSERT_EQ(c.numel(), static_cast<int64_t>(expected.size()));
  const double* p = c.const_data_ptr<double>();
  for (size_t i = 0; i < expected.size(); i++) EXPECT_DOUBLE_EQ(p[i], expected[i]) << "at " << i;
}

double max_abs_diff(const Tensor& a, const Tensor& b) {
  Tensor x = a.to(at::kDouble).contiguous(), y = b.to(at::kDouble).contiguous();
  double m = 0;
  for (int64_t i = 0; i < x.numel(); i++) {
    m = std::max(m, std::abs(x.const_data_ptr<double>()[i] - y.const_data_ptr<double>()[i]));
  }
  return m;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    std::string what = e.what();
    return what.substr(0, what.find('\n'));
  }
  return "<no error>";
}

class MmDtypes : public ::testing::TestWithParam<at::ScalarType> {};

TEST_P(MmDtypes, MmMatchesNaiveProductForEveryLayout) {
  const auto dtype = GetParam();
  Tensor a = ints(5, 7, dtype, 1), b = ints(7, 3, dtype, 2);
  expect_values(at::mm(a, b), naive_mm(a, b));
  // transposed operands: a^T stored as (7 x 5), read with the transpose flag
  Tensor at_ = ints(7, 5, dtype, 1).t(), bt = ints(3, 7, dtype, 2).t();
  expect_values(at::mm(at_, bt), naive_mm(at_, bt));
  // every other column: not readable by BLAS in place
  Tensor wide = ints(5, 14, dtype, 3);
  Tensor sliced = wide.slice(1, 0, 14, 2);
  expect_values(at::mm(sliced, b), naive_mm(sliced, b));
}

INSTANTIATE_TEST_SUITE_P(AllGemmDtypes, MmDtypes,
                         ::testing::Values(at::kFloat, at::kDouble, at::kInt, at::kLong, at::kShort, at::kChar,
                                           at::kByte, at::kHalf, at::kBFloat16));

TEST(Linalg, LargeFloatMmMatchesDouble) {
  // big enough for the blocked loop's tiles and for BLAS threads
  Tensor a = at::rand({130, 300}, at::kDouble), b = at::rand({300, 70}, at::kDouble);
  Tensor ref = at::mm(a, b);
  Tensor f = at::mm(a.to(at::kFloat), b.to(at::kFloat)).to(at::kDouble);
  EXPECT_LT(max_abs_diff(f, ref), 1e-3);
}

TEST(Linalg, AddmmBetaAlpha) {
  Tensor self = ints(2, 3, at::kFloat, 4), m1 = ints(2, 4, at::kFloat, 5), m2 = ints(4, 3, at::kFloat, 6);
  auto prod = naive_mm(m1, m2);
  Tensor s = self.to(at::kDouble).contiguous();
  std::vector<double> expected;
  for (int i = 0; i < 6; i++) expected.push_back(0.5 * s.const_data_ptr<double>()[i] + 2.0 * prod[i]);
  expect_values(at::addmm(self, m1, m2, 0.5, 2.0), expected);
  Tensor inplace = self.clone();
  inplace.addmm_(m1, m2, 0.5, 2.0);
  expect_values(inplace, expected);
  // beta = 0 ignores self, NaNs included
  Tensor nan_self = at::full({2, 3}, std::nan(""));
  std::vector<double> only_prod;
  for (auto v : prod) only_prod.push_back(v);
  expect_values(at::addmm(nan_self, m1, m2, 0, 1), only_prod);
  // self broadcast along rows
  Tensor row = ints(1, 3, at::kFloat, 7);
  Tensor r = at::addmm(row, m1, m2);
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 3}));
}

TEST(Linalg, BmmMvDot) {
  Tensor a = ints(6, 4, at::kFloat, 1).view({2, 3, 4}), b = ints(8, 5, at::kFloat, 2).view({2, 4, 5});
  Tensor c = at::bmm(a, b);
  for (int64_t i = 0; i < 2; i++) expect_values(c.select(0, i), naive_mm(a.select(0, i), b.select(0, i)));
  Tensor m = ints(3, 4, at::kLong, 3), v = ints(4, 1, at::kLong, 4);
  expect_values(at::mv(m, v.view({4})), naive_mm(m, v));
  Tensor x = ints(1, 5, at::kDouble, 5).view({5}), y = ints(1, 10, at::kDouble, 6).view({10}).slice(0, 0, 10, 2);
  expect_values(at::dot(x, y), naive_mm(x.view({1, 5}), y.contiguous().view({5, 1})));
}

TEST(Linalg, MatmulShapes) {
  auto shape = [](const Tensor& t) { return std::vector<int64_t>(t.sizes().begin(), t.sizes().end()); };
  EXPECT_EQ(shape(at::matmul(at::ones({3}), at::ones({3}))), std::vector<int64_t>{});
  EXPECT_EQ(shape(at::matmul(at::ones({2, 3}), at::ones({3}))), std::vector<int64_t>{2});
  EXPECT_EQ(shape(at::matmul(at::ones({3}), at::ones({3, 4}))), std::vector<int64_t>{4});
  EXPECT_EQ(shape(at::matmul(at::ones({5, 2, 3}), at::ones({3, 4}))), (std::vector<int64_t>{5, 2, 4}));
  EXPECT_EQ(shape(at::matmul(at::ones({2, 3}), at::ones({5, 3, 4}))), (std::vector<int64_t>{5, 2, 4}));
  EXPECT_EQ(shape(at::matmul(at::ones({7, 1, 2, 3}), at::ones({5, 3, 4}))), (std::vector<int64_t>{7, 5, 2, 4}));
  EXPECT_EQ(shape(at::matmul(at::ones({3}), at::ones({5, 3, 4}))), (std::vector<int64_t>{5, 4}));
  EXPECT_EQ(shape(at::matmul(at::ones({5, 2, 3}), at::ones({3}))), (std::vector<int64_t>{5, 2}));
  EXPECT_DOUBLE_EQ(at::matmul(at::ones({5, 2, 3}), at::ones({3, 4})).select(0, 4).select(0, 1).select(0, 3).item().toDouble(), 3.0);
}

TEST(Linalg, ErrorTexts) {
  auto z = [](std::vector<int64_t> s, at::ScalarType d = at::kFloat) { return at::zeros(s, d); };
  EXPECT_EQ(error_of([&] { at::mm(z({2, 3}), z({4, 5})); }), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(error_of([&] { at::matmul(z({3}), z({4, 5})); }), "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)");
  EXPECT_EQ(error_of([&] { at::matmul(z({2, 3}), z({4})); }), "size mismatch, got input (2), mat (2x3), vec (4)");
  EXPECT_EQ(error_of([&] { at::matmul(z({3}), z({4})); }),
            "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 "
            "and 4 elements respectively");
  EXPECT_EQ(error_of([&] { at::matmul(z({2, 2, 3}), z({2, 4, 5})); }),
            "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  EXPECT_EQ(error_of([&] { at::matmul(z({}), z({4})); }),
            "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  EXPECT_EQ(error_of([&] { at::mm(z({3}), z({3, 5})); }), "self must be a matrix");
  EXPECT_EQ(error_of([&] { at::mm(z({2, 3}), z({3, 5}, at::kDouble)); }),
            "expected m1 and m2 to have the same dtype, but got: float != double");
}

TEST(Linalg, TensordotAndEinsum) {
  Tensor a = at::rand({3, 4, 5}, at::kDouble), b = at::rand({4, 5, 2}, at::kDouble);
  Tensor td = at::tensordot(a, b, {1, 2}, {0, 1});
  Tensor ref = at::mm(a.view({3, 20}), b.view({20, 2}));
  EXPECT_LT(max_abs_diff(td, ref), 1e-12);
  Tensor x = ints(3, 4, at::kDouble, 1), y = ints(4, 2, at::kDouble, 2);
  expect_values(at::einsum("ij,jk->ik", {x, y}), naive_mm(x, y));
  expect_values(at::einsum("ij,jk", {x, y}), naive_mm(x, y));  // implicit output: ik
  Tensor xt = x.t().contiguous();
  expect_values(at::einsum("ij->ji", {x}), std::vector<double>(xt.const_data_ptr<double>(),
                                                               xt.const_data_ptr<double>() + 12));
}

TEST(CpuBlas, ReadableLayouts) {
  using at::native::cpublas::blas_can_read;
  EXPECT_TRUE(blas_can_read(4, 3, 3, 1));    // row-major
  EXPECT_TRUE(blas_can_read(4, 3, 1, 4));    // transposed
  EXPECT_TRUE(blas_can_read(4, 3, 10, 1));   // rows of a wider matrix
  EXPECT_FALSE(blas_can_read(4, 3, 6, 2));   // every other column
  EXPECT_FALSE(blas_can_read(4, 3, 0, 1));   // expanded rows
  EXPECT_TRUE(blas_can_read(1, 5, 99, 1));   // one row: its stride does not matter
}

}  // namespace
