// c10/cuda/impl/sim/KernelExecutor.cpp - the engine that runs a grid: the probe, the plain
// loop, the fibers and their scheduler, barriers, warp exchanges, device-side asserts. This
// tree's simulated CUDA device; PyTorch has no such thing.
// Guide: docs/source/internals/cuda_simulated_device.rst
//
// Fibers are stacks of their own, one per thread of a block, each mmap'd with a PROT_NONE guard
// page below it. They are created once per OS thread and live for as long as it does: a fiber runs
// its thread's body in a loop, and after the body returns it hands control on and waits to be given
// the same thread of the next block. So a block costs no allocation, only the switches themselves.
// A switch goes straight from the fiber that waits to the next runnable one. On x86-64 it is
// switch_stack below: push the registers the C++ ABI says a call preserves, swap stack pointers,
// pop the other fiber's. A thread that waits at a barrier is inside a call (__syncthreads()), so
// that is all of its state; the rest is dead across the call. ucontext's swapcontext, used on other
// machines, does the same but also saves and restores the signal mask with a system call, which
// made it some 20 times slower (220 ns a switch against 10 ns), and a block of 256 threads
// switches 256 times per barrier.
#include <c10/cuda/impl/sim/KernelExecutor.h>

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define C10_SIM_ASAN 1
#else
#define C10_SIM_ASAN 0
#endif

namespace c10::cuda::sim {

namespace detail {
__thread ThreadState tls_state C10_API __attribute__((__tls_model__("initial-exec"))) = {
    {0, 0, 0},
    dim3(1, 1, 1),
    dim3(1, 1, 1),
    dim3(1, 1, 1),
    nullptr};
}  // namespace detail

namespace {

// [marker: switch_stack]
#if defined(__x86_64__)
#define C10_SIM_FAST_SWITCH 1
// switch_stack(&from_sp, to_sp): saves the callee-saved registers, MXCSR and the x87 control word
// on the current stack, stores the stack pointer in *from_sp, loads to_sp and restores the same
// from there. It returns on the other stack: into the switch_stack call that fiber made when it
// was switched out, or, for a fiber that never ran, into fiber_start (see reset_fiber).
// fiber_start calls fiber_entry(r12) with r13 holding its address; .cfi_undefined rip ends a
// debugger's backtrace there, at the bottom of the fiber's stack.
extern "C" void c10_sim_switch_stack(void** from_sp, void* to_sp);
extern "C" void c10_sim_fiber_start();
asm(R"(
  .text
  .p2align 4
  .globl c10_sim_switch_stack
  .hidden c10_sim_switch_stack
  .type c10_sim_switch_stack, @function
c10_sim_switch_stack:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size c10_sim_switch_stack, .-c10_sim_switch_stack

  .p2align 4
  .globl c10_sim_fiber_start
  .hidden c10_sim_fiber_start
  .type c10_sim_fiber_start, @function
c10_sim_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size c10_sim_fiber_start, .-c10_sim_fiber_start
)");
#else
#define C10_SIM_FAST_SWITCH 0
#endif
// [end marker: switch_stack]

using detail::BarrierResult;
using detail::tls_state;
using detail::WarpOp;
using detail::WarpResult;

constexpr unsigned kWarpSize = 32;
constexpr size_t kStackSize = 256 * 1024;
constexpr size_t kSmemAlignment = 16;

// Thrown by a device-side assert or a barrier that cannot be honoured, caught where the
// thread's body was entered: the plain loop, or the fiber's entry function. It never crosses a
// switch between stacks (an exception cannot unwind from one stack into another). Not a std::exception, so
// a kernel's own catch (const std::exception&) does not swallow it.
struct KernelAbort {
  GridStatus status;
};

enum class Mode : uint8_t {
  Idle,   // no grid is running on this OS thread
  Probe,  // thread (0,0,0) of block (0,0,0) runs alone on a fiber
  Plain,  // the rest of the grid runs as a loop
  Fiber,  // every thread runs on a fiber
};

enum class FiberState : uint8_t {
  Runnable,   // may be switched to: not started yet, or released from a wait
  AtBarrier,  // waits in __syncthreads()
  AtWarp,     // waits in a warp collective
  Done,       // its thread returned (or the grid stopped)
};

struct Fiber {
  ucontext_t uc;     // where switch_stack is not available
  void* sp = nullptr;  // the saved stack pointer, where it is
  void* mapping = nullptr;  // guard page + stack
  size_t mapping_size = 0;
  char* stack_lo = nullptr;  // lowest usable address of the stack
  size_t stack_size = 0;
  uint3 idx = {0, 0, 0};  // threadIdx of the thread this fiber runs
  unsigned tid = 0;       // linear thread id in the block; fiber i always runs thread i
  FiberState state = FiberState::Done;
  bool in_kernel = false;  // between entering the body and leaving it
  void* asan_fake_stack = nullptr;
};

// One warp's exchange in progress. Lanes deposit their value and wait; when every lane the
// arrived lanes wait for has arrived (or exited), the round completes and each arrived lane's
// result is computed at once into its own slot. A lane reads its slot when it resumes, before it
// can take part in another round, so a fast lane starting the next round overwrites nothing that
// a slow lane has still to read.
struct WarpState {
  unsigned live = 0;     // lanes that have not exited
  unsigned arrived = 0;  // lanes waiting in the current round
  unsigned needed = 0;   // union of the masks of the arrived lanes
  unsigned votes = 0;    // arrived lanes whose predicate was non-zero
  int src[kWarpSize];
  alignas(16) unsigned char value[kWarpSize][16];
  WarpResult result[kWarpSize];
};

// Everything a running grid needs, one per OS thread. Nothing here is shared between OS threads.
struct ExecContext {
  // The launch.
  const std::function<void()>* body = nullptr;
  dim3 grid, block;
  unsigned nthreads = 0;  // threads per block
  size_t smem_bytes = 0;
  Mode mode = Mode::Idle;
  bool saw_collective = false;
  bool used_fibers = false;
  bool aborting = false;
  GridStatus abort_status = GridStatus::Success;
  std::exception_ptr pending;  // a non-simulator exception from a fiber, rethrown by run_grid

