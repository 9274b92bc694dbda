# cmake/CudaSim.cmake - building .cu sources for the simulated CUDA device: each source is
# translated by tools/cuda_sim/translate.py (launches become calls of the simulated launcher,
# as PyTorch's hipify rewrote CUDA sources for ROCm) into build/cuda_sim/<same path>, then
# compiled by the host compiler against c10/cuda/impl/sim. This tree's simulated CUDA device;
# PyTorch has no such thing. Guide: docs/source/internals/cuda_simulated_device.rst.
#
# The translated tree mirrors the source tree, and comes first on the include path, so that
# `#include "Loops.cuh"` and `#include <ATen/native/cuda/Loops.cuh>` both find the translated
# header. Every translated file starts with `#line 1 "<its source>"`: compiler errors, assert
# messages and gdb name the .cu file and its lines.
set(TORCH_CUDA_SIM_SRC_DIR ${PROJECT_BINARY_DIR}/cuda_sim)

# [marker: torch_cuda_sim_translate]
# torch_cuda_sim_translate(<out_var> <source>...): a custom command per .cu / .cuh source;
# <out_var> receives the translated files (a .cu becomes <name>.cu.cpp, compiled as C++; a
# .cuh keeps its name). List the .cuh files a .cu includes too, so they are translated first.
function(torch_cuda_sim_translate out_var)
  set(outputs)
  foreach(src ${ARGN})
    get_filename_component(src ${src} ABSOLUTE)
    file(RELATIVE_PATH rel ${TORCH_ROOT} ${src})
    if(src MATCHES "\\.cu$")
      set(out ${TORCH_CUDA_SIM_SRC_DIR}/${rel}.cpp)
    else()
      set(out ${TORCH_CUDA_SIM_SRC_DIR}/${rel})
    endif()
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${Python_EXECUTABLE} -m tools.cuda_sim.translate ${rel} ${out}
      DEPENDS ${src} ${TORCH_ROOT}/tools/cuda_sim/translate.py
      WORKING_DIRECTORY ${TORCH_ROOT}
      COMMENT "Translating ${rel} for the simulated CUDA device"
      VERBATIM)
    list(APPEND outputs ${out})
  endforeach()
  set(${out_var} ${outputs} PARENT_SCOPE)
endfunction()

# torch_cuda_sim_target(<target>): compile a target's translated sources as a simulated-device
# build: the translated tree first on the include path, every source preceded by cuda_sim.h
# (what nvcc's implicit cuda_runtime.h is to a .cu), linked against the simulated runtime.
function(torch_cuda_sim_target target)
  target_include_directories(${target} BEFORE PRIVATE ${TORCH_CUDA_SIM_SRC_DIR} ${TORCH_CUDA_SIM_SRC_DIR}/aten/src)
  # `#pragma unroll` is nvcc's; g++ spells it `#pragma GCC unroll n` and warns about the other.
  target_compile_options(${target} PRIVATE -include ${TORCH_ROOT}/c10/cuda/impl/sim/cuda_sim.h -Wno-unknown-pragmas)
  target_compile_definitions(${target} PRIVATE TORCH_CUDA_SIMULATED=1)
  target_link_libraries(${target} PRIVATE cudart_sim)
endfunction()
# [end marker: torch_cuda_sim_target]
