// aten/src/THC/test/THCGenerate_test.cpp - THC's macro-generic mechanism: the same
// generator pattern as TH (TH/test/THGenerate_test.cpp), one instance per type with CReal
// for the CUDA names, and a C symbol for every typed copy. Needs no GPU.
// PyTorch deleted THC in 1.11. Guide: docs/source/internals/th_storage.rst.
#include <THC/THC.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <string>
#include <type_traits>

#include <THC/test/generic/THCGenerateProbe.h>
#include <THC/THCGenerateAllTypes.h>

#include <THC/test/generic/THCGenerateProbe.h>
#include <THC/THCGenerateBoolType.h>

TEST(THCGenerate, EachTypeGetsItsOwnInstance) {
  EXPECT_STREQ(probe_Cuda().real, "Float");
  EXPECT_STREQ(probe_Cuda().storage, "THCudaStorage");  // float is plain "Cuda"
  EXPECT_EQ(probe_Cuda().scalar_size, sizeof(float));
  EXPECT_EQ(probe_Cuda().accreal_size, sizeof(float));  // THC accumulates float in float
  EXPECT_STREQ(probe_CudaDouble().storage, "THCudaDoubleStorage");
  EXPECT_EQ(probe_CudaDouble().scalar_size, sizeof(double));
  EXPECT_STREQ(probe_CudaByte().real, "Byte");
  EXPECT_EQ(probe_CudaByte().scalar_size, 1u);
  EXPECT_EQ(probe_CudaChar().scalar_size, 1u);
  EXPECT_EQ(probe_CudaShort().scalar_size, 2u);
  EXPECT_EQ(probe_CudaInt().scalar_size, 4u);
  EXPECT_EQ(probe_CudaLong().scalar_size, 8u);
  EXPECT_STREQ(probe_CudaHalf().storage, "THCudaHalfStorage");  // Half is one of THC's "all types"
  EXPECT_EQ(probe_CudaHalf().scalar_size, 2u);
  EXPECT_EQ(probe_CudaHalf().accreal_size, sizeof(float));
  EXPECT_STREQ(probe_CudaBool().storage, "THCudaBoolStorage");
  EXPECT_EQ(probe_CudaBool().scalar_size, sizeof(bool));
}

TEST(THCGenerate, GeneratorsUndefineWhatTheyDefine) {
#if defined(scalar_t) || defined(Real) || defined(CReal) || defined(accreal) || defined(THC_GENERIC_FILE) || \
    defined(THCGenerateAllTypes) || defined(THC_REAL_IS_FLOAT)
  FAIL() << "a THCGenerate*Type.h header left a macro defined";
#endif
  EXPECT_STREQ(probe_CudaInt().file, "THC/test/generic/THCGenerateProbe.h");
}

// [marker: THCGenerate_signatures]
// The compiler checks what the generic header declared for one instance: the destination
// has the instance's type, the name says the source, the CUDA state comes first.
static_assert(std::is_same_v<decltype(&THCudaStorage_copyByte), void (*)(THCState*, THCudaStorage*, THByteStorage*)>);
static_assert(std::is_same_v<decltype(&THCudaDoubleStorage_copyCudaHalf),
                             void (*)(THCState*, THCudaDoubleStorage*, THCudaHalfStorage*)>);
static_assert(std::is_same_v<decltype(&THIntStorage_copyCudaFloat), void (*)(THCState*, THIntStorage*, THCudaStorage*)>);
static_assert(std::is_same_v<decltype(&THCudaHalfStorage_get), c10::Half (*)(THCState*, const THCStorage*, ptrdiff_t)>);
// [end marker: THCGenerate_signatures]

TEST(THCGenerate, EveryTypedCopyIsACSymbol) {
  // 9 x 9 copies in each of the three directions, found by their C names in libtorch_cuda.so.
  const char* types[] = {"Byte", "Char", "Short", "Int", "Long", "Float", "Double", "Half", "Bool"};
  auto cuda_name = [](const std::string& type) { return type == "Float" ? std::string("Cuda") : "Cuda" + type; };
  int found = 0;
  for (const std::string dst : types) {
    for (const std::string src : types) {
      for (const std::string& name : {"TH" + cuda_name(dst) + "Storage_copy" + src,        // CPU  -> CUDA
                                     "TH" + cuda_name(dst) + "Storage_copyCuda" + src,    // CUDA -> CUDA
                                     "TH" + dst + "Storage_copyCuda" + src}) {           // CUDA -> CPU
        EXPECT_NE(dlsym(RTLD_DEFAULT, name.c_str()), nullptr) << name;
        ++found;
      }
    }
  }
  EXPECT_EQ(found, 3 * 81);
  EXPECT_NE(dlsym(RTLD_DEFAULT, "THCudaStorage_newWithSize"), dlsym(RTLD_DEFAULT, "THCudaDoubleStorage_newWithSize"));
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "THCudaStorage_newWithSize"), reinterpret_cast<void*>(&THCudaStorage_newWithSize));
  // THFloatStorage_copyCuda (same type, bytes only) lives in libtorch_cuda.so, next to
  // THFloatStorage_copyDouble in libtorch_cpu.so: one name family, two libraries.
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&THFloatStorage_copyCuda), &info), 0);
  EXPECT_NE(std::string(info.dli_fname).find("libtorch_cuda.so"), std::string::npos) << info.dli_fname;
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&THFloatStorage_copyDouble), &info), 0);
  EXPECT_NE(std::string(info.dli_fname).find("libtorch_cpu.so"), std::string::npos) << info.dli_fname;
}
