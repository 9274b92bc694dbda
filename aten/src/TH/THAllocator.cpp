// aten/src/TH/THAllocator.cpp - THMapAllocator: storage memory that is a mapped file.
// PyTorch deleted TH in 1.11 (the code lives on as aten/src/ATen/MapAllocator.cpp); this
// mirrors aten/src/TH/THAllocator.cpp of PyTorch 1.10. Guide: docs/source/internals/th_storage.rst.
//
// torch.FloatStorage.from_file(name, shared, size) -> THStorage_(newWithMapping) ->
// THMapAllocator::makeDataPtr: open the file, grow it if a shared mapping needs more
// bytes, mmap it, and hand the mapping to a DataPtr whose deleter unmaps it.
#include <TH/THAllocator.h>

#include <c10/core/CPUAllocator.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

c10::Allocator* getTHDefaultAllocator() {
  return c10::GetCPUAllocator();
}

namespace {
void deleteTHMapAllocator(void* ptr) {
  delete static_cast<THMapAllocator*>(ptr);
}
}  // namespace

THMapAllocator::THMapAllocator(const char* filename, int flags, size_t size)
    : THMapAllocator(WithFd(), filename, -1, flags, size) {}

// [marker: THMapAllocator_ctor]
THMapAllocator::THMapAllocator(WithFd, const char* filename, int fd, int flags, size_t size)
    : filename_(filename ? filename : ""), flags_(flags), size_(size), fd_(fd) {
  if (!(flags_ & TH_ALLOCATOR_MAPPED_FROMFD)) {
    fd_ = -1;
  }
  THArgCheck(!((flags_ & TH_ALLOCATOR_MAPPED_SHARED) && (flags_ & TH_ALLOCATOR_MAPPED_SHAREDMEM)), 2,
             "TH_ALLOCATOR_MAPPED_SHARED and TH_ALLOCATOR_MAPPED_SHAREDMEM are exclusive");
  const bool writable = flags_ & (TH_ALLOCATOR_MAPPED_SHARED | TH_ALLOCATOR_MAPPED_SHAREDMEM);

  // 1. Open. A writable mapping opens read-write and may create the file; a private
  // (copy-on-write) mapping only reads the file, so the file must exist.
  if (fd_ == -1) {
    int oflags = writable ? (O_RDWR | O_CREAT) : O_RDONLY;
    if (flags_ & TH_ALLOCATOR_MAPPED_EXCLUSIVE) {
      oflags |= O_EXCL;
    }
    if (flags_ & TH_ALLOCATOR_MAPPED_NOCREATE) {
      oflags &= ~O_CREAT;
    }
    if (flags_ & TH_ALLOCATOR_MAPPED_SHAREDMEM) {
      fd_ = shm_open(filename_.c_str(), oflags, S_IRUSR | S_IWUSR);
      if (fd_ == -1) {
        THError("unable to open shared memory object <", filename_, "> in read-write mode: ", std::strerror(errno),
                " (", errno, ")");
      }
    } else {
      fd_ = open(filename_.c_str(), oflags, S_IRUSR | S_IWUSR);
      if (fd_ == -1) {
        THError("unable to open file <", filename_, "> in ", writable ? "read-write" : "read-only",
                " mode: ", std::strerror(errno), " (", errno, ")");
      }
    }
  }

  // 2. Size. Size 0 means "the whole file"; a shared mapping larger than the file grows
  // the file (ftruncate), a private one cannot.
  struct stat file_stat;
  if (fstat(fd_, &file_stat) == -1) {
    const int err = errno;
    ::close(fd_);
    THError("unable to stat the file <", filename_, ">: ", std::strerror(err), " (", err, ")");
  }
  if (size_ > 0) {
    if (size_ > static_cast<size_t>(file_stat.st_size)) {
      if (writable) {
        if (ftruncate(fd_, static_cast<off_t>(size_)) == -1) {
          const int err = errno;
          ::close(fd_);
          THError("unable to resize file <", filename_, "> to the right size: ", std::strerror(err), " (", err, ")");
        }
      } else {
        ::close(fd_);
        THError("file <", filename_, "> size <", file_stat.st_size,
                "> is smaller than the required mapping size <", size_, ">");
      }
    }
  } else {
    size_ = static_cast<size_t>(file_stat.st_size);
  }

  // 3. Map. mmap of 0 bytes is an error, so an empty file gives an empty (null) mapping.
  if (size_ > 0) {
    base_ptr_ = mmap(nullptr, size_, PROT_READ | PROT_WRITE, writable ? MAP_SHARED : MAP_PRIVATE, fd_, 0);
    if (base_ptr_ == MAP_FAILED) {
      const int err = errno;
      base_ptr_ = nullptr;
      ::close(fd_);
      THError("unable to mmap ", size_, " bytes from file <", filename_, ">: ", std::strerror(err), " (", err, ")");
    }
  }

  // 4. The mapping stays valid without the descriptor (and without the name).
  if (!(flags_ & TH_ALLOCATOR_MAPPED_KEEPFD)) {
    ::close(fd_);
    fd_ = -1;
  }
  if (flags_ & TH_ALLOCATOR_MAPPED_UNLINK) {
    const int rc = (flags_ & TH_ALLOCATOR_MAPPED_SHAREDMEM) ? shm_unlink(filename_.c_str())
                                                             : unlink(filename_.c_str());
    if (rc == -1) {
      THError("could not unlink <", filename_, ">: ", std::strerror(errno), " (", errno, ")");
    }
  }
}
// [end marker: THMapAllocator_ctor]

int THMapAllocator::fd() const {
  TORCH_CHECK(flags_ & TH_ALLOCATOR_MAPPED_KEEPFD, "THMapAllocator::fd(): the descriptor was not kept "
              "(map with TH_ALLOCATOR_MAPPED_KEEPFD)");
  return fd_;
}

void THMapAllocator::close() {
  if (closed_) {
    return;
  }
  closed_ = true;
  if (fd_ != -1) {
    ::close(fd_);
    fd_ = -1;
  }
  if (base_ptr_ != nullptr) {
    munmap(base_ptr_, size_);
    base_ptr_ = nullptr;
  }
}

THMapAllocator::~THMapAllocator() {
  close();
}

THMapAllocator* THMapAllocator::fromDataPtr(const c10::DataPtr& data_ptr) {
  return data_ptr.cast_context<THMapAllocator>(&deleteTHMapAllocator);
}

// [marker: makeDataPtr]
c10::DataPtr THMapAllocator::makeDataPtr(const char* filename, int flags, size_t size, size_t* actual_size_out) {
  auto* context = new THMapAllocator(filename, flags, size);
  if (actual_size_out) *actual_size_out = context->size();
  return {context->data(), context, &deleteTHMapAllocator, c10::DeviceType::CPU};
}
// [end marker: makeDataPtr]

c10::DataPtr THMapAllocator::makeDataPtr(WithFd, const char* filename, int fd, int flags, size_t size,
                                         size_t* actual_size_out) {
  auto* context = new THMapAllocator(WithFd(), filename, fd, flags, size);
  if (actual_size_out) *actual_size_out = context->size();
  return {context->data(), context, &deleteTHMapAllocator, c10::DeviceType::CPU};
}
