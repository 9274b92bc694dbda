// aten/src/ATen/test/Dispatcher_test.cpp - operators registered with TORCH_LIBRARY, dispatched by key.
// Mirrors PyTorch's aten/src/ATen/core/op_registration/op_registration_test.cpp and
// backend_fallback_test.cpp. Guide: docs/source/internals/dispatch.rst.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/library.h>

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

// Every kernel appends its name, so a test can see which kernels ran and in what order.
std::vector<std::string>& calls() {
  static std::vector<std::string> log;
  return log;
}

at::Tensor ident_cpu(const at::Tensor& t) {
  calls().push_back("cpu");
  return t;
}
at::Tensor ident_meta(const at::Tensor& t) {
  calls().push_back("meta");
  return t;
}
at::Tensor ident_explicit(const at::Tensor& t) {
  calls().push_back("composite_explicit");
  return t;
}
at::Tensor ident_implicit(const at::Tensor& t) {
  calls().push_back("composite_implicit");
  return t;
}

// An autograd-style kernel: does its part, then calls the operator again below autograd.
at::Tensor ident_autograd(c10::DispatchKeySet ks, const at::Tensor& t) {
  calls().push_back("autograd");
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("test_dispatch::with_autograd", "")
                       .typed<at::Tensor(const at::Tensor&)>();
  return op.redispatch(ks & c10::after_autograd_keyset, t);
}

TORCH_LIBRARY(test_dispatch, m) {
  m.def("backend_kernels(Tensor self) -> Tensor");
  m.def("explicit_composite(Tensor self) -> Tensor");
  m.def("explicit_and_cpu(Tensor self) -> Tensor");
  m.def("implicit_composite(Tensor self) -> Tensor");
  m.def("only_cpu(Tensor self) -> Tensor");
  m.def("with_autograd(Tensor self) -> Tensor");
  m.def("no_tensors(int x) -> int");
}

TORCH_LIBRARY_IMPL(test_dispatch, CPU, m) {
  m.impl("backend_kernels", &ident_cpu);
  m.impl("explicit_and_cpu", &ident_cpu);
  m.impl("only_cpu", &ident_cpu);
  m.impl("with_autograd", &ident_cpu);
}

TORCH_LIBRARY_IMPL(test_dispatch, Meta, m) {
  m.impl("backend_kernels", &ident_meta);
}

TORCH_LIBRARY_IMPL(test_dispatch, CompositeExplicitAutograd, m) {
  m.impl("explicit_composite", &ident_explicit);
  m.impl("explicit_and_cpu", &ident_explicit);
}

TORCH_LIBRARY_IMPL(test_dispatch, CompositeImplicitAutograd, m) {
  m.impl("implicit_composite", &ident_implicit);
}

TORCH_LIBRARY_IMPL(test_dispatch, AutogradCPU, m) {
  m.impl("with_autograd", &ident_autograd);
}

c10::TypedOperatorHandle<at::Tensor(const at::Tensor&)> unary(const char* name) {
  return c10::Dispatcher::singleton().findSchemaOrThrow(name, "").typed<at::Tensor(const at::Tensor&)>();
}

at::Tensor cpu_tensor() {
  return at::empty({2, 3}, at::kFloat);
}
at::Tensor meta_tensor() {
  return at::empty({2, 3}, at::kFloat, std::nullopt, at::Device("meta"));
}

class DispatcherTest : public ::testing::Test {
 protected:
  void SetUp() override { calls().clear(); }
};

TEST_F(DispatcherTest, TensorsDeviceSelectsTheBackendKernel) {
  auto op = unary("test_dispatch::backend_kernels");
  op.call(cpu_tensor());
  op.call(meta_tensor());
  EXPECT_EQ(calls(), (std::vector<std::string>{"cpu", "meta"}));
}

TEST_F(DispatcherTest, CompositeExplicitAutogradServesEveryBackend) {
  auto op = unary("test_dispatch::explicit_composite");
  op.call(cpu_tensor());
  op.call(meta_tensor());
  EXPECT_EQ(calls(), (std::vector<std::string>{"composite_explicit", "composite_explicit"}));
}

TEST_F(DispatcherTest, BackendKernelBeatsCompositeExplicit) {
  auto op = unary("test_dispatch::explicit_and_cpu");
  op.call(cpu_tensor());
  op.call(meta_tensor());
  EXPECT_EQ(calls(), (std::vector<std::string>{"cpu", "composite_explicit"}));
}

TEST_F(DispatcherTest, CompositeImplicitAutogradServesBackends) {
  unary("test_dispatch::implicit_composite").call(cpu_tensor());
  EXPECT_EQ(calls(), (std::vector<std::string>{"composite_implicit"}));
}

TEST_F(DispatcherTest, AutogradKernelRunsFirstThenRedispatchesBelowAutograd) {
  unary("test_dispatch::with_autograd").call(cpu_tensor());
  EXPECT_EQ(calls(), (std::vector<std::string>{"autograd", "cpu"}));
}

TEST_F(DispatcherTest, ExcludedKeysAreSkipped) {
  {
    c10::impl::ExcludeDispatchKeyGuard guard(c10::autograd_dispatch_keyset);
    unary("test_dispatch::with_autograd").call(cpu_tensor());
  }
  unary("test_dispatch::with_autograd").call(cpu_tensor());
  EXPECT_EQ(calls(), (std::vector<std::string>{"cpu", "autograd", "cpu"}));
}

