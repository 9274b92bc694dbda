// c10/cuda/test/CUDAEvent_test.cpp - CUDA events: lazy creation, record, query, timing.
// Mirrors PyTorch's event tests in aten/src/ATen/test/cuda_stream_test.cpp and test_cuda.py.
// Guide: docs/source/internals/c10_cuda.rst.
#include <c10/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>

#include <c10/cuda/test/CUDATestUtils.h>
#include <gtest/gtest.h>

using namespace c10::cuda;
using c10::DeviceIndex;

// ---- any machine: nothing is created before the first record ----

TEST(CUDAEventTest, UnrecordedEventIsCompleteAndCreatesNothing) {
  CUDAEvent event;
  EXPECT_FALSE(event.isCreated());
  EXPECT_TRUE(event.query());
  EXPECT_NO_THROW(event.synchronize());
  EXPECT_EQ(event.flags(), static_cast<unsigned int>(cudaEventDisableTiming));
}

TEST(CUDAEventTest, ElapsedTimeNeedsTimingEvents) {
  CUDAEvent a, b;
  EXPECT_THROW(a.elapsed_time(b), c10::ValueError);
  CUDAEvent ta(cudaEventDefault), tb(cudaEventDefault);
  EXPECT_THROW(ta.elapsed_time(tb), c10::ValueError);  // not recorded yet
}

// ---- GPU ----

TEST(CUDAEventTest, RecordQuerySynchronize) {
  SKIP_WITHOUT_GPU();
  CUDAStream s = getStreamFromPool();
  CUDAEvent event;
  event.record(s);
  EXPECT_TRUE(event.isCreated());
  EXPECT_TRUE(event.wasRecorded());
  EXPECT_EQ(event.device_index(), s.device_index());
  event.synchronize();
  EXPECT_TRUE(event.query());
}

TEST(CUDAEventTest, ElapsedTimeOfTimedEvents) {
  SKIP_WITHOUT_GPU();
  CUDAStream s = getStreamFromPool();
  CUDAEvent start(cudaEventDefault), end(cudaEventDefault);
  start.record(s);
  end.record(s);
  end.synchronize();
  EXPECT_GE(start.elapsed_time(end), 0.0f);
}

TEST(CUDAEventTest, BlockMakesAnotherStreamWait) {
  SKIP_WITHOUT_GPU();
  CUDAStream producer = getStreamFromPool();
  CUDAStream consumer = getStreamFromPool();
  CUDAEvent event;
  event.record(producer);
  event.block(consumer);
  consumer.synchronize();  // returns only after the producer's work before the event
  EXPECT_TRUE(event.query());
}

TEST(CUDAEventTest, MoveTransfersOwnership) {
  SKIP_WITHOUT_GPU();
  CUDAEvent a;
  a.record(getCurrentCUDAStream());
  CUDAEvent b(std::move(a));
  EXPECT_TRUE(b.isCreated());
  EXPECT_FALSE(a.isCreated());
}
