// docs/source/internals/examples/dispatch_key_set.cpp - the key set of a CPU tensor, its
// bits, and what is left for the kernels below autograd. Compiled and run by the doctest
// in dispatch.rst.
#include <c10/core/DispatchKeySet.h>

#include <iostream>

using namespace c10;

int main() {
  // What TensorImpl's constructor does for a tensor created with DispatchKey::CPU.
  const DispatchKeySet backend(DispatchKey::CPU);
  const BackendComponent b = backend.highestBackendKey();
  const DispatchKeySet ks =
      backend | getAutogradRelatedKeySetFromBackend(b) | getAutocastRelatedKeySetFromBackend(b);
  std::cout << ks << "\n";
  std::cout << "raw bits = 0x" << std::hex << ks.raw_repr() << std::dec << "\n";
  std::cout << "AutogradCPU alone = 0x" << std::hex << DispatchKeySet(DispatchKey::AutogradCPU).raw_repr()
            << std::dec << "\n";

  // Highest wins: autocast first, then (with autocast excluded) autograd.
  std::cout << "highest: " << ks.highestPriorityTypeId() << "\n";
  const DispatchKeySet no_autocast = ks - default_excluded_set;
  std::cout << "without autocast: " << no_autocast.highestPriorityTypeId() << "\n";

  // The autograd kernel redispatches with the keys below it.
  const DispatchKeySet below_autograd = no_autocast & after_autograd_keyset;
  std::cout << "after autograd: " << below_autograd << " -> " << below_autograd.highestPriorityTypeId() << "\n";
  const DispatchKeySet below_view = no_autocast & after_ADInplaceOrView_keyset;
  std::cout << "after ADInplaceOrView: " << below_view << " -> " << below_view.highestPriorityTypeId() << "\n";

  // Two backends in one set: the higher backend bit wins.
  const DispatchKeySet mixed = DispatchKeySet(DispatchKey::CPU) | DispatchKeySet(DispatchKey::CUDA);
  std::cout << mixed << " -> " << mixed.highestPriorityTypeId() << "\n";

  // Removing AutogradCPU drops the functionality bit and keeps CPUBit, which CPU needs.
  std::cout << ks.remove(DispatchKey::AutogradCPU) << "\n";
  return 0;
}
