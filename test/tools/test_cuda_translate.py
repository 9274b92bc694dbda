"""tools/cuda_sim/translate.py: CUDA sources rewritten as C++ for the simulated device, line for line.

Tests tools/cuda_sim/translate.py. Guide: docs/source/internals/cuda_simulated_device.rst
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.cuda_sim.translate import TranslationError, main, translate

REPO = Path(__file__).resolve().parents[2]
L = "::c10::cuda::sim::launch"
SHM = "::c10::cuda::sim::dynamic_shared_memory"
SIM_INCLUDE = "#include <c10/cuda/impl/sim/cuda_sim.h>"



def native_env():
    """The environment for g++ and the programs it builds: without LD_PRELOAD, which under
    `make test-asan` carries the sanitizer runtime meant for the Python process only."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env

def body(src: str, path: str = "k.cu") -> str:
    """The translation without its banner and #line (checked on their own below)."""
    banner, line, rest = translate(src, path).split("\n", 2)
    assert banner.startswith("// Generated from ") and line == f'#line 1 "{path}"'
    return rest


def test_banner_and_line_directive():
    out = translate("int x;\n", "aten/src/ATen/native/cuda/Foo.cu")
    assert out == (
        "// Generated from aten/src/ATen/native/cuda/Foo.cu by tools/cuda_sim/translate.py"
        " - do not edit.\n"
        '#line 1 "aten/src/ATen/native/cuda/Foo.cu"\n'
        "int x;\n"
    )


@pytest.mark.parametrize(
    "src, expected",
    [
        ("k<<<g, b>>>(x, y);", f"{L}(g, b, 0, 0, [](auto&... _a) {{ k(_a...); }}, x, y);"),
        ("k<<<g, b, smem>>>(x);", f"{L}(g, b, smem, 0, [](auto&... _a) {{ k(_a...); }}, x);"),
        ("k<<<g, b, smem, s>>>(x);", f"{L}(g, b, smem, s, [](auto&... _a) {{ k(_a...); }}, x);"),
        ("k<<<g, b>>>();", f"{L}(g, b, 0, 0, []() {{ k(); }});"),
        ("k <<< g, b >>> ( );", f"{L}(g, b, 0, 0, []() {{ k(); }});"),
        ("k<<<dim3(n, 1), dim3{32, 1, 1}>>>(f(a, b));",
         f"{L}(dim3(n, 1), dim3{{32, 1, 1}}, 0, 0, [](auto&... _a) {{ k(_a...); }}, f(a, b));"),
        ("k<<<g, b, 0, at::cuda::getCurrentCUDAStream()>>>(x);",
         f"{L}(g, b, 0, at::cuda::getCurrentCUDAStream(), [](auto&... _a) {{ k(_a...); }}, x);"),
    ],
)
def test_launch_forms(src, expected):
    assert body(src) == expected


@pytest.mark.parametrize(
    "name",
    [
        "at::native::vectorized_elementwise_kernel<vec_size, func_t>",
        "reduce_kernel<ReduceOp::kThreads, output_vec_size>",
        "kernel<decltype(f), (N > 2)>",
        "kernel<float, std::integral_constant<int, 4>>",  # `>>` closes two lists
        "kernel<A<B<int>>>",  # `>>>` closing three lists, right before `<<<`
        "::at::native::kernel<T, (N >> 1)>",
        "ns::template kernel<T>",
        "Outer<T>::inner<U>",
    ],
)
def test_templated_and_qualified_kernel_names(name):
    assert body(f"  {name}<<<g, b>>>(x);") == f"  {L}(g, b, 0, 0, [](auto&... _a) {{ {name}(_a...); }}, x);"


def test_name_stops_at_what_is_not_part_of_it():
    assert body("if (c) k<<<1, 2>>>(x);") == f"if (c) {L}(1, 2, 0, 0, [](auto&... _a) {{ k(_a...); }}, x);"
    assert body("return ::k<<<1, 2>>>();") == f"return {L}(1, 2, 0, 0, []() {{ ::k(); }});"


def test_multi_line_launch_keeps_every_line_in_place():
    src = (
        "  k<T><<<blocks,\n"
        "         threads, 0, stream>>>(\n"
        "      n,\n"
        "      data);\n"
        "  after();\n"
    )
    assert body(src) == (
        f"  {L}(blocks,\n"
        f"         threads, 0, stream, [](auto&... _a) {{ k<T>(_a...); }},\n"
        "      n,\n"
        "      data);\n"
        "  after();\n"
    )


