"""python -m torch.tour - a guided walk through the layers that exist, from Python down to c10.

Each stop runs real code and prints what happened and which file and function did it.
This is what `make tour` runs. Guide: docs/source/index.rst (each stop names its chapter).
"""

import textwrap

import torch

LAYERS = """\
 torch/          Python API: Tensor, nn, optim, autograd, utils.data, cuda,  (Python)
   |             profiler, amp, serialization
   |  import torch._C
 torch/csrc/     torch._C: bindings (pybind11 and generated), the autograd  (C++)
   |             engine, the C++ frontend (csrc/api)
 aten/src/ATen/  libtorch_cpu / libtorch_cuda: dispatcher, TensorIterator,  (C++)
   |             native CPU and CUDA kernels (generated glue from
   |             native_functions.yaml); the legacy TH/THC storages beside it
 c10/            Allocator, DataPtr, StorageImpl, TensorImpl, Device,       (C++)
                 ScalarType, DispatchKeySet, intrusive_ptr; c10/cuda streams
                 and the CUDA caching allocator
"""


def stop(number, title, chapter):
    print()
    print(f"== Stop {number}: {title}")
    print(f"   (guide: docs/source/internals/{chapter})")


def say(text):
    print(textwrap.indent(textwrap.dedent(text).strip("\n"), "   "))


def step(code, result, where):
    print(f"   >>> {code}")
    print(f"   {result}")
    print(f"       ^ {where}")


def cuda_caching_allocator_stop():
    import torch.cuda.memory

    say("""
        CUDA memory comes from c10/cuda/CUDACachingAllocator.cpp, which keeps freed blocks and hands
        them out again instead of calling cudaMalloc/cudaFree each time. Its policy is written against
        c10/cuda/impl/DeviceRuntime.h; here it runs on the simulated device (SimulatedDevice.cpp),
        the same C++ code a GPU would run, on a pretend GPU of 1 GiB:
          sim = torch.cuda.memory.CachingAllocatorSimulator(1 << 30)
        """)
    if not torch.cuda.is_available():
        step("torch.cuda.is_available()", False, "no GPU or no CUDA build: the simulator shows the policy")
    sim = torch.cuda.memory.CachingAllocatorSimulator(1 << 30)
    p = sim.malloc(4)
    stats = sim.memory_stats()
    step("p = sim.malloc(4)", f"{p:#x}",
         "DeviceCachingAllocator::malloc: round_size(4) = 512, no cached block, alloc_block -> a new segment")
    step('stats["allocated_bytes.all.current"], stats["reserved_bytes.all.current"]',
         (stats["allocated_bytes.all.current"], stats["reserved_bytes.all.current"]),
         "a 512-byte block cut from a 2 MiB segment (kSmallBuffer) of the small pool")
    step('stats["segment.all.current"], stats["inactive_split.all.current"]',
         (stats["segment.all.current"], stats["inactive_split.all.current"]),
         "one segment; the rest of it (2 MiB - 512) waits in the pool as a free split block")
    sim.free(p)
    stats = sim.memory_stats()
    step("sim.free(p); allocated, reserved",
         (stats["allocated_bytes.all.current"], stats["reserved_bytes.all.current"]),
         "free_block merges the block back: the segment stays cached, nothing goes back to the device")
    q = sim.malloc(4)
    stats = sim.memory_stats()
    step("q = sim.malloc(4); q == p", q == p, "get_free_block: best fit on the same stream finds the cached block")
    step('stats["num_device_alloc"], stats["segment.all.allocated"]',
         (stats["num_device_alloc"], stats["segment.all.allocated"]),
         "one cudaMalloc for two allocations: the cache did its job")
    sim.free(q)
    if torch.cuda.is_available():
        before = torch.cuda.memory_allocated()
        ptr = torch.cuda.caching_allocator_alloc(4)
        after = torch.cuda.memory_allocated()
        torch.cuda.caching_allocator_delete(ptr)
        step("torch.cuda.caching_allocator_alloc(4) on the GPU (change in memory_allocated)",
             f"+{after - before} bytes", "the same policy over the CUDA runtime (c10/cuda/impl/CUDARuntime)")


