// aten/src/TH/THGeneral.h - the legacy TH layer's basics: name pasting, export macros, errors.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/THGeneral.h.in of PyTorch 1.10.
// Guide: docs/source/internals/macro_generic.rst.
//
// TH is "C-style C++": functions, not classes, with the element type pasted into each
// name (THFloatStorage_get, THDoubleStorage_get). TH_CONCAT_* does the pasting.
#pragma once

#include <c10/macros/Export.h>
#include <c10/util/Exception.h>

#include <cstddef>
#include <cstdint>

// The TH functions have C linkage, as in legacy TH: one plain symbol per type
// (THFloatStorage_newWithSize), which a debugger breaks on and ctypes can call by name.
#ifdef __cplusplus
#define TH_EXTERNC extern "C"
#else
#define TH_EXTERNC extern
#endif
#define TH_API TH_EXTERNC TORCH_API
// C++-only entry points (THMapAllocator) are exported without C linkage.
#define TH_CPP_API TORCH_API

// [marker: TH_CONCAT]
// Two levels on purpose: TH_CONCAT_2(TH, Real) must paste the *value* of Real (Float),
// not the word "Real". A macro's arguments are expanded before substitution unless they
// meet ## directly, so the outer macro expands them and the _EXPAND form pastes.
#define TH_CONCAT_STRING_2(x, y) TH_CONCAT_STRING_2_EXPAND(x, y)
#define TH_CONCAT_STRING_2_EXPAND(x, y) #x #y

#define TH_CONCAT_STRING_3(x, y, z) TH_CONCAT_STRING_3_EXPAND(x, y, z)
#define TH_CONCAT_STRING_3_EXPAND(x, y, z) #x #y #z

#define TH_CONCAT_STRING_4(x, y, z, w) TH_CONCAT_STRING_4_EXPAND(x, y, z, w)
#define TH_CONCAT_STRING_4_EXPAND(x, y, z, w) #x #y #z #w

#define TH_CONCAT_2(x, y) TH_CONCAT_2_EXPAND(x, y)
#define TH_CONCAT_2_EXPAND(x, y) x##y

#define TH_CONCAT_3(x, y, z) TH_CONCAT_3_EXPAND(x, y, z)
#define TH_CONCAT_3_EXPAND(x, y, z) x##y##z

#define TH_CONCAT_4_EXPAND(x, y, z, w) x##y##z##w
#define TH_CONCAT_4(x, y, z, w) TH_CONCAT_4_EXPAND(x, y, z, w)
// [end marker: TH_CONCAT]

// Legacy TH reported errors through a C callback (THSetErrorHandler) that the Python
// bindings turned into exceptions. Since PyTorch 1.0 they throw c10::Error, which the
// bindings turn into RuntimeError; THArgCheck keeps the legacy message
// "invalid argument <n>: <message>".
#define THError(...) TORCH_CHECK(false, __VA_ARGS__)

#define THArgCheck(COND, ARG, ...) TORCH_CHECK(COND, "invalid argument ", ARG, ": ", __VA_ARGS__)

// An index out of range is an IndexError in Python (TORCH_CHECK_INDEX -> c10::IndexError).
#define THArgCheckIndex(COND, ...) TORCH_CHECK_INDEX(COND, __VA_ARGS__)

#define THAssert(exp) TORCH_INTERNAL_ASSERT(exp)
#define THAssertMsg(exp, ...) TORCH_INTERNAL_ASSERT(exp, __VA_ARGS__)

#define THMin(X, Y) ((X) < (Y) ? (X) : (Y))
#define THMax(X, Y) ((X) > (Y) ? (X) : (Y))