TEST_F(DispatcherTest, FallthroughKeysAreMaskedOutPerBackend) {
  // AutogradCPU has a kernel for with_autograd; for backend_kernels it falls through, so
  // the CPU kernel is reached directly.
  unary("test_dispatch::backend_kernels").call(cpu_tensor());
  EXPECT_EQ(calls(), (std::vector<std::string>{"cpu"}));
  auto table = c10::Dispatcher::singleton().findSchemaOrThrow("test_dispatch::with_autograd", "").dumpComputedTable();
  EXPECT_NE(table.find("AutogradCPU: kernel"), std::string::npos) << table;
  EXPECT_NE(table.find("AutogradMeta: fallthrough"), std::string::npos) << table;
}

TEST_F(DispatcherTest, MissingKernelRaisesNotImplementedWithTheAvailableKeys) {
  try {
    unary("test_dispatch::only_cpu").call(meta_tensor());
    FAIL() << "expected an error";
  } catch (const c10::NotImplementedError& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("Could not run 'test_dispatch::only_cpu' with arguments from the 'Meta' backend. This "
                        "could be because the operator doesn't exist for this backend",
                        0),
              0u)
        << msg;
    EXPECT_NE(msg.find("'test_dispatch::only_cpu' is only available for these backends: [BackendSelect, "
                       "ADInplaceOrView, AutogradOther, AutocastCPU, AutocastCUDA, CPU, AutogradCPU, AutogradCUDA, "
                       "AutogradMeta]."),
              std::string::npos)
        << msg;
  }
}

TEST_F(DispatcherTest, NoTensorArgumentsAndNoFallbackIsAnError) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("test_dispatch::no_tensors", "").typed<int64_t(int64_t)>();
  try {
    op.call(3);
    FAIL() << "expected an error";
  } catch (const c10::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what_without_backtrace())
                  .find("There were no tensor arguments to this function (e.g., you passed an empty list of "
                        "Tensors), but no fallback function is registered for schema test_dispatch::no_tensors."),
              std::string::npos);
  }
}

TEST_F(DispatcherTest, UnknownOperatorIsReported) {
  try {
    c10::Dispatcher::singleton().findSchemaOrThrow("test_dispatch::nope", "x");
    FAIL() << "expected an error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "Could not find schema for test_dispatch::nope.x");
  }
}

TEST_F(DispatcherTest, CallingWithTheWrongSignatureIsRefused) {
  auto handle = c10::Dispatcher::singleton().findSchemaOrThrow("test_dispatch::backend_kernels", "");
  EXPECT_THROW(handle.typed<at::Tensor(const at::Tensor&, int64_t)>(), c10::Error);
}

TEST_F(DispatcherTest, KernelsOfDifferentSignaturesForOneOperatorAreRefused) {
  auto wrong = +[](const at::Tensor& t, int64_t) { return t; };
  try {
    torch::Library lib(torch::Library::IMPL, "test_dispatch", c10::DispatchKey::Meta, __FILE__, __LINE__);
    lib.impl("only_cpu", wrong);
    FAIL() << "expected an error";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what_without_backtrace()).find("Mismatch in kernel C++ signatures"), std::string::npos);
  }
}

TEST_F(DispatcherTest, RegistrationsAreUndoneWhenTheLibraryGoesAway) {
  auto op = unary("test_dispatch::only_cpu");
  {
    torch::Library lib(torch::Library::IMPL, "test_dispatch", c10::DispatchKey::Meta, __FILE__, __LINE__);
    lib.impl("only_cpu", &ident_meta);
    op.call(meta_tensor());
  }
  EXPECT_EQ(calls(), (std::vector<std::string>{"meta"}));
  EXPECT_THROW(op.call(meta_tensor()), c10::NotImplementedError);
}

TEST_F(DispatcherTest, SecondDefinitionOfAnOperatorIsAnError) {
  torch::Library lib(torch::Library::FRAGMENT, "test_dispatch", std::nullopt, __FILE__, __LINE__);
  try {
    lib.def("only_cpu(Tensor self) -> Tensor");
    FAIL() << "expected an error";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what_without_backtrace()).find("but a schema with that name was already registered"),
              std::string::npos);
  }
}

TEST_F(DispatcherTest, FactoriesGoThroughBackendSelect) {
  auto dump = c10::Dispatcher::singleton().findSchemaOrThrow("aten::zeros", "").dumpComputedTable();
  EXPECT_NE(dump.find("BackendSelect: kernel"), std::string::npos) << dump;
  EXPECT_EQ(at::zeros({2}, at::kFloat, std::nullopt, at::Device("meta")).device(), at::Device("meta"));
  EXPECT_EQ(at::zeros({2}).device(), at::Device("cpu"));
}

TEST_F(DispatcherTest, KeySetOfAnOperatorCallIsTheUnionOfItsTensors) {
  EXPECT_EQ(c10::toString(cpu_tensor().key_set()), "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  EXPECT_EQ(c10::detail::computeKeySetFromArgs(cpu_tensor(), 3, meta_tensor()),
            cpu_tensor().key_set() | meta_tensor().key_set());
}

TEST_F(DispatcherTest, TraceLinesAreIndentedByNesting) {
  std::ostringstream captured;
  auto* old = std::cerr.rdbuf(captured.rdbuf());
  const c10::OperatorName add{"aten::add", "Tensor"};
  c10::detail::print_dispatch_trace("call", add, c10::DispatchKey::AutogradCPU);
  c10::detail::dispatch_trace_nesting_incr();
  c10::detail::print_dispatch_trace("redispatch", add, c10::DispatchKey::CPU);
  c10::detail::dispatch_trace_nesting_decr();
  std::cerr.rdbuf(old);
  EXPECT_EQ(captured.str(),
            "[call] op=[aten::add.Tensor], key=[AutogradCPU]\n [redispatch] op=[aten::add.Tensor], key=[CPU]\n");
}

}  // namespace