def python_to_kernel_stop():
    import os
    import subprocess
    import sys

    t = torch.zeros(2, 3)
    step("torch.zeros(2, 3)", repr(t).replace("\n", "\n   "),
         "printed by torch/_tensor_str.py (PyTorch's _Formatter rules) from Tensor.tolist()")
    say("""
        The hops, each in its file:
          THPVariable_zeros                build/torch/csrc/autograd/generated/python_torch_functions.cpp
            PythonArgParser("zeros(IntArrayRef size, *, ScalarType? dtype=None, ...)")
                                           torch/csrc/utils/python_arg_parser.cpp
          at::_ops::zeros::call            build/aten/src/ATen/Operators.cpp
          c10::Dispatcher::call            aten/src/ATen/core/dispatch/Dispatcher.h
          BackendSelect kernel             build/aten/src/ATen/RegisterBackendSelect.cpp
          CompositeExplicitAutograd kernel build/aten/src/ATen/RegisterCompositeExplicitAutograd.cpp
          at::native::zeros                aten/src/ATen/native/TensorFactories.cpp
          at::native::empty_cpu -> at::detail::empty_cpu   aten/src/ATen/EmptyTensor.cpp
          c10::GetCPUAllocator()->allocate c10/core/CPUAllocator.cpp
          THPVariable_Wrap                 torch/csrc/autograd/python_variable.cpp (one object per TensorImpl)
        With TORCH_SHOW_DISPATCH_TRACE=1 the dispatcher prints each hop (stderr of a fresh process):
        """)
    env = dict(os.environ, TORCH_SHOW_DISPATCH_TRACE="1")
    trace = subprocess.run([sys.executable, "-c", "import torch; torch.zeros(2, 3)"], capture_output=True,
                           text=True, env=env, timeout=60).stderr
    for line in trace.splitlines():
        if line.lstrip().startswith("["):
            print("     " + line)
    step("t.fill_(1) is t", t.fill_(1) is t,
         "the TensorImpl's pyobj slot gives back the same Python object (THPVariable_Wrap)")


def views_stop():
    t = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
    step("t = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32); t.stride(), t.storage_offset()",
         (t.stride(), t.storage_offset()), "contiguous: each stride is the product of the sizes after it")
    row = t.select(0, 1)
    step("row = t.select(0, 1)   # t[1]; row.stride(), row.storage_offset()", (row.stride(), row.storage_offset()),
         "at::native::select in aten/src/ATen/native/TensorShape.cpp: offset += index * stride")
    col = t.select(1, 0)
    step("col = t.select(1, 0)   # t[:, 0]; col.stride(), col.storage_offset()", (col.stride(), col.storage_offset()),
         "the same storage, walked with stride 2 from offset 0")
    step("t.t().stride(), t.t().is_contiguous()", (t.t().stride(), t.t().is_contiguous()),
         "transpose swaps two strides: no data moves")
    step("row.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()",
         row.untyped_storage().data_ptr() == t.untyped_storage().data_ptr(),
         "every view is a new TensorImpl over the same StorageImpl (alias_with_sizes_and_strides)")


def legacy_th_stop():
    import os
    import tempfile

    s = torch.FloatStorage([1, 2, 3, 4])
    step("s = torch.FloatStorage([1, 2, 3, 4]); type(s).__mro__[1]", type(s).__mro__[1],
         "torch/csrc/generic/Storage.cpp compiled with Real=Float (THPFloatStorage_pynew)")
    step("len(s), s.element_size()", (len(s), s.element_size()),
         "THFloatStorage_size, THFloatStorage_elementSize in aten/src/TH/generic/THStorage.cpp")
    step("torch.IntStorage(4).copy_(torch.FloatStorage([1.5, -2.7, 0, 9])).tolist()",
         torch.IntStorage(4).copy_(torch.FloatStorage([1.5, -2.7, 0, 9])).tolist(),
         "THIntStorage_copyFloat (aten/src/TH/generic/THStorageCopy.cpp) converts each element")
    t = torch.FloatTensor(s)
    t[0] = 10
    step("t = torch.FloatTensor(s); t[0] = 10; s[0]", s[0],
         "THFloatTensor_newWithStorage1d: a TensorImpl over the same StorageImpl")
    path = os.path.join(tempfile.mkdtemp(), "storage.bin")
    m = torch.FloatStorage.from_file(path, True, 4)
    m.copy_(s)
    del m
    step("torch.FloatStorage.from_file(path, True, 4) ... os.path.getsize(path)", os.path.getsize(path),
         "THMapAllocator (aten/src/TH/THAllocator.cpp): the storage is the file, mapped with mmap")
    step("torch.FloatStorage.from_file(path, False, 0).tolist()", torch.FloatStorage.from_file(path, False, 0).tolist(),
         "what the shared mapping wrote is in the file")
    os.unlink(path)
    step("torch._th_sum(torch.tensor([16777216.0, 1.0, -16777216.0]))",
         repr(torch._th_sum(torch.tensor([16777216.0, 1.0, -16777216.0]))),
         "native_functions.yaml -> LegacyTHFunctionsCPU.cpp -> THFloatTensor_sumall, summing in double")