def test_line_breaks_around_the_brackets_are_kept():
    src = "k<<<g, b\n>>>\n(x);\nk<<<g, b>>>(\n);\n"
    assert body(src) == (
        f"{L}(g, b, 0, 0\n, [](auto&... _a) {{ k(_a...); }}\n, x);\n"
        f"{L}(g, b, 0, 0, []() {{ k(); }}\n);\n"
    )


def test_lambdas_strings_and_braces_in_arguments():
    src = (
        'k<<<g, b>>>(n, [=] __device__ (float a) { return a * 2; }, "a)b", \')\',\n'
        "            std::vector<int>{1, 2}, f(g(x)));\n"
    )
    assert body(src) == (
        f'{L}(g, b, 0, 0, [](auto&... _a) {{ k(_a...); }}, n, [=] __device__ (float a) {{ return a * 2; }}, "a)b", \')\',\n'
        "            std::vector<int>{1, 2}, f(g(x)));\n"
    )


def test_launch_inside_a_macro_keeps_its_continuations():
    src = "#define RUN(n) \\\n  k<<<n, 1>>>( \\\n    x)\n"
    assert body(src) == f"#define RUN(n) \\\n  {L}(n, 1, 0, 0, [](auto&... _a) {{ k(_a...); }}, \\\n    x)\n"


@pytest.mark.parametrize(
    "src",
    [
        "// k<<<1, 2>>>(x);\n",
        "/* k<<<1, 2>>>(x);\n   more */\n",
        'const char* s = "k<<<1, 2>>>(x)";\n',
        "char c = '<'; int m = 'a<<<';\n",
        'auto r = R"(k<<<1, 2>>>(x))";\n',
        'auto r = u8R"tag(k<<<1, ")" >>>(x))tag";\n',
        "std::ostream& operator<<<int>(std::ostream&, X<int>);\n",
        "std::vector<std::pair<int, std::vector<int>>> v;\n",
        "int big = 1'000'000; x <<= 2; y >>= 3;\n",
        "#error don't launch k<<< here\n",
        "__shared__ float tile[32][33];\n__syncthreads();\nint i = threadIdx.x;\n",
        'extern "C" { int x; }\nextern int y;\nstruct alignas(16) S { int a; };\n',
        "extern __shared__ float fixed[32];\n",
    ],
)
def test_left_untouched(src):
    assert body(src) == src


@pytest.mark.parametrize(
    "src, expected",
    [
        ("extern __shared__ float smem[];", f"float* smem = {SHM}<float>();"),
        ("  extern __shared__ unsigned char buf[];", f"  unsigned char* buf = {SHM}<unsigned char>();"),
        ("extern __shared__ at::Foo<int, 2> s[];", f"at::Foo<int, 2>* s = {SHM}<at::Foo<int, 2>>();"),
        ("alignas(16) extern __shared__ float s[];", f"float* s = {SHM}<float>();"),
        ("extern __shared__ alignas(16) float s[];", f"float* s = {SHM}<float>();"),
        ("extern __shared__ __align__(sizeof(scalar_t)) unsigned char my_smem[];",
         f"unsigned char* my_smem = {SHM}<unsigned char>();"),
        ("__align__(8) extern __shared__ double d[];", f"double* d = {SHM}<double>();"),
        ("extern __shared__ alignas(8)\n    double d[];\nx;", f"double* d = {SHM}<double>();\n\nx;"),
    ],
)
def test_dynamic_shared_memory(src, expected):
    assert body(src) == expected


@pytest.mark.parametrize(
    "src, expected",
    [
        ("#include <cuda_runtime.h>\n", SIM_INCLUDE + "\n"),
        ("#include <cuda.h>\n", SIM_INCLUDE + "\n"),
        ('#include "cuda_runtime.h"\n', SIM_INCLUDE + "\n"),
        ("#  include <cuda_runtime.h>  // the runtime\n", SIM_INCLUDE + "  // the runtime\n"),
        ('#include "Loops.cuh"\n', '#include "Loops.cuh"\n'),
        ("#include <ATen/native/cuda/Loops.cuh>\n", "#include <ATen/native/cuda/Loops.cuh>\n"),
        ("#include <cuda_fp16.h>\n", "#include <cuda_fp16.h>\n"),
        ('// #include "cuda_runtime.h"\n', '// #include "cuda_runtime.h"\n'),
    ],
)
def test_includes(src, expected):
    assert body(src) == expected


