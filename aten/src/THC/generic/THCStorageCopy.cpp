// aten/src/THC/generic/THCStorageCopy.cpp - THCStorage_(copy<Type>), THCStorage_(copyCuda<Type>)
// and THStorage_(copyCuda<Type>), compiled once per type: 9 x 9 functions in each direction.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/generic/THCStorageCopy.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
//
// Where the conversion happens: on the host. The GPU only ever receives or sends bytes of
// the type it stores (cudaMemcpyAsync on the current stream, then a wait); each element is
// converted by TH's CPU copies (TH/generic/THStorageCopy.cpp: static_cast<scalar_t>). So
// the GPU and CPU paths convert the same way, and no kernel is needed. Legacy THC did the
// CUDA -> CUDA conversions in a kernel instead (THCStorageCopy.cu), which avoids the round
// trip through host memory; here clarity wins over speed.
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "THC/generic/THCStorageCopy.cpp"
#else

// [marker: THCStorage_copyCPU]
// Same type, CPU -> CUDA: one copy of the bytes, in the order of the CUDA storage's
// device's current stream.
void THCStorage_(copyCPU)(THCState* state, THCStorage* self, THStorage* src) {
  THArgCheck(self->device_type() == c10::DeviceType::CUDA, 2, "expected a CUDA storage, got ", self->device());
  THArgCheck(src->device_type() == c10::DeviceType::CPU, 3, "expected a CPU storage, got ", src->device());
  const ptrdiff_t n = THCStorage_(size)(state, self);
  THArgCheck(n == THStorage_(size)(src), 2, "size does not match");
  const auto nbytes = static_cast<int64_t>(n * sizeof(scalar_t));
  c10::cuda::CUDAGuard guard(self->device());
  c10::cuda::memcpy_and_sync(THCStorage_(data)(state, self), THStorage_(data)(src), nbytes, cudaMemcpyHostToDevice,
                             c10::cuda::getCurrentCUDAStream().stream());
}
// [end marker: THCStorage_copyCPU]

// Same type, CUDA -> CPU.
void THStorage_(copyCuda)(THCState* state, THStorage* self, THCStorage* src) {
  THArgCheck(self->device_type() == c10::DeviceType::CPU, 2, "expected a CPU storage, got ", self->device());
  THArgCheck(src->device_type() == c10::DeviceType::CUDA, 3, "expected a CUDA storage, got ", src->device());
  const ptrdiff_t n = THStorage_(size)(self);
  THArgCheck(n == THCStorage_(size)(state, src), 2, "size does not match");
  const auto nbytes = static_cast<int64_t>(n * sizeof(scalar_t));
  c10::cuda::CUDAGuard guard(src->device());
  c10::cuda::memcpy_and_sync(THStorage_(data)(self), THCStorage_(data)(state, src), nbytes, cudaMemcpyDeviceToHost,
                             c10::cuda::getCurrentCUDAStream().stream());
}

// Same type, CUDA -> CUDA (possibly another GPU: addresses are unified, the runtime routes it).
void THCStorage_(copyCuda)(THCState* state, THCStorage* self, THCStorage* src) {
  THArgCheck(self->device_type() == c10::DeviceType::CUDA, 2, "expected a CUDA storage, got ", self->device());
  THArgCheck(src->device_type() == c10::DeviceType::CUDA, 3, "expected a CUDA storage, got ", src->device());
  const ptrdiff_t n = THCStorage_(size)(state, self);
  THArgCheck(n == THCStorage_(size)(state, src), 2, "size does not match");
  const auto nbytes = static_cast<int64_t>(n * sizeof(scalar_t));
  c10::cuda::CUDAGuard guard(self->device());
  c10::cuda::memcpy_and_sync(THCStorage_(data)(state, self), THCStorage_(data)(state, src), nbytes,
                             cudaMemcpyDeviceToDevice, c10::cuda::getCurrentCUDAStream().stream());
}

void THCStorage_(copy)(THCState* state, THCStorage* self, THCStorage* src) {
  THCStorage_(copyCuda)(state, self, src);
}

