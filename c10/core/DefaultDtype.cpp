// c10/core/DefaultDtype.cpp - the process-wide default floating dtype.
// Mirrors PyTorch's c10/core/DefaultDtype.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/core/DefaultDtype.h>

namespace c10 {

static caffe2::TypeMeta default_dtype = caffe2::TypeMeta::Make<float>();
static ScalarType default_dtype_as_scalartype = ScalarType::Float;
static caffe2::TypeMeta default_complex_dtype = caffe2::TypeMeta::Make<c10::complex<float>>();

void set_default_dtype(caffe2::TypeMeta dtype) {
  default_dtype = dtype;
  default_dtype_as_scalartype = dtype.toScalarType();
  switch (default_dtype_as_scalartype) {
    case ScalarType::Half:
      default_complex_dtype = caffe2::TypeMeta::fromScalarType(ScalarType::ComplexHalf);
      break;
    case ScalarType::Double:
      default_complex_dtype = caffe2::TypeMeta::fromScalarType(ScalarType::ComplexDouble);
      break;
    default:
      default_complex_dtype = caffe2::TypeMeta::fromScalarType(ScalarType::ComplexFloat);
      break;
  }
}

caffe2::TypeMeta get_default_dtype() {
  return default_dtype;
}

ScalarType get_default_dtype_as_scalartype() {
  return default_dtype_as_scalartype;
}

caffe2::TypeMeta get_default_complex_dtype() {
  return default_complex_dtype;
}

}  // namespace c10
