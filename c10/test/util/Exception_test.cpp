// Tests c10::Error and the TORCH_CHECK family: message building, default text, error subclasses, what() vs what_without_backtrace(), context, internal asserts.
// Mirrors PyTorch's c10/test/util/exception_test.cpp. Guide: docs/source/internals/source_tree.rst.
#include <c10/util/Exception.h>

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace {

template <typename F>
std::string messageOf(F&& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "<no error>";
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

TEST(ExceptionTest, TorchCheckPassesWhenTrue) {
  EXPECT_NO_THROW({ TORCH_CHECK(1 + 1 == 2, "never shown"); });
}

TEST(ExceptionTest, TorchCheckConcatenatesArguments) {
  const int n = 3;
  EXPECT_EQ(messageOf([&] { TORCH_CHECK(n == 4, "expected ", 4, " got ", n, "; sizes ", 2.5); }),
            "expected 4 got 3; sizes 2.5");
  EXPECT_EQ(messageOf([] { TORCH_CHECK(false, "single message"); }), "single message");
}

TEST(ExceptionTest, TorchCheckDefaultMessage) {
  const std::string msg = messageOf([] { TORCH_CHECK(false); });
  EXPECT_TRUE(startsWith(msg, "Expected false to be true, but got false.")) << msg;
  EXPECT_EQ(msg,
            "Expected false to be true, but got false.  (Could this error message be improved?  "
            "If so, please report an enhancement request to PyTorch.)");
}

TEST(ExceptionTest, TorchCheckThrowsPlainError) {
  try {
    TORCH_CHECK(false, "plain");
    FAIL() << "expected c10::Error";
  } catch (const c10::IndexError&) {
    FAIL() << "TORCH_CHECK must not throw a subclass";
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(), "plain");
  }
}

TEST(ExceptionTest, CheckIndexThrowsIndexError) {
  try {
    TORCH_CHECK_INDEX(false, "index ", 7, " out of range");
    FAIL() << "expected c10::IndexError";
  } catch (const c10::IndexError& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "index 7 out of range");
  }
  EXPECT_THROW({ TORCH_CHECK_INDEX(false, "x"); }, c10::Error);
}

TEST(ExceptionTest, CheckValueThrowsValueError) {
  try {
    TORCH_CHECK_VALUE(false, "bad value");
    FAIL() << "expected c10::ValueError";
  } catch (const c10::ValueError& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "bad value");
  }
  EXPECT_THROW({ TORCH_CHECK_VALUE(false, "x"); }, c10::Error);
}

TEST(ExceptionTest, CheckTypeThrowsTypeError) {
  try {
    TORCH_CHECK_TYPE(false, "bad type");
    FAIL() << "expected c10::TypeError";
  } catch (const c10::TypeError& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "bad type");
  }
  EXPECT_THROW({ TORCH_CHECK_TYPE(false, "x"); }, c10::Error);
}

TEST(ExceptionTest, CheckNotImplementedThrowsNotImplementedError) {
  try {
    TORCH_CHECK_NOT_IMPLEMENTED(false, "not yet");
    FAIL() << "expected c10::NotImplementedError";
  } catch (const c10::NotImplementedError& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "not yet");
  }
  EXPECT_THROW({ TORCH_CHECK_NOT_IMPLEMENTED(false, "x"); }, c10::Error);
}

TEST(ExceptionTest, SubclassChecksHaveTheDefaultMessageToo) {
  const std::string msg = messageOf([] { TORCH_CHECK_VALUE(1 > 2); });
  EXPECT_TRUE(startsWith(msg, "Expected 1 > 2 to be true, but got false.")) << msg;
}

TEST(ExceptionTest, WhatHasBacktraceWhatWithoutBacktraceIsJustMessage) {
  try {
    TORCH_CHECK(false, "the message");
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(std::string(e.what_without_backtrace()), "the message");
    EXPECT_TRUE(startsWith(what, "the message\n")) << what;
    EXPECT_NE(what.find("Exception raised from "), std::string::npos) << what;
    EXPECT_NE(what.find("Exception_test.cpp"), std::string::npos) << what;
    EXPECT_NE(what.find("(most recent call first):"), std::string::npos) << what;
  }
}

TEST(ExceptionTest, AddContextAppendsLines) {
  try {
    TORCH_CHECK(false, "base");
    FAIL() << "expected c10::Error";
  } catch (c10::Error& e) {
    e.add_context("while checking argument 'other'");
    e.add_context("in aten::add");
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "base\n  while checking argument 'other'\n  in aten::add");
    ASSERT_EQ(e.context().size(), 2u);
    EXPECT_EQ(e.context()[0], "while checking argument 'other'");
    EXPECT_EQ(e.msg(), "base");  // the message itself is unchanged
    const std::string what = e.what();
    EXPECT_TRUE(startsWith(what, "base\n  while checking argument 'other'\n  in aten::add\n")) << what;
  }
}

