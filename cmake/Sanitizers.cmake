# cmake/Sanitizers.cmake - USE_ASAN / USE_UBSAN: build every C and C++ target with
# AddressSanitizer and UndefinedBehaviorSanitizer. Mirrors PyTorch's USE_ASAN (CMakeLists.txt,
# "Use Address+Undefined Sanitizers"; cmake/Dependencies.cmake links Sanitizer::address and
# Sanitizer::undefined from cmake/Modules/FindSanitizer.cmake). Here the two are separate
# switches; `make test-asan` turns both on. Guide: docs/source/internals/building.rst, "Sanitizers".
# [marker: sanitizers]
set(TORCH_SANITIZERS "")
if(USE_ASAN)
  list(APPEND TORCH_SANITIZERS address)
endif()
if(USE_UBSAN)
  list(APPEND TORCH_SANITIZERS undefined)
endif()
if(TORCH_SANITIZERS)
  list(JOIN TORCH_SANITIZERS "," _sanitize)
  # C and C++ only: nvcc does not take these flags (the sanitized build is a CPU build).
  set(_c_cxx "$<COMPILE_LANGUAGE:C,CXX>")
  # Frame pointers: the sanitizers' fast unwinder walks them, so every report and every
  # allocation carries its full stack. -O1 on top of the build type's -O level (GCC keeps
  # the last one): close to -O2 in speed, a third less compile time than -O2, and less
  # inlining, so a report's stack still names each function it went through.
  add_compile_options("$<${_c_cxx}:-fsanitize=${_sanitize};-fno-omit-frame-pointer;-O1>")
  # Every executable and library links the sanitizer runtimes (shared, GCC's default):
  # the test binaries load them first themselves; Python needs them in LD_PRELOAD.
  add_link_options(-fsanitize=${_sanitize})
  if(USE_UBSAN)
    # A UBSan finding aborts the process, as an ASan finding does, rather than printing a
    # line and going on: pytest captures C++ stderr and shows it only for failing tests, so
    # a report from a passing test would be lost. PyTorch's ASan CI job does the same
    # (UBSAN_FLAGS="-fno-sanitize-recover=all", .ci/pytorch/build-asan.sh).
    add_compile_options("$<${_c_cxx}:-fno-sanitize-recover=undefined>")
    add_link_options(-fno-sanitize-recover=undefined)
  endif()
endif()
# [end marker: sanitizers]
