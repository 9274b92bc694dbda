// Tests DispatchKeySet: highest-priority key, backend tie-breaks, has/remove on per-backend keys, iteration order, printing, FULL_AFTER and alias keys.
// Mirrors PyTorch's c10/test/core/DispatchKeySet_test.cpp. Guide: docs/source/internals/dispatch.rst.
#include <c10/core/DispatchKeySet.h>

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

using c10::BackendComponent;
using c10::DispatchKey;
using c10::DispatchKeySet;

namespace {

// The key set a dense CPU tensor carries (what TensorImpl builds).
DispatchKeySet cpuTensorKeySet() {
  return DispatchKeySet(DispatchKey::CPU) |
         c10::getAutogradRelatedKeySetFromBackend(BackendComponent::CPUBit) |
         c10::getAutocastRelatedKeySetFromBackend(BackendComponent::CPUBit);
}

std::vector<DispatchKey> keysOf(DispatchKeySet ks) {
  std::vector<DispatchKey> out;
  for (auto k : ks) {
    out.push_back(k);
  }
  return out;
}

}  // namespace

TEST(DispatchKeySetTest, EmptySet) {
  DispatchKeySet empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.raw_repr(), 0u);
  EXPECT_EQ(empty.highestPriorityTypeId(), DispatchKey::Undefined);
  EXPECT_EQ(empty.highestBackendKey(), BackendComponent::InvalidBit);
  EXPECT_TRUE(keysOf(empty).empty());
  EXPECT_EQ(c10::toString(empty), "DispatchKeySet()");
  EXPECT_FALSE(empty.has(DispatchKey::Undefined));
}

TEST(DispatchKeySetTest, CpuTensorHighestPriorityIsAutogradCPU) {
  const DispatchKeySet ks = cpuTensorKeySet();
  // Autocast is excluded by default at run time; without it autograd runs first.
  EXPECT_EQ((ks - c10::default_excluded_set).highestPriorityTypeId(), DispatchKey::AutogradCPU);
  EXPECT_EQ(ks.highestPriorityTypeId(), DispatchKey::AutocastCPU);
  EXPECT_EQ(ks.remove(DispatchKey::AutocastCPU).highestPriorityTypeId(), DispatchKey::AutogradCPU);
}