  // The block being run on fibers.
  unsigned nfibers_in_use = 0;
  unsigned live = 0;  // threads of the block that have not exited
  unsigned bar_arrived = 0;
  unsigned bar_votes = 0;
  BarrierResult bar_result = {0, 0};
  std::vector<WarpState> warps;
  // Held by pointer: a ucontext_t must never move (glibc's points into itself, at its saved
  // floating-point state).
  std::vector<std::unique_ptr<Fiber>> fibers;
  Fiber* current = nullptr;

  // The OS thread's own context, where run_grid waits while fibers run.
  ucontext_t main_uc;
  void* main_sp = nullptr;
  void* main_asan_fake_stack = nullptr;
  const void* main_stack_bottom = nullptr;
  size_t main_stack_size = 0;

  // Dynamic shared memory.
  void* smem = nullptr;
  size_t smem_capacity = 0;

  ExecContext();
  ~ExecContext();
  C10_DISABLE_COPY_AND_ASSIGN(ExecContext);
};

thread_local ExecContext t_context;

ExecContext& context() {
  return t_context;
}

ExecContext::ExecContext() {
#if C10_SIM_ASAN
  // ASan must be told which stack it is switching back to when a fiber returns control here.
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &addr, &size);
    main_stack_bottom = addr;
    main_stack_size = size;
    pthread_attr_destroy(&attr);
  }
#endif
}

ExecContext::~ExecContext() {
  for (auto& f : fibers) {
#if C10_SIM_ASAN
    // Poison left by frames on the stack must not outlive it: the range may be mapped again.
    ASAN_UNPOISON_MEMORY_REGION(f->stack_lo, f->stack_size);
#endif
    munmap(f->mapping, f->mapping_size);
  }
  ::operator delete(smem, std::align_val_t(kSmemAlignment));
}

