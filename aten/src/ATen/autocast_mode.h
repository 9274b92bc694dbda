// aten/src/ATen/autocast_mode.h - the per-thread autocast state: on/off and the dtype, per device type.
// Mirrors PyTorch's aten/src/ATen/autocast_mode.h. Guide: docs/source/internals/programs/amp_backends.rst.
//
// "On" is the Autocast<device> key being absent from the thread's excluded dispatch keys (every
// tensor carries the key; c10::default_excluded_set leaves it out until a region turns it on).
#pragma once

#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>
#include <c10/macros/Export.h>

namespace at::autocast {

// Whether autocast has a dispatch key for device_type here (cpu, cuda).
TORCH_API bool is_autocast_available(c10::DeviceType device_type);
TORCH_API bool is_autocast_enabled(c10::DeviceType device_type);
TORCH_API void set_autocast_enabled(c10::DeviceType device_type, bool enabled);
// The lower-precision dtype ops run in (bfloat16 on the CPU, float16 on CUDA by default).
TORCH_API c10::ScalarType get_autocast_dtype(c10::DeviceType device_type);
TORCH_API void set_autocast_dtype(c10::DeviceType device_type, c10::ScalarType dtype);

}  // namespace at::autocast
