// Tests TensorImpl metadata: contiguity and density rules, numel, key set, shared version counter, size() wrapping, data() offset and storage lifetime.
// Mirrors PyTorch's c10/core/TensorImpl.{h,cpp} and c10/core/Contiguity.h. Guide: docs/source/internals/tensors.rst.
#include <c10/core/CPUAllocator.h>
#include <c10/core/Contiguity.h>
#include <c10/core/TensorImpl.h>
#include <c10/core/WrapDimMinimal.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using c10::DispatchKey;
using c10::DispatchKeySet;
using c10::Storage;
using c10::TensorImpl;

namespace {

Storage cpuStorage(size_t nbytes) {
  return Storage(Storage::use_byte_size_t(), nbytes, c10::GetCPUAllocator(), /*resizable=*/true);
}

c10::intrusive_ptr<TensorImpl> floatImpl(Storage storage) {
  return c10::make_intrusive<TensorImpl>(std::move(storage), DispatchKeySet(DispatchKey::CPU),
                                         caffe2::TypeMeta::Make<float>());
}

c10::intrusive_ptr<TensorImpl> floatImpl(size_t nbytes = 256) {
  return floatImpl(cpuStorage(nbytes));
}

}  // namespace

// ---- contiguity ----

TEST(TensorImplTest, RowMajorStridesAreContiguous) {
  auto t = floatImpl();
  t->set_sizes_and_strides({2, 3}, {3, 1});
  EXPECT_TRUE(t->is_contiguous());
  EXPECT_TRUE(t->is_non_overlapping_and_dense());
  EXPECT_EQ(t->numel(), 6);
  EXPECT_EQ(t->dim(), 2);
}

