// aten/src/TH/generic/THStorage.cpp - THStorage_(NAME), compiled once per element type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THStorage.cpp of PyTorch 1.10.
// Guide: docs/source/internals/finding_thstorage.rst.
//
// Not compiled by itself: THStorageFunctions.cpp includes it through THGenerate*Type.h,
// which defines scalar_t (float, double, ...) and Real (Float, Double, ...) each time.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THStorage.cpp"
#else

scalar_t* THStorage_(data)(const THStorage* self) {
  return static_cast<scalar_t*>(const_cast<void*>(self->data()));
}

// A StorageImpl counts bytes; a typed view counts elements.
ptrdiff_t THStorage_(size)(const THStorage* self) {
  return static_cast<ptrdiff_t>(self->nbytes() / sizeof(scalar_t));
}

size_t THStorage_(elementSize)() {
  return sizeof(scalar_t);
}

THStorage* THStorage_(new)() {
  return THStorage_(newWithSize)(0);
}

// [marker: newWithSize]
THStorage* THStorage_(newWithSize)(ptrdiff_t size) {
  THStorage* storage = c10::make_intrusive<at::StorageImpl>(
      caffe2::TypeMeta::Make<scalar_t>(),  // the element type: sizeof(scalar_t) bytes each
      size,                                // elements
      getTHDefaultAllocator(),             // the CPU allocator
      true)                                // resizable
                           .release();     // the caller owns one reference: THStorage_(free) drops it
  return storage;
}
// [end marker: newWithSize]

THStorage* THStorage_(newWithAllocator)(ptrdiff_t size, c10::Allocator* allocator) {
  THStorage* storage =
      c10::make_intrusive<at::StorageImpl>(caffe2::TypeMeta::Make<scalar_t>(), size, allocator, true).release();
  return storage;
}

// [marker: newWithMapping]
// The memory is the file: no allocator (so not resizable); size 0 maps the whole file.
THStorage* THStorage_(newWithMapping)(const char* filename, ptrdiff_t size, int flags) {
  THArgCheck(size >= 0, 2, "size must be non-negative, got ", size);
  size_t actual_size = 0;
  THStorage* storage =
      c10::make_intrusive<at::StorageImpl>(
          caffe2::TypeMeta::Make<scalar_t>(), size,
          THMapAllocator::makeDataPtr(filename, flags, static_cast<size_t>(size) * sizeof(scalar_t), &actual_size),
          /*allocator=*/nullptr, /*resizable=*/false)
          .release();
  if (size <= 0) {
    // Whole elements only: a 10-byte file is two floats.
    storage->set_nbytes(actual_size / sizeof(scalar_t) * sizeof(scalar_t));
  }
  return storage;
}
// [end marker: newWithMapping]

THStorage* THStorage_(newWithDataAndAllocator)(c10::DataPtr&& data, ptrdiff_t size, c10::Allocator* allocator) {
  THStorage* storage = c10::make_intrusive<at::StorageImpl>(caffe2::TypeMeta::Make<scalar_t>(), size,
                                                            std::move(data), allocator, allocator != nullptr)
                           .release();
  return storage;
}

void THStorage_(retain)(THStorage* storage) {
  THStorage_retain(storage);
}

void THStorage_(free)(THStorage* storage) {
  THStorage_free(storage);
}

void THStorage_(resize)(THStorage* storage, ptrdiff_t size) {
  ptrdiff_t size_bytes = 0;
  THArgCheck(!__builtin_mul_overflow(size, static_cast<ptrdiff_t>(sizeof(scalar_t)), &size_bytes), 2,
             "size of ", size, " elements overflows a byte count");
  THStorage_resizeBytes(storage, size_bytes);
}

void THStorage_(fill)(THStorage* storage, scalar_t value) {
  scalar_t* data = THStorage_(data)(storage);
  const ptrdiff_t n = THStorage_(size)(storage);
  for (ptrdiff_t i = 0; i < n; i++) {
    data[i] = value;
  }
}

// [marker: get_set]
void THStorage_(set)(THStorage* self, ptrdiff_t idx, scalar_t value) {
  THArgCheckIndex(idx >= 0 && idx < THStorage_(size)(self), "index ", idx, " out of range for storage of size ",
                  THStorage_(size)(self));
  THStorage_(data)(self)[idx] = value;
}

scalar_t THStorage_(get)(const THStorage* self, ptrdiff_t idx) {
  THArgCheckIndex(idx >= 0 && idx < THStorage_(size)(self), "index ", idx, " out of range for storage of size ",
                  THStorage_(size)(self));
  return THStorage_(data)(self)[idx];
}
// [end marker: get_set]

#endif
