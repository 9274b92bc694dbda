"""tools/codegen/gen.py - generate ATen's operator code from native_functions.yaml.

Mirrors PyTorch's torchgen/gen.py. Guide: docs/source/internals/generated_code.rst.

    python -m tools.codegen.gen --source-path aten/src/ATen --install-dir build/aten/src/ATen

Run by CMake at build time (cmake/Codegen.cmake) whenever the YAML, a template or this
package changes. Each output is rewritten only if its text changed, so an edit that leaves
a file the same recompiles nothing that includes it. Every output starts with a banner
naming the YAML and this generator, and every generated function names its YAML entry.
"""

import argparse
import json
import os
from collections import OrderedDict
from typing import List

from tools.codegen import cpp
from tools.codegen.model import NativeFunction, parse_native_yaml
from tools.codegen.utils import FileManager


# The dispatch keys that get a Register<Key>.cpp (always written, even when empty, so the
# build's list of generated sources never changes).
REGISTERED_KEYS = [
    "CPU",
    "CUDA",
    "Meta",
    "CompositeImplicitAutograd",
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
]
BACKEND_KEYS = {"CPU", "CUDA", "Meta"}


def yaml_ref(f: NativeFunction) -> str:
    return f"// aten::{f.func.full_name}   (native_functions.yaml:{f.yaml_line})"


# ---- Operators.h / Operators.cpp ------------------------------------------------------

def operator_declaration(f: NativeFunction) -> str:
    func = f.func
    s = cpp.op_struct_name(func)
    args = ", ".join(cpp.arguments(func, with_defaults=False))
    ret = cpp.return_type(func)
    redispatch_args = "c10::DispatchKeySet dispatchKeySet" + (", " + args if args else "")
    return f"""{yaml_ref(f)}
struct TORCH_API {s} {{
  using schema = {cpp.signature_type(func)};
  static constexpr const char* name = "aten::{func.name}";
  static constexpr const char* overload_name = "{func.overload_name}";
  static constexpr const char* schema_str = {json.dumps(func.text)};
  static {ret} call({args});
  static {ret} redispatch({redispatch_args});
}};
"""


def operator_definition(f: NativeFunction) -> str:
    func = f.func
    s = cpp.op_struct_name(func)
    args = ", ".join(cpp.arguments(func, with_defaults=False))
    names = ", ".join(cpp.argument_names(func))
    ret = cpp.return_type(func)
    redispatch_args = "c10::DispatchKeySet dispatchKeySet" + (", " + args if args else "")
    redispatch_names = "dispatchKeySet" + (", " + names if names else "")
    return f"""{yaml_ref(f)}
static c10::TypedOperatorHandle<{s}::schema> create_{s}_typed_handle() {{
  return c10::Dispatcher::singleton().findSchemaOrThrow({s}::name, {s}::overload_name).typed<{s}::schema>();
}}

{ret} {s}::call({args}) {{
  static auto op = create_{s}_typed_handle();
  return op.call({names});
}}

{ret} {s}::redispatch({redispatch_args}) {{
  static auto op = create_{s}_typed_handle();
  return op.redispatch({redispatch_names});
}}
"""


# ---- Functions.h -----------------------------------------------------------------------

def function_definitions(f: NativeFunction) -> List[str]:
    if "function" not in f.variants or f.manual_cpp_binding:
        return []
    func = f.func
    s = cpp.op_struct_name(func)
    ret = cpp.return_type(func)
    names = ", ".join(cpp.argument_names(func))
    if func.is_out:
        # at::add_out(out, self, other) puts the outputs first; at::add_outf keeps schema order.
        outs = [a for a in func.arguments if a.type.is_write and a.kwarg_only]
        rest = [a for a in func.arguments if a not in outs]
        out_first = [f"{cpp.argument_type(a.type)} {a.name}" for a in outs]
        for a in rest:
            decl = f"{cpp.argument_type(a.type)} {a.name}"
            if a.default is not None:
                decl += f"={cpp.default_value(a)}"
            out_first.append(decl)
        return [
            f"""{yaml_ref(f)}
inline {ret} {func.name}_out({", ".join(out_first)}) {{
  return at::_ops::{s}::call({names});
}}
inline {ret} {func.name}_outf({", ".join(cpp.arguments(func, with_defaults=False))}) {{
  return at::_ops::{s}::call({names});
}}
"""
        ]
    return [
        f"""{yaml_ref(f)}
inline {ret} {func.name}({", ".join(cpp.arguments(func, with_defaults=True))}) {{
  return at::_ops::{s}::call({names});
}}
"""
    ]


# [marker: tensor_options_overloads]
# ---- the TensorOptions form of the factories ------------------------------------------
# The schema spells a factory's "what kind of tensor" as four arguments (ScalarType? dtype,
# Layout? layout, Device? device, bool? pin_memory); C++ callers bundle them in one
# TensorOptions: at::empty({2, 3}, x.options()), torch::zeros({2}, torch::dtype(torch::kLong)).
TENSOR_OPTIONS_GROUP = ("dtype", "layout", "device", "pin_memory")


