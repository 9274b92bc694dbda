# cmake/Dependencies.cmake - find everything the build uses and set the USE_* switches to
# what is really there. Mirrors PyTorch's cmake/Dependencies.cmake.
# Guide: docs/source/internals/building.rst.

# ---- Python and pybind11 (for torch._C) ----
find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
if(NOT pybind11_DIR)
  execute_process(COMMAND ${Python_EXECUTABLE} -m pybind11 --cmakedir
                  OUTPUT_VARIABLE pybind11_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
find_package(pybind11 CONFIG REQUIRED)

# ---- CUDA: on by default when nvcc is found (PyTorch's rule) ----
if(USE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # sm_75 (Turing) and sm_90 (Hopper); nvcc 13 no longer targets sm_70 and older.
      set(CMAKE_CUDA_ARCHITECTURES 75 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # cuBLAS ships with the full toolkit but not with every install of nvcc: without it the GPU
    # build's gemm is the tree's own tiled kernel (aten/src/ATen/cuda/CUDABlas.cu).
    if(USE_CUBLAS AND NOT TARGET CUDA::cublas)
      message(STATUS "cuBLAS not found: GPU matrix products use the tiled kernel (USE_CUBLAS=0)")
      set(USE_CUBLAS OFF CACHE BOOL "Matrix products on a GPU through cuBLAS" FORCE)
    endif()
    set(CMAKE_CUDA_STANDARD 17)
  else()
    message(STATUS "nvcc not found: building without CUDA (USE_CUDA=0)")
    set(USE_CUDA OFF CACHE BOOL "Build the CUDA parts" FORCE)
  endif()
endif()

# ---- OpenMP, for at::parallel_for ----
if(USE_OPENMP)
  find_package(OpenMP COMPONENTS CXX)
  if(NOT OpenMP_CXX_FOUND)
    set(USE_OPENMP OFF CACHE BOOL "Parallelise CPU kernels with OpenMP" FORCE)
  endif()
endif()

# ---- BLAS: OpenBLAS from Debian (libopenblas-dev) when present ----
# Debian builds OpenBLAS twice: with its own pthreads (libopenblas-pthread-dev, the default)
# and on OpenMP (libopenblas-openmp-dev). The OpenMP one is preferred: its matrix products
# run on the same OpenMP threads as at::parallel_for, as MKL's do in PyTorch. With the
# pthread one, two pools share the cores, and each spins while the other needs the CPU:
# on two cores an MLP training step at two threads took 2.7x its one-thread time.
# BLAS_OPENMP_DIR goes into torch_cpu's RPATH, since both builds have the same soname
# (libopenblas.so.0) and the system's default is the pthread one.
find_library(OPENBLAS_OPENMP_LIBRARY NAMES openblas
             PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp NO_DEFAULT_PATH)
if(OPENBLAS_OPENMP_LIBRARY AND USE_OPENMP)
  set(BLAS_FOUND TRUE)
  set(BLAS_LIBRARIES ${OPENBLAS_OPENMP_LIBRARY})
  get_filename_component(BLAS_OPENMP_DIR ${OPENBLAS_OPENMP_LIBRARY} DIRECTORY)
  set(BLAS_THREADING "OpenMP")
else()
  find_package(BLAS QUIET)
  set(BLAS_THREADING "own threads")
endif()
find_path(CBLAS_INCLUDE_DIR NAMES cblas.h PATH_SUFFIXES openblas openblas-pthread)
if(BLAS_FOUND AND CBLAS_INCLUDE_DIR)
  set(USE_BLAS ON)
else()
  set(USE_BLAS OFF)
endif()

# ---- oneDNN from Debian (libdnnl-dev) when present: float matrix products ----
# PyTorch's flag keeps oneDNN's old name, MKL-DNN. Here it provides dnnl_sgemm for float
# products (cpu/BlasKernel.cpp); Debian's build runs on OpenMP, the pool at::parallel_for uses.
if(USE_MKLDNN)
  find_path(DNNL_INCLUDE_DIR NAMES oneapi/dnnl/dnnl.h)
  find_library(DNNL_LIBRARY NAMES dnnl)
  if(NOT (DNNL_INCLUDE_DIR AND DNNL_LIBRARY))
    message(STATUS "oneDNN not found: float matrix products use BLAS (apt-get install libdnnl-dev)")
    set(USE_MKLDNN OFF CACHE BOOL "Float matrix products through oneDNN (libdnnl-dev)" FORCE)
  endif()
endif()

# ---- NUMA (optional, off by default) ----
if(USE_NUMA)
  find_path(NUMA_INCLUDE_DIR numa.h)
  find_library(NUMA_LIBRARY numa)
  if(NOT (NUMA_INCLUDE_DIR AND NUMA_LIBRARY))
    message(STATUS "libnuma not found: USE_NUMA=0")
    set(USE_NUMA OFF CACHE BOOL "Bind CPU allocations to NUMA nodes" FORCE)
  endif()
endif()

# ---- GoogleTest from Debian (libgtest-dev) ----
if(BUILD_TEST)
  find_package(GTest)
  if(NOT GTest_FOUND)
    message(STATUS "GoogleTest not found: C++ tests are not built (apt-get install libgtest-dev)")
    set(BUILD_TEST OFF CACHE BOOL "Build the GoogleTest suites" FORCE)
  else()
    include(GoogleTest)
  endif()
endif()

# Add a GoogleTest executable for each source given and register its cases with CTest,
# prefixed with the layer name so that `ctest -R c10` runs one layer alone.
function(torch_add_gtests layer)
  foreach(test_src ${ARGN})
    get_filename_component(test_name ${test_src} NAME_WE)
    set(target ${layer}_${test_name})
    add_executable(${target} ${test_src})
    target_link_libraries(${target} PRIVATE ${TORCH_TEST_LINK_${layer}} GTest::gtest_main)
    gtest_discover_tests(${target} TEST_PREFIX "${layer}." DISCOVERY_MODE PRE_TEST)
  endforeach()
endfunction()