// ----------------------------------------------------------------------------------------------
// Switching. Whoever switches to a fiber first sets the coordinates that fiber will read, so a
// fiber always sees its own threadIdx. A fiber never leaves the OS thread it was created on, so
// code that keeps the address of tls_state across a switch still finds its own OS thread's copy.

inline void asan_start_switch(void** fake_stack_save, const void* bottom, size_t size) {
#if C10_SIM_ASAN
  __sanitizer_start_switch_fiber(fake_stack_save, bottom, size);
#else
  (void)fake_stack_save, (void)bottom, (void)size;
#endif
}

inline void asan_finish_switch(void* fake_stack_save) {
#if C10_SIM_ASAN
  __sanitizer_finish_switch_fiber(fake_stack_save, nullptr, nullptr);
#else
  (void)fake_stack_save;
#endif
}

#if C10_SIM_ASAN
// ASan intercepts swapcontext for programs that do not announce their stack switches: it warns
// once that it may report false positives, and clears the shadow of the whole target stack at
// every switch, forgetting the redzones of the frames live there. These switches are announced
// (asan_start_switch/asan_finish_switch), so they call glibc's own swapcontext.
using SwapContextFn = int (*)(ucontext_t*, const ucontext_t*);
SwapContextFn libc_swapcontext() {
  static const SwapContextFn fn = [] {
    void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    void* sym = libc != nullptr ? dlsym(libc, "swapcontext") : nullptr;
    return sym != nullptr ? reinterpret_cast<SwapContextFn>(sym) : &::swapcontext;
  }();
  return fn;
}
inline void swap_context(ucontext_t* from, const ucontext_t* to) {
  libc_swapcontext()(from, to);
}
#else
inline void swap_context(ucontext_t* from, const ucontext_t* to) {
  swapcontext(from, to);
}
#endif

#if C10_SIM_FAST_SWITCH
#define C10_SIM_SWAP(from_uc, from_sp, to_uc, to_sp) c10_sim_switch_stack(&(from_sp), (to_sp))
#else
#define C10_SIM_SWAP(from_uc, from_sp, to_uc, to_sp) swap_context(&(from_uc), &(to_uc))
#endif

void switch_fiber(ExecContext& c, Fiber& from, Fiber& to) {
  tls_state.thread_idx = to.idx;
  c.current = &to;
  asan_start_switch(&from.asan_fake_stack, to.stack_lo, to.stack_size);
  C10_SIM_SWAP(from.uc, from.sp, to.uc, to.sp);
  asan_finish_switch(from.asan_fake_stack);
}

void switch_to_main(ExecContext& c, Fiber& from) {
  c.current = nullptr;
  asan_start_switch(&from.asan_fake_stack, c.main_stack_bottom, c.main_stack_size);
  C10_SIM_SWAP(from.uc, from.sp, c.main_uc, c.main_sp);
  asan_finish_switch(from.asan_fake_stack);
}

void switch_from_main(ExecContext& c, Fiber& to) {
  tls_state.thread_idx = to.idx;
  c.current = &to;
  asan_start_switch(&c.main_asan_fake_stack, to.stack_lo, to.stack_size);
  C10_SIM_SWAP(c.main_uc, c.main_sp, to.uc, to.sp);
  asan_finish_switch(c.main_asan_fake_stack);
}

// ----------------------------------------------------------------------------------------------
// Fibers.

void fiber_entry(int index);

