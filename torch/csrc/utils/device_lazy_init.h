// torch/csrc/utils/device_lazy_init.h - initialise a lazily started device runtime (CUDA)
// before the first thing that needs it. Mirrors PyTorch's torch/csrc/utils/device_lazy_init.h.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <c10/core/DeviceType.h>

namespace torch::utils {

// Calls torch.cuda._lazy_init() the first time a CUDA device is named (a factory's
// device=, .to(), a storage, a generator, a stream): it raises the user-facing error when
// CUDA cannot be used, else starts the runtime and runs the calls queued before it (seeds).
// Once that has succeeded, later calls return at once, without the GIL or an import.
// Other device types need nothing. Takes the GIL itself.
void device_lazy_init(c10::DeviceType device_type);

}  // namespace torch::utils
