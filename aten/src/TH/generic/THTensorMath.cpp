// aten/src/TH/generic/THTensorMath.cpp - THTensor_(fill), zero, sumall, once per type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THTensorMath.cpp of PyTorch 1.10,
// whose TH_TENSOR_APPLY macros walked any strided tensor; here one small loop does.
// Guide: docs/source/internals/th_storage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensorMath.cpp"
#else

// Call op(element) for every element of a strided tensor, last dimension fastest.
template <typename Op>
static void THTensor_(apply)(THTensor* t, Op op) {
  const int64_t numel = t->numel();
  if (numel == 0) {
    return;
  }
  scalar_t* data = THTensor_(data)(t);
  const int ndim = THTensor_nDimension(t);
  std::vector<int64_t> counter(static_cast<size_t>(ndim), 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < numel; i++) {
    op(data[offset]);
    for (int d = ndim - 1; d >= 0; d--) {
      if (++counter[d] < t->sizes()[d]) {
        offset += t->strides()[d];
        break;
      }
      offset -= t->strides()[d] * (t->sizes()[d] - 1);
      counter[d] = 0;
    }
  }
}

void THTensor_(fill)(THTensor* r_, scalar_t value) {
  THTensor_(apply)(r_, [value](scalar_t& x) { x = value; });
}

void THTensor_(zero)(THTensor* r_) {
  THTensor_(fill)(r_, static_cast<scalar_t>(0));
}

// [marker: sumall]
accreal THTensor_(sumall)(THTensor* t) {
  accreal sum = 0;
  THTensor_(apply)(t, [&sum](scalar_t& x) { sum += static_cast<accreal>(x); });
  return sum;
}
// [end marker: sumall]

#endif