// Points a fiber's context at the start of fiber_entry. Used when the fiber is created, and again
// when its thread was abandoned mid-kernel (the grid stopped while it waited): the frames left
// on its stack are dropped without running their destructors.
void reset_fiber(Fiber& f, int index) {
#if C10_SIM_FAST_SWITCH
  // The frame switch_stack pops when it first switches here, from the stack's top down: padding,
  // the return address (fiber_start), rbp, rbx, r12 (the fiber's index), r13 (fiber_entry), r14,
  // r15, and MXCSR with the x87 control word (this OS thread's, so the fiber rounds as it does).
  // Sixteen-byte aligned so that fiber_start's call enters fiber_entry as the ABI requires.
  auto* top = reinterpret_cast<uint64_t*>(
      (reinterpret_cast<uintptr_t>(f.stack_lo) + f.stack_size) & ~static_cast<uintptr_t>(15));
  uint64_t* frame = top - 10;
  uint32_t mxcsr = 0;
  uint16_t fpu_cw = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpu_cw));
  frame[0] = static_cast<uint64_t>(mxcsr) | (static_cast<uint64_t>(fpu_cw) << 32);
  frame[1] = 0;                                                   // r15
  frame[2] = 0;                                                   // r14
  frame[3] = reinterpret_cast<uint64_t>(&fiber_entry);            // r13
  frame[4] = static_cast<uint64_t>(index);                        // r12
  frame[5] = 0;                                                   // rbx
  frame[6] = 0;                                                   // rbp
  frame[7] = reinterpret_cast<uint64_t>(&c10_sim_fiber_start);    // return address
  frame[8] = frame[9] = 0;
  f.sp = frame;
#else
  f.uc.uc_stack.ss_sp = f.stack_lo;
  f.uc.uc_stack.ss_size = f.stack_size;
  f.uc.uc_link = nullptr;  // fiber_entry never returns
  makecontext(&f.uc, reinterpret_cast<void (*)()>(&fiber_entry), 1, index);
#endif
  f.in_kernel = false;
  f.asan_fake_stack = nullptr;
#if C10_SIM_ASAN
  // Redzones of the abandoned frames are still poisoned; the next thread's frames go there.
  ASAN_UNPOISON_MEMORY_REGION(f.stack_lo, f.stack_size);
#endif
}

void ensure_fibers(ExecContext& c, unsigned n) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  while (c.fibers.size() < n) {
    auto f = std::make_unique<Fiber>();
    f->mapping_size = page + kStackSize;
    f->mapping = mmap(
        nullptr,
        f->mapping_size,
        PROT_READ | PROT_WRITE,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
        -1,
        0);
    if (f->mapping == MAP_FAILED) {
      throw std::bad_alloc();
    }
    // A stack overflow faults on the guard page instead of writing into the next stack.
    if (mprotect(f->mapping, page, PROT_NONE) != 0) {
      munmap(f->mapping, f->mapping_size);
      throw std::bad_alloc();
    }
    f->stack_lo = static_cast<char*>(f->mapping) + page;
    f->stack_size = kStackSize;
    if (getcontext(&f->uc) != 0) {
      munmap(f->mapping, f->mapping_size);
      throw std::runtime_error("c10::cuda::sim: getcontext failed");
    }
    reset_fiber(*f, static_cast<int>(c.fibers.size()));
    c.fibers.push_back(std::move(f));
  }
}

uint3 thread_coords(const dim3& block, unsigned tid) {
  return uint3{tid % block.x, (tid / block.x) % block.y, tid / (block.x * block.y)};
}

// The next fiber to run after `from`, in thread order, wrapping around; nullptr if none.
Fiber* next_runnable(ExecContext& c, unsigned from) {
  const unsigned n = c.nfibers_in_use;
  for (unsigned k = 1; k <= n; ++k) {
    unsigned i = from + k;
    if (i >= n) {
      i -= n;
    }
    if (c.fibers[i]->state == FiberState::Runnable) {
      return c.fibers[i].get();
    }
  }
  return nullptr;
}

void stop_grid(ExecContext& c, GridStatus status) {
  if (!c.aborting) {
    c.aborting = true;
    c.abort_status = status;
  }
}

// Nothing can run but the block is not done: every live thread waits for one that waits too.
void report_deadlock(ExecContext& c) {
  unsigned at_barrier = 0;
  unsigned at_warp = 0;
  for (unsigned i = 0; i < c.nfibers_in_use; ++i) {
    at_barrier += c.fibers[i]->state == FiberState::AtBarrier;
    at_warp += c.fibers[i]->state == FiberState::AtWarp;
  }
  const uint3 b = tls_state.block_idx;
  std::fprintf(
      stderr,
      "c10::cuda::sim: block [%u,%u,%u] deadlocked: %u threads wait in __syncthreads() while %u "
      "wait in a warp collective for lanes that will not come\n",
      b.x, b.y, b.z, at_barrier, at_warp);
  stop_grid(c, GridStatus::BadBarrier);
}

