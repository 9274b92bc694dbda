// Tests the elementwise operators against hand-computed values: every dtype each supports,
// functional / in-place / out= forms, non-contiguous (as_strided transposes, empty_strided)
// and broadcast inputs, and PyTorch's error texts for unsupported dtype combinations.
// Mirrors PyTorch's aten/src/ATen/test/basic.cpp and test/test_binary_ufuncs.py cases.
// Guide: docs/source/internals/one_call.rst.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using at::Tensor;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// A contiguous tensor of `dtype` holding `values` (converted as C++ converts).
Tensor T(std::vector<double> values, at::ScalarType dtype = at::kFloat, std::vector<int64_t> shape = {}) {
  if (shape.empty()) {
    shape = {static_cast<int64_t>(values.size())};
  }
  Tensor t = at::empty(shape, dtype);
  AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, dtype, "T", [&] {
    auto* p = t.data_ptr<scalar_t>();
    for (size_t i = 0; i < values.size(); i++) {
      p[i] = static_cast<scalar_t>(static_cast<float>(values[i]));
      if constexpr (std::is_same_v<scalar_t, double>) {
        p[i] = values[i];
      }
    }
  });
  return t;
}

// The values of any tensor (any strides) in row-major order, as doubles.
std::vector<double> V(const Tensor& t) {
  Tensor c = t.contiguous();
  std::vector<double> out(static_cast<size_t>(c.numel()));
  AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, c.scalar_type(), "V", [&] {
    const auto* p = c.data_ptr<scalar_t>();
    for (size_t i = 0; i < out.size(); i++) {
      out[i] = static_cast<double>(static_cast<float>(p[i]));
      if constexpr (std::is_same_v<scalar_t, double> || std::is_same_v<scalar_t, int64_t>) {
        out[i] = static_cast<double>(p[i]);
      }
    }
  });
  return out;
}

void expectValues(const Tensor& t, const std::vector<double>& expected, double tol = 1e-6) {
  auto got = V(t);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); i++) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
    } else if (std::isinf(expected[i])) {
      EXPECT_EQ(got[i], expected[i]) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], expected[i], tol * std::max(1.0, std::abs(expected[i]))) << "at " << i;
    }
  }
}

template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "<no error>";
}

// Tolerance by dtype: half keeps ~3 decimal digits, bfloat16 ~2.
double tolFor(at::ScalarType t) {
  return t == at::kHalf ? 2e-3 : t == at::kBFloat16 ? 1e-2 : 1e-6;
}

const std::vector<at::ScalarType> kFloating = {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16};
const std::vector<at::ScalarType> kIntegral = {at::kByte, at::kChar, at::kShort, at::kInt, at::kLong};

// ---- copy_ / to / clone / contiguous ----

TEST(CopyTest, ConvertsBetweenEveryPairOfDtypes) {
  std::vector<at::ScalarType> all = {at::kByte, at::kChar,   at::kShort, at::kInt,      at::kLong,
                                     at::kHalf, at::kFloat, at::kDouble, at::kBFloat16, at::kBool};
  for (auto from : all) {
    for (auto to : all) {
      Tensor src = T({0, 1, 5}, from);
      Tensor dst = at::empty({3}, to);
      dst.copy_(src);
      const double five = (from == at::kBool || to == at::kBool) ? 1 : 5;
      expectValues(dst, {0, 1, five});
    }
  }
}

TEST(CopyTest, FloatToIntTruncatesAndUint8Wraps) {
  expectValues(T({-1.5, 2.7, 300}).to(at::kInt), {-1, 2, 300});
  expectValues(T({-1.5, 300}, at::kDouble).to(at::kByte), {255, 44});
  expectValues(T({0.0, -0.5, 2}).to(at::kBool), {0, 1, 1});
}

