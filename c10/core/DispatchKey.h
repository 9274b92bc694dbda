// c10/core/DispatchKey.h - the names the dispatcher routes on (CPU, AutogradCPU, ...).
// Mirrors PyTorch's c10/core/DispatchKey.h. Guide: docs/source/internals/dispatch.rst.
//
// PyTorch 2.x splits a key into two parts:
//  - a *functionality* (Dense, ADInplaceOrView, AutogradFunctionality, ...): what kind of
//    kernel this is. Functionalities are ordered by priority: a higher one runs first.
//  - a *backend component* (CPUBit, CUDABit, MetaBit): which device.
// A "per-backend" functionality (Dense, AutogradFunctionality) combined with a backend
// gives a runtime key: Dense+CPUBit = CPU, AutogradFunctionality+CUDABit = AutogradCUDA.
// Other functionalities (BackendSelect, ADInplaceOrView, Python) are keys on their own.
// PyTorch has ~15 backends and ~50 functionalities; this tree keeps the ones it builds,
// in PyTorch's relative order.
#pragma once

#include <c10/core/DeviceType.h>
#include <c10/macros/Macros.h>

#include <cstdint>
#include <ostream>
#include <string>

namespace c10 {

// [marker: DispatchKey]
// Lowest bits of a DispatchKeySet; a higher backend wins a tie (CUDA over CPU).
enum class BackendComponent : uint8_t {
  InvalidBit = 0,
  CPUBit,
  CUDABit,
  MetaBit,
  EndOfBackendKeys = MetaBit,
};

enum class DispatchKey : uint16_t {
  Undefined = 0,
  CatchAll = Undefined,

  // ---- functionality keys, lowest priority first ----
  Dense,                  // per-backend: the ordinary kernels (CPU, CUDA, Meta)
  BackendSelect,          // picks a backend for factories that take no tensor (empty, zeros)
  Python,                 // __torch_dispatch__ subclasses
  ADInplaceOrView,        // bumps version counters / sets up views, below autograd
  AutogradOther,          // autograd for backends without their own autograd key
  AutogradFunctionality,  // per-backend: the autograd kernels (AutogradCPU, AutogradCUDA)
  AutocastCPU,            // mixed precision, above autograd
  AutocastCUDA,
  PythonTLSSnapshot,
  EndOfFunctionalityKeys = PythonTLSSnapshot,

  // ---- runtime per-backend keys (functionality x backend) ----
  StartOfDenseBackends,
  CPU,
  CUDA,
  Meta,
  EndOfDenseBackends = Meta,
  StartOfAutogradFunctionalityBackends,
  AutogradCPU,
  AutogradCUDA,
  AutogradMeta,
  EndOfAutogradFunctionalityBackends = AutogradMeta,
  EndOfRuntimeBackendKeys = EndOfAutogradFunctionalityBackends,

  // ---- alias keys: used only to register a kernel for many runtime keys at once ----
  Autograd,                                // every Autograd<Backend> key
  CompositeImplicitAutograd,               // all backends and autograd: written in other ops
  CompositeExplicitAutograd,               // all backends, not autograd
  CompositeExplicitAutogradNonFunctional,
  StartOfAliasKeys = Autograd,
  EndOfAliasKeys = CompositeExplicitAutogradNonFunctional,
};
// [end marker: DispatchKey]

constexpr uint8_t num_backends = static_cast<uint8_t>(BackendComponent::EndOfBackendKeys);
constexpr uint8_t num_functionality_keys = static_cast<uint8_t>(DispatchKey::EndOfFunctionalityKeys);
static_assert(num_backends + num_functionality_keys <= 64,
              "A DispatchKeySet is 64 bits: one per backend plus one per functionality.");

// The number of slots in an operator's dispatch table: one per runtime key.
constexpr uint16_t num_runtime_entries = static_cast<uint16_t>(DispatchKey::EndOfRuntimeBackendKeys) + 1;

C10_API const char* toString(DispatchKey k);
C10_API const char* toString(BackendComponent b);
C10_API std::ostream& operator<<(std::ostream& out, DispatchKey k);
C10_API std::ostream& operator<<(std::ostream& out, BackendComponent b);
// "CPU" -> DispatchKey::CPU (for torch._C and the dispatch trace); unknown names throw.
C10_API DispatchKey parseDispatchKey(const std::string& k);

constexpr bool isAliasDispatchKey(DispatchKey k) {
  return k >= DispatchKey::StartOfAliasKeys && k <= DispatchKey::EndOfAliasKeys;
}

// Dense and AutogradFunctionality exist once per backend.
constexpr bool isPerBackendFunctionalityKey(DispatchKey k) {
  return k == DispatchKey::Dense || k == DispatchKey::AutogradFunctionality;
}

constexpr bool isRuntimePerBackendKey(DispatchKey k) {
  return (k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends) ||
         (k > DispatchKey::StartOfAutogradFunctionalityBackends &&
          k <= DispatchKey::EndOfAutogradFunctionalityBackends);
}

// CPU -> Dense, AutogradCUDA -> AutogradFunctionality, BackendSelect -> BackendSelect.
constexpr DispatchKey toFunctionalityKey(DispatchKey k) {
  if (k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends) {
    return DispatchKey::Dense;
  }
  if (k > DispatchKey::StartOfAutogradFunctionalityBackends &&
      k <= DispatchKey::EndOfAutogradFunctionalityBackends) {
    return DispatchKey::AutogradFunctionality;
  }
  return k <= DispatchKey::EndOfFunctionalityKeys ? k : DispatchKey::Undefined;
}

// CPU -> CPUBit, AutogradCUDA -> CUDABit; keys that are not per-backend -> InvalidBit.
constexpr BackendComponent toBackendComponent(DispatchKey k) {
  if (k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends) {
    return static_cast<BackendComponent>(static_cast<uint16_t>(k) -
                                         static_cast<uint16_t>(DispatchKey::StartOfDenseBackends));
  }
  if (k > DispatchKey::StartOfAutogradFunctionalityBackends &&
      k <= DispatchKey::EndOfAutogradFunctionalityBackends) {
    return static_cast<BackendComponent>(
        static_cast<uint16_t>(k) - static_cast<uint16_t>(DispatchKey::StartOfAutogradFunctionalityBackends));
  }
  return BackendComponent::InvalidBit;
}

// (Dense, CPUBit) -> CPU; (AutogradFunctionality, CUDABit) -> AutogradCUDA.
constexpr DispatchKey toRuntimePerBackendFunctionalityKey(DispatchKey functionality,
                                                          BackendComponent backend) {
  if (functionality == DispatchKey::Dense) {
    return static_cast<DispatchKey>(static_cast<uint16_t>(DispatchKey::StartOfDenseBackends) +
                                    static_cast<uint16_t>(backend));
  }
  if (functionality == DispatchKey::AutogradFunctionality) {
    return static_cast<DispatchKey>(
        static_cast<uint16_t>(DispatchKey::StartOfAutogradFunctionalityBackends) +
        static_cast<uint16_t>(backend));
  }
  return DispatchKey::Undefined;
}

// The backend a tensor of this device type dispatches to.
C10_API BackendComponent toBackendComponent(DeviceType device_type);
C10_API DeviceType dispatchKeyToDeviceType(DispatchKey k);

}  // namespace c10