// The current fiber cannot go on: run the next runnable one. Returns when this fiber is resumed.
void park(ExecContext& c, Fiber& self) {
  Fiber* next = next_runnable(c, self.tid);
  if (next != nullptr) {
    switch_fiber(c, self, *next);
    return;
  }
  // While probing, the other threads of block 0 do not exist yet: run_grid creates them.
  if (c.mode != Mode::Probe) {
    report_deadlock(c);
  }
  switch_to_main(c, self);
}

void release_barrier(ExecContext& c) {
  c.bar_result = BarrierResult{c.bar_votes, c.bar_arrived};
  c.bar_arrived = 0;
  c.bar_votes = 0;
  for (unsigned i = 0; i < c.nfibers_in_use; ++i) {
    if (c.fibers[i]->state == FiberState::AtBarrier) {
      c.fibers[i]->state = FiberState::Runnable;
    }
  }
}

void complete_warp_round(ExecContext& c, unsigned warp) {
  WarpState& w = c.warps[warp];
  const unsigned members = w.arrived;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(members >> lane & 1u)) {
      continue;
    }
    const int src = w.src[lane];
    const unsigned from = (src >= 0 && (members >> src & 1u)) ? static_cast<unsigned>(src) : lane;
    WarpResult& r = w.result[lane];
    std::memcpy(r.value, w.value[from], sizeof(r.value));
    r.ballot = w.votes;
    r.members = members;
    c.fibers[warp * kWarpSize + lane]->state = FiberState::Runnable;
  }
  w.arrived = 0;
  w.needed = 0;
  w.votes = 0;
}

bool warp_round_ready(const WarpState& w) {
  return w.arrived != 0 && (w.needed & w.live & ~w.arrived) == 0;
}

// The body of the fiber's thread returned, threw, or the grid is stopping. Hands control on.
void thread_exited(ExecContext& c, Fiber& self) {
  self.state = FiberState::Done;
  --c.live;
  if (!c.aborting) {
    WarpState& w = c.warps[self.tid / kWarpSize];
    w.live &= ~(1u << (self.tid % kWarpSize));
    if (warp_round_ready(w)) {
      complete_warp_round(c, self.tid / kWarpSize);
    }
    // Threads that returned count as arrived (sm_70 and later): the others need not wait.
    if (c.bar_arrived > 0 && c.bar_arrived == c.live) {
      release_barrier(c);
    }
    if (c.live > 0) {
      park(c, self);
      return;
    }
  }
  switch_to_main(c, self);
}

// [marker: fiber_entry]
// Every fiber starts here and never leaves: one iteration per thread it is given to run.
void fiber_entry(int index) {
  asan_finish_switch(nullptr);
  for (;;) {
    ExecContext& c = context();
    Fiber& self = *c.fibers[static_cast<size_t>(index)];
    self.in_kernel = true;
    try {
      (*c.body)();
    } catch (const KernelAbort& abort) {
      stop_grid(c, abort.status);
    } catch (...) {
      // Anything else is the kernel's own exception: carried to run_grid, rethrown there.
      c.pending = std::current_exception();
      stop_grid(c, GridStatus::Success);
    }
    self.in_kernel = false;
    thread_exited(c, self);
  }
}
// [end marker: fiber_entry]

// ----------------------------------------------------------------------------------------------
// run_grid.

void begin_block(ExecContext& c, unsigned bx, unsigned by, unsigned bz) {
  tls_state.block_idx = uint3{bx, by, bz};
#ifndef NDEBUG
  // Shared memory holds whatever the previous block left; make reading it before writing show.
  if (c.smem_bytes > 0) {
    std::memset(c.smem, 0xCD, c.smem_bytes);
  }
#endif
}