TEST(DispatchKeySetTest, AfterAutogradMaskLeavesADInplaceOrViewThenCPU) {
  const DispatchKeySet ks = cpuTensorKeySet() - c10::default_excluded_set;
  const DispatchKeySet below_autograd = ks & c10::after_autograd_keyset;
  EXPECT_FALSE(below_autograd.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(below_autograd.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(below_autograd.has(DispatchKey::CPU));
  EXPECT_EQ(below_autograd.highestPriorityTypeId(), DispatchKey::ADInplaceOrView);
  EXPECT_EQ(below_autograd.remove(DispatchKey::ADInplaceOrView).highestPriorityTypeId(),
            DispatchKey::CPU);
  EXPECT_EQ((below_autograd & c10::after_ADInplaceOrView_keyset).highestPriorityTypeId(),
            DispatchKey::CPU);
}

TEST(DispatchKeySetTest, CudaBeatsCpuInMixedSet) {
  const DispatchKeySet dense({DispatchKey::CPU, DispatchKey::CUDA});
  EXPECT_EQ(dense.highestPriorityTypeId(), DispatchKey::CUDA);
  EXPECT_EQ(dense.highestBackendKey(), BackendComponent::CUDABit);
  const DispatchKeySet with_autograd =
      dense | DispatchKeySet({DispatchKey::AutogradCPU, DispatchKey::AutogradCUDA});
  EXPECT_EQ(with_autograd.highestPriorityTypeId(), DispatchKey::AutogradCUDA);
  EXPECT_EQ(DispatchKeySet({DispatchKey::Meta, DispatchKey::CPU}).highestPriorityTypeId(),
            DispatchKey::Meta);
}

TEST(DispatchKeySetTest, FunctionalityOutranksBackend) {
  // A higher functionality wins even if it comes with a lower backend.
  const DispatchKeySet ks({DispatchKey::CUDA, DispatchKey::BackendSelect});
  EXPECT_EQ(ks.highestPriorityTypeId(), DispatchKey::BackendSelect);
  EXPECT_EQ(ks.highestFunctionalityKey(), DispatchKey::BackendSelect);
}

TEST(DispatchKeySetTest, HasPerBackendKeyNeedsBothBits) {
  const DispatchKeySet functionality_only(DispatchKey::AutogradFunctionality);
  const DispatchKeySet backend_only(BackendComponent::CPUBit);
  EXPECT_FALSE(functionality_only.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(backend_only.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE((functionality_only | backend_only).has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(DispatchKeySet(DispatchKey::AutogradCUDA).has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(DispatchKeySet(DispatchKey::CPU).has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(DispatchKeySet(DispatchKey::AutogradCPU).has(DispatchKey::AutogradFunctionality));
  EXPECT_TRUE(DispatchKeySet(DispatchKey::AutogradCPU).has_backend(BackendComponent::CPUBit));
  EXPECT_FALSE(DispatchKeySet(DispatchKey::AutogradCPU).has_backend(BackendComponent::CUDABit));
}

TEST(DispatchKeySetTest, RemovingAutogradCPUKeepsCPU) {
  const DispatchKeySet ks({DispatchKey::CPU, DispatchKey::AutogradCPU});
  const DispatchKeySet removed = ks.remove(DispatchKey::AutogradCPU);
  EXPECT_FALSE(removed.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(removed.has(DispatchKey::CPU));
  EXPECT_EQ(removed, DispatchKeySet(DispatchKey::CPU));
  // Set difference behaves the same way: backend bits are never subtracted.
  const DispatchKeySet diff = ks - DispatchKeySet(DispatchKey::AutogradCPU);
  EXPECT_EQ(diff, DispatchKeySet(DispatchKey::CPU));
}

TEST(DispatchKeySetTest, AddIsUnion) {
  const DispatchKeySet ks = DispatchKeySet(DispatchKey::CPU).add(DispatchKey::AutogradCPU);
  EXPECT_EQ(ks, DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU}));
  EXPECT_TRUE(ks.has_all(DispatchKeySet(DispatchKey::CPU)));
  EXPECT_TRUE(ks.has_any(DispatchKeySet({DispatchKey::Python, DispatchKey::CPU})));
  EXPECT_FALSE(ks.has_any(DispatchKeySet(DispatchKey::Python)));
}

TEST(DispatchKeySetTest, IterationIsLowToHighPriority) {
  const std::vector<DispatchKey> expected = {DispatchKey::CPU, DispatchKey::ADInplaceOrView,
                                             DispatchKey::AutogradCPU, DispatchKey::AutocastCPU};
  EXPECT_EQ(keysOf(cpuTensorKeySet()), expected);
}

TEST(DispatchKeySetTest, IterationExpandsPerBackendKeysByBackend) {
  const DispatchKeySet ks({DispatchKey::AutogradCUDA, DispatchKey::CPU, DispatchKey::BackendSelect});
  // Backend bits are shared: Dense x {CPU, CUDA} and AutogradFunctionality x {CPU, CUDA}.
  const std::vector<DispatchKey> expected = {DispatchKey::CPU, DispatchKey::CUDA,
                                             DispatchKey::BackendSelect, DispatchKey::AutogradCPU,
                                             DispatchKey::AutogradCUDA};
  EXPECT_EQ(keysOf(ks), expected);
}

TEST(DispatchKeySetTest, PrintedForm) {
  EXPECT_EQ(c10::toString(cpuTensorKeySet()),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  std::ostringstream os;
  os << DispatchKeySet({DispatchKey::Meta, DispatchKey::AutogradMeta, DispatchKey::ADInplaceOrView});
  EXPECT_EQ(os.str(), "DispatchKeySet(Meta, ADInplaceOrView, AutogradMeta)");
}

TEST(DispatchKeySetTest, FullAfterExcludesTheKeyItself) {
  const DispatchKeySet after_autograd_other(DispatchKeySet::FULL_AFTER, DispatchKey::AutogradOther);
  EXPECT_FALSE(after_autograd_other.has(DispatchKey::AutogradOther));
  EXPECT_FALSE(after_autograd_other.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(after_autograd_other.has(DispatchKey::AutocastCPU));
  EXPECT_TRUE(after_autograd_other.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(after_autograd_other.has(DispatchKey::CPU));
  EXPECT_TRUE(after_autograd_other.has(DispatchKey::CUDA));
  EXPECT_TRUE(after_autograd_other.has(DispatchKey::Python));

  const DispatchKeySet after_inplace(DispatchKeySet::FULL_AFTER, DispatchKey::ADInplaceOrView);
  EXPECT_FALSE(after_inplace.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(after_inplace.has(DispatchKey::Python));
  EXPECT_TRUE(after_inplace.has(DispatchKey::CPU));
  EXPECT_EQ(c10::after_autograd_keyset, after_autograd_other);
  EXPECT_EQ(c10::after_ADInplaceOrView_keyset, after_inplace);
}

TEST(DispatchKeySetTest, FullContainsEveryRuntimeKey) {
  const DispatchKeySet full(DispatchKeySet::FULL);
  for (DispatchKey k : {DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::Meta, DispatchKey::AutogradCPU,
                        DispatchKey::AutogradMeta, DispatchKey::BackendSelect, DispatchKey::Python,
                        DispatchKey::ADInplaceOrView, DispatchKey::AutocastCUDA,
                        DispatchKey::PythonTLSSnapshot}) {
    EXPECT_TRUE(full.has(k)) << k;
  }
  EXPECT_EQ(full.highestPriorityTypeId(), DispatchKey::PythonTLSSnapshot);
}

TEST(DispatchKeySetTest, AutogradAliasCoversAutogradKeysNotBackends) {
  const DispatchKeySet ks = c10::getRuntimeDispatchKeySet(DispatchKey::Autograd);
  EXPECT_TRUE(ks.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(ks.has(DispatchKey::AutogradCUDA));
  EXPECT_TRUE(ks.has(DispatchKey::AutogradOther));
  EXPECT_FALSE(ks.has(DispatchKey::CPU));
  EXPECT_FALSE(ks.has(DispatchKey::CUDA));
  EXPECT_TRUE(c10::isIncludedInAlias(DispatchKey::AutogradCPU, DispatchKey::Autograd));
  EXPECT_FALSE(c10::isIncludedInAlias(DispatchKey::CPU, DispatchKey::Autograd));
}

TEST(DispatchKeySetTest, CompositeExplicitAutogradCoversBackendsNotAutograd) {
  const DispatchKeySet ks = c10::getRuntimeDispatchKeySet(DispatchKey::CompositeExplicitAutograd);
  EXPECT_TRUE(ks.has(DispatchKey::CPU));
  EXPECT_TRUE(ks.has(DispatchKey::CUDA));
  EXPECT_TRUE(ks.has(DispatchKey::Meta));
  EXPECT_FALSE(ks.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(ks.has(DispatchKey::ADInplaceOrView));
  const DispatchKeySet cia = c10::getRuntimeDispatchKeySet(DispatchKey::CompositeImplicitAutograd);
  EXPECT_TRUE(cia.has(DispatchKey::CPU));
  EXPECT_TRUE(cia.has(DispatchKey::AutogradCPU));
}

TEST(DispatchKeySetTest, AliasKeysHaveNoBits) {
  EXPECT_TRUE(DispatchKeySet(DispatchKey::Autograd).empty());
  EXPECT_TRUE(DispatchKeySet(DispatchKey::CompositeImplicitAutograd).empty());
  EXPECT_TRUE(c10::isAliasDispatchKey(DispatchKey::CompositeExplicitAutograd));
  EXPECT_FALSE(c10::isAliasDispatchKey(DispatchKey::AutogradCPU));
}

TEST(DispatchKeySetTest, KeyDecomposition) {
  EXPECT_EQ(c10::toFunctionalityKey(DispatchKey::CPU), DispatchKey::Dense);
  EXPECT_EQ(c10::toFunctionalityKey(DispatchKey::AutogradCUDA), DispatchKey::AutogradFunctionality);
  EXPECT_EQ(c10::toFunctionalityKey(DispatchKey::BackendSelect), DispatchKey::BackendSelect);
  EXPECT_EQ(c10::toBackendComponent(DispatchKey::AutogradCUDA), BackendComponent::CUDABit);
  EXPECT_EQ(c10::toBackendComponent(DispatchKey::Meta), BackendComponent::MetaBit);
  EXPECT_EQ(c10::toBackendComponent(DispatchKey::Python), BackendComponent::InvalidBit);
  EXPECT_EQ(c10::toRuntimePerBackendFunctionalityKey(DispatchKey::Dense, BackendComponent::CUDABit),
            DispatchKey::CUDA);
  EXPECT_EQ(c10::getAutogradKeyFromBackend(BackendComponent::MetaBit), DispatchKey::AutogradMeta);
  EXPECT_EQ(c10::dispatchKeyToDeviceType(DispatchKey::AutogradCUDA), c10::DeviceType::CUDA);
  EXPECT_EQ(c10::toBackendComponent(c10::DeviceType::Meta), BackendComponent::MetaBit);
}

TEST(DispatchKeySetTest, ParseDispatchKeyRoundTripsNames) {
  for (DispatchKey k : {DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView,
                        DispatchKey::CompositeExplicitAutograd, DispatchKey::Meta}) {
    EXPECT_EQ(c10::parseDispatchKey(c10::toString(k)), k);
  }
  try {
    c10::parseDispatchKey("NotAKey");
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "could not parse dispatch key: NotAKey");
  }
}

TEST(DispatchKeySetTest, DefaultTlsSets) {
  EXPECT_EQ(c10::toString(c10::default_included_set), "DispatchKeySet(BackendSelect, ADInplaceOrView)");
  EXPECT_TRUE(c10::default_excluded_set.has(DispatchKey::AutocastCPU));
  EXPECT_TRUE(c10::default_excluded_set.has(DispatchKey::AutocastCUDA));
  EXPECT_FALSE(c10::default_excluded_set.has(DispatchKey::ADInplaceOrView));
}