def autograd_stop():
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.5, 0.5, -1.0], requires_grad=True)
    b = torch.tensor(0.25, requires_grad=True)
    y = (x * w + b).relu().sum()
    say("""
        x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
        w = torch.tensor([0.5, 0.5, -1.0], requires_grad=True)
        b = torch.tensor(0.25, requires_grad=True)
        y = (x * w + b).relu().sum()
        Each call ran its Autograd kernel (build/torch/csrc/autograd/generated/VariableType.cpp),
        which made a node from tools/autograd/derivatives.yaml's formula, saved what the formula
        needs and set the result's grad_fn. The graph, node by node from y.grad_fn
        (next: where the node sends its gradients, as (node, input_nr); saved: its _saved_* values):
        """)
    step("y", repr(y), "the loss: a 0-d tensor whose grad_fn is the root of the backward graph")
    names, order, todo = {}, [], [y.grad_fn]
    while todo:
        fn = todo.pop(0)
        if fn is None or fn in names:
            continue
        names[fn] = f"{type(fn).__name__}#{len(order)}"
        order.append(fn)
        todo.extend(next_fn for next_fn, _ in fn.next_functions)
    for fn in order:
        nexts = ", ".join("None" if n is None else f"({names[n]}, {nr})" for n, nr in fn.next_functions)
        saved = []
        for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
            value = getattr(fn, attr)
            saved.append(f"{attr}={value.tolist() if isinstance(value, torch.Tensor) else value}")
        if hasattr(fn, "variable"):  # AccumulateGrad: the leaf it writes .grad into
            saved.append(f"variable={fn.variable.tolist()}")
        print(f"     {names[fn]:<17} next: [{nexts}]")
        if saved:
            print(f"     {'':<17} saved: {'; '.join(saved)}")
    y.backward()
    say("""
        y.backward(): torch/csrc/autograd/engine.cpp counts each node's incoming edges
        (compute_dependencies), runs ready nodes latest-first from the ready queue (sequence_nr),
        sums gradients meeting at a node in its InputBuffer, and AccumulateGrad writes the leaves' .grad:
        """)
    step("x.grad", x.grad.tolist(), "w * (x*w + b > 0): ReluBackward0 masks, MulBackward0 multiplies by w")
    step("w.grad", w.grad.tolist(), "x * (x*w + b > 0)")
    step("b.grad", b.grad.tolist(), "AddBackward0 gives a gradient of shape (3,); validate_outputs sums it to b's ()")
    try:
        y.backward()
    except RuntimeError as e:
        step("y.backward()  # again", f"RuntimeError: {str(e)[:58]}...",
             "the nodes released their saved tensors after running (retain_graph=False)")