// Block state for running the block's threads on fibers (also used by the probe).
void reset_block_sync_state(ExecContext& c) {
  c.live = c.nthreads;
  c.bar_arrived = 0;
  c.bar_votes = 0;
  const unsigned nwarps = (c.nthreads + kWarpSize - 1) / kWarpSize;
  for (unsigned w = 0; w < nwarps; ++w) {
    WarpState& ws = c.warps[w];
    const unsigned lanes = std::min(kWarpSize, c.nthreads - w * kWarpSize);
    ws.live = lanes == kWarpSize ? ~0u : (1u << lanes) - 1;
    ws.arrived = ws.needed = ws.votes = 0;
  }
}

// After every grid: fibers abandoned mid-kernel (the grid stopped, or run_grid threw, while they
// waited) restart from fiber_entry next time.
void recover_fibers(ExecContext& c) {
  for (size_t i = 0; i < c.fibers.size(); ++i) {
    Fiber& f = *c.fibers[i];
    if (f.in_kernel) {
      reset_fiber(f, static_cast<int>(i));
    }
    f.state = FiberState::Done;
  }
}

// [marker: run_plain]
// The loop every barrier-free kernel runs as: set the coordinates, call the body, next thread.
GridStatus run_plain(ExecContext& c, unsigned first_thread) {
  const std::function<void()>& body = *c.body;
  const dim3 g = c.grid;
  const dim3 b = c.block;
  // Block 0 was begun by the probe, and its first threads have run.
  unsigned skip = first_thread;
  try {
    for (unsigned bz = 0; bz < g.z; ++bz) {
      for (unsigned by = 0; by < g.y; ++by) {
        for (unsigned bx = 0; bx < g.x; ++bx) {
          if (skip == 0) {
            begin_block(c, bx, by, bz);
          }
          for (unsigned tz = 0; tz < b.z; ++tz) {
            for (unsigned ty = 0; ty < b.y; ++ty) {
              for (unsigned tx = 0; tx < b.x; ++tx) {
                if (C10_UNLIKELY(skip > 0)) {
                  --skip;
                  continue;
                }
                tls_state.thread_idx = uint3{tx, ty, tz};
                body();
              }
            }
          }
        }
      }
    }
  } catch (const KernelAbort& abort) {
    return abort.status;
  }
  return GridStatus::Success;
}
// [end marker: run_plain]

// Runs the current block on fibers until every thread exited or the grid stopped; the fibers
// from `first` on are started, those before it are already running (the probe's thread 0).
void run_block_on_fibers(ExecContext& c, unsigned first) {
  for (unsigned i = first; i < c.nthreads; ++i) {
    c.fibers[i]->state = FiberState::Runnable;
  }
  if (c.live == 0) {
    return;
  }
  Fiber* start = next_runnable(c, first == 0 ? c.nthreads - 1 : first - 1);
  if (start == nullptr) {
    report_deadlock(c);
    return;
  }
  switch_from_main(c, *start);
}

GridStatus run_fibers(ExecContext& c) {
  c.mode = Mode::Fiber;
  c.used_fibers = true;
  ensure_fibers(c, c.nthreads);
  c.nfibers_in_use = c.nthreads;
  for (unsigned i = 0; i < c.nthreads; ++i) {
    c.fibers[i]->idx = thread_coords(c.block, i);
    c.fibers[i]->tid = i;
  }
  // Block 0 goes on from where the probe left thread 0.
  run_block_on_fibers(c, 1);
  unsigned long long block_linear = 0;
  for (unsigned bz = 0; bz < c.grid.z && !c.aborting; ++bz) {
    for (unsigned by = 0; by < c.grid.y && !c.aborting; ++by) {
      for (unsigned bx = 0; bx < c.grid.x && !c.aborting; ++bx, ++block_linear) {
        if (block_linear == 0) {
          continue;
        }
        begin_block(c, bx, by, bz);
        reset_block_sync_state(c);
        run_block_on_fibers(c, 0);
      }
    }
  }
  return c.aborting ? c.abort_status : GridStatus::Success;
}

