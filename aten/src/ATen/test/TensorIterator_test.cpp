// Tests TensorIterator: broadcast shapes, output strides, type promotion (result_type's tiers
// and wrapped numbers), device/in-place/out= checks and their error texts, coalescing, the
// parallel loop. Mirrors PyTorch's aten/src/ATen/test/tensor_iterator_test.cpp.
// Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/TensorIterator.h>
#include <ATen/native/cpu/Loops.h>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

namespace {

using at::Tensor;
using at::TensorIterator;
using at::TensorIteratorConfig;

Tensor arange_float(std::vector<int64_t> shape, at::ScalarType dtype = at::kFloat) {
  Tensor t = at::empty(shape, dtype);
  AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, dtype, "arange", [&] {
    auto* p = t.data_ptr<scalar_t>();
    for (int64_t i = 0; i < t.numel(); i++) {
      p[i] = static_cast<scalar_t>(static_cast<float>(i));
    }
  });
  return t;
}

std::vector<int64_t> vec(at::IntArrayRef a) {
  return a.vec();
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

Tensor zeros0d(at::ScalarType dtype) {
  return at::zeros({}, dtype);
}

// ---- shapes ----

TEST(TensorIteratorTest, BroadcastsTrailingDimensions) {
  auto iter = TensorIterator::binary_op(Tensor(), at::ones({2, 3}), at::ones({3}));
  EXPECT_EQ(vec(iter.output().sizes()), (std::vector<int64_t>{2, 3}));
  auto iter2 = TensorIterator::binary_op(Tensor(), at::ones({2, 1}), at::ones({1, 4}));
  EXPECT_EQ(vec(iter2.output().sizes()), (std::vector<int64_t>{2, 4}));
  auto iter3 = TensorIterator::binary_op(Tensor(), at::ones({}), at::ones({5}));
  EXPECT_EQ(vec(iter3.output().sizes()), (std::vector<int64_t>{5}));
  auto iter4 = TensorIterator::binary_op(Tensor(), at::ones({}), at::ones({}));
  EXPECT_EQ(iter4.output().dim(), 0);
}

TEST(TensorIteratorTest, BroadcastMismatchIsPyTorchsError) {
  EXPECT_EQ(errorOf([] { at::add(at::ones({2, 3}), at::ones({4})); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_EQ(errorOf([] { at::mul(at::ones({5, 2}), at::ones({3, 1})); }),
            "The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 0");
}

TEST(TensorIteratorTest, ContiguousInputsGiveContiguousOutput) {
  auto out = at::add(at::ones({2, 3, 4}), at::ones({3, 4}));
  EXPECT_EQ(vec(out.strides()), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(out.is_contiguous());
}

TEST(TensorIteratorTest, OutputFollowsInputsPermutation) {
  // A transposed [3, 2] view of a contiguous [2, 3]: strides (1, 3).
  Tensor base = arange_float({2, 3});
  Tensor t = base.as_strided({3, 2}, {1, 3});
  Tensor out = at::neg(t);
  EXPECT_EQ(vec(out.strides()), (std::vector<int64_t>{1, 3}));
  Tensor sum = at::add(t, t);
  EXPECT_EQ(vec(sum.strides()), (std::vector<int64_t>{1, 3}));
  // Mixed layouts: the first operand that decides (here the contiguous one) wins.
  Tensor mixed = at::add(at::ones({3, 2}), t);
  EXPECT_EQ(vec(mixed.strides()), (std::vector<int64_t>{2, 1}));
}

// ---- type promotion ----

TEST(TensorIteratorTest, CommonDtypeFollowsResultTypeTiers) {
  auto common = [](const Tensor& a, const Tensor& b) { return TensorIterator::binary_op(Tensor(), a, b).common_dtype(); };
  EXPECT_EQ(common(at::ones({2}, at::kInt), at::ones({2}, at::kFloat)), at::kFloat);
  EXPECT_EQ(common(at::ones({2}, at::kByte), at::ones({2}, at::kChar)), at::kShort);
  EXPECT_EQ(common(at::ones({2}, at::kHalf), at::ones({2}, at::kBFloat16)), at::kFloat);
  // A 0-dim tensor only matters if its category is higher.
  EXPECT_EQ(common(at::ones({2}, at::kByte), zeros0d(at::kLong)), at::kByte);
  EXPECT_EQ(common(at::ones({2}, at::kHalf), zeros0d(at::kDouble)), at::kHalf);
  EXPECT_EQ(common(at::ones({2}, at::kInt), zeros0d(at::kDouble)), at::kDouble);
  // Wrapped numbers: the lowest tier; a wrapped double means the default dtype.
  EXPECT_EQ(common(at::ones({2}, at::kInt), at::native::wrapped_scalar_tensor(2.5)), at::kFloat);
  EXPECT_EQ(common(at::ones({2}, at::kInt), at::native::wrapped_scalar_tensor(int64_t(2))), at::kInt);
  EXPECT_EQ(common(at::ones({2}, at::kBool), at::native::wrapped_scalar_tensor(int64_t(3))), at::kLong);
  EXPECT_EQ(common(zeros0d(at::kInt), at::native::wrapped_scalar_tensor(2.5)), at::kFloat);
  // Two 0-dim tensors: ordinary promotion.
  EXPECT_EQ(common(zeros0d(at::kInt), zeros0d(at::kDouble)), at::kDouble);
}

TEST(TensorIteratorTest, ScalarArgumentsAreWrappedNumbers) {
  EXPECT_EQ(at::add(at::ones({2}, at::kInt), 2.5).scalar_type(), at::kFloat);
  EXPECT_EQ(at::add(at::ones({2}, at::kInt), 2).scalar_type(), at::kInt);
  EXPECT_EQ(at::add(at::ones({2}, at::kBool), 3).scalar_type(), at::kLong);
  EXPECT_EQ(at::mul(at::ones({2}, at::kHalf), 2.5).scalar_type(), at::kHalf);
  EXPECT_EQ(at::add(at::ones({2}, at::kByte), zeros0d(at::kLong)).scalar_type(), at::kByte);
}

TEST(TensorIteratorTest, ResultTypeOverloads) {
  EXPECT_EQ(at::result_type(at::ones({2}, at::kInt), at::ones({}, at::kDouble)), at::kDouble);
  EXPECT_EQ(at::result_type(at::ones({2}, at::kInt), at::Scalar(2.5)), at::kFloat);
  EXPECT_EQ(at::result_type(at::Scalar(1), at::ones({2}, at::kByte)), at::kByte);
  // Operators without tensor arguments are called on at::native here: this tree's dispatcher
  // does not yet route an empty key set to CompositeImplicitAutograd kernels as PyTorch does.
  EXPECT_EQ(at::native::result_type(at::Scalar(1), at::Scalar(2.5)), at::kFloat);
  EXPECT_EQ(at::native::result_type(at::Scalar(true), at::Scalar(false)), at::kBool);
  EXPECT_EQ(at::result_type(at::ones({2}, at::kLong), at::Scalar(c10::complex<double>(0, 1))), at::kComplexFloat);
  EXPECT_EQ(at::result_type(at::ones({2}, at::kDouble), at::Scalar(c10::complex<double>(0, 1))), at::kComplexDouble);
}

TEST(TensorIteratorTest, CanCastAndPromoteTypes) {
  EXPECT_TRUE(at::native::can_cast(at::kLong, at::kFloat));
  EXPECT_TRUE(at::native::can_cast(at::kDouble, at::kFloat));
  EXPECT_FALSE(at::native::can_cast(at::kFloat, at::kLong));
  EXPECT_FALSE(at::native::can_cast(at::kComplexFloat, at::kDouble));
  EXPECT_FALSE(at::native::can_cast(at::kInt, at::kBool));
  EXPECT_TRUE(at::native::can_cast(at::kBool, at::kInt));
  EXPECT_EQ(at::native::promote_types(at::kByte, at::kChar), at::kShort);
  EXPECT_EQ(at::native::promote_types(at::kBFloat16, at::kComplexHalf), at::kComplexFloat);
}

TEST(TensorIteratorTest, InputsOfOtherDtypesAreConvertedCopies) {
  Tensor a = at::ones({3}, at::kInt);
  auto iter = TensorIterator::binary_op(Tensor(), a, at::ones({3}, at::kDouble));
  EXPECT_EQ(iter.input(0).scalar_type(), at::kDouble);
  EXPECT_FALSE(iter.input(0).is_same(a));
  EXPECT_EQ(iter.dtype(0), at::kDouble);
}

TEST(TensorIteratorTest, CheckAllSameDtypeByDefault) {
  Tensor out = at::empty({2}, at::kFloat);
  EXPECT_EQ(errorOf([&] {
              TensorIteratorConfig().add_output(out).add_const_input(at::ones({2}, at::kDouble)).build();
            }),
            "Found dtype Float but expected Double");  // the inputs' dtype is the expected one
}

// ---- devices ----

TEST(TensorIteratorTest, DifferentDevicesAreRefused) {
  Tensor meta = at::empty({2}, at::kFloat, std::nullopt, at::Device(at::DeviceType::Meta), std::nullopt, std::nullopt);
  // Meta's wording names the first tensor's device as the expected one.
  EXPECT_EQ(errorOf([&] { TensorIterator::binary_op(Tensor(), meta, at::ones({2})); }),
            "Tensor on device cpu is not on the expected device meta!");
  EXPECT_EQ(errorOf([&] { TensorIterator::binary_op(Tensor(), at::ones({2}), meta); }),
            "Tensor on device meta is not on the expected device cpu!");
}

// ---- meta: build() computes the output's shape, dtype and strides; no loop runs ----

TEST(TensorIteratorTest, MetaBuildAllocatesAMetaOutputWithoutData) {
  Tensor a = at::empty({2, 1, 3}, at::kInt, std::nullopt, at::Device(at::DeviceType::Meta), std::nullopt, std::nullopt);
  Tensor b = at::empty({4, 1}, at::kFloat, std::nullopt, at::Device(at::DeviceType::Meta), std::nullopt, std::nullopt);
  auto iter = TensorIterator::binary_op(Tensor(), a, b);
  EXPECT_TRUE(iter.output().is_meta());
  EXPECT_EQ(iter.output().sizes(), at::IntArrayRef({2, 4, 3}));
  EXPECT_EQ(iter.output().strides(), at::IntArrayRef({12, 3, 1}));
  EXPECT_EQ(iter.output().scalar_type(), at::kFloat);
  EXPECT_EQ(iter.output().data_ptr(), nullptr);
}

TEST(TensorIteratorTest, MetaOperatorsRunTheirShapeLogicOnly) {
  Tensor a = at::empty({2, 3}, at::kFloat, std::nullopt, at::Device(at::DeviceType::Meta), std::nullopt, std::nullopt);
  Tensor sum = at::add(a, a).sum(at::IntArrayRef{0}, /*keepdim=*/true);
  EXPECT_TRUE(sum.is_meta());
  EXPECT_EQ(sum.sizes(), at::IntArrayRef({1, 3}));
  Tensor prod = at::mm(a, a.t());
  EXPECT_TRUE(prod.is_meta());
  EXPECT_EQ(prod.sizes(), at::IntArrayRef({2, 2}));
  EXPECT_EQ(errorOf([&] { at::mm(a, a); }), "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
}

TEST(TensorIteratorTest, ZeroDimCpuTensorsMayJoinAnotherDevice) {
  Tensor meta = at::empty({2}, at::kFloat, std::nullopt, at::Device(at::DeviceType::Meta), std::nullopt, std::nullopt);
  auto iter = TensorIterator::binary_op(Tensor(), meta, at::native::wrapped_scalar_tensor(2.0));
  EXPECT_TRUE(iter.output().is_meta());
  EXPECT_EQ(errorOf([&] { TensorIterator::binary_op(Tensor(), at::ones({}), at::ones({2})).common_dtype(); }),
            "<no error>");
}

// ---- in-place and out= ----

TEST(TensorIteratorTest, InPlaceOutputNeverBroadcasts) {
  Tensor a = at::ones({3});
  EXPECT_EQ(errorOf([&] { a.add_(at::ones({2, 3})); }), "output with shape [3] doesn't match the broadcast shape [2, 3]");
  Tensor b = at::ones({2, 3});
  b.add_(at::ones({3}));  // the other way round is fine
  EXPECT_EQ(vec(b.sizes()), (std::vector<int64_t>{2, 3}));
}

TEST(TensorIteratorTest, OutIsResizedInPlace) {
  Tensor out = at::empty({5});
  auto* impl = out.unsafeGetTensorImpl();
  at::add_out(out, at::ones({2, 3}), at::ones({3}));
  EXPECT_EQ(vec(out.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(out.unsafeGetTensorImpl(), impl);
  EXPECT_FLOAT_EQ(out.data_ptr<float>()[5], 2.0f);
}

TEST(TensorIteratorTest, UnsafeCastToOutIsRefused) {
  Tensor out = at::empty({2}, at::kLong);
  EXPECT_EQ(errorOf([&] { at::add_out(out, at::ones({2}), at::ones({2})); }),
            "result type Float can't be cast to the desired output type Long");
  Tensor i = at::ones({2}, at::kLong);
  EXPECT_EQ(errorOf([&] { i.add_(1.5); }), "result type Float can't be cast to the desired output type Long");
  Tensor b = at::ones({2}, at::kBool);
  EXPECT_EQ(errorOf([&] { b.add_(at::ones({2}, at::kInt)); }), "result type Int can't be cast to the desired output type Bool");
}

TEST(TensorIteratorTest, OutOfWiderDtypeGetsTheCommonDtypeCast) {
  Tensor out = at::empty({2}, at::kDouble);
  at::add_out(out, at::ones({2}, at::kInt), at::ones({2}, at::kInt));
  EXPECT_EQ(out.scalar_type(), at::kDouble);
  EXPECT_DOUBLE_EQ(out.data_ptr<double>()[1], 2.0);
  // Out of another dtype and another shape: both the temporary and out are resized.
  Tensor out2 = at::empty({0}, at::kDouble);
  at::mul_out(out2, at::ones({2, 2}, at::kInt), at::ones({2}, at::kInt));
  EXPECT_EQ(vec(out2.sizes()), (std::vector<int64_t>{2, 2}));
  EXPECT_DOUBLE_EQ(out2.data_ptr<double>()[3], 1.0);
}

TEST(TensorIteratorTest, ResizedOutTakesTheInputsPermutation) {
  Tensor base = arange_float({2, 3});
  Tensor t = base.as_strided({3, 2}, {1, 3});
  Tensor out = at::empty({0});
  at::add_out(out, t, t);
  EXPECT_EQ(vec(out.sizes()), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(vec(out.strides()), (std::vector<int64_t>{1, 3}));
  // t + t = [[0, 6], [2, 8], [4, 10]]; with strides (1, 3) the second stored element is [1, 0].
  EXPECT_FLOAT_EQ(out.data_ptr<float>()[1], 2.0f);
}

TEST(TensorIteratorTest, ZeroSizeTensorsBroadcastAndRunNothing) {
  Tensor r = at::add(at::ones({0, 3}), at::ones({3}));
  EXPECT_EQ(vec(r.sizes()), (std::vector<int64_t>{0, 3}));
  Tensor out = at::empty({0, 3});
  at::mul_out(out, at::ones({0, 3}), at::ones({3}));
  EXPECT_EQ(out.numel(), 0);
}

// ---- strides and coalescing ----

TEST(TensorIteratorTest, ContiguousOperandsCoalesceToOneDimension) {
  auto iter = TensorIterator::binary_op(Tensor(), at::ones({2, 3, 4}), at::ones({2, 3, 4}));
  EXPECT_EQ(iter.ndim(), 1);
  EXPECT_EQ(iter.shape()[0], 24);
  EXPECT_TRUE(iter.is_contiguous());
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{4}));
}

TEST(TensorIteratorTest, BroadcastDimensionsDoNotCoalesce) {
  auto iter = TensorIterator::binary_op(Tensor(), at::ones({2, 3}), at::ones({3}));
  EXPECT_EQ(iter.ndim(), 2);
  // Dimension 0 of the iterator is the fastest (the tensors' last dimension).
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(vec(iter.strides(2)), (std::vector<int64_t>{4, 0}));  // the broadcast input
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{4, 12}));
}

TEST(TensorIteratorTest, TransposedInputIsReorderedToMemoryOrder) {
  Tensor base = arange_float({2, 3});
  Tensor t = base.as_strided({3, 2}, {1, 3});
  auto iter = TensorIterator::unary_op(Tensor(), t);
  // Memory order of t is contiguous after reordering: one dimension of 6.
  EXPECT_EQ(iter.ndim(), 1);
  EXPECT_EQ(iter.shape()[0], 6);
}

TEST(TensorIteratorTest, SizeOneDimensionsCoalesce) {
  auto iter = TensorIterator::unary_op(Tensor(), at::ones({1, 4, 1, 5}));
  EXPECT_EQ(iter.ndim(), 1);
  EXPECT_EQ(iter.shape()[0], 20);
}

TEST(TensorIteratorTest, ScalarOperandHasZeroStrides) {
  auto iter = TensorIterator::binary_op(Tensor(), at::ones({4, 5}), at::native::wrapped_scalar_tensor(1.0));
  EXPECT_TRUE(iter.is_scalar(2));
  EXPECT_TRUE(iter.is_cpu_scalar(2));
  EXPECT_FALSE(iter.is_scalar(1));
}

// ---- the loop ----

TEST(TensorIteratorTest, ForEachVisitsEveryElementOnceAcrossThreads) {
  const int64_t n = 1000003;  // many grains, not a multiple of anything
  Tensor out = at::zeros({n}, at::kLong);
  auto iter = TensorIteratorConfig().add_output(out).resize_outputs(false).check_all_same_dtype(false).build();
  std::atomic<int64_t> visited{0};
  iter.for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    for (int64_t j = 0; j < size1; j++) {
      for (int64_t i = 0; i < size0; i++) {
        *reinterpret_cast<int64_t*>(data[0] + i * strides[0] + j * strides[1]) += 1;
      }
    }
    visited += size0 * size1;
  });
  EXPECT_EQ(visited.load(), n);
  const int64_t* p = out.data_ptr<int64_t>();
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; i++) {
    wrong += p[i] != 1;
  }
  EXPECT_EQ(wrong, 0);
}

TEST(TensorIteratorTest, SerialForEachWalksTwoDimensionalChunks) {
  // A transposed-and-broadcast iteration that cannot coalesce: the loop gets rows.
  Tensor a = arange_float({4, 3});
  Tensor t = a.as_strided({3, 4}, {1, 3});
  Tensor b = arange_float({4});
  Tensor out = at::add(t, b);
  const float* p = out.data_ptr<float>();
  // out[i][j] = t[i][j] + b[j] = a[j][i] + j = (3j + i) + j
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 4; j++) {
      EXPECT_FLOAT_EQ(p[i * out.stride(0) + j * out.stride(1)], float(3 * j + i + j));
    }
  }
}