TEST(ExceptionTest, WhatIsRefreshedAfterAddContext) {
  try {
    TORCH_CHECK(false, "first");
  } catch (c10::Error& e) {
    const std::string before = e.what();  // caches the full text
    e.add_context("later");
    const std::string after = e.what();
    EXPECT_EQ(before.find("later"), std::string::npos);
    EXPECT_NE(after.find("first\n  later"), std::string::npos) << after;
  }
}

TEST(ExceptionTest, InternalAssertMessage) {
  const std::string msg = messageOf([] { TORCH_INTERNAL_ASSERT(1 == 2, "extra ", 42); });
  EXPECT_TRUE(startsWith(msg, "1 == 2 INTERNAL ASSERT FAILED at ")) << msg;
  EXPECT_NE(msg.find("Exception_test.cpp"), std::string::npos) << msg;
  EXPECT_NE(msg.find(", please report a bug to PyTorch. extra 42"), std::string::npos) << msg;
  const std::string bare = messageOf([] { TORCH_INTERNAL_ASSERT(false); });
  EXPECT_NE(bare.find("INTERNAL ASSERT FAILED"), std::string::npos) << bare;
}

TEST(ExceptionTest, LegacySpellings) {
  EXPECT_EQ(messageOf([] { AT_ERROR("legacy ", 1); }), "legacy 1");
  EXPECT_NE(messageOf([] { AT_ASSERT(false); }).find("INTERNAL ASSERT FAILED"), std::string::npos);
}

TEST(ExceptionTest, EnforceMessageNamesFileAndCondition) {
  const std::string msg = messageOf([] { CAFFE_ENFORCE(2 < 1, "because ", 3); });
  EXPECT_TRUE(startsWith(msg, "[enforce fail at Exception_test.cpp:")) << msg;
  EXPECT_NE(msg.find("] 2 < 1. because 3"), std::string::npos) << msg;
}

TEST(ExceptionTest, ErrorFromMessageAndBacktrace) {
  c10::Error e("rethrown", "frame #0: somewhere");
  EXPECT_EQ(std::string(e.what_without_backtrace()), "rethrown");
  const std::string what = e.what();
  EXPECT_TRUE(startsWith(what, "rethrown")) << what;
  EXPECT_NE(what.find("frame #0: somewhere"), std::string::npos) << what;
}

TEST(ExceptionTest, CheckMessageIsBuiltOnlyOnFailure) {
  int evaluated = 0;
  auto costly = [&] {
    ++evaluated;
    return std::string("costly");
  };
  TORCH_CHECK(true, costly());
  EXPECT_EQ(evaluated, 0);
  EXPECT_THROW({ TORCH_CHECK(false, costly()); }, c10::Error);
  EXPECT_EQ(evaluated, 1);
}

namespace {

struct CollectingHandler : c10::WarningHandler {
  void process(const c10::Warning& warning) override { messages.push_back(warning.msg()); }
  std::vector<std::string> messages;
};

void warn_once_site() {
  TORCH_WARN_ONCE("only the first time");
}

}  // namespace

TEST(WarningTest, TorchWarnGoesToTheThreadsHandler) {
  CollectingHandler handler;
  {
    c10::WarningUtils::WarningHandlerGuard guard(&handler);
    TORCH_WARN("value ", 3, " is odd");
  }
  ASSERT_EQ(handler.messages.size(), 1u);
  EXPECT_EQ(handler.messages[0], "value 3 is odd");
  // The guard restored the previous (default) handler.
  EXPECT_NE(c10::WarningUtils::get_warning_handler(), &handler);
}

TEST(WarningTest, TorchWarnOnceWarnsOncePerCallSite) {
  CollectingHandler handler;
  c10::WarningUtils::WarningHandlerGuard guard(&handler);
  warn_once_site();
  warn_once_site();
  EXPECT_EQ(handler.messages.size(), 1u);
}

TEST(WarningTest, HandlersAreThreadLocal) {
  CollectingHandler mine, theirs;
  c10::WarningUtils::WarningHandlerGuard guard(&mine);
  std::thread t([&] {
    c10::WarningUtils::WarningHandlerGuard other(&theirs);
    TORCH_WARN("from the other thread");
  });
  t.join();
  EXPECT_TRUE(mine.messages.empty());
  EXPECT_EQ(theirs.messages.size(), 1u);
}
