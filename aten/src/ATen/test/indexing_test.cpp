// aten/src/ATen/test/indexing_test.cpp - t[...] from C++ (at::indexing::get_item / set_item)
// and the indexing operators: values, views vs copies, error types and texts.
// Mirrors PyTorch's aten/src/ATen/test/tensor_indexing_test.cpp. Guide: docs/source/internals/tensors.rst.
#include <ATen/ATen.h>
#include <ATen/TensorIndexing.h>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

using namespace at::indexing;
using Vec = std::vector<int64_t>;

at::Tensor arange_tensor(at::IntArrayRef sizes) {
  at::Tensor t = at::empty(sizes, at::kFloat);
  float* data = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<float>(i);
  return t;
}

at::Tensor long_tensor(const Vec& values) {
  at::Tensor t = at::empty({static_cast<int64_t>(values.size())}, at::kLong);
  for (size_t i = 0; i < values.size(); ++i) t.data_ptr<int64_t>()[i] = values[i];
  return t;
}

at::Tensor bool_tensor(const std::vector<bool>& values) {
  at::Tensor t = at::empty({static_cast<int64_t>(values.size())}, at::kBool);
  for (size_t i = 0; i < values.size(); ++i) t.data_ptr<bool>()[i] = values[i];
  return t;
}

std::vector<float> values(const at::Tensor& t) {
  at::Tensor c = t.contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

template <class E, class F>
void expect_error(F f, const std::string& message) {
  try {
    f();
    FAIL() << "expected an error: " << message;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), message);
  }
}

TEST(IndexingTest, BasicIndicesAreViews) {
  auto t = arange_tensor({3, 4});
  auto r = get_item(t, {1, Slice(None, None, 2)});
  EXPECT_EQ(r.sizes().vec(), (Vec{2}));
  EXPECT_TRUE(r.storage().is_alias_of(t.storage()));
  EXPECT_EQ(values(r), (std::vector<float>{4, 6}));
  auto n = get_item(t, {None, "...", None});
  EXPECT_EQ(n.sizes().vec(), (Vec{1, 3, 4, 1}));
  EXPECT_FALSE(get_item(t, {Slice()}).is_same(t));
}

TEST(IndexingTest, AdvancedIndicesCopyAndFollowPlacementRule) {
  auto t = arange_tensor({2, 3, 4});
  // separated index tensors: the broadcast index dimension goes first
  auto r = get_item(t, {long_tensor({0, 1}), Slice(), long_tensor({1, 2})});
  EXPECT_EQ(r.sizes().vec(), (Vec{2, 3}));
  EXPECT_FALSE(r.storage().is_alias_of(t.storage()));
  EXPECT_EQ(values(r), (std::vector<float>{1, 5, 9, 14, 18, 22}));
  // adjacent: it stays in place
  auto a = get_item(t, {Slice(), long_tensor({0, 1}), long_tensor({1, 2})});
  EXPECT_EQ(a.sizes().vec(), (Vec{2, 2}));
  EXPECT_EQ(values(a), (std::vector<float>{1, 6, 13, 18}));
}

TEST(IndexingTest, MaskAndNonContiguousSelf) {
  auto t = arange_tensor({3, 2}).t();  // [[0, 2, 4], [1, 3, 5]]
  auto r = get_item(t, {Slice(), bool_tensor({true, false, true})});
  EXPECT_EQ(values(r), (std::vector<float>{0, 4, 1, 5}));
  EXPECT_EQ(values(at::index(t, {std::optional<at::Tensor>(long_tensor({1}))})), (std::vector<float>{1, 3, 5}));
}

TEST(IndexingTest, SetItemWritesAndBumpsVersion) {
  auto t = at::zeros({2, 3}, at::kFloat);
  const auto v0 = t._version();
  set_item(t, {0}, 1.0);
  EXPECT_EQ(t._version(), v0 + 1);
  set_item(t, {Slice(), long_tensor({2})}, arange_tensor({2, 1}).add(at::Scalar(5.0)));
  EXPECT_EQ(values(t), (std::vector<float>{1, 1, 5, 0, 0, 6}));
}

TEST(IndexingTest, IndexPutAccumulate) {
  auto t = at::zeros({4}, at::kFloat);
  t.index_put_({std::optional<at::Tensor>(long_tensor({1, 1, 3}))}, arange_tensor({3}).add(at::Scalar(1.0)), /*accumulate=*/true);
  EXPECT_EQ(values(t), (std::vector<float>{0, 3, 0, 3}));
}

TEST(IndexingTest, Operators) {
  auto t = arange_tensor({2, 3});
  EXPECT_EQ(values(t.index_select(1, long_tensor({2, 0}))), (std::vector<float>{2, 0, 5, 3}));
  auto idx = long_tensor({2, 0}).view({1, 2});
  EXPECT_EQ(values(t.gather(1, idx)), (std::vector<float>{2, 0}));
  EXPECT_EQ(values(at::zeros({2, 3}, at::kFloat).scatter(1, idx, 7.0)), (std::vector<float>{7, 0, 7, 0, 0, 0}));
  EXPECT_EQ(values(t.take(long_tensor({5, -6}))), (std::vector<float>{5, 0}));
  EXPECT_EQ(values(t.masked_select(bool_tensor({false, true, false}))), (std::vector<float>{1, 4}));
  auto nz = at::nonzero(bool_tensor({false, true, true}));
  EXPECT_EQ(nz.sizes().vec(), (Vec{2, 1}));
  EXPECT_EQ(nz.data_ptr<int64_t>()[1], 2);
}

TEST(IndexingTest, ErrorsMatchPyTorch) {
  auto t = arange_tensor({2, 3});
  expect_error<c10::IndexError>([&] { get_item(t, {5}); }, "index 5 is out of bounds for dimension 0 with size 2");
  expect_error<c10::IndexError>([&] { get_item(t, {0, 0, 0}); }, "too many indices for tensor of dimension 2");
  expect_error<c10::IndexError>([&] { get_item(t, {bool_tensor({true, false, true})}); },
                                "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor "
                                "[2, 3] at index 0");
  expect_error<c10::ValueError>([&] { get_item(t, {Slice(None, None, -1)}); }, "step must be greater than zero");
  expect_error<c10::IndexError>([&] { get_item(t, {long_tensor({2})}); },
                                "index 2 is out of bounds for dimension 0 with size 2");
  expect_error<c10::IndexError>([&] { get_item(at::zeros({}, at::kFloat), {0}); },
                                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                                "in C++ to convert a 0-dim tensor to a number");
}

}  // namespace
