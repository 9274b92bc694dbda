// Tests intrusive_ptr / weak_intrusive_ptr: count transitions, lock(), release_resources vs destructor timing, release/reclaim, conversions, swap, hash, thread safety.
// Mirrors PyTorch's c10/test/util/intrusive_ptr_test.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/util/intrusive_ptr.h>

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>
#include <unordered_set>
#include <vector>

using c10::intrusive_ptr;
using c10::make_intrusive;
using c10::weak_intrusive_ptr;

namespace {

struct SomeClass : c10::intrusive_ptr_target {
  int value;
  explicit SomeClass(int v = 0) : value(v) {}
};

struct Base : c10::intrusive_ptr_target {
  virtual ~Base() = default;
  virtual int id() const { return 1; }
};
struct Derived : Base {
  int id() const override { return 2; }
};

// Counts its destructions, to catch a double delete.
struct CountedDestructor : c10::intrusive_ptr_target {
  std::atomic<int>* destructions;
  explicit CountedDestructor(std::atomic<int>* d) : destructions(d) {}
  ~CountedDestructor() override { ++*destructions; }
};

// Records when its resources are released and when it is destroyed.
struct Tracked : c10::intrusive_ptr_target {
  bool* resources_released;
  bool* destructed;
  Tracked(bool* r, bool* d) : resources_released(r), destructed(d) {}
  ~Tracked() override { *destructed = true; }
  void release_resources() override { *resources_released = true; }
};

}  // namespace

TEST(IntrusivePtrTest, MakeStartsWithOneStrongOneWeak) {
  auto p = make_intrusive<SomeClass>(5);
  EXPECT_EQ(p->value, 5);
  EXPECT_EQ(p.use_count(), 1u);
  EXPECT_EQ(p.weak_use_count(), 1u);
  EXPECT_TRUE(p.unique());
  EXPECT_TRUE(p.is_uniquely_owned());
  EXPECT_TRUE(p.defined());
}

TEST(IntrusivePtrTest, NullPtrHasZeroCounts) {
  intrusive_ptr<SomeClass> p;
  EXPECT_FALSE(p.defined());
  EXPECT_TRUE(p == nullptr);
  EXPECT_EQ(p.use_count(), 0u);
  EXPECT_EQ(p.weak_use_count(), 0u);
  EXPECT_EQ(p.get(), nullptr);
}

TEST(IntrusivePtrTest, CopyIncrementsStrongCountOnly) {
  auto p = make_intrusive<SomeClass>();
  {
    auto q = p;
    EXPECT_EQ(p.use_count(), 2u);
    EXPECT_EQ(q.use_count(), 2u);
    EXPECT_EQ(p.weak_use_count(), 1u);
    EXPECT_FALSE(p.unique());
    EXPECT_EQ(p, q);
  }
  EXPECT_EQ(p.use_count(), 1u);
}

TEST(IntrusivePtrTest, MoveLeavesSourceNullAndCountUnchanged) {
  auto p = make_intrusive<SomeClass>();
  SomeClass* raw = p.get();
  auto q = std::move(p);
  EXPECT_FALSE(p.defined());
  EXPECT_EQ(q.get(), raw);
  EXPECT_EQ(q.use_count(), 1u);
}

TEST(IntrusivePtrTest, CopyAssignReleasesOldTarget) {
  bool released = false, destructed = false;
  auto a = make_intrusive<Tracked>(&released, &destructed);
  intrusive_ptr<Tracked> c;
  c = a;
  EXPECT_EQ(a.use_count(), 2u);
  a = intrusive_ptr<Tracked>();
  EXPECT_FALSE(destructed);
  c = intrusive_ptr<Tracked>();
  EXPECT_TRUE(destructed);
  // No weak refs: deleted directly, release_resources is not needed.
  EXPECT_FALSE(released);
}

TEST(IntrusivePtrTest, WeakRefIncrementsWeakCount) {
  auto p = make_intrusive<SomeClass>();
  weak_intrusive_ptr<SomeClass> w(p);
  EXPECT_EQ(p.use_count(), 1u);
  EXPECT_EQ(p.weak_use_count(), 2u);
  EXPECT_EQ(w.use_count(), 1u);
  EXPECT_EQ(w.weak_use_count(), 2u);
  EXPECT_FALSE(p.is_uniquely_owned());
  EXPECT_TRUE(p.unique());
  {
    weak_intrusive_ptr<SomeClass> w2 = w;
    EXPECT_EQ(p.weak_use_count(), 3u);
  }
  EXPECT_EQ(p.weak_use_count(), 2u);
}

