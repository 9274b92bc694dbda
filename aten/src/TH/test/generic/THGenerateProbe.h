// aten/src/TH/test/generic/THGenerateProbe.h - a generic file for THGenerate_test.cpp:
// each inclusion defines one function per type that reports what the generator set.
// Guide: docs/source/internals/macro_generic.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/test/generic/THGenerateProbe.h"
#else

struct TH_CONCAT_2(Real, Probe) {
  const char* real;      // the word pasted into names
  size_t scalar_size;    // sizeof(scalar_t)
  size_t accreal_size;   // sizeof(accreal)
  const char* file;      // TH_GENERIC_FILE while this instance was compiled
};

inline TH_CONCAT_2(Real, Probe) TH_CONCAT_3(probe, _, Real)() {
  return {TH_CONCAT_STRING_2(Real, ), sizeof(scalar_t), sizeof(accreal), TH_GENERIC_FILE};
}

#endif
