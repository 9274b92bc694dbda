// aten/src/TH/generic/THStorageCopy.cpp - THStorage_(copy<Type>), compiled once per type:
// 9 destination types x 9 source types = 81 functions from one macro.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THStorageCopy.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THStorageCopy.cpp"
#else

void THStorage_(rawCopy)(THStorage* storage, scalar_t* src) {
  scalar_t* data = THStorage_(data)(storage);
  const ptrdiff_t n = THStorage_(size)(storage);
  for (ptrdiff_t i = 0; i < n; i++) {
    data[i] = src[i];
  }
}

void THStorage_(copy)(THStorage* storage, THStorage* src) {
  THArgCheck(THStorage_(size)(storage) == THStorage_(size)(src), 2, "size mismatch");
  THStorage_(rawCopy)(storage, THStorage_(data)(src));
}

// [marker: IMPLEMENT_THStorage_COPY]
// THStorage_(copyDouble) while Real is Float: THFloatStorage_copyDouble. Each element goes
// through static_cast<scalar_t>, so 2.7 -> 2 into an IntStorage, and 0.0 -> false into a
// BoolStorage, as in C.
#define IMPLEMENT_THStorage_COPY(TYPENAMESRC)                                                         \
  void THStorage_(copy##TYPENAMESRC)(THStorage * storage, TH##TYPENAMESRC##Storage * src) {           \
    const ptrdiff_t n = THStorage_(size)(storage);                                                    \
    THArgCheck(n == TH##TYPENAMESRC##Storage_size(src), 2, "size mismatch: self has ", n,             \
               " elements but src has ", TH##TYPENAMESRC##Storage_size(src));                         \
    auto* src_data = TH##TYPENAMESRC##Storage_data(src);                                              \
    scalar_t* data = THStorage_(data)(storage);                                                       \
    for (ptrdiff_t i = 0; i < n; i++) {                                                               \
      data[i] = static_cast<scalar_t>(src_data[i]);                                                   \
    }                                                                                                 \
  }

IMPLEMENT_THStorage_COPY(Byte)
IMPLEMENT_THStorage_COPY(Char)
IMPLEMENT_THStorage_COPY(Short)
IMPLEMENT_THStorage_COPY(Int)
IMPLEMENT_THStorage_COPY(Long)
IMPLEMENT_THStorage_COPY(Float)
IMPLEMENT_THStorage_COPY(Double)
IMPLEMENT_THStorage_COPY(Half)
IMPLEMENT_THStorage_COPY(Bool)
// [end marker: IMPLEMENT_THStorage_COPY]

#undef IMPLEMENT_THStorage_COPY

#endif
