// aten/src/ATen/Dispatch.h - AT_DISPATCH_*: run a templated lambda for a tensor's dtype.
// Mirrors PyTorch's aten/src/ATen/Dispatch.h. Guide: docs/source/internals/dispatch.rst
// ("Dispatch: three ways": by hand, templates (this file), macros (aten/src/TH)).
//
//   AT_DISPATCH_ALL_TYPES(t.scalar_type(), "fill_cpu", [&] {
//     scalar_t* data = t.data_ptr<scalar_t>();   // scalar_t is float, double, int64_t, ...
//   });
// expands to a switch over ScalarType whose every case defines `scalar_t` and calls the
// lambda: the kernel is written once, as a template, and compiled once per dtype.
#pragma once

#include <ATen/core/DeprecatedTypeProperties.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>

namespace detail {
// The TYPE of AT_DISPATCH_*: a ScalarType, or (from extensions older than PyTorch 1.0) the
// deprecated x.type(), which still works, with a compiler warning.
inline at::ScalarType scalar_type(at::ScalarType s) {
  return s;
}
C10_DEPRECATED_MESSAGE("passing at::DeprecatedTypeProperties to an AT_DISPATCH macro is deprecated, "
                       "pass an at::ScalarType instead")
inline at::ScalarType scalar_type(const at::DeprecatedTypeProperties& t) {
  return t.scalarType();
}
}  // namespace detail

#define AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, ...) \
  case enum_type: {                                          \
    using HINT = c10::ScalarTypeToCPPTypeT<enum_type>;       \
    return __VA_ARGS__();                                    \
  }

#define AT_DISPATCH_CASE(enum_type, ...) AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, scalar_t, __VA_ARGS__)

// The switch itself: an unhandled dtype is PyTorch's '"fill_cpu" not implemented for 'Bool''.
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                                                      \
  [&] {                                                                                          \
    const at::ScalarType _st = ::detail::scalar_type(TYPE);                                      \
    constexpr const char* at_dispatch_name = NAME;                                               \
    switch (_st) {                                                                               \
      __VA_ARGS__                                                                                \
      default:                                                                                   \
        TORCH_CHECK_NOT_IMPLEMENTED(false, '"', at_dispatch_name, "\" not implemented for '",    \
                                    c10::toString(_st), "'");                                    \
    }                                                                                            \
  }()

#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...)          \
  AT_DISPATCH_CASE(at::ScalarType::Byte, __VA_ARGS__)  \
  AT_DISPATCH_CASE(at::ScalarType::Char, __VA_ARGS__)  \
  AT_DISPATCH_CASE(at::ScalarType::Int, __VA_ARGS__)   \
  AT_DISPATCH_CASE(at::ScalarType::Long, __VA_ARGS__)  \
  AT_DISPATCH_CASE(at::ScalarType::Short, __VA_ARGS__)

#define AT_DISPATCH_CASE_FLOATING_TYPES(...)            \
  AT_DISPATCH_CASE(at::ScalarType::Double, __VA_ARGS__) \
  AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__)

#define AT_DISPATCH_CASE_COMPLEX_TYPES(...)                    \
  AT_DISPATCH_CASE(at::ScalarType::ComplexDouble, __VA_ARGS__) \
  AT_DISPATCH_CASE(at::ScalarType::ComplexFloat, __VA_ARGS__)

#define AT_DISPATCH_CASE_ALL_TYPES(...)        \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)

#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))

#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...)                        \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)           \
                                     AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__))

#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__))

#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__))

#define AT_DISPATCH_ALL_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...)                                   \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                                     AT_DISPATCH_CASE(T2, __VA_ARGS__) AT_DISPATCH_CASE(T3, __VA_ARGS__))

#define AT_DISPATCH_COMPLEX_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__))

#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(T1, T2, TYPE, NAME, ...)                    \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)                   \
                                     AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)                \
                                         AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__))

#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(T1, T2, TYPE, NAME, ...)                          \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__)                            \
                                     AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)                    \
                                         AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__))

#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(T1, T2, T3, TYPE, NAME, ...)                        \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__)                            \
                                     AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)                    \
                                         AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__) \
                                             AT_DISPATCH_CASE(T3, __VA_ARGS__))

#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(T1, T2, T3, T4, TYPE, NAME, ...)                    \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__)                            \
                                     AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)                    \
                                         AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__) \
                                             AT_DISPATCH_CASE(T3, __VA_ARGS__) AT_DISPATCH_CASE(T4, __VA_ARGS__))

#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))

#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...)                                   \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                                     AT_DISPATCH_CASE(T2, __VA_ARGS__))

#define AT_DISPATCH_INTEGRAL_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
