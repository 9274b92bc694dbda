// aten/src/ATen/test/TensorShape_test.cpp - views: PyTorch's sizes, strides and offsets, shared storage.
// Mirrors view checks of PyTorch's test/test_view_ops.py. Guide: docs/source/internals/tensors.rst.
#include <ATen/ATen.h>

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace {

using Vec = std::vector<int64_t>;

// A contiguous float tensor holding 0, 1, 2, ... so element values name their storage index.
at::Tensor arange_tensor(at::IntArrayRef sizes) {
  at::Tensor t = at::empty(sizes, at::kFloat);
  float* data = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<float>(i);
  return t;
}

// Element at an index, read through sizes/strides/offset (the formula views rely on).
float at_index(const at::Tensor& t, const Vec& index) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.stride(static_cast<int64_t>(d));
  return t.data_ptr<float>()[offset];
}

void expect_view_of(const at::Tensor& view, const at::Tensor& base) {
  EXPECT_TRUE(view.storage().is_alias_of(base.storage()));
  EXPECT_EQ(view.unsafeGetTensorImpl()->version_counter().use_count(),
            base.unsafeGetTensorImpl()->version_counter().use_count());
}

TEST(TensorShapeTest, TransposeSwapsSizesAndStrides) {
  auto a = arange_tensor({2, 3});
  auto t = a.t();
  EXPECT_EQ(t.sizes().vec(), (Vec{3, 2}));
  EXPECT_EQ(t.strides().vec(), (Vec{1, 3}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(at_index(t, {2, 1}), 5.f);
  expect_view_of(t, a);
  auto b = arange_tensor({2, 3, 4}).transpose(0, -1);
  EXPECT_EQ(b.sizes().vec(), (Vec{4, 3, 2}));
  EXPECT_EQ(b.strides().vec(), (Vec{1, 4, 12}));
}

TEST(TensorShapeTest, TOfA3dTensorIsAnError) {
  try {
    arange_tensor({2, 2, 2}).t();
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "t() expects a tensor with <= 2 dimensions, but self is 3D");
  }
}

TEST(TensorShapeTest, PermuteReordersDimensions) {
  auto p = arange_tensor({2, 3, 4}).permute({2, 0, 1});
  EXPECT_EQ(p.sizes().vec(), (Vec{4, 2, 3}));
  EXPECT_EQ(p.strides().vec(), (Vec{1, 12, 4}));
  EXPECT_THROW(arange_tensor({2, 3}).permute({0, 0}), c10::Error);
  EXPECT_THROW(arange_tensor({2, 3}).permute({0}), c10::Error);
}

TEST(TensorShapeTest, SelectDropsADimensionAndMovesTheOffset) {
  auto a = arange_tensor({3, 4});
  auto row = a.select(0, 2);
  EXPECT_EQ(row.sizes().vec(), (Vec{4}));
  EXPECT_EQ(row.strides().vec(), (Vec{1}));
  EXPECT_EQ(row.storage_offset(), 8);
  auto col = a.select(1, -1);
  EXPECT_EQ(col.strides().vec(), (Vec{4}));
  EXPECT_EQ(col.storage_offset(), 3);
  expect_view_of(col, a);
}

TEST(TensorShapeTest, SelectOutOfRangeIsAnIndexError) {
  try {
    arange_tensor({2}).select(0, 5);
    FAIL();
  } catch (const c10::IndexError& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "select(): index 5 out of range for tensor of size [2] at dimension 0");
  }
}

TEST(TensorShapeTest, SliceWithAStep) {
  auto a = arange_tensor({10});
  auto s = a.slice(0, 1, 8, 3);  // a[1:8:3] = 1, 4, 7
  EXPECT_EQ(s.sizes().vec(), (Vec{3}));
  EXPECT_EQ(s.strides().vec(), (Vec{3}));
  EXPECT_EQ(s.storage_offset(), 1);
  EXPECT_EQ(at_index(s, {2}), 7.f);
  // Bounds are clamped as in Python: a[-3:100] is the last three.
  auto tail = a.slice(0, -3, 100, 1);
  EXPECT_EQ(tail.sizes().vec(), (Vec{3}));
  EXPECT_EQ(tail.storage_offset(), 7);
  EXPECT_EQ(a.slice(0, 8, 2, 1).numel(), 0);
}

TEST(TensorShapeTest, NarrowIsASliceOfALength) {
  auto n = arange_tensor({4, 5}).narrow(1, 1, 3);
  EXPECT_EQ(n.sizes().vec(), (Vec{4, 3}));
  EXPECT_EQ(n.strides().vec(), (Vec{5, 1}));
  EXPECT_EQ(n.storage_offset(), 1);
  EXPECT_THROW(arange_tensor({4}).narrow(0, 2, 3), c10::Error);
}

TEST(TensorShapeTest, ViewKeepsStridesOfContiguousChunks) {
  auto a = arange_tensor({2, 3, 4});
  auto v = a.view({6, 4});
  EXPECT_EQ(v.strides().vec(), (Vec{4, 1}));
  EXPECT_EQ(a.view({-1}).sizes().vec(), (Vec{24}));
  EXPECT_EQ(a.view({2, -1, 2}).sizes().vec(), (Vec{2, 6, 2}));
  // A transposed tensor can be viewed where a new dimension stays inside one chunk...
  auto t = arange_tensor({4, 6}).t();  // sizes [6, 4], strides [1, 6]
  auto split = t.view({2, 3, 4});
  EXPECT_EQ(split.strides().vec(), (Vec{3, 1, 6}));
  expect_view_of(split, t);
}

