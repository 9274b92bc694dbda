// ${generated_comment}
// Every operator's schema, registered with the dispatcher: TORCH_LIBRARY(aten, m).
// Template: aten/src/ATen/templates/RegisterSchema.cpp. Guide: docs/source/internals/generated_code.rst.
#include <torch/library.h>

TORCH_LIBRARY(aten, m) {
  ${schema_registrations}
}
