// aten/src/TH/test/THMapAllocator_test.cpp - THMapAllocator's flags: shared (writes reach
// the file) vs private (copy-on-write), a missing file with and without NOCREATE,
// exclusive, keep-fd, from-fd, unlink, shared memory. PyTorch deleted TH in 1.11 (the
// allocator lives on as at::MapAllocator). Guide: docs/source/internals/th_storage.rst.
#include <TH/TH.h>

#include <c10/core/CPUAllocator.h>

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace {

std::string tempPath(const char* tag) {
  return ::testing::TempDir() + "th_map_" + tag + "_" + std::to_string(getpid());
}

void writeFloats(const std::string& path, std::initializer_list<float> values) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (float v : values) {
    out.write(reinterpret_cast<const char*>(&v), sizeof v);
  }
}

float readFloat(const std::string& path, int index) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(index * static_cast<std::streamoff>(sizeof(float)));
  float v = 0;
  in.read(reinterpret_cast<char*>(&v), sizeof v);
  return v;
}

bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

TEST(THMapAllocator, SharedMappingWritesThroughToTheFile) {
  const std::string path = tempPath("shared");
  writeFloats(path, {1.f, 2.f, 3.f});
  THFloatStorage* s = THFloatStorage_newWithMapping(path.c_str(), 3, TH_ALLOCATOR_MAPPED_SHARED);
  EXPECT_EQ(THFloatStorage_get(s, 1), 2.f);
  EXPECT_FALSE(s->resizable());
  THFloatStorage_set(s, 1, 20.f);
  THFloatStorage_free(s);  // unmapped
  EXPECT_EQ(readFloat(path, 1), 20.f);
  std::remove(path.c_str());
}

TEST(THMapAllocator, PrivateMappingIsCopyOnWrite) {
  const std::string path = tempPath("private");
  writeFloats(path, {1.f, 2.f, 3.f});
  THFloatStorage* s = THFloatStorage_newWithMapping(path.c_str(), 3, 0);
  THFloatStorage_set(s, 1, 20.f);
  EXPECT_EQ(THFloatStorage_get(s, 1), 20.f);  // this process sees its write
  EXPECT_EQ(readFloat(path, 1), 2.f);         // the file does not
  THFloatStorage_free(s);
  EXPECT_EQ(readFloat(path, 1), 2.f);
  std::remove(path.c_str());
}

TEST(THMapAllocator, SizeZeroMapsTheWholeFile) {
  const std::string path = tempPath("whole");
  writeFloats(path, {1.f, 2.f, 3.f, 4.f});
  THFloatStorage* s = THFloatStorage_newWithMapping(path.c_str(), 0, 0);
  EXPECT_EQ(THFloatStorage_size(s), 4);
  THFloatStorage_free(s);
  std::remove(path.c_str());
}

TEST(THMapAllocator, SharedMappingCreatesAndGrowsTheFile) {
  const std::string path = tempPath("create");
  std::remove(path.c_str());
  THDoubleStorage* s = THDoubleStorage_newWithMapping(path.c_str(), 5, TH_ALLOCATOR_MAPPED_SHARED);
  EXPECT_EQ(THDoubleStorage_size(s), 5);
  THDoubleStorage_free(s);
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 5 * static_cast<off_t>(sizeof(double)));
  std::remove(path.c_str());
}

TEST(THMapAllocator, MissingFileWithNoCreateRaises) {
  const std::string path = tempPath("nocreate");
  std::remove(path.c_str());
  try {
    THMapAllocator m(path.c_str(), TH_ALLOCATOR_MAPPED_SHARED | TH_ALLOCATOR_MAPPED_NOCREATE, 16);
    FAIL() << "mapping a missing file with NOCREATE succeeded";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what_without_backtrace()).find("unable to open file <" + path + "> in read-write mode"),
              std::string::npos);
  }
  EXPECT_FALSE(exists(path));
}

TEST(THMapAllocator, MissingFilePrivateRaisesReadOnly) {
  const std::string path = tempPath("missing_private");
  std::remove(path.c_str());
  try {
    THFloatStorage_newWithMapping(path.c_str(), 4, 0);
    FAIL() << "a private mapping of a missing file succeeded";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what_without_backtrace()).find("in read-only mode: No such file or directory (2)"),
              std::string::npos);
  }
}

TEST(THMapAllocator, PrivateMappingLargerThanTheFileRaises) {
  const std::string path = tempPath("small");
  writeFloats(path, {1.f});
  EXPECT_THROW(THFloatStorage_newWithMapping(path.c_str(), 4, 0), c10::Error);
  std::remove(path.c_str());
}

TEST(THMapAllocator, ExclusiveRefusesAnExistingFile) {
  const std::string path = tempPath("excl");
  writeFloats(path, {1.f});
  EXPECT_THROW(THMapAllocator(path.c_str(), TH_ALLOCATOR_MAPPED_SHARED | TH_ALLOCATOR_MAPPED_EXCLUSIVE, 4),
               c10::Error);
  std::remove(path.c_str());
}

TEST(THMapAllocator, KeepFdFromFdAndUnlink) {
  const std::string path = tempPath("fd");
  writeFloats(path, {5.f, 6.f});
  {
    THMapAllocator kept(path.c_str(), TH_ALLOCATOR_MAPPED_SHARED | TH_ALLOCATOR_MAPPED_KEEPFD, 8);
    EXPECT_GE(kept.fd(), 0);
    THMapAllocator not_kept(path.c_str(), TH_ALLOCATOR_MAPPED_SHARED, 8);
    EXPECT_THROW(not_kept.fd(), c10::Error);
  }
  const int fd = open(path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  size_t actual = 0;
  c10::DataPtr p = THMapAllocator::makeDataPtr(THMapAllocator::WithFd(), path.c_str(), fd,
                                               TH_ALLOCATOR_MAPPED_SHARED | TH_ALLOCATOR_MAPPED_FROMFD |
                                                   TH_ALLOCATOR_MAPPED_UNLINK,
                                               0, &actual);
  EXPECT_EQ(actual, 2 * sizeof(float));
  EXPECT_EQ(static_cast<float*>(p.get())[1], 6.f);
  EXPECT_FALSE(exists(path));  // unlinked, still mapped
  ASSERT_NE(THMapAllocator::fromDataPtr(p), nullptr);
  EXPECT_EQ(THMapAllocator::fromDataPtr(p)->size(), 2 * sizeof(float));
}

TEST(THMapAllocator, SharedMemoryObject) {
  const std::string name = "/th_map_shm_" + std::to_string(getpid());
  size_t actual = 0;
  c10::DataPtr a = THMapAllocator::makeDataPtr(name.c_str(), TH_ALLOCATOR_MAPPED_SHAREDMEM, 64, &actual);
  EXPECT_EQ(actual, 64u);
  static_cast<char*>(a.get())[3] = 'x';
  c10::DataPtr b = THMapAllocator::makeDataPtr(
      name.c_str(), TH_ALLOCATOR_MAPPED_SHAREDMEM | TH_ALLOCATOR_MAPPED_NOCREATE | TH_ALLOCATOR_MAPPED_UNLINK, 64,
      nullptr);
  EXPECT_EQ(static_cast<char*>(b.get())[3], 'x');  // two mappings, one memory
}

TEST(THMapAllocator, DefaultAllocatorIsTheCPUAllocator) {
  EXPECT_EQ(getTHDefaultAllocator(), c10::GetCPUAllocator());
}