TEST(CopyTest, BroadcastsSourceAndWritesStridedDestination) {
  Tensor dst = at::zeros({2, 3});
  dst.copy_(T({1, 2, 3}));
  expectValues(dst, {1, 2, 3, 1, 2, 3});
  // Destination transposed with empty_strided: values land at the strided addresses.
  Tensor strided = at::empty_strided({2, 3}, {1, 2});
  strided.copy_(T({0, 1, 2, 3, 4, 5}, at::kFloat, {2, 3}));
  expectValues(strided, {0, 1, 2, 3, 4, 5});
  EXPECT_FLOAT_EQ(strided.data_ptr<float>()[1], 3.0f);  // element [1, 0]
  EXPECT_EQ(errorOf([] { at::ones({3}).copy_(at::ones({2, 3})); }),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

TEST(CopyTest, ComplexRoundTrip) {
  Tensor z = T({1.5, -2}).to(at::kComplexFloat);
  EXPECT_EQ(z.scalar_type(), at::kComplexFloat);
  expectValues(z.to(at::kDouble), {1.5, -2});
  expectValues(z.to(at::kComplexDouble).to(at::kFloat), {1.5, -2});
}

TEST(ConversionTest, ToReturnsSelfWhenNothingChanges) {
  Tensor a = T({1, 2});
  EXPECT_TRUE(a.to(at::kFloat).is_same(a));
  EXPECT_FALSE(a.to(at::kFloat, false, /*copy=*/true).is_same(a));
  EXPECT_FALSE(a.to(at::kDouble).is_same(a));
}

TEST(ConversionTest, CloneAndContiguousOfATranspose) {
  Tensor base = T({0, 1, 2, 3, 4, 5}, at::kFloat, {2, 3});
  Tensor t = base.as_strided({3, 2}, {1, 3});
  Tensor c = t.clone();
  EXPECT_EQ(c.strides().vec(), (std::vector<int64_t>{1, 3}));  // preserve format
  expectValues(c, {0, 3, 1, 4, 2, 5});
  Tensor k = t.contiguous();
  EXPECT_TRUE(k.is_contiguous());
  expectValues(k, {0, 3, 1, 4, 2, 5});
  EXPECT_TRUE(base.contiguous().is_same(base));
  Tensor e = at::empty_like(t);
  EXPECT_EQ(e.strides().vec(), (std::vector<int64_t>{1, 3}));
}

// ---- add / sub / mul / div ----

TEST(BinaryOpsTest, AddAllDtypesWithAlpha) {
  for (auto dt : kFloating) {
    expectValues(at::add(T({1, 2, 3}, dt), T({0.5, 0.25, -1}, dt), 2), {2, 2.5, 1}, tolFor(dt));
  }
  for (auto dt : kIntegral) {
    expectValues(at::add(T({1, 2, 3}, dt), T({4, 5, 6}, dt), 2), {9, 12, 15});
  }
  expectValues(at::add(T({0, 1, 0}, at::kBool), T({0, 1, 1}, at::kBool)), {0, 1, 1});
  expectValues(at::add(T({250}, at::kByte), T({10}, at::kByte)), {4});  // wraps
}

TEST(BinaryOpsTest, AddInPlaceOutAndScalarForms) {
  Tensor a = T({1, 2});
  a.add_(T({10, 20}));
  expectValues(a, {11, 22});
  a.add_(1, /*alpha=*/3);
  expectValues(a, {14, 25});
  Tensor out = at::empty({2});
  at::add_out(out, T({1, 2}), T({3, 4}));
  expectValues(out, {4, 6});
  expectValues(at::add(T({1, 2}, at::kInt), 0.5), {1.5, 2.5});
}

TEST(BinaryOpsTest, AlphaChecks) {
  EXPECT_EQ(errorOf([] { at::add(T({1}, at::kInt), T({1}, at::kInt), 0.5); }),
            "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_EQ(errorOf([] { at::add(T({1}), T({1}), true); }), "Boolean alpha only supported for Boolean results.");
}

TEST(BinaryOpsTest, SubAndItsBoolErrors) {
  expectValues(at::sub(T({5, 5}), T({1, 2}), 2), {3, 1});
  expectValues(at::sub(T({5, 5}, at::kLong), 1), {4, 4});
  EXPECT_EQ(errorOf([] { at::sub(T({1}, at::kBool), T({1}, at::kBool)); }),
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
            "operator instead.");
  EXPECT_EQ(errorOf([] { at::sub(T({1}, at::kBool), T({1})); }),
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
            "use the `~` or `logical_not()` operator instead.");
}

TEST(BinaryOpsTest, MulAllDtypes) {
  for (auto dt : kFloating) {
    expectValues(at::mul(T({1.5, -2}, dt), T({2, 3}, dt)), {3, -6}, tolFor(dt));
  }
  for (auto dt : kIntegral) {
    expectValues(at::mul(T({3, 4}, dt), T({5, 6}, dt)), {15, 24});
  }
  expectValues(at::mul(T({1, 1, 0}, at::kBool), T({1, 0, 0}, at::kBool)), {1, 0, 0});
}

TEST(BinaryOpsTest, DivTrueAndRoundingModes) {
  Tensor a = T({7, -7, 7, -7}, at::kLong);
  Tensor b = T({2, 2, -2, -2}, at::kLong);
  Tensor q = at::div(a, b);
  EXPECT_EQ(q.scalar_type(), at::kFloat);  // integer true division gives the default float dtype
  expectValues(q, {3.5, -3.5, -3.5, 3.5});
  Tensor tq = at::div(a, b, "trunc");
  EXPECT_EQ(tq.scalar_type(), at::kLong);
  expectValues(tq, {3, -3, -3, 3});
  expectValues(at::div(a, b, "floor"), {3, -4, -4, 3});
  expectValues(at::div(T({7, -7}, at::kDouble), T({2, 2}, at::kDouble), "floor"), {3, -4});
  expectValues(at::div(T({7.5, -7.5}), T({2, 2}), "trunc"), {3, -3});
  expectValues(at::div(T({1, -1, 0}), T({0, 0, 0})), {kInf, -kInf, kNaN});
  for (auto dt : kFloating) {
    expectValues(at::div(T({1, 3}, dt), T({4, 4}, dt)), {0.25, 0.75}, tolFor(dt));
  }
  EXPECT_EQ(errorOf([] { at::div(T({1}, at::kLong), T({0}, at::kLong), "floor"); }), "ZeroDivisionError");
  EXPECT_EQ(errorOf([] { at::div(T({1}), T({1}), "x"); }),
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'x'");
  EXPECT_EQ(errorOf([] { T({1}, at::kLong).div_(2); }), "result type Float can't be cast to the desired output type Long");
}

TEST(BinaryOpsTest, FloorDivideRemainderFmod) {
  Tensor a = T({7, -7, 7, -7}, at::kInt);
  Tensor b = T({3, 3, -3, -3}, at::kInt);
  expectValues(at::floor_divide(a, b), {2, -3, -3, 2});
  expectValues(at::remainder(a, b), {1, 2, -2, -1});   // sign of the divisor
  expectValues(at::fmod(a, b), {1, -1, 1, -1});        // sign of the dividend
  expectValues(at::remainder(T({5.5, -5.5}), 2), {1.5, 0.5});
  expectValues(at::fmod(T({5.5, -5.5}, at::kDouble), 2), {1.5, -1.5});
  expectValues(at::remainder(7, T({3, -3}, at::kLong)), {1, -2});
  EXPECT_EQ(errorOf([] { at::remainder(T({1}, at::kInt), T({0}, at::kInt)); }), "ZeroDivisionError");
  EXPECT_EQ(errorOf([] { at::remainder(T({1}, at::kBool), T({1}, at::kBool)); }),
            "\"remainder_cpu\" not implemented for 'Bool'");
}

TEST(BinaryOpsTest, Pow) {
  expectValues(at::pow(T({2, 3, -2}, at::kLong), 3), {8, 27, -8});
  expectValues(at::pow(T({4, 9}), 0.5), {2, 3});
  expectValues(at::pow(T({2, 3}, at::kInt), 2.0), {4, 9});
  EXPECT_EQ(at::pow(T({2}, at::kInt), 2.5).scalar_type(), at::kFloat);
  expectValues(at::pow(T({2, 3}), T({3, 2})), {8, 9});
  expectValues(at::pow(T({2, 1, -1}, at::kLong), T({-1, -2, -3}, at::kLong)), {0, 1, -1});
  expectValues(at::pow(2, T({1, 2, 3}, at::kLong)), {2, 4, 8});
  Tensor h = T({1.5, 2}, at::kHalf);
  h.pow_(2);
  expectValues(h, {2.25, 4}, 2e-3);
  EXPECT_EQ(errorOf([] { at::pow(T({2}, at::kLong), -1); }), "Integers to negative integer powers are not allowed.");
  EXPECT_EQ(errorOf([] { T({2}, at::kLong).pow_(2.5); }), "result type Float can't be cast to the desired output type Long");
}

TEST(BinaryOpsTest, MaximumMinimumPropagateNaN) {
  expectValues(at::maximum(T({1, 5, kNaN}), T({3, 2, 1})), {3, 5, kNaN});
  expectValues(at::minimum(T({1, 5, 0}), T({3, 2, kNaN})), {1, 2, kNaN});
  expectValues(at::maximum(T({1, -5}, at::kChar), T({3, -2}, at::kChar)), {3, -2});
  expectValues(at::maximum(T({0, 1}, at::kBool), T({0, 0}, at::kBool)), {0, 1});
  expectValues(at::minimum(T({1, 2}, at::kBFloat16), T({0.5, 4}, at::kBFloat16)), {0.5, 2});
}

TEST(BinaryOpsTest, Atan2) {
  expectValues(at::atan2(T({1, -1}), T({1, 1})), {M_PI / 4, -M_PI / 4});
  EXPECT_EQ(at::atan2(T({1}, at::kInt), T({1}, at::kInt)).scalar_type(), at::kFloat);
}

// ---- comparisons, logical, bitwise ----

TEST(ComparisonTest, BoolResultsForAllDtypes) {
  std::vector<at::ScalarType> dtypes = kFloating;
  dtypes.insert(dtypes.end(), kIntegral.begin(), kIntegral.end());
  for (auto dt : dtypes) {
    Tensor a = T({1, 2, 3}, dt);
    Tensor b = T({2, 2, 2}, dt);
    Tensor r = at::lt(a, b);
    EXPECT_EQ(r.scalar_type(), at::kBool);
    expectValues(r, {1, 0, 0});
    expectValues(at::le(a, b), {1, 1, 0});
    expectValues(at::gt(a, b), {0, 0, 1});
    expectValues(at::ge(a, b), {0, 1, 1});
    expectValues(at::eq(a, b), {0, 1, 0});
    expectValues(at::ne(a, b), {1, 0, 1});
  }
  expectValues(at::eq(T({1, 0}, at::kBool), T({1, 1}, at::kBool)), {1, 0});
}

TEST(ComparisonTest, PromotesAndBroadcasts) {
  expectValues(at::lt(T({1, 2, 3}, at::kInt), 2.5), {1, 1, 0});
  expectValues(at::eq(T({1, 2, 3, 4}, at::kFloat, {2, 2}), T({1, 4}, at::kLong)), {1, 0, 0, 1});
  expectValues(at::ne(T({kNaN, 1}), T({kNaN, 1})), {1, 0});
}

TEST(ComparisonTest, InPlaceAndOutKeepTheirDtype) {
  Tensor a = T({1, 2, 3});
  a.gt_(2);
  EXPECT_EQ(a.scalar_type(), at::kFloat);
  expectValues(a, {0, 0, 1});
  Tensor out = at::empty({3}, at::kLong);
  at::lt_out(out, T({1, 2, 3}), T({3, 2, 1}));
  expectValues(out, {1, 0, 0});
}

TEST(LogicalTest, LogicalOps) {
  Tensor a = T({0, 1, 2, 0});
  Tensor b = T({0, 0, 3, 5}, at::kInt);
  expectValues(at::logical_and(a, b), {0, 0, 1, 0});
  expectValues(at::logical_or(a, b), {0, 1, 1, 1});
  expectValues(at::logical_xor(a, b), {0, 1, 0, 1});
  Tensor n = at::logical_not(b);
  EXPECT_EQ(n.scalar_type(), at::kBool);
  expectValues(n, {1, 1, 0, 0});
  Tensor out = at::empty({4}, at::kDouble);
  at::logical_not_out(out, a);
  expectValues(out, {1, 0, 0, 1});
}

TEST(BitwiseTest, IntegersAndBool) {
  for (auto dt : kIntegral) {
    expectValues(at::bitwise_and(T({12, 10}, dt), T({10, 6}, dt)), {8, 2});
    expectValues(at::bitwise_or(T({12, 10}, dt), T({10, 6}, dt)), {14, 14});
    expectValues(at::bitwise_xor(T({12, 10}, dt), T({10, 6}, dt)), {6, 12});
  }
  expectValues(at::bitwise_not(T({0, 5}, at::kChar)), {-1, -6});
  expectValues(at::bitwise_not(T({0, 1}, at::kBool)), {1, 0});
  expectValues(at::bitwise_and(T({1, 1}, at::kBool), T({0, 1}, at::kBool)), {0, 1});
  expectValues(at::bitwise_or(T({1, 2}, at::kLong), 4), {5, 6});
  EXPECT_EQ(errorOf([] { at::bitwise_and(T({1}), T({1})); }), "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(errorOf([] { at::bitwise_not(T({1})); }), "\"bitwise_not_cpu\" not implemented for 'Float'");
}

// ---- where, clamp, masked_fill, lerp, addcmul, addcdiv ----

TEST(SelectionTest, WherePromotesAndBroadcasts) {
  Tensor cond = T({1, 0, 1}, at::kBool);
  Tensor r = at::where(cond, T({1, 2, 3}, at::kInt), T({10.5}, at::kDouble));
  EXPECT_EQ(r.scalar_type(), at::kDouble);
  expectValues(r, {1, 10.5, 3});
  expectValues(at::where(cond, T({1, 2, 3}), 0.0), {1, 0, 3});
  expectValues(at::where(cond, 1, 0), {1, 0, 1});
  EXPECT_EQ(at::where(cond, 1, 0).scalar_type(), at::kLong);
  EXPECT_EQ(errorOf([] { at::where(T({1}), T({1}), T({2})); }),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
}

TEST(SelectionTest, ClampScalarAndTensor) {
  expectValues(at::clamp(T({-2, 0.5, 3, kNaN}), -1, 1), {-1, 0.5, 1, kNaN});
  expectValues(at::clamp(T({-2, 5}, at::kLong), 0), {0, 5});
  expectValues(at::clamp(T({-2, 5}, at::kLong), std::nullopt, 1), {-2, 1});
  EXPECT_EQ(at::clamp(T({1, 2}, at::kLong), 0.5, 1.5).scalar_type(), at::kFloat);
  expectValues(at::clamp(T({1, 5, 9}), T({2, 2, 2}), T({6, 6, 6})), {2, 5, 6});
  expectValues(at::clamp(T({1, 5, 9}), T({3}), std::nullopt), {3, 5, 9});
  Tensor a = T({-3, 3}, at::kInt);
  a.clamp_(-1, 1);
  expectValues(a, {-1, 1});
  expectValues(at::clamp_min(T({-1, 2}), 0), {0, 2});
  expectValues(at::clamp_max(T({-1, 2}), 0), {-1, 0});
  EXPECT_EQ(errorOf([] { at::clamp(T({1}), std::optional<at::Scalar>(), std::optional<at::Scalar>()); }), "torch.clamp: At least one of 'min' or 'max' must not be None");
}

TEST(SelectionTest, MaskedFill) {
  Tensor a = T({1, 2, 3, 4}, at::kFloat, {2, 2});
  Tensor mask = T({1, 0}, at::kBool);  // broadcast over rows
  a.masked_fill_(mask, -1);
  expectValues(a, {-1, 2, -1, 4});
  expectValues(at::masked_fill(T({1, 2}, at::kLong), T({0, 1}, at::kBool), 7), {1, 7});
  expectValues(at::masked_fill(T({1, 2}), T({1, 1}, at::kBool), at::ones({})), {1, 1});
  EXPECT_EQ(errorOf([] { T({1}).masked_fill_(T({1}), 2); }),
            "masked_fill_ only supports boolean masks, but got mask with dtype float");
  EXPECT_EQ(errorOf([] { T({1}).masked_fill_(T({1}, at::kBool), T({1, 2})); }),
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
}

TEST(PointwiseTest, LerpAddcmulAddcdiv) {
  expectValues(at::lerp(T({0, 10}), T({10, 20}), 0.25), {2.5, 12.5});
  expectValues(at::lerp(T({0, 10}), T({10, 20}), T({1, 0.5})), {10, 15});
  EXPECT_EQ(errorOf([] { at::lerp(T({1}), T({2}, at::kDouble), 0.5); }),
            "expected dtype float for `end` but got dtype double");
  expectValues(at::addcmul(T({1, 1}), T({2, 3}), T({4, 5}), 0.5), {5, 8.5});
  expectValues(at::addcmul(T({1, 1}, at::kLong), T({2, 3}, at::kLong), T({4, 5}, at::kLong), 2), {17, 31});
  expectValues(at::addcdiv(T({1, 1}), T({2, 3}), T({4, 6}), 2), {2, 2});
  EXPECT_NE(errorOf([] { at::addcdiv(T({1}, at::kLong), T({1}, at::kLong), T({1}, at::kLong)); })
                .find("Integer division with addcdiv is no longer supported"),
            std::string::npos);
}

// ---- unary ----

TEST(UnaryOpsTest, FloatingFunctionsAllFloatDtypes) {
  for (auto dt : kFloating) {
    const double tol = tolFor(dt);
    expectValues(at::exp(T({0, 1}, dt)), {1, std::exp(1.0)}, tol);
    expectValues(at::log(T({1, 4}, dt)), {0, std::log(4.0)}, tol);
    expectValues(at::log1p(T({0, 1}, dt)), {0, std::log(2.0)}, tol);
    expectValues(at::sqrt(T({4, 2}, dt)), {2, std::sqrt(2.0)}, tol);
    expectValues(at::rsqrt(T({4, 16}, dt)), {0.5, 0.25}, tol);
    expectValues(at::sin(T({0, 1}, dt)), {0, std::sin(1.0)}, tol);
    expectValues(at::cos(T({0, 1}, dt)), {1, std::cos(1.0)}, tol);
    expectValues(at::tan(T({0, 1}, dt)), {0, std::tan(1.0)}, tol);
    expectValues(at::tanh(T({0, 1}, dt)), {0, std::tanh(1.0)}, tol);
    expectValues(at::sigmoid(T({0, 2}, dt)), {0.5, 1 / (1 + std::exp(-2.0))}, tol);
    expectValues(at::erf(T({0, 1}, dt)), {0, std::erf(1.0)}, tol);
    expectValues(at::reciprocal(T({2, -4}, dt)), {0.5, -0.25}, tol);
  }
  expectValues(at::sqrt(T({-1})), {kNaN});
  expectValues(at::log(T({0})), {-kInf});
}

TEST(UnaryOpsTest, IntegerInputsPromoteToFloat) {
  Tensor e = at::exp(T({0, 1}, at::kLong));
  EXPECT_EQ(e.scalar_type(), at::kFloat);
  expectValues(e, {1, std::exp(1.0)});
  EXPECT_EQ(at::sqrt(T({1}, at::kBool)).scalar_type(), at::kFloat);
  EXPECT_EQ(errorOf([] { T({1}, at::kLong).exp_(); }), "result type Float can't be cast to the desired output type Long");
}

TEST(UnaryOpsTest, NegAbsSign) {
  for (auto dt : {at::kChar, at::kShort, at::kInt, at::kLong, at::kFloat, at::kDouble, at::kHalf, at::kBFloat16}) {
    expectValues(at::neg(T({1, -2, 0}, dt)), {-1, 2, 0});
    expectValues(at::abs(T({1, -2, 0}, dt)), {1, 2, 0});
    expectValues(at::sign(T({3, -2, 0}, dt)), {1, -1, 0});
  }
  expectValues(at::sign(T({1, 0}, at::kBool)), {1, 0});
  EXPECT_EQ(errorOf([] { at::neg(T({1}, at::kBool)); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
            "`~` or `logical_not()` operator instead.");
  EXPECT_EQ(errorOf([] { at::abs(T({1}, at::kBool)); }), "\"abs_cpu\" not implemented for 'Bool'");
}

TEST(UnaryOpsTest, RoundingFamily) {
  Tensor x = T({2.5, 3.5, -2.5, -1.7, 1.2});
  expectValues(at::round(x), {2, 4, -2, -2, 1});  // half to even
  expectValues(at::floor(x), {2, 3, -3, -2, 1});
  expectValues(at::ceil(x), {3, 4, -2, -1, 2});
  expectValues(at::trunc(x), {2, 3, -2, -1, 1});
  expectValues(at::round(T({1.2345, 123.0}, at::kDouble), 2), {1.23, 123});
  expectValues(at::round(T({1234.0, 1251.0}, at::kDouble), -2), {1200, 1300});
  Tensor i = at::floor(T({3, -3}, at::kLong));
  EXPECT_EQ(i.scalar_type(), at::kLong);
  expectValues(i, {3, -3});
  EXPECT_EQ(errorOf([] { at::round(T({1}, at::kLong), 2); }), "\"round_cpu\" not implemented for 'Long'");
}

TEST(UnaryOpsTest, Activations) {
  expectValues(at::relu(T({-1, 0, 2})), {0, 0, 2});
  expectValues(at::relu(T({-1, 3}, at::kLong)), {0, 3});
  EXPECT_EQ(errorOf([] { at::relu(T({1}, at::kBool)); }), "Boolean inputs not supported for relu");
  const double g1 = 0.5 * (1 + std::erf(1 / std::sqrt(2.0)));
  expectValues(at::gelu(T({0, 1, -1})), {0, g1, -(1 - g1)}, 1e-6);
  const double t1 = 0.5 * (1 + std::tanh(std::sqrt(2 / M_PI) * (1 + 0.044715)));
  expectValues(at::gelu(T({1}), "tanh"), {t1}, 1e-6);
  EXPECT_EQ(errorOf([] { at::gelu(T({1}), "x"); }), "approximate argument must be either none or tanh.");
  expectValues(at::silu(T({0, 1})), {0, 1 / (1 + std::exp(-1.0))});
  Tensor a = T({-1, 1});
  at::relu_(a);
  expectValues(a, {0, 1});
}

TEST(UnaryOpsTest, IsnanIsinfNanToNum) {
  Tensor x = T({1, kNaN, kInf, -kInf});
  expectValues(at::isnan(x), {0, 1, 0, 0});
  expectValues(at::isinf(x), {0, 0, 1, 1});
  expectValues(at::isinf(T({1}, at::kLong)), {0});
  expectValues(at::nan_to_num(x), {1, 0, std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest()});
  expectValues(at::nan_to_num(x, 5.0, 100.0, -100.0), {1, 5, 100, -100});
  expectValues(at::nan_to_num(T({kInf}, at::kHalf)), {65504});
}

// ---- layouts: every op goes through TensorIterator, so strides must not matter ----

TEST(LayoutTest, TransposedAndBroadcastInputs) {
  Tensor base = T({0, 1, 2, 3, 4, 5}, at::kFloat, {2, 3});
  Tensor t = base.as_strided({3, 2}, {1, 3});  // [[0,3],[1,4],[2,5]]
  expectValues(at::add(t, T({10, 20})), {10, 23, 11, 24, 12, 25});
  expectValues(at::mul(t, t), {0, 9, 1, 16, 4, 25});
  expectValues(at::sub(t, 1), {-1, 2, 0, 3, 1, 4});
  expectValues(at::exp(t), {1, std::exp(3.0), std::exp(1.0), std::exp(4.0), std::exp(2.0), std::exp(5.0)});
  expectValues(at::gt(t, T({2}, at::kFloat, {1})), {0, 1, 0, 1, 0, 1});
  // A column broadcast against a row.
  expectValues(at::add(T({1, 2}, at::kFloat, {2, 1}), T({10, 20, 30}, at::kFloat, {1, 3})),
               {11, 21, 31, 12, 22, 32});
  // Write into a transposed output.
  Tensor out = at::empty_strided({3, 2}, {1, 3});
  at::add_out(out, t, t);
  expectValues(out, {0, 6, 2, 8, 4, 10});
  // In place on a non-contiguous view writes through to the base.
  Tensor col = base.as_strided({2}, {3}, 1);  // base[:, 1]
  col.mul_(10);
  expectValues(base, {0, 10, 2, 3, 40, 5});
}

TEST(LayoutTest, LargeTensorsUseThreadsAndMatchSerialResult) {
  const int64_t n = 300000;
  Tensor a = at::empty({n});
  float* p = a.data_ptr<float>();
  for (int64_t i = 0; i < n; i++) {
    p[i] = static_cast<float>(i % 97);
  }
  Tensor r = at::add(a, a, 0.5);
  const float* q = r.data_ptr<float>();
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; i++) {
    wrong += q[i] != 1.5f * static_cast<float>(i % 97);
  }
  EXPECT_EQ(wrong, 0);
  // Strided large input: a view of every other element.
  Tensor big = at::empty({2 * n});
  big.fill_(2);
  Tensor half = big.as_strided({n}, {2});
  Tensor tripled = at::mul(half, 3);
  EXPECT_TRUE(tripled.is_contiguous());
  const float* t3 = tripled.data_ptr<float>();
  wrong = 0;
  for (int64_t i = 0; i < n; i++) {
    wrong += t3[i] != 6.0f;
  }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
