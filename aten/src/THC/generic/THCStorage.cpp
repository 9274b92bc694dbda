// aten/src/THC/generic/THCStorage.cpp - THCStorage_(NAME), compiled once per element type.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/generic/THCStorage.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
//
// Not compiled by itself: THCStorage.cpp includes it through THCGenerate*Type.h.
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "THC/generic/THCStorage.cpp"
#else

// The pointer is a device address: the CPU must not read through it (get/set copy instead).
scalar_t* THCStorage_(data)(THCState* state, const THCStorage* self) {
  return static_cast<scalar_t*>(const_cast<void*>(self->data()));
}

ptrdiff_t THCStorage_(size)(THCState* state, const THCStorage* self) {
  return static_cast<ptrdiff_t>(self->nbytes() / sizeof(scalar_t));
}

int THCStorage_(elementSize)(THCState* state) {
  return static_cast<int>(sizeof(scalar_t));
}

void THCStorage_(set)(THCState* state, THCStorage* self, ptrdiff_t index, scalar_t value) {
  THArgCheckIndex(index >= 0 && index < THCStorage_(size)(state, self), "index ", index,
                  " out of range for storage of size ", THCStorage_(size)(state, self));
  c10::cuda::CUDAGuard guard(self->device());
  c10::cuda::memcpy_and_sync(THCStorage_(data)(state, self) + index, &value, sizeof(scalar_t),
                             cudaMemcpyHostToDevice, c10::cuda::getCurrentCUDAStream().stream());
}

scalar_t THCStorage_(get)(THCState* state, const THCStorage* self, ptrdiff_t index) {
  THArgCheckIndex(index >= 0 && index < THCStorage_(size)(state, self), "index ", index,
                  " out of range for storage of size ", THCStorage_(size)(state, self));
  scalar_t value;
  c10::cuda::CUDAGuard guard(self->device());
  c10::cuda::memcpy_and_sync(&value, THCStorage_(data)(state, self) + index, sizeof(scalar_t),
                             cudaMemcpyDeviceToHost, c10::cuda::getCurrentCUDAStream().stream());
  return value;
}

THCStorage* THCStorage_(new)(THCState* state) {
  return THCStorage_(newWithSize)(state, 0);
}

// [marker: THCStorage_newWithSize]
// TH's THStorage_(newWithSize) with the CUDA allocator: the memory is on the current GPU.
THCStorage* THCStorage_(newWithSize)(THCState* state, ptrdiff_t size) {
  // As at::empty(..., device="cuda") initialises CUDA before it allocates: without a GPU
  // this raises PyTorch's reason ("Found no NVIDIA driver on your system ...").
  THCudaInit(state);
  return THCStorage_(newWithAllocator)(state, size, c10::GetAllocator(c10::DeviceType::CUDA));
}
// [end marker: THCStorage_newWithSize]

THCStorage* THCStorage_(newWithAllocator)(THCState* state, ptrdiff_t size, c10::Allocator* allocator) {
  THArgCheck(size >= 0, 2, "size must be non-negative, got ", size);
  THCStorage* storage = c10::make_intrusive<at::StorageImpl>(
                            caffe2::TypeMeta::Make<scalar_t>(),  // the element type
                            size,                                // elements
                            allocator,                           // c10::GetAllocator(DeviceType::CUDA)
                            true)                                // resizable
                            .release();                          // THCStorage_(free) drops it
  return storage;
}

THCStorage* THCStorage_(newWithDataAndAllocator)(THCState* state, c10::DataPtr&& data, ptrdiff_t size,
                                                  c10::Allocator* allocator) {
  THCStorage* storage = c10::make_intrusive<at::StorageImpl>(caffe2::TypeMeta::Make<scalar_t>(), size,
                                                             std::move(data), allocator, allocator != nullptr)
                            .release();
  return storage;
}

// Reference counting is TH's: a storage is a StorageImpl wherever its memory is.
void THCStorage_(retain)(THCState* state, THCStorage* self) {
  THStorage_retain(self);
}

void THCStorage_(free)(THCState* state, THCStorage* self) {
  THStorage_free(self);
}

void THCStorage_(resize)(THCState* state, THCStorage* self, ptrdiff_t size) {
  ptrdiff_t size_bytes = 0;
  THArgCheck(!__builtin_mul_overflow(size, static_cast<ptrdiff_t>(sizeof(scalar_t)), &size_bytes), 2,
             "size of ", size, " elements overflows a byte count");
  THCStorage_resizeBytes(state, self, size_bytes);
}

// Legacy THC filled on the GPU (thrust::fill in THCStorage.cu). This THC has no kernels (the
// host compiler builds it), so TH fills a host buffer of the same size and one copy takes it
// up: a synchronised transfer, like get and set.
void THCStorage_(fill)(THCState* state, THCStorage* self, scalar_t value) {
  const ptrdiff_t n = THCStorage_(size)(state, self);
  auto buffer = c10::intrusive_ptr<THStorage>::reclaim(THStorage_(newWithSize)(n));
  THStorage_(fill)(buffer.get(), value);
  THCStorage_(copyCPU)(state, self, buffer.get());
}

int THCStorage_(getDevice)(THCState* state, const THCStorage* self) {
  return self->device().index();
}

#endif