def training_stop():
    from torch import nn

    torch.manual_seed(0)
    x = torch.randn(64, 2)
    target = x.matmul(torch.tensor([[3.0], [-2.0]])) + 1.0
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
    loss_fn = nn.MSELoss()
    say("""
        A tiny model learns y = 3 x0 - 2 x1 + 1 from 64 points:
          model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
          optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
        Each step: optimizer.zero_grad() sets every .grad to None (torch/optim/optimizer.py);
        model(x) runs Module._call_impl -> forward -> F.linear -> torch.addmm, a torch._C
        operator that records AddmmBackward0 (torch/nn/modules/module.py, nn/functional.py);
        loss.backward() runs the engine, whose AccumulateGrad nodes write each parameter's .grad;
        optimizer.step() reads .grad and updates the parameter in place (torch/optim/sgd.py):
        """)
    step("sum(p.numel() for p in model.parameters())", sum(p.numel() for p in model.parameters()),
         "Linear(2, 8): 16 + 8, Linear(8, 1): 8 + 1, registered by Module.__setattr__")
    for i in range(10):
        optimizer.zero_grad()
        loss = loss_fn(model(x), target)
        loss.backward()
        optimizer.step()
        print(f"     step {i + 1:2d}  loss {loss.item():.4f}")
    say("""
        Each loss printed is the one that step's backward started from: it falls as SGD follows
        the gradients. The same loop trains a convolutional network in
        docs/examples/train_cnn/train_cnn.py.
        """)


# The simulated device is chosen when torch is imported, so this stop runs its code in a fresh
# interpreter with TORCH_CUDA_SIMULATE=1 (on a machine with a GPU, on the GPU as it is).
CUDA_PROGRAM = """
import torch
print(torch.cuda.get_device_name())
x = torch.arange(1000, dtype=torch.float32, device="cuda")
print(x.device, x.is_cuda)
y = x * 2
print((y.sum().item(), (x.cpu() * 2).sum().item()))
print(torch.cuda.memory_allocated())
m = torch.arange(12.0, device="cuda").view(3, 4).max(dim=1)
print((m.values.tolist(), m.indices.tolist()))
torch.manual_seed(0)
nn = torch.nn
model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                      nn.Linear(4 * 4 * 4, 2)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
xs = torch.randn(32, 1, 8, 8, device="cuda")
ys = (xs[:, 0, :4].sum((1, 2)) > xs[:, 0, 4:].sum((1, 2))).long()  # is the top half brighter?
losses = []
for _ in range(6):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(xs), ys)
    loss.backward()
    opt.step()
    losses.append(round(loss.item(), 4))
print(losses)
"""


def cuda_tensors_stop():
    import os
    import subprocess
    import sys

    if not torch._C._has_cuda:
        say("This build has no CUDA (USE_CUDA=0): no CUDA tensors, and no simulated device either.")
        return
    say("""
        A CUDA tensor's memory comes from the caching allocator; its operators are .cu kernels
        (aten/src/ATen/native/cuda). Without a GPU, the same kernel sources run on the simulated
        device (c10/cuda/impl/sim): TORCH_CUDA_SIMULATE=1 python -c "..." runs:
        """)
    env = dict(os.environ)
    if not torch.cuda.is_available():
        env["TORCH_CUDA_SIMULATE"] = "1"
    lines = subprocess.run([sys.executable, "-c", CUDA_PROGRAM], env=env, capture_output=True, text=True,
                           check=True, timeout=120).stdout.splitlines()
    step("torch.cuda.get_device_name()", lines[0], "cudaGetDeviceProperties (c10/cuda/impl/sim/cuda_runtime_sim.cpp)")
    step('x = torch.arange(1000., device="cuda"); x.device, x.is_cuda', lines[1],
         "empty_cuda (aten/src/ATen/cuda/EmptyTensor.cpp), then arange's CUDA_KERNEL_LOOP (RangeFactories.cu)")
    step("(x * 2).sum().item(), the same on the CPU", lines[2],
         "mul_kernel_cuda -> gpu_kernel (Loops.cuh); sum_kernel_cuda -> gpu_reduce_kernel (Reduce.cuh)")
    step("torch.cuda.memory_allocated()", lines[3],
         "x and y, 4000 bytes each, rounded up to 512-byte blocks by the caching allocator")
    step("torch.arange(12., device='cuda').view(3, 4).max(dim=1)", lines[4],
         "ArgMinMaxOps: a (value, index) pair per thread, ties broken by the smaller index")
    step("6 SGD steps of a tiny CNN (conv, ReLU, max pool, linear).cuda() on cross_entropy", lines[5],
         "im2col_kernel (Im2Col.cu) and gemm_tiled_kernel (ATen/cuda/CUDABlas.cu) for the convolution, "
         "max_pool_forward_nchw, softmax_warp_forward, nll_loss_forward_reduce_kernel (Loss.cu); "
         "the backward runs on the autograd engine's thread for cuda:0")


