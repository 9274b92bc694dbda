// aten/src/TH/test/THGenerate_test.cpp - the macro-generic mechanism: one generic file,
// included once per type by THGenerateAllTypes.h, gives each type its own symbols.
// PyTorch deleted TH in 1.11 (and these tests with it). Guide: docs/source/internals/macro_generic.rst.
#include <TH/TH.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <cstring>
#include <string>

#include <TH/test/generic/THGenerateProbe.h>
#include <TH/THGenerateAllTypes.h>

#include <TH/test/generic/THGenerateProbe.h>
#include <TH/THGenerateHalfType.h>

#include <TH/test/generic/THGenerateProbe.h>
#include <TH/THGenerateBoolType.h>

TEST(THGenerate, EachTypeGetsItsOwnInstance) {
  EXPECT_STREQ(probe_Float().real, "Float");
  EXPECT_EQ(probe_Float().scalar_size, sizeof(float));
  EXPECT_EQ(probe_Float().accreal_size, sizeof(double));
  EXPECT_STREQ(probe_Double().real, "Double");
  EXPECT_EQ(probe_Double().scalar_size, sizeof(double));
  EXPECT_EQ(probe_Byte().scalar_size, 1u);
  EXPECT_EQ(probe_Char().scalar_size, 1u);
  EXPECT_EQ(probe_Short().scalar_size, 2u);
  EXPECT_EQ(probe_Int().scalar_size, 4u);
  EXPECT_EQ(probe_Long().scalar_size, 8u);
  EXPECT_EQ(probe_Long().accreal_size, 8u);
  EXPECT_EQ(probe_Half().scalar_size, 2u);
  EXPECT_EQ(probe_Half().accreal_size, sizeof(float));
  EXPECT_EQ(probe_Bool().scalar_size, sizeof(bool));
}

TEST(THGenerate, GeneratorsUndefineWhatTheyDefine) {
  // After the last generator, nothing leaks into the code that follows.
#if defined(scalar_t) || defined(Real) || defined(accreal) || defined(TH_GENERIC_FILE) || \
    defined(THGenerateManyTypes) || defined(TH_REAL_IS_FLOAT)
  FAIL() << "a THGenerate*Type.h header left a macro defined";
#endif
  EXPECT_STREQ(probe_Int().file, "TH/test/generic/THGenerateProbe.h");
}

TEST(THGenerate, ConcatExpandsItsArgumentsFirst) {
#define Real Float
  EXPECT_STREQ(TH_CONCAT_STRING_3(TH, Real, Storage), "THFloatStorage");
#undef Real
  // Without the extra level, the word itself would be pasted.
  EXPECT_STREQ(TH_CONCAT_STRING_2_EXPAND(TH, Real), "TH" "Real");
}

TEST(THGenerate, StorageFunctionsAreDistinctCSymbols) {
  // extern "C": one plain symbol per type, found by name in libtorch_cpu.so.
  void* self = dlopen(nullptr, RTLD_NOW);
  ASSERT_NE(self, nullptr);
  void* f = dlsym(RTLD_DEFAULT, "THFloatStorage_newWithSize");
  void* d = dlsym(RTLD_DEFAULT, "THDoubleStorage_newWithSize");
  ASSERT_NE(f, nullptr);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(f, d);
  EXPECT_EQ(f, reinterpret_cast<void*>(&THFloatStorage_newWithSize));
  for (const char* name : {"THByteStorage_get", "THCharStorage_get", "THShortStorage_get", "THIntStorage_get",
                           "THLongStorage_get", "THHalfStorage_get", "THBoolStorage_get",
                           "THFloatStorage_copyHalf", "THBoolStorage_copyDouble", "THDoubleTensor_sumall"}) {
    EXPECT_NE(dlsym(RTLD_DEFAULT, name), nullptr) << name;
  }
  dlclose(self);
}