TEST(TensorShapeTest, ViewAcrossChunksIsRefused) {
  try {
    arange_tensor({4, 6}).t().view({24});
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
              "two contiguous subspaces). Use .reshape(...) instead.");
  }
}

TEST(TensorShapeTest, ViewOfTheWrongNumberOfElements) {
  try {
    arange_tensor({2, 3}).view({4});
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "shape '[4]' is invalid for input of size 6");
  }
  EXPECT_THROW(arange_tensor({2, 3}).view({-1, -1}), c10::Error);
}

TEST(TensorShapeTest, ExpandGivesStrideZero) {
  auto a = arange_tensor({3, 1});
  auto e = a.expand({2, 3, 4});
  EXPECT_EQ(e.sizes().vec(), (Vec{2, 3, 4}));
  EXPECT_EQ(e.strides().vec(), (Vec{0, 1, 0}));
  EXPECT_EQ(at_index(e, {1, 2, 3}), 2.f);
  EXPECT_EQ(a.expand({-1, 5}).sizes().vec(), (Vec{3, 5}));
}

TEST(TensorShapeTest, ExpandOfANonSingletonDimensionIsRefused) {
  try {
    arange_tensor({2, 3}).expand({4, 3});
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0.  "
              "Target sizes: [4, 3].  Tensor sizes: [2, 3]");
  }
}

TEST(TensorShapeTest, UnsqueezeAndSqueeze) {
  auto a = arange_tensor({2, 3});
  auto u = a.unsqueeze(1);
  EXPECT_EQ(u.sizes().vec(), (Vec{2, 1, 3}));
  EXPECT_EQ(u.strides().vec(), (Vec{3, 3, 1}));
  EXPECT_EQ(a.unsqueeze(-1).strides().vec(), (Vec{3, 1, 1}));
  auto s = arange_tensor({1, 2, 1, 3});
  EXPECT_EQ(s.squeeze().sizes().vec(), (Vec{2, 3}));
  EXPECT_EQ(s.squeeze(2).sizes().vec(), (Vec{1, 2, 3}));
  EXPECT_EQ(s.squeeze(1).sizes().vec(), (Vec{1, 2, 1, 3}));  // size 2: nothing to squeeze
  EXPECT_EQ(s.squeeze(at::IntArrayRef{0, 2}).sizes().vec(), (Vec{2, 3}));
  EXPECT_THROW(a.unsqueeze(3), c10::IndexError);
}

TEST(TensorShapeTest, SplitChunkUnbind) {
  auto a = arange_tensor({5, 2});
  auto parts = a.split(2);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].sizes().vec(), (Vec{1, 2}));
  EXPECT_EQ(parts[2].storage_offset(), 8);
  auto chunks = a.chunk(2, 0);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].size(0), 3);
  EXPECT_EQ(chunks[1].size(0), 2);
  auto rows = a.unbind(1);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].strides().vec(), (Vec{2}));
  EXPECT_EQ(rows[1].storage_offset(), 1);
  auto sized = a.split_with_sizes({1, 4});
  EXPECT_EQ(sized[1].size(0), 4);
  EXPECT_THROW(a.split_with_sizes({1, 1}), c10::Error);
}

TEST(TensorShapeTest, DiagonalHasTheSumOfTheStrides) {
  auto a = arange_tensor({3, 4});
  auto d = a.diagonal();
  EXPECT_EQ(d.sizes().vec(), (Vec{3}));
  EXPECT_EQ(d.strides().vec(), (Vec{5}));
  EXPECT_EQ(at_index(d, {2}), 10.f);
  auto above = a.diagonal(1);
  EXPECT_EQ(above.storage_offset(), 1);
  EXPECT_EQ(above.size(0), 3);
  auto below = a.diagonal(-2);
  EXPECT_EQ(below.storage_offset(), 8);
  EXPECT_EQ(below.size(0), 1);
}

TEST(TensorShapeTest, MovedimAndUnflatten) {
  auto a = arange_tensor({2, 3, 4});
  EXPECT_EQ(a.movedim(0, -1).sizes().vec(), (Vec{3, 4, 2}));
  EXPECT_EQ(a.movedim(at::IntArrayRef{0, 1}, at::IntArrayRef{2, 0}).sizes().vec(), (Vec{3, 4, 2}));
  auto u = arange_tensor({2, 12}).unflatten(1, {3, -1});
  EXPECT_EQ(u.sizes().vec(), (Vec{2, 3, 4}));
  EXPECT_EQ(u.strides().vec(), (Vec{12, 4, 1}));
}

TEST(TensorShapeTest, AsStridedChecksTheStorageBounds) {
  auto a = arange_tensor({6});
  auto w = a.as_strided({2, 2}, {1, 2}, 1);  // [[1, 3], [2, 4]]
  EXPECT_EQ(at_index(w, {1, 1}), 4.f);
  EXPECT_THROW(a.as_strided({3, 3}, {3, 1}), c10::Error);
}

TEST(TensorShapeTest, ViewsShareTheVersionCounter) {
  auto a = arange_tensor({2, 2});
  auto v = a.t();
  v.fill_(1);
  v.unsafeGetTensorImpl()->bump_version();
  EXPECT_EQ(a._version(), v._version());
  EXPECT_EQ(a.data_ptr<float>()[3], 1.f);
}

}  // namespace