SAMPLE = """\
#include <cuda_runtime.h>
#include "Loops.cuh"

template <typename T, int N>
__global__ void kernel(int n, T* out) {
  extern __shared__ __align__(16)
      unsigned char smem[];
  out[threadIdx.x] = smem[0];  // k<<<1,1>>>() in a comment
}

void run(int n, float* out, cudaStream_t stream) {
  kernel<float,
         (4 > 2)>
      <<<(n + 255) / 256,
         256,
         16,
         stream>>>(
          n,
          [=] __device__ (float a) {
            return a * 2;
          },
          out);
  other<<<1, 1>>>();
}
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_line_count_and_positions_preserved(newline):
    src = SAMPLE.replace("\n", newline)
    out_lines = translate(src, "s.cu").split(newline)[2:]
    src_lines = src.split(newline)
    assert len(out_lines) == len(src_lines)
    changed = [n for n, (a, b) in enumerate(zip(src_lines, out_lines), 1) if a != b]
    assert changed == [1, 6, 7, 12, 13, 14, 15, 16, 17, 23]  # only the rewritten constructs
    assert out_lines[17:22] == src_lines[17:22]  # the arguments stay on their own lines
    assert out_lines[5] == f"  unsigned char* smem = {SHM}<unsigned char>();"
    assert out_lines[22] == f"  {L}(1, 1, 0, 0, []() {{ other(); }});"


@pytest.mark.parametrize(
    "src, line, message",
    [
        ("void f() {\n  k<<<1, 2;\n}\n", 2, "no matching '>>>'"),
        ("int a;\n\nk<<<1, 2\n", 3, "no matching '>>>'"),
        ("void f() {\n  k<<<1, 2>>>(a,\n    b;\n}\n", 2, "never closes"),
        ("int a;\nk<<<1, 2>>>(a, b", 2, "never closes"),
        ("\nk<<<n>>>(a);", 2, "2 to 4 values"),
        ("\n\nk<<<1, 2>>> x;", 3, "expected '('"),
        ("x = <<<1, 2>>>(a);", 1, "kernel name"),
    ],
)
def test_errors_name_the_source_line(src, line, message):
    with pytest.raises(TranslationError) as info:
        translate(src, "bad/k.cu")
    assert info.value.line == line
    assert str(info.value).startswith(f"bad/k.cu:{line}: ")
    assert message in info.value.message


def test_cli_writes_only_when_the_content_changes(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("k<<<1, 2>>>(x);\n")
    out = tmp_path / "gen" / "deeper" / "k.cpp"
    assert main([str(src), str(out)]) == 0  # creates the directories
    first = out.read_text()
    assert first.endswith(f"{L}(1, 2, 0, 0, [](auto&... _a) {{ k(_a...); }}, x);\n")

    os.utime(out, (1_000_000, 1_000_000))
    assert main([str(src), str(out)]) == 0
    assert out.stat().st_mtime == 1_000_000  # identical output: the file is not rewritten

    src.write_text("k<<<1, 2>>>(y);\n")
    assert main([str(src), str(out)]) == 0
    assert out.stat().st_mtime != 1_000_000 and out.read_text().endswith(", y);\n")
    assert sorted(p.name for p in out.parent.iterdir()) == ["k.cpp"]  # no temporary left


def test_cli_as_a_module_from_the_repository_root(tmp_path):
    out = tmp_path / "gen" / "aten" / "src" / "ATen" / "native" / "cuda" / "Loops.cpp"
    src = tmp_path / "Loops.cu"
    src.write_text("#include <cuda.h>\nk<<<1, 2>>>();\n")
    cmd = [sys.executable, "-m", "tools.cuda_sim.translate", str(src), str(out), "--include-root", str(tmp_path / "gen")]
    subprocess.run(cmd, cwd=REPO, check=True)
    assert out.read_text().splitlines()[2:] == [SIM_INCLUDE, f"{L}(1, 2, 0, 0, []() {{ k(); }});"]

    src.write_text("\nk<<<1, 2;\n")
    bad = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert bad.returncode == 1 and f"{src}:2: error: unbalanced '<<<'" in bad.stderr

    outside = subprocess.run(cmd[:-1] + [str(tmp_path / "elsewhere")], cwd=REPO, capture_output=True, text=True)
    assert outside.returncode == 2 and "outside --include-root" in outside.stderr


def test_cli_names_sources_relative_to_the_repository_root(tmp_path):
    out = tmp_path / "t.cpp"
    rel = "tools/cuda_sim/__init__.py"  # any file of the tree without a launch will do
    subprocess.run([sys.executable, "-m", "tools.cuda_sim.translate", rel, str(out)], cwd=REPO, check=True)
    assert out.read_text().splitlines()[1] == f'#line 1 "{rel}"'


# A stand-in for c10/cuda/impl/sim/cuda_sim.h: every block, and every thread in it, runs the
# kernel body once, one after another; x dimensions only. Enough to check what the
# translated code computes, not how the real runtime schedules it.
STUB_RUNTIME = """\
#pragma once
#include <cstddef>
#define __global__
#define __device__
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
inline dim3 threadIdx, blockIdx, blockDim, gridDim;
namespace c10::cuda::sim {
alignas(16) inline unsigned char shared_buffer[1 << 16];
template <typename T> T* dynamic_shared_memory() { return reinterpret_cast<T*>(shared_buffer); }
template <typename Body, typename... Args>
void launch(dim3 grid, dim3 block, std::size_t shmem, long stream, Body body, Args... args) {
  gridDim = grid;
  blockDim = block;
  for (unsigned b = 0; b < grid.x; ++b)
    for (unsigned t = 0; t < block.x; ++t) {
      blockIdx = dim3(b);
      threadIdx = dim3(t);
      body(args...);
    }
}
}  // namespace c10::cuda::sim
"""

KERNELS = """\
#include <cuda_runtime.h>
#include <cstdio>
#include <type_traits>