def tensor_options_index(func) -> int:
    """Where the dtype/layout/device/pin_memory run starts, or -1 when there is none."""
    names = [a.name for a in func.arguments]
    for i in range(len(names) - 3):
        if tuple(names[i:i + 4]) == TENSOR_OPTIONS_GROUP:
            return i
    return -1


def tensor_options_signature(f: NativeFunction, options_decl: str):
    """The parameter declarations with the group replaced by options_decl, and the call's
    arguments with the group unpacked from `options`."""
    func = f.func
    at = tensor_options_index(func)
    before, after = func.arguments[:at], func.arguments[at + 4:]
    # The arguments before the options lose their defaults, as in PyTorch: otherwise
    # arange(start, end, step=1, options={}) and arange(start, end, options={}) would both
    # take arange(0, 10).
    decls = [f"{cpp.argument_type(a.type)} {a.name}" for a in before]
    decls.append(options_decl)
    decls += [f"{cpp.argument_type(a.type)} {a.name}" + (f"={cpp.default_value(a)}" if a.default is not None else "")
              for a in after]
    unpacked = ["options.dtype_opt()", "options.layout_opt()", "options.device_opt()", "options.pinned_memory_opt()"]
    call = [a.name for a in before] + unpacked + [a.name for a in after]
    return decls, call


def tensor_options_function(f: NativeFunction) -> List[str]:
    """at::zeros(size, options): a template taking only what converts to TensorOptions but not to
    ScalarType, so that the scattered at::zeros(size, at::kFloat) this tree's kernels write keeps
    resolving to the scattered overload, with no ambiguity between the two."""
    if "function" not in f.variants or f.manual_cpp_binding or f.func.is_out or tensor_options_index(f.func) < 0:
        return []
    func = f.func
    if any(a.default is None for a in func.arguments[tensor_options_index(func) + 4:]):
        return []
    decls, call = tensor_options_signature(f, "const Options& options_")
    return [f"""{yaml_ref(f)}
template <typename Options, ::std::enable_if_t<::std::is_convertible_v<Options, at::TensorOptions> &&
                                               !::std::is_convertible_v<Options, ::std::optional<at::ScalarType>>, int> = 0>
inline {cpp.return_type(func)} {func.name}({", ".join(decls)}) {{
  const at::TensorOptions options(options_);
  TORCH_CHECK(!options.requires_grad(), "at::{func.name}: requires_grad is not supported by ATen factory functions; "
              "use torch::{func.name} (torch/csrc/autograd/generated/variable_factories.h)");
  return at::_ops::{cpp.op_struct_name(func)}::call({", ".join(call)});
}}
"""]


def variable_factory(f: NativeFunction) -> List[str]:
    """torch::zeros(size, options = {}): the at:: factory, then requires_grad from the options
    (PyTorch's tools/autograd/gen_variable_factories.py)."""
    if "function" not in f.variants or f.manual_cpp_binding or f.func.is_out or tensor_options_index(f.func) < 0:
        return []
    func = f.func
    if any(a.default is None for a in func.arguments[tensor_options_index(func) + 4:]):
        return []
    decls, call = tensor_options_signature(f, "at::TensorOptions options = {}")
    return [f"""{yaml_ref(f)}
inline at::Tensor {func.name}({", ".join(decls)}) {{
  at::Tensor result = [&] {{
    at::AutoDispatchBelowADInplaceOrView guard;
    return at::_ops::{cpp.op_struct_name(func)}::call({", ".join(call)});
  }}();
  if (options.requires_grad()) result.set_requires_grad(true);
  return result;
}}
"""]
# [end marker: tensor_options_overloads]


# ---- TensorBody.h ------------------------------------------------------------------------

def tensor_method(f: NativeFunction):
    if "method" not in f.variants or f.func.is_out:
        return None
    func = f.func
    s = cpp.op_struct_name(func)
    ret = cpp.return_type(func)
    decl_args = ", ".join(cpp.arguments(func, with_defaults=True, skip_self=True))
    def_args = ", ".join(cpp.arguments(func, with_defaults=False, skip_self=True))
    call_args = ", ".join("const_cast<Tensor&>(*this)" if n == "self" else n for n in cpp.argument_names(func))
    declaration = f"  {ret} {func.name}({decl_args}) const;"
    definition = f"""{yaml_ref(f)}
inline {ret} Tensor::{func.name}({def_args}) const {{
  return at::_ops::{s}::call({call_args});
}}
"""
    return declaration, definition


# ---- Register<Key>.cpp / NativeFunctions.h ------------------------------------------------

