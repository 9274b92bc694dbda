// aten/src/ATen/test/record_function_test.cpp - RecordFunction callbacks seen from C++: what the
// dispatcher records while a callback is registered, and that it records nothing after.
// Mirrors PyTorch's test/cpp/profiler/record_function.cpp. Guide: docs/source/internals/profiler.rst.
#include <ATen/ATen.h>
#include <ATen/core/ivalue.h>
#include <ATen/record_function.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Seen {
  std::string name;
  at::RecordScope scope;
  int64_t seq;
  std::vector<std::vector<int64_t>> shapes;
  bool ended = false;
};

std::mutex seen_mutex;
std::vector<Seen>& seen() {
  static std::vector<Seen> log;
  return log;
}

struct Index : at::ObserverContext {
  size_t i;
  explicit Index(size_t i) : i(i) {}
};

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn) {
  std::lock_guard<std::mutex> lock(seen_mutex);
  seen().push_back({fn.name(), fn.scope(), fn.seqNr(), fn.inputShapes()});
  return std::make_unique<Index>(seen().size() - 1);
}

void onEnd(const at::RecordFunction& fn, at::ObserverContext* ctx) {
  std::lock_guard<std::mutex> lock(seen_mutex);
  seen()[static_cast<Index*>(ctx)->i].ended = true;
}

size_t count(const std::string& name) {
  return static_cast<size_t>(
      std::count_if(seen().begin(), seen().end(), [&](const Seen& s) { return s.name == name; }));
}

class RecordFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    at::clearCallbacks();
    seen().clear();
  }
  void TearDown() override { at::clearCallbacks(); }
};

TEST_F(RecordFunctionTest, NoCallbackNoRecord) {
  EXPECT_FALSE(at::hasCallbacks());
  at::RecordFunction guard(at::RecordScope::USER_SCOPE);
  EXPECT_FALSE(guard.isActive());
  at::ones({2}) + at::ones({2});
  EXPECT_TRUE(seen().empty());
}

TEST_F(RecordFunctionTest, DispatcherRecordsOperatorsOnceEach) {
  const auto a = at::ones({2, 3});
  const auto b = at::ones({2, 3});
  const auto handle = at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd));
  EXPECT_TRUE(at::hasCallbacks());
  at::add(a, b);
  at::add(a, b);
  at::mm(a, b.t());
  at::removeCallback(handle);
  EXPECT_FALSE(at::hasCallbacks());
  at::add(a, b);  // after removal: not recorded

  // add passes the Autograd kernel and then the CPU kernel, but only the outermost call records.
  EXPECT_EQ(count("aten::add"), 2u);
  EXPECT_EQ(count("aten::mm"), 1u);
  EXPECT_GE(count("aten::t"), 1u);
  for (const auto& s : seen()) {
    EXPECT_TRUE(s.ended) << s.name;
    EXPECT_EQ(s.scope, at::RecordScope::FUNCTION);
    EXPECT_TRUE(s.shapes.empty()) << "shapes recorded though no callback asked for inputs";
  }
}

TEST_F(RecordFunctionTest, InputShapesWhenAsked) {
  const auto a = at::ones({2, 3});
  const auto b = at::ones({3, 4});
  const auto handle = at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd).needsInputs(true));
  at::mm(a, b);
  at::add(a, a, 2);
  at::removeCallback(handle);
  const auto mm = std::find_if(seen().begin(), seen().end(), [](const Seen& s) { return s.name == "aten::mm"; });
  ASSERT_NE(mm, seen().end());
  EXPECT_EQ(mm->shapes, (std::vector<std::vector<int64_t>>{{2, 3}, {3, 4}}));
  const auto add = std::find_if(seen().begin(), seen().end(), [](const Seen& s) { return s.name == "aten::add"; });
  ASSERT_NE(add, seen().end());
  // One entry per argument: self, other, and the Scalar alpha as [].
  EXPECT_EQ(add->shapes, (std::vector<std::vector<int64_t>>{{2, 3}, {2, 3}, {}}));
}

TEST_F(RecordFunctionTest, ScopesFilterAndUserScope) {
  const auto handle = at::addGlobalCallback(
      at::RecordFunctionCallback(&onStart, &onEnd).scopes({at::RecordScope::USER_SCOPE}));
  {
    RECORD_USER_SCOPE("my_scope");
    at::ones({2}) + at::ones({2});  // FUNCTION scope: this callback does not see them
  }
  at::removeCallback(handle);
  ASSERT_EQ(seen().size(), 1u);
  EXPECT_EQ(seen()[0].name, "my_scope");
  EXPECT_EQ(seen()[0].scope, at::RecordScope::USER_SCOPE);
  EXPECT_TRUE(seen()[0].ended);
}

TEST_F(RecordFunctionTest, RecordFunctionMacroKeepsInputs) {
  std::vector<c10::IValue> inputs{c10::IValue(at::ones({5, 2})), c10::IValue(int64_t(3))};
  const auto handle = at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd).needsInputs(true));
  {
    RECORD_FUNCTION("my_op", inputs, 42);
  }
  at::removeCallback(handle);
  ASSERT_EQ(seen().size(), 1u);
  EXPECT_EQ(seen()[0].name, "my_op");
  EXPECT_EQ(seen()[0].seq, 42);
  EXPECT_EQ(seen()[0].shapes, (std::vector<std::vector<int64_t>>{{5, 2}, {}}));
}

TEST_F(RecordFunctionTest, EndCallbackRunsWhenTheKernelThrows) {
  const auto handle = at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd));
  EXPECT_THROW(at::mm(at::ones({2, 3}), at::ones({2, 3})), c10::Error);
  at::removeCallback(handle);
  const auto mm = std::find_if(seen().begin(), seen().end(), [](const Seen& s) { return s.name == "aten::mm"; });
  ASSERT_NE(mm, seen().end());
  EXPECT_TRUE(mm->ended);
}

TEST_F(RecordFunctionTest, CallbackRemovedMidCallStillEnds) {
  // A RecordFunction keeps the callbacks it started with: removing the callback while the
  // call runs does not lose its end.
  const auto handle = at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd));
  {
    RECORD_USER_SCOPE("outer");
    at::removeCallback(handle);
  }
  ASSERT_EQ(seen().size(), 1u);
  EXPECT_TRUE(seen()[0].ended);
}

TEST_F(RecordFunctionTest, ThreadIdsAreSmallAndStable) {
  const uint64_t id = at::RecordFunction::currentThreadId();
  EXPECT_GE(id, 1u);
  EXPECT_EQ(at::RecordFunction::currentThreadId(), id);
  uint64_t other = 0;
  std::thread t([&] { other = at::RecordFunction::currentThreadId(); });
  t.join();
  EXPECT_NE(other, id);
  EXPECT_GE(other, 1u);
}

}  // namespace
