// c10/core/DispatchKey.cpp - names of dispatch keys and backends.
// Mirrors PyTorch's c10/core/DispatchKey.cpp. Guide: docs/source/internals/dispatch.rst.
#include <c10/core/DispatchKey.h>
#include <c10/util/Exception.h>

namespace c10 {

const char* toString(BackendComponent b) {
  switch (b) {
    case BackendComponent::CPUBit: return "CPUBit";
    case BackendComponent::CUDABit: return "CUDABit";
    case BackendComponent::MetaBit: return "MetaBit";
    default: return "UNKNOWN_BACKEND_BIT";
  }
}

const char* toString(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined: return "Undefined";
    case DispatchKey::Dense: return "Dense";
    case DispatchKey::BackendSelect: return "BackendSelect";
    case DispatchKey::Python: return "Python";
    case DispatchKey::ADInplaceOrView: return "ADInplaceOrView";
    case DispatchKey::AutogradOther: return "AutogradOther";
    case DispatchKey::AutogradFunctionality: return "AutogradFunctionality";
    case DispatchKey::AutocastCPU: return "AutocastCPU";
    case DispatchKey::AutocastCUDA: return "AutocastCUDA";
    case DispatchKey::PythonTLSSnapshot: return "PythonTLSSnapshot";
    case DispatchKey::CPU: return "CPU";
    case DispatchKey::CUDA: return "CUDA";
    case DispatchKey::Meta: return "Meta";
    case DispatchKey::AutogradCPU: return "AutogradCPU";
    case DispatchKey::AutogradCUDA: return "AutogradCUDA";
    case DispatchKey::AutogradMeta: return "AutogradMeta";
    case DispatchKey::Autograd: return "Autograd";
    case DispatchKey::CompositeImplicitAutograd: return "CompositeImplicitAutograd";
    case DispatchKey::CompositeExplicitAutograd: return "CompositeExplicitAutograd";
    case DispatchKey::CompositeExplicitAutogradNonFunctional:
      return "CompositeExplicitAutogradNonFunctional";
    default: return "UNKNOWN_TENSOR_TYPE_ID";
  }
}

std::ostream& operator<<(std::ostream& out, DispatchKey k) {
  return out << toString(k);
}
std::ostream& operator<<(std::ostream& out, BackendComponent b) {
  return out << toString(b);
}

DispatchKey parseDispatchKey(const std::string& name) {
  for (uint16_t i = 0; i <= static_cast<uint16_t>(DispatchKey::EndOfAliasKeys); ++i) {
    auto k = static_cast<DispatchKey>(i);
    if (k == DispatchKey::StartOfDenseBackends ||
        k == DispatchKey::StartOfAutogradFunctionalityBackends) {
      continue;  // markers, not keys
    }
    if (name == toString(k)) {
      return k;
    }
  }
  TORCH_CHECK(false, "could not parse dispatch key: ", name);
}

BackendComponent toBackendComponent(DeviceType device_type) {
  switch (device_type) {
    case DeviceType::CPU: return BackendComponent::CPUBit;
    case DeviceType::CUDA: return BackendComponent::CUDABit;
    case DeviceType::Meta: return BackendComponent::MetaBit;
    default:
      TORCH_CHECK(false, "Tried to get the backend component of device type ", device_type,
                  ", which this build has no dispatch key for");
  }
}

DeviceType dispatchKeyToDeviceType(DispatchKey k) {
  switch (toBackendComponent(k)) {
    case BackendComponent::CPUBit: return DeviceType::CPU;
    case BackendComponent::CUDABit: return DeviceType::CUDA;
    case BackendComponent::MetaBit: return DeviceType::Meta;
    default: TORCH_CHECK(false, "DispatchKey ", k, " doesn't correspond to a device");
  }
}

}  // namespace c10
