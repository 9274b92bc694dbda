// add.c
// Seed 000's macro-generic example (the pattern of aten/src/TH/THStorageFunctions.cpp): compiles
// generic/add.c once for float and once for double. Guide: docs/source/internals/macro_generic.rst.
#include "add.h"

#define num float
#define Num Float
#include "generic/add.c"
#undef num
#undef Num

#define num double
#define Num Double
#include "generic/add.c"
#undef num
#undef Num