TEST(TensorIteratorTest, CpuKernelRunsALambda) {
  Tensor a = arange_float({5});
  Tensor out;
  auto iter = TensorIterator::unary_op(out, a);
  at::native::cpu_kernel(iter, [](float x) -> float { return x * x + 1; });
  EXPECT_FLOAT_EQ(iter.output().data_ptr<float>()[4], 17.0f);
}

TEST(TensorIteratorTest, ParallelForCoversTheRangeExactlyOnce) {
  std::vector<int> hits(100000, 0);
  at::parallel_for(0, 100000, 1000, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) {
      hits[i]++;
    }
  });
  for (int h : hits) {
    ASSERT_EQ(h, 1);
  }
  int calls = 0;
  at::parallel_for(0, 10, at::internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
    calls++;
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 10);
  });
  EXPECT_EQ(calls, 1);  // below one grain: inline, one call
}

TEST(TensorIteratorTest, ParallelForRethrowsAChunksException) {
  if (at::get_num_threads() < 2) {
    GTEST_SKIP() << "needs threads";
  }
  EXPECT_THROW(at::parallel_for(0, 100000, 10,
                                [&](int64_t begin, int64_t) {
                                  if (begin > 0) {
                                    TORCH_CHECK(false, "boom");
                                  }
                                }),
               c10::Error);
}

}  // namespace