TEST(TensorImplTest, SetSizesContiguousGivesRowMajorStrides) {
  auto t = floatImpl();
  t->set_sizes_contiguous({2, 3, 4});
  EXPECT_EQ(t->strides().vec(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(t->sizes().vec(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_TRUE(t->is_contiguous());
  EXPECT_EQ(t->numel(), 24);
  EXPECT_EQ(c10::contiguous_strides({2, 3}), (std::vector<int64_t>{3, 1}));
  // A size-0 dimension counts as 1 when computing strides.
  EXPECT_EQ(c10::contiguous_strides({2, 0, 3}), (std::vector<int64_t>{3, 3, 1}));
}

TEST(TensorImplTest, TransposeIsNotContiguousButDense) {
  auto t = floatImpl();
  // The transpose of a (2, 3) row-major tensor: sizes (3, 2), strides (1, 3).
  t->set_sizes_and_strides({3, 2}, {1, 3});
  EXPECT_FALSE(t->is_contiguous());
  EXPECT_TRUE(t->is_non_overlapping_and_dense());
}

TEST(TensorImplTest, SizeOneDimIgnoresItsStride) {
  auto t = floatImpl();
  t->set_sizes_and_strides({1, 3}, {100, 1});
  EXPECT_TRUE(t->is_contiguous());
  t->set_sizes_and_strides({3, 1}, {1, 100});
  EXPECT_TRUE(t->is_contiguous());
}

TEST(TensorImplTest, EmptyTensorIsContiguousWhateverItsStrides) {
  auto t = floatImpl();
  t->set_sizes_and_strides({0, 3}, {7, 9});
  EXPECT_EQ(t->numel(), 0);
  EXPECT_TRUE(t->is_contiguous());
}

TEST(TensorImplTest, StrideTwoSliceIsNeitherContiguousNorDense) {
  auto t = floatImpl();
  t->set_sizes_and_strides({3}, {2});
  EXPECT_FALSE(t->is_contiguous());
  EXPECT_FALSE(t->is_non_overlapping_and_dense());
  t->set_sizes_and_strides({2, 3}, {6, 2});  // every other column
  EXPECT_FALSE(t->is_contiguous());
  EXPECT_FALSE(t->is_non_overlapping_and_dense());
}

TEST(TensorImplTest, OverlappingExpandIsNotDense) {
  auto t = floatImpl();
  t->set_sizes_and_strides({2, 3}, {0, 1});  // expand of a row
  EXPECT_FALSE(t->is_contiguous());
  EXPECT_FALSE(t->is_non_overlapping_and_dense());
}

TEST(TensorImplTest, ComputeContiguousDirectly) {
  EXPECT_TRUE(c10::_compute_contiguous({2, 3}, {3, 1}, 6));
  EXPECT_FALSE(c10::_compute_contiguous({2, 3}, {1, 2}, 6));
  EXPECT_TRUE(c10::_compute_contiguous({2, 1, 3}, {3, 42, 1}, 6));
  EXPECT_TRUE(c10::_compute_contiguous({2, 3}, {0, 0}, 0));
  EXPECT_TRUE(c10::_compute_non_overlapping_and_dense({2, 3, 4}, {1, 8, 2}));
  EXPECT_FALSE(c10::_compute_non_overlapping_and_dense({2, 3}, {3, 2}));
}

// ---- numel, dims ----

TEST(TensorImplTest, FreshTensorIsOneDimEmpty) {
  auto t = floatImpl();
  EXPECT_EQ(t->dim(), 1);
  EXPECT_EQ(t->sizes().vec(), (std::vector<int64_t>{0}));
  EXPECT_EQ(t->numel(), 0);
}

TEST(TensorImplTest, ZeroDimTensorHasNumelOne) {
  auto t = floatImpl();
  t->set_sizes_contiguous({});
  EXPECT_EQ(t->dim(), 0);
  EXPECT_EQ(t->numel(), 1);
  EXPECT_TRUE(t->is_contiguous());
  EXPECT_TRUE(t->is_non_overlapping_and_dense());
}

TEST(TensorImplTest, SizeWrapsNegativeDims) {
  auto t = floatImpl();
  t->set_sizes_contiguous({2, 3});
  EXPECT_EQ(t->size(-1), 3);
  EXPECT_EQ(t->size(-2), 2);
  EXPECT_EQ(t->size(0), 2);
  EXPECT_EQ(t->stride(-1), 1);
  EXPECT_EQ(t->stride(0), 3);
}

TEST(TensorImplTest, SizeOutOfRangeIsIndexError) {
  auto t = floatImpl();
  t->set_sizes_contiguous({2, 3});
  try {
    t->size(5);
    FAIL() << "expected c10::IndexError";
  } catch (const c10::IndexError& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
  }
  EXPECT_THROW(t->size(-3), c10::IndexError);
  EXPECT_THROW(t->stride(2), c10::IndexError);
}

TEST(TensorImplTest, SizeOfZeroDimTensorHasNoDims) {
  auto t = floatImpl();
  t->set_sizes_contiguous({});
  try {
    t->size(0);
    FAIL() << "expected c10::IndexError";
  } catch (const c10::IndexError& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Dimension specified as 0 but tensor has no dimensions");
  }
}

TEST(WrapDimTest, MaybeWrapDim) {
  EXPECT_EQ(c10::maybe_wrap_dim(-1, 3), 2);
  EXPECT_EQ(c10::maybe_wrap_dim(2, 3), 2);
  EXPECT_EQ(c10::maybe_wrap_dim(-1, 0), 0);  // a scalar wraps like a 1-d tensor
  EXPECT_EQ(c10::maybe_wrap_dim(0, 0), 0);
  EXPECT_THROW(c10::maybe_wrap_dim(1, 0), c10::IndexError);
  EXPECT_THROW(c10::maybe_wrap_dim(3, 3), c10::IndexError);
}

// ---- key set, dtype, device ----

TEST(TensorImplTest, CpuKeySetHasAutogradAndAutocastKeys) {
  auto t = floatImpl();
  EXPECT_EQ(c10::toString(t->key_set()),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  EXPECT_TRUE(t->key_set().has(DispatchKey::AutogradCPU));
}

TEST(TensorImplTest, DtypeAndDeviceComeFromArguments) {
  auto t = floatImpl();
  EXPECT_EQ(t->dtype(), caffe2::TypeMeta::Make<float>());
  EXPECT_EQ(t->scalar_type(), c10::ScalarType::Float);
  EXPECT_EQ(t->itemsize(), 4u);
  EXPECT_EQ(t->device(), c10::Device(c10::DeviceType::CPU));
  EXPECT_TRUE(t->is_cpu());
  EXPECT_FALSE(t->is_cuda());
}

// ---- version counter ----

TEST(TensorImplTest, VersionCounterStartsAtZeroAndIsShared) {
  auto storage = cpuStorage(64);
  auto base = floatImpl(storage);
  auto view = floatImpl(storage);
  EXPECT_EQ(base->version_counter().current_version(), 0u);
  EXPECT_EQ(view->version_counter().current_version(), 0u);

  view->set_version_counter(base->version_counter());
  EXPECT_EQ(base->version_counter().use_count(), 2u);
  base->bump_version();
  EXPECT_EQ(base->version_counter().current_version(), 1u);
  EXPECT_EQ(view->version_counter().current_version(), 1u);
  view->bump_version();
  EXPECT_EQ(base->version_counter().current_version(), 2u);
}

TEST(TensorImplTest, SeparateVersionCountersAreIndependent) {
  auto a = floatImpl();
  auto b = floatImpl();
  a->bump_version();
  EXPECT_EQ(a->version_counter().current_version(), 1u);
  EXPECT_EQ(b->version_counter().current_version(), 0u);
  EXPECT_TRUE(b->version_counter().unique());
}

TEST(VariableVersionTest, DisabledCounterRefusesBump) {
  c10::VariableVersion disabled(c10::VariableVersion::DISABLED);
  EXPECT_FALSE(disabled.enabled());
  try {
    disabled.bump();
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
              "a clone to get a normal tensor before doing inplace update.See "
              "https://github.com/pytorch/rfcs/pull/17 for more details.");
  }
  c10::VariableVersion v;
  v.set_version(5);
  EXPECT_EQ(v.current_version(), 5u);
  EXPECT_THROW(v.set_version(-1), c10::Error);
}

// ---- data pointer and storage ----

TEST(TensorImplTest, DataIsStorageDataPlusOffsetTimesItemsize) {
  auto t = floatImpl(256);
  t->set_sizes_and_strides({4}, {1}, /*storage_offset=*/3);
  EXPECT_EQ(t->storage_offset(), 3);
  const char* base = static_cast<const char*>(t->storage().data());
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(static_cast<const char*>(t->data()), base + 3 * sizeof(float));
  EXPECT_EQ(t->mutable_data(), static_cast<void*>(const_cast<char*>(base) + 12));
  t->set_storage_offset(0);
  EXPECT_EQ(t->data(), static_cast<const void*>(base));
  EXPECT_THROW(t->set_storage_offset(-1), c10::Error);
}

TEST(TensorImplTest, KeepsStorageImplAlive) {
  auto storage = cpuStorage(64);
  c10::StorageImpl* raw = storage.unsafeGetStorageImpl();
  EXPECT_EQ(storage.use_count(), 1u);
  auto t = floatImpl(storage);
  EXPECT_EQ(storage.use_count(), 2u);
  auto t2 = floatImpl(storage);
  EXPECT_EQ(storage.use_count(), 3u);
  EXPECT_TRUE(t->storage().is_alias_of(t2->storage()));
  t2.reset();
  EXPECT_EQ(storage.use_count(), 2u);

  const void* data = storage.data();
  storage = Storage();  // drop the test's own handle: the tensor alone keeps it alive
  EXPECT_EQ(t->storage().unsafeGetStorageImpl(), raw);
  EXPECT_EQ(t->storage().use_count(), 1u);
  EXPECT_EQ(t->storage().data(), data);
  EXPECT_EQ(t->storage().nbytes(), 64u);
}

TEST(TensorImplTest, DataWithoutStorageThrows) {
  auto t = c10::make_intrusive<TensorImpl>(Storage(), DispatchKeySet(DispatchKey::CPU),
                                           caffe2::TypeMeta::Make<float>());
  EXPECT_FALSE(t->has_storage());
  EXPECT_EQ(t->device(), c10::Device(c10::DeviceType::CPU));
  try {
    (void)t->data();
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Cannot access data pointer of Tensor that doesn't have storage");
  }
}

TEST(TensorImplTest, MismatchedSizesAndStridesThrow) {
  auto t = floatImpl();
  try {
    t->set_sizes_and_strides({2, 3}, {1});
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "dimensionality of sizes (2) must match dimensionality of strides (1)");
  }
}
