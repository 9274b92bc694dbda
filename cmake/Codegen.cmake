# cmake/Codegen.cmake - run tools/codegen/gen.py on native_functions.yaml at build time.
# Mirrors PyTorch's cmake/Codegen.cmake. Guide: docs/source/internals/generated_code.rst.
#
# The generated files go to build/aten/src/ATen (readable there, never committed). The
# generator runs again when the YAML, a template or the generator changes; it rewrites only
# files whose text changed, so Ninja (restat) recompiles only what really depends on the edit.
set(GEN_ATEN_DIR ${PROJECT_BINARY_DIR}/aten/src/ATen)
set(GEN_ATEN_SRCS
  ${GEN_ATEN_DIR}/Operators.cpp
  ${GEN_ATEN_DIR}/RegisterSchema.cpp
  ${GEN_ATEN_DIR}/RegisterBackendSelect.cpp
  ${GEN_ATEN_DIR}/RegisterCPU.cpp
  ${GEN_ATEN_DIR}/RegisterMeta.cpp
  ${GEN_ATEN_DIR}/RegisterCompositeImplicitAutograd.cpp
  ${GEN_ATEN_DIR}/RegisterCompositeExplicitAutograd.cpp
  ${GEN_ATEN_DIR}/RegisterCompositeExplicitAutogradNonFunctional.cpp)
# The Python bindings of the operators (tools/codegen/gen_python.py), compiled into torch._C
# (torch/CMakeLists.txt), and the stubs torch/_C/_VariableFunctions.pyi and __init__.pyi.
# RegisterCUDA.cpp registers the CUDA kernels; it is compiled into libtorch_cuda (aten/CMakeLists.txt).
set(GEN_ATEN_CUDA_SRCS ${GEN_ATEN_DIR}/RegisterCUDA.cpp)
set(GEN_PYTHON_DIR ${PROJECT_BINARY_DIR}/torch/csrc/autograd/generated)
set(GEN_PYTHON_SRCS
  ${GEN_PYTHON_DIR}/python_torch_functions.cpp
  ${GEN_PYTHON_DIR}/python_nn_functions.cpp
  ${GEN_PYTHON_DIR}/python_linalg_functions.cpp
  ${GEN_PYTHON_DIR}/python_variable_methods.cpp)
set(GEN_PYI
  ${TORCH_PACKAGE_DIR}/_C/_VariableFunctions.pyi
  ${TORCH_PACKAGE_DIR}/_C/__init__.pyi)
set(GEN_ATEN_HDRS
  ${GEN_ATEN_DIR}/Operators.h
  ${GEN_ATEN_DIR}/Functions.h
  ${GEN_ATEN_DIR}/NativeFunctions.h
  ${GEN_ATEN_DIR}/core/TensorBody.h)

file(GLOB CODEGEN_PY CONFIGURE_DEPENDS ${TORCH_ROOT}/tools/codegen/*.py)
file(GLOB CODEGEN_TEMPLATES CONFIGURE_DEPENDS ${TORCH_ROOT}/aten/src/ATen/templates/*)
set(CODEGEN_STAMP ${GEN_ATEN_DIR}/.codegen.stamp)

add_custom_command(
  OUTPUT ${CODEGEN_STAMP}
  BYPRODUCTS ${GEN_ATEN_SRCS} ${GEN_ATEN_CUDA_SRCS} ${GEN_ATEN_HDRS} ${GEN_PYTHON_SRCS} ${GEN_PYI}
             ${PROJECT_BINARY_DIR}/torch/csrc/autograd/generated/variable_factories.h
  COMMAND ${Python_EXECUTABLE} -m tools.codegen.gen
          --source-path ${TORCH_ROOT}/aten/src/ATen
          --install-dir ${GEN_ATEN_DIR}
          --python-install-dir ${GEN_PYTHON_DIR}
          --pyi-install-dir ${TORCH_PACKAGE_DIR}/_C
          --variable-factories-dir ${PROJECT_BINARY_DIR}/torch/csrc/autograd/generated
  COMMAND ${CMAKE_COMMAND} -E touch ${CODEGEN_STAMP}
  DEPENDS ${TORCH_ROOT}/aten/src/ATen/native/native_functions.yaml ${CODEGEN_PY} ${CODEGEN_TEMPLATES}
          ${TORCH_ROOT}/tools/autograd/templates/variable_factories.h
  WORKING_DIRECTORY ${TORCH_ROOT}
  COMMENT "Generating ATen operators from native_functions.yaml"
  VERBATIM)
add_custom_target(ATEN_CODEGEN DEPENDS ${CODEGEN_STAMP})
# torch/CMakeLists.txt (a sibling directory) compiles the generated Python bindings.
set(GEN_PYTHON_SRCS ${GEN_PYTHON_SRCS} PARENT_SCOPE)

# ---- autograd: tools/autograd/gen_autograd.py on derivatives.yaml ----
# The backward nodes (Functions.cpp), the Autograd and ADInplaceOrView kernels
# (VariableType.cpp, ADInplaceOrViewType.cpp: into libtorch_cpu) and the grad_fn classes
# (python_functions.cpp: into torch._C), in build/torch/csrc/autograd/generated.
set(GEN_AUTOGRAD_DIR ${PROJECT_BINARY_DIR}/torch/csrc/autograd/generated)
set(GEN_AUTOGRAD_SRCS
  ${GEN_AUTOGRAD_DIR}/Functions.cpp
  ${GEN_AUTOGRAD_DIR}/VariableType.cpp
  ${GEN_AUTOGRAD_DIR}/ADInplaceOrViewType.cpp)
set(GEN_AUTOGRAD_PYTHON_SRCS ${GEN_AUTOGRAD_DIR}/python_functions.cpp)
file(GLOB AUTOGRAD_CODEGEN_PY CONFIGURE_DEPENDS ${TORCH_ROOT}/tools/autograd/*.py)
file(GLOB AUTOGRAD_TEMPLATES CONFIGURE_DEPENDS ${TORCH_ROOT}/tools/autograd/templates/*)
set(AUTOGRAD_CODEGEN_STAMP ${GEN_AUTOGRAD_DIR}/.codegen.stamp)
add_custom_command(
  OUTPUT ${AUTOGRAD_CODEGEN_STAMP}
  BYPRODUCTS ${GEN_AUTOGRAD_SRCS} ${GEN_AUTOGRAD_PYTHON_SRCS} ${GEN_AUTOGRAD_DIR}/Functions.h
  COMMAND ${Python_EXECUTABLE} -m tools.autograd.gen_autograd
          --native-functions ${TORCH_ROOT}/aten/src/ATen/native/native_functions.yaml
          --derivatives ${TORCH_ROOT}/tools/autograd/derivatives.yaml
          --install-dir ${GEN_AUTOGRAD_DIR}
  COMMAND ${CMAKE_COMMAND} -E touch ${AUTOGRAD_CODEGEN_STAMP}
  DEPENDS ${TORCH_ROOT}/aten/src/ATen/native/native_functions.yaml ${TORCH_ROOT}/tools/autograd/derivatives.yaml
          ${CODEGEN_PY} ${AUTOGRAD_CODEGEN_PY} ${AUTOGRAD_TEMPLATES}
  WORKING_DIRECTORY ${TORCH_ROOT}
  COMMENT "Generating autograd from derivatives.yaml"
  VERBATIM)
add_custom_target(AUTOGRAD_CODEGEN DEPENDS ${AUTOGRAD_CODEGEN_STAMP})
set(GEN_AUTOGRAD_PYTHON_SRCS ${GEN_AUTOGRAD_PYTHON_SRCS} PARENT_SCOPE)
