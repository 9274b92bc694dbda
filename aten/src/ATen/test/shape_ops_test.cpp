// aten/src/ATen/test/shape_ops_test.cpp - reshape (view or copy), flatten, cat, stack, flip, roll,
// repeat, tile, tril/triu, view(dtype) from C++, with PyTorch's error texts.
// Mirrors cases of PyTorch's test/test_shape_ops.py and test/test_view_ops.py. Guide: docs/source/internals/tensors.rst.
#include <ATen/ATen.h>

#include <gtest/gtest.h>

#include <functional>

#include <string>
#include <vector>

namespace {

using at::Tensor;
using Vec = std::vector<int64_t>;
using FVec = std::vector<float>;

// A contiguous float tensor holding 0, 1, 2, ...
Tensor arange_tensor(at::IntArrayRef sizes, at::ScalarType dtype = at::kFloat) {
  Tensor t = at::empty(sizes, at::kFloat);
  float* data = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<float>(i);
  return dtype == at::kFloat ? t : t.to(dtype);
}

// The elements in logical (row-major) order, read through any strides.
FVec values(const Tensor& t) {
  Tensor c = t.contiguous();
  if (c.scalar_type() != at::kFloat) c = c.to(at::kFloat);
  const float* p = c.data_ptr<float>();
  return FVec(p, p + c.numel());
}

bool shares_storage(const Tensor& a, const Tensor& b) {
  return a.storage().is_alias_of(b.storage());
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "<no error>";
}

TEST(ShapeOpsTest, ReshapeIsAViewWhenStridesAllowIt) {
  Tensor a = arange_tensor({2, 3});
  Tensor v = a.reshape({3, 2});
  EXPECT_TRUE(shares_storage(v, a));
  EXPECT_EQ(v.strides().vec(), (Vec{2, 1}));
  // The transpose cannot be read flat with one stride: reshape copies.
  Tensor t = a.t();
  Tensor c = t.reshape({6});
  EXPECT_FALSE(shares_storage(c, t));
  EXPECT_EQ(values(c), (FVec{0, 3, 1, 4, 2, 5}));
  // ...but adding a size-1 dimension to it is still a view.
  EXPECT_TRUE(shares_storage(t.reshape({3, 1, 2}), t));
  EXPECT_EQ(at::reshape(a, {-1}).sizes().vec(), (Vec{6}));
}

TEST(ShapeOpsTest, FlattenMergesARangeOfDimensions) {
  Tensor a = arange_tensor({2, 3, 4});
  EXPECT_EQ(a.flatten(1, 2).sizes().vec(), (Vec{2, 12}));
  EXPECT_EQ(at::flatten(a).sizes().vec(), (Vec{24}));
  EXPECT_EQ(at::empty({0, 1, 3, 0}).flatten(1, 2).sizes().vec(), (Vec{0, 3, 0}));
  EXPECT_EQ(error_of([&] { a.flatten(2, 1); }), "flatten() has invalid args: start_dim cannot come after end_dim");
}

TEST(ShapeOpsTest, CatJoinsAlongADimensionAndPromotes) {
  Tensor a = arange_tensor({2, 2});
  Tensor b = arange_tensor({2, 1}, at::kDouble);
  Tensor c = at::cat({a, b}, 1);
  EXPECT_EQ(c.scalar_type(), at::kDouble);
  EXPECT_EQ(c.sizes().vec(), (Vec{2, 3}));
  EXPECT_EQ(values(c), (FVec{0, 1, 0, 2, 3, 1}));
  // Legacy empty 1-D tensors are skipped.
  EXPECT_EQ(at::cat({at::empty({0}), a}, 1).sizes().vec(), (Vec{2, 2}));
}

TEST(ShapeOpsTest, CatErrorsAreThoseOfPyTorch) {
  EXPECT_EQ(error_of([] { at::cat({at::empty({2, 3}), at::empty({2, 4})}); }),
            "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 "
            "in the list.");
  EXPECT_EQ(error_of([] { at::cat({at::empty({2, 3}), at::empty({3})}); }),
            "Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_EQ(error_of([] { at::cat(std::vector<Tensor>{}); }), "torch.cat(): expected a non-empty list of Tensors");
  // Two devices in one list: the generated wrapper's device check.
  std::string msg = error_of([] { at::cat({at::empty({2}, at::kFloat, std::nullopt, at::Device("meta")), at::empty({2})}); });
  EXPECT_NE(msg.find("Expected all tensors to be on the same device"), std::string::npos) << msg;
}

TEST(ShapeOpsTest, StackAddsADimension) {
  Tensor a = arange_tensor({2, 3});
  Tensor s = at::stack({a, a.t().t()}, 1);
  EXPECT_EQ(s.sizes().vec(), (Vec{2, 2, 3}));
  EXPECT_EQ(at::stack({a, a}, 2).sizes().vec(), (Vec{2, 3, 2}));
  EXPECT_EQ(values(at::stack({a, a}, 2)), (FVec{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
  EXPECT_EQ(error_of([] { at::stack({at::empty({2}), at::empty({3})}); }),
            "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1");
}

TEST(ShapeOpsTest, FlipAndRoll) {
  Tensor a = arange_tensor({2, 3});
  EXPECT_EQ(values(a.flip({1})), (FVec{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(values(a.flip({0, 1})), (FVec{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(values(a.t().flip({0})), (FVec{2, 5, 1, 4, 0, 3}));
  EXPECT_EQ(values(a.roll({1}, {1})), (FVec{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(values(a.roll({-1})), (FVec{1, 2, 3, 4, 5, 0}));
  EXPECT_EQ(values(a.roll({1, 1}, {0, 1})), (FVec{5, 3, 4, 2, 0, 1}));
  EXPECT_EQ(error_of([&] { a.flip({0, 0}); }), "dim 0 appears multiple times in the list of dims");
}

TEST(ShapeOpsTest, RepeatAndTileAreNumpyTile) {
  Tensor a = arange_tensor({2});
  EXPECT_EQ(values(a.repeat({2, 2})), (FVec{0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(a.repeat({2, 2}).sizes().vec(), (Vec{2, 4}));
  EXPECT_EQ(arange_tensor({2, 3}).tile({2}).sizes().vec(), (Vec{2, 6}));
  EXPECT_EQ(error_of([] { arange_tensor({2, 3}).repeat({2}); }),
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
}

TEST(ShapeOpsTest, TrilTriuKeepOneTriangle) {
  Tensor a = arange_tensor({3, 3});
  EXPECT_EQ(values(a.tril()), (FVec{0, 0, 0, 3, 4, 0, 6, 7, 8}));
  EXPECT_EQ(values(at::triu(a, 1)), (FVec{0, 1, 2, 0, 0, 5, 0, 0, 0}));
  EXPECT_EQ(values(a.tril(-1)), (FVec{0, 0, 0, 3, 0, 0, 6, 7, 0}));
  EXPECT_EQ(values(a.t().triu()), (FVec{0, 3, 6, 0, 4, 7, 0, 0, 8}));
  Tensor b = arange_tensor({3, 3}, at::kLong);
  b.triu_();
  EXPECT_EQ(values(b), (FVec{0, 1, 2, 0, 4, 5, 0, 0, 8}));
  EXPECT_EQ(error_of([] { at::empty({3}).tril(); }), "tril: input tensor must have at least 2 dimensions");
}

TEST(ShapeOpsTest, ViewDtypeReinterpretsBytes) {
  Tensor a = at::ones({2, 3});
  Tensor v = a.view(at::kShort);
  EXPECT_EQ(v.sizes().vec(), (Vec{2, 6}));
  EXPECT_TRUE(shares_storage(v, a));
  EXPECT_EQ(v.data_ptr<int16_t>()[1], 0x3f80);  // 1.0f is 0x3f800000; little-endian high half
  EXPECT_EQ(error_of([] { at::ones({3}).view(at::kLong); }),
            "self.size(-1) must be divisible by 2 to view Float as Long (different element sizes), but got 3");
}

TEST(ShapeOpsTest, MatrixTransposes) {
  Tensor a = arange_tensor({2, 3, 4});
  EXPECT_EQ(a.mT().sizes().vec(), (Vec{2, 4, 3}));
  EXPECT_EQ(a.numpy_T().sizes().vec(), (Vec{4, 3, 2}));
  EXPECT_TRUE(shares_storage(a.mT(), a));
  EXPECT_EQ(error_of([] { at::empty({3}).mT(); }),
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
}

}  // namespace
