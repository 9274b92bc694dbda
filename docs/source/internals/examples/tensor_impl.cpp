// docs/source/internals/examples/tensor_impl.cpp - a TensorImpl and a transposed view of it,
// built by hand over one Storage. Compiled and run by the doctest in tensors.rst.
#include <c10/core/CPUAllocator.h>
#include <c10/core/TensorImpl.h>

#include <iostream>

using namespace c10;

void print(const char* name, const TensorImpl& t) {
  std::cout << name << ": sizes=" << t.sizes() << " strides=" << t.strides()
            << " offset=" << t.storage_offset() << " contiguous=" << t.is_contiguous()
            << " dense=" << t.is_non_overlapping_and_dense() << "\n";
}

int main() {
  // 6 float32 elements = 24 bytes from the registered CPU allocator.
  Storage storage(Storage::use_byte_size_t(), 6 * sizeof(float), GetCPUAllocator(), /*resizable=*/true);
  auto* data = static_cast<float*>(storage.mutable_data());
  for (int i = 0; i < 6; ++i) {
    data[i] = static_cast<float>(i);
  }

  // base = [[0, 1, 2], [3, 4, 5]]
  auto base = make_intrusive<TensorImpl>(Storage(storage), DispatchKeySet(DispatchKey::CPU),
                                         caffe2::TypeMeta::Make<float>());
  base->set_sizes_contiguous({2, 3});
  print("base", *base);

  // base.t(): same storage, sizes and strides swapped. No element is copied.
  auto t = make_intrusive<TensorImpl>(Storage(storage), DispatchKeySet(DispatchKey::CPU),
                                      caffe2::TypeMeta::Make<float>());
  t->set_sizes_and_strides({3, 2}, {1, 3});
  print("t", *t);

  // base[1]: a row, starting 3 elements into the storage.
  auto row = make_intrusive<TensorImpl>(Storage(storage), DispatchKeySet(DispatchKey::CPU),
                                        caffe2::TypeMeta::Make<float>());
  row->set_sizes_and_strides({3}, {1}, /*storage_offset=*/3);
  print("row", *row);

  // Element (i, j) of t lives at storage_offset + i*stride[0] + j*stride[1].
  const auto* tdata = static_cast<const float*>(t->data());
  std::cout << "t[2][1] = " << tdata[2 * t->stride(0) + 1 * t->stride(1)] << "\n";
  std::cout << "row[0] = " << *static_cast<const float*>(row->data()) << "\n";

  // One StorageImpl, four owners: the local handle and three TensorImpls.
  std::cout << "storage use_count = " << storage.use_count() << "\n";

  // Views share one version counter; an in-place write through either bumps it.
  t->set_version_counter(base->version_counter());
  base->bump_version();
  std::cout << "t version = " << t->version_counter().current_version() << "\n";

  std::cout << "key_set = " << base->key_set() << "\n";
  return 0;
}