// Puts the OS thread's context back to idle however run_grid leaves.
struct RunGuard {
  ExecContext& c;
  ~RunGuard() {
    recover_fibers(c);
    c.mode = Mode::Idle;
    c.body = nullptr;
    c.current = nullptr;
    c.aborting = false;
    c.abort_status = GridStatus::Success;
    c.nfibers_in_use = 0;
    tls_state.thread_idx = uint3{0, 0, 0};
  }
};

// Prints the one line that says why a barrier cannot be honoured, and stops the grid.
[[noreturn]] void bad_barrier_in_plain_mode(const char* name) {
  const uint3 b = tls_state.block_idx;
  const uint3 t = tls_state.thread_idx;
  std::fprintf(
      stderr,
      "c10::cuda::sim: block [%u,%u,%u], thread [%u,%u,%u] reached %s, but thread [0,0,0] of "
      "block [0,0,0] returned without reaching any barrier or warp collective, so the grid was "
      "run without fibers (CUDA leaves such a kernel undefined); grid stopped\n",
      b.x, b.y, b.z, t.x, t.y, t.z, name);
  throw KernelAbort{GridStatus::BadBarrier};
}

// The fiber a collective is called on, or the reason there is none.
Fiber& collective_caller(ExecContext& c, const char* name) {
  if (c.mode == Mode::Plain) {
    bad_barrier_in_plain_mode(name);
  }
  if (c.mode == Mode::Idle || c.current == nullptr) {
    std::fprintf(stderr, "c10::cuda::sim: %s called outside a kernel\n", name);
    std::abort();
  }
  c.saw_collective = true;
  return *c.current;
}

}  // namespace

GridStatus run_grid(
    dim3 grid,
    dim3 block,
    size_t dynamic_smem_bytes,
    const std::function<void()>& thread_body) {
  ExecContext& c = context();
  if (c.mode != Mode::Idle) {
    throw std::logic_error(
        "c10::cuda::sim::run_grid: a kernel launched a kernel; dynamic parallelism is not "
        "simulated");
  }
  c.used_fibers = false;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
      block.z == 0) {
    return GridStatus::Success;
  }
  const unsigned long long nthreads =
      static_cast<unsigned long long>(block.x) * block.y * block.z;
  if (nthreads > (1u << 20)) {
    throw std::invalid_argument("c10::cuda::sim::run_grid: block too large");
  }

  RunGuard guard{c};
  c.body = &thread_body;
  c.grid = grid;
  c.block = block;
  c.nthreads = static_cast<unsigned>(nthreads);
  c.smem_bytes = dynamic_smem_bytes;
  c.pending = nullptr;
  c.aborting = false;
  c.abort_status = GridStatus::Success;
  c.saw_collective = false;
  if (dynamic_smem_bytes > c.smem_capacity || c.smem == nullptr) {
    const size_t rounded =
        (dynamic_smem_bytes + kSmemAlignment - 1) / kSmemAlignment * kSmemAlignment;
    const size_t bytes = std::max(kSmemAlignment, rounded);
    void* p = ::operator new(bytes, std::align_val_t(kSmemAlignment));
    ::operator delete(c.smem, std::align_val_t(kSmemAlignment));
    c.smem = p;
    c.smem_capacity = bytes;
  }
  tls_state.block_dim = block;
  tls_state.grid_dim = grid;
  tls_state.dynamic_smem = c.smem;
  if (c.warps.size() < (c.nthreads + kWarpSize - 1) / kWarpSize) {
    c.warps.resize((c.nthreads + kWarpSize - 1) / kWarpSize);
  }

  // The probe: thread (0,0,0) of block (0,0,0) alone, on a fiber, so that if it waits at a
  // barrier the other threads can be started beside it, without restarting it.
  ensure_fibers(c, 1);
  Fiber& probe = *c.fibers[0];
  probe.idx = uint3{0, 0, 0};
  probe.tid = 0;
  probe.state = FiberState::Runnable;
  c.nfibers_in_use = 1;
  c.mode = Mode::Probe;
  begin_block(c, 0, 0, 0);
  reset_block_sync_state(c);
  switch_from_main(c, probe);

  GridStatus status;
  if (c.aborting) {
    status = c.abort_status;
  } else if (probe.state == FiberState::Done && !c.saw_collective) {
    c.mode = Mode::Plain;
    status = run_plain(c, 1);
  } else {
    status = run_fibers(c);
  }
  if (c.pending) {
    std::exception_ptr e = c.pending;
    c.pending = nullptr;
    std::rethrow_exception(e);
  }
  return status;
}

