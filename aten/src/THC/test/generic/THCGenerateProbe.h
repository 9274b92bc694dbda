// aten/src/THC/test/generic/THCGenerateProbe.h - a generic file for THCGenerate_test.cpp:
// each inclusion defines one function per type that reports what the generator set.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "THC/test/generic/THCGenerateProbe.h"
#else

struct TH_CONCAT_2(CReal, Probe) {
  const char* real;      // the word pasted into CPU names (THStorage_(NAME))
  const char* storage;   // the CUDA storage's name (THCStorage_(NAME))
  size_t scalar_size;    // sizeof(scalar_t)
  size_t accreal_size;   // sizeof(accreal)
  const char* file;      // THC_GENERIC_FILE while this instance was compiled
};

inline TH_CONCAT_2(CReal, Probe) TH_CONCAT_3(probe, _, CReal)() {
  return {TH_CONCAT_STRING_2(Real, ), TH_CONCAT_STRING_3(TH, CReal, Storage), sizeof(scalar_t), sizeof(accreal),
          THC_GENERIC_FILE};
}

#endif
