// aten/src/TH/THAllocator.h - THMapAllocator (storage backed by a file through mmap) and
// getTHDefaultAllocator(). PyTorch deleted TH in 1.11 and moved THMapAllocator to
// aten/src/ATen/MapAllocator.h (as at::MapAllocator); this mirrors aten/src/TH/THAllocator.h
// of PyTorch 1.10. Guide: docs/source/internals/th_storage.rst.
#pragma once

#include <TH/THGeneral.h>

#include <c10/core/Allocator.h>

#include <string>

// [marker: TH_ALLOCATOR_MAPPED]
// How THMapAllocator opens and maps the file (combine with |):
#define TH_ALLOCATOR_MAPPED_SHARED 1     // map MAP_SHARED: writes reach the file (else MAP_PRIVATE, copy-on-write)
#define TH_ALLOCATOR_MAPPED_SHAREDMEM 2  // the name is a POSIX shared memory object (shm_open), not a path
#define TH_ALLOCATOR_MAPPED_EXCLUSIVE 4  // fail if the file exists (O_EXCL)
#define TH_ALLOCATOR_MAPPED_NOCREATE 8   // fail if the file does not exist (no O_CREAT)
#define TH_ALLOCATOR_MAPPED_KEEPFD 16    // keep the descriptor open while mapped (fd())
#define TH_ALLOCATOR_MAPPED_FROMFD 32    // map a descriptor the caller opened
#define TH_ALLOCATOR_MAPPED_UNLINK 64    // remove the name once mapped (the memory stays until unmapped)
#define TH_ALLOCATOR_MAPPED_ALLOCATOR_FLAGS 127
// [end marker: TH_ALLOCATOR_MAPPED]

// The default allocator of TH storages: the CPU allocator (c10::GetCPUAllocator()).
// Seed 000: "Default allocator is malloc/free allocator."
TH_CPP_API c10::Allocator* getTHDefaultAllocator();

// One mapping of a file (or shared memory object) into memory. A DataPtr made by
// makeDataPtr owns a THMapAllocator as its context: when the last storage using the
// memory dies, deleteTHMapAllocator unmaps it (and closes or unlinks as the flags say).
class TH_CPP_API THMapAllocator {
 public:
  struct WithFd {};
  // Map `size` bytes of `filename`; size 0 maps the whole (existing) file.
  THMapAllocator(const char* filename, int flags, size_t size);
  // Map an already open descriptor (TH_ALLOCATOR_MAPPED_FROMFD).
  THMapAllocator(WithFd, const char* filename, int fd, int flags, size_t size);
  THMapAllocator(const THMapAllocator&) = delete;
  THMapAllocator& operator=(const THMapAllocator&) = delete;
  virtual ~THMapAllocator();

  const char* filename() const { return filename_.c_str(); }
  int fd() const;  // only with TH_ALLOCATOR_MAPPED_KEEPFD
  size_t size() const { return size_; }
  int flags() const { return flags_; }
  void* data() const { return base_ptr_; }
  // Unmap now (the destructor does it otherwise).
  virtual void close();

  // The THMapAllocator behind a DataPtr that makeDataPtr made, or nullptr.
  static THMapAllocator* fromDataPtr(const c10::DataPtr& data_ptr);
  static c10::DataPtr makeDataPtr(const char* filename, int flags, size_t size, size_t* actual_size_out);
  static c10::DataPtr makeDataPtr(WithFd, const char* filename, int fd, int flags, size_t size,
                                  size_t* actual_size_out);

 protected:
  bool closed_ = false;
  std::string filename_;
  int flags_ = 0;
  size_t size_ = 0;  // bytes mapped
  int fd_ = -1;
  void* base_ptr_ = nullptr;
};