# [marker: extension_stop]
# The tour's extension: one C++ function, compiled just in time. The guide's doctest
# (cpp_extensions.rst) loads the same source under the same name, so whichever runs first
# builds it and the other finds the build up to date.
EXTENSION_NAME = "tour_swish"
EXTENSION_SOURCE = """
torch::Tensor swish(torch::Tensor x) {
  return x * torch::sigmoid(x);
}
"""


def extension_stop():
    import os

    from torch.utils.cpp_extension import load_inline

    say("""
        torch.utils.cpp_extension.load_inline writes the C++ source to main.cpp with the pybind11
        binding of each function, writes a build.ninja, runs Ninja (the C++ compiler, then the
        link against libtorch_cpu and libtorch_python), and imports the result:
        """)
    module = load_inline(name=EXTENSION_NAME, cpp_sources=EXTENSION_SOURCE, functions=["swish"])
    x = torch.tensor([-1.0, 0.0, 2.0])
    step('m = load_inline(name="tour_swish", cpp_sources=..., functions=["swish"]); m.swish(x)',
         [round(v, 4) for v in module.swish(x).tolist()],
         "at::sigmoid and at::mul from C++, through the dispatcher (torch/csrc/api/include/torch/types.h)")
    step("torch.allclose(m.swish(x), x * torch.sigmoid(x))", torch.allclose(module.swish(x), x * torch.sigmoid(x)),
         "the same kernels Python reaches: an extension is a client of the C++ API")
    step("m.swish(x) is not x, type(m.swish(x))", (module.swish(x) is not x, type(module.swish(x)).__name__),
         "the pybind11 caster of torch/csrc/utils/pybind.h wraps the result with THPVariable_Wrap")
    with open(os.path.join(os.path.dirname(module.__file__), "build.ninja")) as f:
        rule = next(line for line in f if line.startswith("  command = ") and "-std=c++17" in line)
    flags = [w for w in rule.split() if w.startswith(("-D", "-std", "-f"))]
    step("the compile rule of build.ninja (its flags)", " ".join(flags),
         "torch/utils/cpp_extension.py _cxx_command: the same line for load() and setup.py's BuildExtension")
# [end marker: extension_stop]