TEST(IntrusivePtrTest, LockOnLiveObjectIncrementsStrongCount) {
  auto p = make_intrusive<SomeClass>(9);
  weak_intrusive_ptr<SomeClass> w(p);
  EXPECT_FALSE(w.expired());
  auto locked = w.lock();
  ASSERT_TRUE(locked.defined());
  EXPECT_EQ(locked.get(), p.get());
  EXPECT_EQ(locked->value, 9);
  EXPECT_EQ(p.use_count(), 2u);
}

TEST(IntrusivePtrTest, LockOnExpiredReturnsNull) {
  auto p = make_intrusive<SomeClass>();
  weak_intrusive_ptr<SomeClass> w(p);
  p.reset();
  EXPECT_TRUE(w.expired());
  EXPECT_EQ(w.use_count(), 0u);
  EXPECT_EQ(w.weak_use_count(), 1u);
  auto locked = w.lock();
  EXPECT_FALSE(locked.defined());
  EXPECT_EQ(locked.use_count(), 0u);
}

TEST(IntrusivePtrTest, NoWeakRefsDestructWithoutReleaseResources) {
  bool released = false, destructed = false;
  {
    auto p = make_intrusive<Tracked>(&released, &destructed);
  }
  EXPECT_TRUE(destructed);
  EXPECT_FALSE(released);
}

TEST(IntrusivePtrTest, ReleaseResourcesWhenLastStrongDiesDestructorWhenLastWeakDies) {
  bool released = false, destructed = false;
  auto p = make_intrusive<Tracked>(&released, &destructed);
  auto p2 = p;
  weak_intrusive_ptr<Tracked> w(p);
  weak_intrusive_ptr<Tracked> w2(p);
  p.reset();
  EXPECT_FALSE(released);  // p2 still owns it
  EXPECT_FALSE(destructed);
  p2.reset();
  EXPECT_TRUE(released);  // last strong ref gone, weak refs remain
  EXPECT_FALSE(destructed);
  EXPECT_EQ(w.weak_use_count(), 2u);  // the +1 was dropped
  w.reset();
  EXPECT_FALSE(destructed);
  w2.reset();
  EXPECT_TRUE(destructed);
}

TEST(IntrusivePtrTest, ReleaseAndReclaimRoundTripKeepsCount) {
  auto p = make_intrusive<SomeClass>(3);
  auto q = p;
  SomeClass* raw = q.release();
  EXPECT_FALSE(q.defined());
  EXPECT_EQ(p.use_count(), 2u);  // the released reference still counts
  auto back = intrusive_ptr<SomeClass>::reclaim(raw);
  EXPECT_EQ(back.get(), p.get());
  EXPECT_EQ(p.use_count(), 2u);
  back.reset();
  EXPECT_EQ(p.use_count(), 1u);
}

TEST(IntrusivePtrTest, UnsafeReclaimFromNonowningIncrements) {
  auto p = make_intrusive<SomeClass>();
  auto extra = intrusive_ptr<SomeClass>::unsafe_reclaim_from_nonowning(p.get());
  EXPECT_EQ(p.use_count(), 2u);
  EXPECT_EQ(extra.get(), p.get());
  extra.reset();
  EXPECT_EQ(p.use_count(), 1u);
}

TEST(IntrusivePtrTest, RawIncrefDecref) {
  bool released = false, destructed = false;
  auto p = make_intrusive<Tracked>(&released, &destructed);
  Tracked* raw = p.get();
  c10::raw::intrusive_ptr::incref(raw);
  EXPECT_EQ(p.use_count(), 2u);
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(raw), 2u);
  p.reset();
  EXPECT_FALSE(destructed);
  c10::raw::intrusive_ptr::decref(raw);
  EXPECT_TRUE(destructed);
}