def wrapper(f: NativeFunction, key: str, kernel: str):
    func = f.func
    s = cpp.op_struct_name(func)
    name = f"wrapper_{key}_{s}"
    ret = cpp.return_type(func)
    args = ", ".join(cpp.arguments(func, with_defaults=False))
    names = ", ".join(cpp.argument_names(func))
    checks = []
    tensor_args = [a for a in func.arguments if a.type.base == "Tensor"]
    # A Tensor[] (cat's tensors) may hold tensors on several devices by itself.
    if key in BACKEND_KEYS and f.device_check and (len(tensor_args) > 1 or any(a.type.is_list for a in tensor_args)):
        # All tensor arguments on one device, with PyTorch's message naming the odd one out.
        checks.append("::std::optional<at::Device> common_device = ::std::nullopt;")
        for a in tensor_args:
            checks.append(f'c10::impl::check_and_update_common_device(common_device, {a.name}, "{name}", "{a.name}");')
    body = "\n  ".join(checks + [f"return at::native::{kernel}({names});"])
    definition = f"""{yaml_ref(f)}
{ret} {name}({args}) {{
  {body}
}}
"""
    registration = f'm.impl("{func.full_name}", torch::CppFunction::makeUnboxedOnly(&{name}));'
    return definition, registration


def backend_select(f: NativeFunction):
    func = f.func
    s = cpp.op_struct_name(func)
    ret = cpp.return_type(func)
    args = ", ".join(cpp.arguments(func, with_defaults=False))
    names = ", ".join(cpp.argument_names(func))
    dtype = "dtype" if any(a.name == "dtype" for a in func.arguments) else "::std::nullopt"
    definition = f"""{yaml_ref(f)}
{ret} {s}({args}) {{
  c10::DispatchKeySet _dk = c10::DispatchKeySet(c10::computeDispatchKey({dtype}, device));
  return at::_ops::{s}::redispatch(_dk, {names});
}}
"""
    registration = f'm.impl("aten::{func.full_name}", torch::CppFunction::makeUnboxedOnly(&{s}));'
    return definition, registration


def gen_aten(native_functions: List[NativeFunction], fm: FileManager) -> None:
    fm.write_with_template("Operators.h", "Operators.h",
                           {"operator_declarations": [operator_declaration(f) for f in native_functions]})
    fm.write_with_template("Operators.cpp", "Operators.cpp",
                           {"operator_definitions": [operator_definition(f) for f in native_functions]})
    functions = [d for f in native_functions for d in function_definitions(f) + tensor_options_function(f)]
    fm.write_with_template("Functions.h", "Functions.h", {"function_definitions": functions})

    methods = [m for m in (tensor_method(f) for f in native_functions) if m]
    fm.write_with_template("core/TensorBody.h", "TensorBody.h", {
        "tensor_method_declarations": [m[0] for m in methods],
        "tensor_method_definitions": [m[1] for m in methods],
    })

    declarations: "OrderedDict[str, None]" = OrderedDict()
    for f in native_functions:
        for kernel in f.dispatch.values():
            declarations[cpp.native_kernel_declaration(f, kernel)] = None
    fm.write_with_template("NativeFunctions.h", "NativeFunctions.h",
                           {"native_function_declarations": list(declarations)})

    for key in REGISTERED_KEYS:
        pieces = [wrapper(f, key, f.dispatch[key]) for f in native_functions if key in f.dispatch]
        fm.write_with_template(f"Register{key}.cpp", "RegisterDispatchKey.cpp", {
            "dispatch_key": key,
            "wrapper_definitions": [p[0] for p in pieces],
            "registrations": [p[1] for p in pieces],
        })

    fm.write_with_template("RegisterSchema.cpp", "RegisterSchema.cpp", {
        "schema_registrations": [f'm.def({json.dumps(f.func.text)});' for f in native_functions],
    })
    selects = [backend_select(f) for f in native_functions if f.is_factory]
    fm.write_with_template("RegisterBackendSelect.cpp", "RegisterBackendSelect.cpp", {
        "backend_select_method_definitions": [p[0] for p in selects],
        "backend_select_function_registrations": [p[1] for p in selects],
    })


def main() -> None:
    parser = argparse.ArgumentParser(description="Generate ATen source files from native_functions.yaml")
    parser.add_argument("--source-path", default="aten/src/ATen", help="aten/src/ATen of the source tree")
    parser.add_argument("--install-dir", required=True, help="where the generated ATen files go")
    parser.add_argument("--python-install-dir", help="where the generated Python bindings go")
    parser.add_argument("--pyi-install-dir", help="where the generated .pyi stubs go")
    parser.add_argument("--variable-factories-dir", help="where torch::'s factories (variable_factories.h) go")
    args = parser.parse_args()

    native_functions = parse_native_yaml(os.path.join(args.source_path, "native", "native_functions.yaml"))
    gen_aten(native_functions, FileManager(args.install_dir, os.path.join(args.source_path, "templates")))
    if args.variable_factories_dir:
        templates = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "autograd", "templates")
        FileManager(args.variable_factories_dir, templates).write_with_template(
            "variable_factories.h", "variable_factories.h",
            {"function_definitions": [d for f in native_functions for d in variable_factory(f)]})
    if args.python_install_dir:
        from tools.codegen import gen_python

        gen_python.gen(native_functions, args.python_install_dir, args.pyi_install_dir)


if __name__ == "__main__":
    main()