bool last_run_used_fibers() {
  return context().used_fibers;
}

void device_assert_fail(const char* expr, const char* file, unsigned line, const char* func) {
  const uint3 b = tls_state.block_idx;
  const uint3 t = tls_state.thread_idx;
  std::fprintf(
      stderr,
      "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
      file, line, func, b.x, b.y, b.z, t.x, t.y, t.z, expr);
  if (context().mode == Mode::Idle) {
    std::abort();
  }
  throw KernelAbort{GridStatus::AssertFailed};
}

namespace detail {

// [marker: sync_threads]
BarrierResult sync_threads(int predicate, const char* name) {
  ExecContext& c = context();
  Fiber& self = collective_caller(c, name);
  ++c.bar_arrived;
  c.bar_votes += predicate != 0;
  if (c.bar_arrived == c.live) {
    // The last thread to arrive releases the others and goes on without a switch.
    release_barrier(c);
  } else {
    self.state = FiberState::AtBarrier;
    park(c, self);
  }
  return c.bar_result;
}
// [end marker: sync_threads]

// [marker: warp_collective]
void warp_collective(
    WarpOp op,
    unsigned mask,
    int lane_arg,
    int width,
    const void* value,
    size_t size,
    int predicate,
    WarpResult* out,
    const char* name) {
  ExecContext& c = context();
  Fiber& self = collective_caller(c, name);
  const unsigned warp = self.tid / kWarpSize;
  const unsigned lane = self.tid % kWarpSize;
  WarpState& w = c.warps[warp];

  // The source lane, by the rules of PTX's shfl.sync: lanes form segments of `width` (a power of
  // two); idx wraps within the segment, up/down/xor that leave it read the caller's own value
  // (xor may still reach an earlier segment).
  if (width <= 0 || width > static_cast<int>(kWarpSize) || (width & (width - 1)) != 0) {
    width = kWarpSize;
  }
  const int seg_lo = static_cast<int>(lane) & ~(width - 1);
  const int seg_hi = seg_lo + width - 1;
  const int b = lane_arg & static_cast<int>(kWarpSize - 1);
  int src = -1;
  switch (op) {
    case WarpOp::None:
      break;
    case WarpOp::Idx:
      src = seg_lo | (lane_arg & (width - 1));
      break;
    case WarpOp::Up:
      src = static_cast<int>(lane) - b;
      src = src >= seg_lo ? src : -1;
      break;
    case WarpOp::Down:
      src = static_cast<int>(lane) + b;
      src = src <= seg_hi ? src : -1;
      break;
    case WarpOp::Xor:
      src = static_cast<int>(lane) ^ b;
      src = src <= seg_hi ? src : -1;
      break;
  }

  const unsigned bit = 1u << lane;
  std::memset(w.value[lane], 0, sizeof(w.value[lane]));
  if (size > 0) {
    std::memcpy(w.value[lane], value, size);
  }
  w.src[lane] = src;
  w.arrived |= bit;
  w.needed |= mask | bit;
  if (predicate != 0) {
    w.votes |= bit;
  }
  self.state = FiberState::AtWarp;
  if (warp_round_ready(w)) {
    complete_warp_round(c, warp);
  } else {
    park(c, self);
  }
  *out = w.result[lane];
}
// [end marker: warp_collective]

unsigned active_mask() {
  ExecContext& c = context();
  Fiber& self = collective_caller(c, "__activemask()");
  return c.warps[self.tid / kWarpSize].live;
}

}  // namespace detail

}  // namespace c10::cuda::sim