def main():
    print("Torch Anatomy: a guided tour of the layers, from Python down to the allocator.")
    print()
    print(LAYERS)

    stop(1, "a device and a dtype are c10 values", "tensors.rst")
    d = torch.device("cuda:1")
    step('torch.device("cuda:1")', repr(d),
         "torch/csrc/Device.cpp makeDevice -> c10::Device::Device(const std::string&) in c10/core/Device.cpp")
    try:
        torch.device("cuda:01")
    except RuntimeError as e:
        step('torch.device("cuda:01")', f"RuntimeError: {e}",
             "TORCH_CHECK in c10/core/Device.cpp -> c10::Error -> RuntimeError (torch/csrc/Exceptions.cpp)")
    step("torch.promote_types(torch.uint8, torch.int8)", repr(torch.promote_types(torch.uint8, torch.int8)),
         "c10::promoteTypes in c10/core/ScalarType.cpp (the promotion table)")

    stop(2, "allocating a storage", "memory.rst")
    with torch.cpu.memory.record_memory_stats():
        before = torch.cpu.memory_stats()
        s = torch.UntypedStorage(64)
        after = torch.cpu.memory_stats()
        say("""
            torch.UntypedStorage(64) runs THPStorage_pynew (torch/csrc/Storage.cpp), which asks the
            allocator registry for the CPU's allocator and builds a StorageImpl of 64 bytes:
              c10::GetAllocator(DeviceType::CPU)      c10/core/Allocator.cpp
              c10::DefaultCPUAllocator::allocate(64)  c10/core/CPUAllocator.cpp
              c10::alloc_cpu(64)                      c10/core/impl/alloc_cpu.cpp (posix_memalign)
            """)
        step('torch._C._get_allocator_name("cpu")', repr(torch._C._get_allocator_name("cpu")),
             "the allocator registered for DeviceType::CPU by REGISTER_ALLOCATOR")
        step("s.data_ptr() % 64", s.data_ptr() % 64, "alloc_cpu aligns to c10::gAlignment = 64 bytes")
        step("s.nbytes(), s.resizable()", (s.nbytes(), s.resizable()), "c10::StorageImpl in c10/core/StorageImpl.h")
        delta = after["allocated_bytes.all.current"] - before["allocated_bytes.all.current"]
        step('torch.cpu.memory_stats()["allocated_bytes.all.current"] (change)', f"+{delta} bytes",
             "c10::MemoryAllocationReporter::New in c10/core/CPUAllocator.cpp")

        stop(3, "reference counts: views share one StorageImpl", "memory.rst")
        step("torch._C._storage_Use_Count(s._cdata)", torch._C._storage_Use_Count(s._cdata),
             "intrusive_ptr refcount in c10/util/intrusive_ptr.h")
        view = s[16:32]
        step("view = s[16:32]; torch._C._storage_Use_Count(s._cdata)", torch._C._storage_Use_Count(s._cdata),
             "the slice's DataPtr context holds a reference (THPStorage_get, torch/csrc/Storage.cpp)")
        step("view.data_ptr() - s.data_ptr()", view.data_ptr() - s.data_ptr(), "same bytes, 16 further on")
        del view
        step("del view; torch._C._storage_Use_Count(s._cdata)", torch._C._storage_Use_Count(s._cdata),
             "the view's context was destroyed: one reference less")

        stop(4, "junk fill: memory a new storage starts with", "memory.rst")
        torch._C._set_c10_flag("caffe2_cpu_allocator_do_junk_fill", True)
        try:
            junk = torch.UntypedStorage(8)
        finally:
            torch._C._set_c10_flag("caffe2_cpu_allocator_do_junk_fill", False)
        step("torch.UntypedStorage(8).tolist()  # with junk fill on", junk.tolist(),
             "c10::memset_junk writes 0x7fedbeef (a NaN as float32) in c10/core/impl/alloc_cpu.cpp")
        del junk

        stop(5, "freeing: the last reference gives the memory back", "memory.rst")
        before = torch.cpu.memory_stats()
        del s
        after = torch.cpu.memory_stats()
        say("""
            del s drops the last intrusive_ptr to the StorageImpl: its DataPtr is destroyed and runs
            the deleter stored with it, DefaultCPUAllocator::ReportAndDelete -> c10::free_cpu.
            """)
        delta = after["allocated_bytes.all.current"] - before["allocated_bytes.all.current"]
        step('torch.cpu.memory_stats()["allocated_bytes.all.current"] (change)', f"{delta} bytes",
             "c10::MemoryAllocationReporter::Delete in c10/core/CPUAllocator.cpp")

    stop(6, "the CUDA caching allocator", "cuda_caching_allocator.rst")
    cuda_caching_allocator_stop()

    stop(7, "views: sizes, strides and offset over one storage", "tensor_views.rst")
    views_stop()

    stop(8, "one call from Python to a kernel", "one_call.rst")
    python_to_kernel_stop()

    stop(9, "watching it in a debugger", "debugger.rst")
    say("""
        make debug
        gdb -x tools/gdb/gdbinit -ex 'break c10::alloc_cpu' -ex run -ex bt \\
            --args .venv/bin/python -c "import torch; torch.UntypedStorage(100)"
        stops in c10::alloc_cpu (nbytes=100) with the stack back up through
        DefaultCPUAllocator::allocate, StorageImpl, and THPStorage_pynew in torch/csrc/Storage.cpp.
        """)

    stop(10, "the legacy TH layer: THStorage and THTensor", "th_storage.rst")
    legacy_th_stop()

    stop(11, "autograd: a graph recorded by the forward pass, run backwards", "autograd.rst")
    autograd_stop()

    stop(12, "training: a tiny model takes a few SGD steps", "python_layer.rst")
    training_stop()

    stop(13, "CUDA tensors, on the simulated device when there is no GPU", "cuda_simulated_device.rst")
    cuda_tensors_stop()

    stop(14, "a C++ extension, compiled just in time", "cpp_extensions.rst")
    extension_stop()
    print()
    print("End of the tour. The guides: make docs, then open docs/build/html/index.html.")


if __name__ == "__main__":
    main()