template <typename T, typename Scale>
__global__ void scale_kernel(int n, const T* in, T* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * Scale::value;
}

template <typename F>
__global__ void map_kernel(int n, float* data, F f) {
  extern __shared__ float scratch[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[threadIdx.x] = i < n ? f(data[i]) : 0.f;
  if (i < n) data[i] = scratch[threadIdx.x] + 1.f;
}

int calls = 0;
__global__ void count_kernel() { calls += 1; }

int main() {
  constexpr int n = 10;
  float in[n], out[n];
  for (int i = 0; i < n; ++i) in[i] = i;
  scale_kernel<float, std::integral_constant<int, 4>><<<
      (n + 3) / 4, 4>>>(n, in,
                        out);
  map_kernel<<<dim3(3), dim3(4), 4 * sizeof(float), 0>>>(
      n, out, [=] __device__ (float a) { return a * 2; });
  count_kernel<<<2, 3>>>();
  for (int i = 0; i < n; ++i) std::printf("%g ", out[i]);
  std::printf("\\ncalls=%d at %s:%d\\n", calls, __FILE__, __LINE__);
}
"""


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_translated_kernels_compile_and_compute(tmp_path):
    stub = tmp_path / "c10" / "cuda" / "impl" / "sim" / "cuda_sim.h"
    stub.parent.mkdir(parents=True)
    stub.write_text(STUB_RUNTIME)
    cpp = tmp_path / "kernels.cpp"
    cpp.write_text(translate(KERNELS, "demo/kernels.cu"))
    exe = tmp_path / "kernels"
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", f"-I{tmp_path}", str(cpp), "-o", str(exe)], check=True,
                   env=native_env())
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, env=native_env()).stdout.splitlines()
    # scale by 4, then map: 2 * x + 1; 2 blocks of 3 threads count 6 calls.
    assert out[0].split() == [str(8 * i + 1) for i in range(10)]
    line = KERNELS.splitlines().index('  std::printf("\\ncalls=%d at %s:%d\\n", calls, __FILE__, __LINE__);') + 1
    assert out[1] == f"calls=6 at demo/kernels.cu:{line}"


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_compiler_errors_point_at_the_cuda_source(tmp_path):
    src = "#include <cuda_runtime.h>\n__global__ void k(int) {}\n\nvoid f() {\n  k<<<1,\n     1>>>(\n      undeclared_name);\n}\n"
    stub = tmp_path / "c10" / "cuda" / "impl" / "sim" / "cuda_sim.h"
    stub.parent.mkdir(parents=True)
    stub.write_text(STUB_RUNTIME)
    cpp = tmp_path / "bad.cpp"
    cpp.write_text(translate(src, "demo/bad.cu"))
    r = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", f"-I{tmp_path}", str(cpp)], capture_output=True, text=True,
                       env=native_env())
    assert r.returncode != 0
    assert "demo/bad.cu:7:" in r.stderr and "undeclared_name" in r.stderr
