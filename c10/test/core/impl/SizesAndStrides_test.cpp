// Tests impl::SizesAndStrides: inline storage up to 5 dims, out-of-line beyond, resize in all four directions, copy.
// Mirrors PyTorch's c10/test/core/impl/SizesAndStrides_test.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/core/impl/SizesAndStrides.h>

#include <gtest/gtest.h>

#include <vector>

using c10::impl::SizesAndStrides;

namespace {

std::vector<int64_t> sizesOf(const SizesAndStrides& s) {
  return s.sizes_arrayref().vec();
}
std::vector<int64_t> stridesOf(const SizesAndStrides& s) {
  return s.strides_arrayref().vec();
}

// sizes 1..n, strides 100+1 .. 100+n: distinct values so a mixed-up copy shows.
SizesAndStrides filled(size_t n) {
  SizesAndStrides s;
  s.resize(n);
  for (size_t i = 0; i < n; ++i) {
    s.size_at_unchecked(i) = static_cast<int64_t>(i + 1);
    s.stride_at_unchecked(i) = static_cast<int64_t>(101 + i);
  }
  return s;
}

void expectPrefix(const SizesAndStrides& s, size_t kept) {
  for (size_t i = 0; i < kept; ++i) {
    EXPECT_EQ(s.size_at_unchecked(i), static_cast<int64_t>(i + 1)) << "size " << i;
    EXPECT_EQ(s.stride_at_unchecked(i), static_cast<int64_t>(101 + i)) << "stride " << i;
  }
}

void expectZeroFrom(const SizesAndStrides& s, size_t from) {
  for (size_t i = from; i < s.size(); ++i) {
    EXPECT_EQ(s.size_at_unchecked(i), 0) << "new size " << i;
    EXPECT_EQ(s.stride_at_unchecked(i), 0) << "new stride " << i;
  }
}

}  // namespace

TEST(SizesAndStridesTest, DefaultIsOneDimSizeZeroStrideOne) {
  SizesAndStrides s;
  EXPECT_EQ(s.size(), 1u);
  EXPECT_TRUE(s.isInline());
  EXPECT_EQ(sizesOf(s), (std::vector<int64_t>{0}));
  EXPECT_EQ(stridesOf(s), (std::vector<int64_t>{1}));
}

TEST(SizesAndStridesTest, InlineUpToFiveDims) {
  EXPECT_EQ(C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE, 5);
  for (size_t n = 0; n <= 5; ++n) {
    SizesAndStrides s = filled(n);
    EXPECT_TRUE(s.isInline()) << n;
    EXPECT_EQ(s.size(), n);
    expectPrefix(s, n);
  }
  EXPECT_FALSE(filled(6).isInline());
  EXPECT_FALSE(filled(11).isInline());
}

TEST(SizesAndStridesTest, OutOfLineStoresSizesThenStrides) {
  SizesAndStrides s = filled(7);
  EXPECT_FALSE(s.isInline());
  EXPECT_EQ(sizesOf(s), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(stridesOf(s), (std::vector<int64_t>{101, 102, 103, 104, 105, 106, 107}));
  EXPECT_EQ(s.strides_data(), s.sizes_data() + 7);
}

TEST(SizesAndStridesTest, SetSizesAndSetStrides) {
  SizesAndStrides s;
  s.set_sizes({2, 3, 4});
  s.set_strides({12, 4, 1});
  EXPECT_EQ(sizesOf(s), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(stridesOf(s), (std::vector<int64_t>{12, 4, 1}));
  s.set_sizes({1, 2, 3, 4, 5, 6});
  EXPECT_FALSE(s.isInline());
  EXPECT_EQ(sizesOf(s), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  // The first three strides survive the move out of line.
  EXPECT_EQ(stridesOf(s), (std::vector<int64_t>{12, 4, 1, 0, 0, 0}));
  EXPECT_THROW(s.set_strides({1, 2}), c10::Error);  // wrong length
}

TEST(SizesAndStridesTest, ResizeInlineToInlineGrowAndShrink) {
  SizesAndStrides s = filled(3);
  s.resize(5);
  EXPECT_TRUE(s.isInline());
  expectPrefix(s, 3);
  expectZeroFrom(s, 3);
  s.resize(2);
  EXPECT_EQ(s.size(), 2u);
  expectPrefix(s, 2);
  // Growing again must not resurrect the values dropped by the shrink.
  s.resize(4);
  expectPrefix(s, 2);
  expectZeroFrom(s, 2);
}

TEST(SizesAndStridesTest, ResizeInlineToOutOfLine) {
  SizesAndStrides s = filled(5);
  s.resize(8);
  EXPECT_FALSE(s.isInline());
  EXPECT_EQ(s.size(), 8u);
  expectPrefix(s, 5);
  expectZeroFrom(s, 5);
}

TEST(SizesAndStridesTest, ResizeOutOfLineToInline) {
  SizesAndStrides s = filled(8);
  s.resize(4);
  EXPECT_TRUE(s.isInline());
  EXPECT_EQ(s.size(), 4u);
  expectPrefix(s, 4);
  s.resize(5);  // exactly at the inline limit
  EXPECT_TRUE(s.isInline());
  expectPrefix(s, 4);
  expectZeroFrom(s, 4);
}

TEST(SizesAndStridesTest, ResizeOutOfLineToOutOfLineGrowAndShrink) {
  SizesAndStrides s = filled(7);
  s.resize(10);
  EXPECT_FALSE(s.isInline());
  expectPrefix(s, 7);
  expectZeroFrom(s, 7);
  s.resize(6);
  EXPECT_FALSE(s.isInline());
  EXPECT_EQ(s.size(), 6u);
  expectPrefix(s, 6);
  EXPECT_EQ(s.strides_data(), s.sizes_data() + 6);
}

TEST(SizesAndStridesTest, ResizeToSameSizeKeepsEverything) {
  SizesAndStrides s = filled(7);
  s.resize(7);
  expectPrefix(s, 7);
  SizesAndStrides t = filled(3);
  t.resize(3);
  expectPrefix(t, 3);
}

TEST(SizesAndStridesTest, CopyConstructInlineAndOutOfLine) {
  for (size_t n : {size_t(3), size_t(9)}) {
    SizesAndStrides src = filled(n);
    SizesAndStrides copy(src);
    EXPECT_EQ(copy.size(), n);
    EXPECT_EQ(copy.isInline(), src.isInline());
    expectPrefix(copy, n);
    // A deep copy: changing the copy leaves the source alone.
    copy.size_at_unchecked(0) = 77;
    EXPECT_EQ(src.size_at_unchecked(0), 1);
    if (!src.isInline()) {
      EXPECT_NE(copy.sizes_data(), src.sizes_data());
    }
  }
}

TEST(SizesAndStridesTest, CopyAssignAcrossAllLayouts) {
  const size_t sizes[] = {2, 5, 6, 9};
  for (size_t from : sizes) {
    for (size_t to : sizes) {
      SizesAndStrides src = filled(from);
      SizesAndStrides dst = filled(to);
      dst.size_at_unchecked(0) = -5;
      dst = src;
      EXPECT_EQ(dst.size(), from) << to << " <- " << from;
      EXPECT_EQ(dst.isInline(), from <= 5);
      expectPrefix(dst, from);
      expectPrefix(src, from);
    }
  }
}

TEST(SizesAndStridesTest, SelfAssignIsHarmless) {
  SizesAndStrides s = filled(8);
  SizesAndStrides& alias = s;
  s = alias;
  EXPECT_EQ(s.size(), 8u);
  expectPrefix(s, 8);
}