// [marker: THC_STORAGE_COPY]
// Each conversion goes through a CPU buffer, owned by an intrusive_ptr so that it is freed
// even when a copy throws. TH##TYPEC##Storage_size works on a CUDA storage too: it only
// divides nbytes() by the element size.

// CPU TYPEC -> CUDA Real: convert on the CPU into a Real buffer, then copy it up.
#define THC_STORAGE_IMPLEMENT_COPY(TYPEC)                                                                     \
  void THCStorage_(copy##TYPEC)(THCState * state, THCStorage * self, TH##TYPEC##Storage * src) {              \
    const ptrdiff_t n = TH##TYPEC##Storage_size(src);                                                         \
    THArgCheck(THCStorage_(size)(state, self) == n, 2, "size does not match");                                \
    THArgCheck(src->device_type() == c10::DeviceType::CPU, 3, "expected a CPU storage, got ", src->device()); \
    auto buffer = c10::intrusive_ptr<THStorage>::reclaim(THStorage_(newWithSize)(n));                         \
    THStorage_(copy##TYPEC)(buffer.get(), src); /* TYPEC -> Real, on the CPU */                               \
    THCStorage_(copyCPU)(state, self, buffer.get());                                                          \
  }

// CUDA TYPEC -> CPU Real: copy the bytes down into a TYPEC buffer, then convert on the CPU.
#define THC_STORAGE_IMPLEMENT_COPYTO(TYPEC)                                                                     \
  void THStorage_(copyCuda##TYPEC)(THCState * state, THStorage * self, THCuda##TYPEC##Storage * src) {          \
    const ptrdiff_t n = TH##TYPEC##Storage_size(src);                                                           \
    THArgCheck(THStorage_(size)(self) == n, 2, "size does not match");                                          \
    THArgCheck(self->device_type() == c10::DeviceType::CPU, 2, "expected a CPU storage, got ", self->device()); \
    auto buffer = c10::intrusive_ptr<THStorage>::reclaim(TH##TYPEC##Storage_newWithSize(n));                    \
    TH##TYPEC##Storage_copyCuda(state, buffer.get(), src);                                                      \
    THStorage_(copy##TYPEC)(self, buffer.get()); /* TYPEC -> Real, on the CPU */                                \
  }

// CUDA TYPEC -> CUDA Real: down and converted into a Real buffer (above), then up.
#define THC_STORAGE_IMPLEMENT_COPYCUDA(TYPEC)                                                            \
  void THCStorage_(copyCuda##TYPEC)(THCState * state, THCStorage * self, THCuda##TYPEC##Storage * src) { \
    const ptrdiff_t n = TH##TYPEC##Storage_size(src);                                                    \
    THArgCheck(THCStorage_(size)(state, self) == n, 2, "size does not match");                           \
    auto buffer = c10::intrusive_ptr<THStorage>::reclaim(THStorage_(newWithSize)(n));                    \
    THStorage_(copyCuda##TYPEC)(state, buffer.get(), src);                                               \
    THCStorage_(copyCPU)(state, self, buffer.get());                                                     \
  }

#define THC_STORAGE_IMPLEMENT_ALL_COPIES(TYPEC) \
  THC_STORAGE_IMPLEMENT_COPY(TYPEC)             \
  THC_STORAGE_IMPLEMENT_COPYTO(TYPEC)           \
  THC_STORAGE_IMPLEMENT_COPYCUDA(TYPEC)

THC_STORAGE_IMPLEMENT_ALL_COPIES(Byte)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Char)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Short)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Int)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Long)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Float)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Double)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Half)
THC_STORAGE_IMPLEMENT_ALL_COPIES(Bool)
// [end marker: THC_STORAGE_COPY]

#undef THC_STORAGE_IMPLEMENT_COPY
#undef THC_STORAGE_IMPLEMENT_COPYTO
#undef THC_STORAGE_IMPLEMENT_COPYCUDA
#undef THC_STORAGE_IMPLEMENT_ALL_COPIES

#endif