TEST(IntrusivePtrTest, WeakReleaseAndReclaimKeepsWeakCount) {
  auto p = make_intrusive<SomeClass>();
  weak_intrusive_ptr<SomeClass> w(p);
  SomeClass* raw = w.release();
  EXPECT_EQ(p.weak_use_count(), 2u);
  auto back = weak_intrusive_ptr<SomeClass>::reclaim(raw);
  EXPECT_EQ(p.weak_use_count(), 2u);
  back.reset();
  EXPECT_EQ(p.weak_use_count(), 1u);
}

TEST(IntrusivePtrTest, DerivedConvertsToBase) {
  auto d = make_intrusive<Derived>();
  intrusive_ptr<Base> b = d;  // copy conversion
  EXPECT_EQ(d.use_count(), 2u);
  EXPECT_EQ(b->id(), 2);
  EXPECT_EQ(b.get(), d.get());
  intrusive_ptr<Base> b2 = std::move(d);  // move conversion
  EXPECT_FALSE(d.defined());
  EXPECT_EQ(b.use_count(), 2u);
  EXPECT_EQ(b2->id(), 2);
}

TEST(IntrusivePtrTest, SwapExchangesTargets) {
  auto a = make_intrusive<SomeClass>(1);
  auto b = make_intrusive<SomeClass>(2);
  auto a_copy = a;
  a.swap(b);
  EXPECT_EQ(a->value, 2);
  EXPECT_EQ(b->value, 1);
  EXPECT_EQ(b.use_count(), 2u);  // b now holds what a_copy holds
  EXPECT_EQ(a.use_count(), 1u);
}

TEST(IntrusivePtrTest, HashAndComparisonUseTheTarget) {
  auto a = make_intrusive<SomeClass>();
  auto a2 = a;
  auto b = make_intrusive<SomeClass>();
  std::hash<intrusive_ptr<SomeClass>> h;
  EXPECT_EQ(h(a), h(a2));
  EXPECT_EQ(h(a), std::hash<SomeClass*>()(a.get()));
  EXPECT_NE(a, b);
  EXPECT_TRUE((a < b) != (b < a));
  std::unordered_set<intrusive_ptr<SomeClass>> set{a, a2, b};
  EXPECT_EQ(set.size(), 2u);
}

TEST(IntrusivePtrTest, NonHeapAdaptedObjectIsNeverFreed) {
  static SomeClass on_stack_like(4);
  {
    auto p = intrusive_ptr<SomeClass>::unsafe_adapt_non_heap_allocated(&on_stack_like, 1);
    EXPECT_GE(p.use_count(), c10::kImpracticallyHugeReferenceCount);
  }
  EXPECT_EQ(on_stack_like.value, 4);
}

TEST(IntrusivePtrTest, ConcurrentCopiesEndAtUseCountOne) {
  bool released = false, destructed = false;
  auto p = make_intrusive<Tracked>(&released, &destructed);
  weak_intrusive_ptr<Tracked> w(p);
  constexpr int kThreads = 4;
  constexpr int kCopies = 10000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&p, &w] {
      for (int i = 0; i < kCopies; ++i) {
        intrusive_ptr<Tracked> copy = p;
        intrusive_ptr<Tracked> locked = w.lock();
        weak_intrusive_ptr<Tracked> weak_copy = w;
        (void)copy;
      }
    });
  }
  for (auto& th : threads) {
    th.join();
  }
  EXPECT_EQ(p.use_count(), 1u);
  EXPECT_EQ(p.weak_use_count(), 2u);
  EXPECT_FALSE(released);
  EXPECT_FALSE(destructed);
  w.reset();
  p.reset();
  EXPECT_TRUE(destructed);
}

TEST(IntrusivePtrTest, ConcurrentLastReleaseDestroysExactlyOnce) {
  // Each round: 4 threads each own one reference and drop it at once; the object must be
  // destroyed exactly once, whichever thread is last.
  for (int round = 0; round < 200; ++round) {
    std::atomic<int> destructions{0};
    auto p = make_intrusive<CountedDestructor>(&destructions);
    std::vector<intrusive_ptr<CountedDestructor>> refs(4, p);
    p.reset();
    std::vector<std::thread> threads;
    for (auto& r : refs) {
      threads.emplace_back([&r] { r.reset(); });
    }
    for (auto& th : threads) {
      th.join();
    }
    ASSERT_EQ(destructions.load(), 1) << "round " << round;
  }
}
