// torch/csrc/jit/python/pybind_utils.cpp - Python <-> IValue by schema, and the boxed call from Python.
// Mirrors PyTorch's torch/csrc/jit/python/pybind_utils.{h,cpp}. Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/csrc/jit/python/pybind_utils.h>

#include <torch/csrc/Device.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/stl.h>

#include <sstream>

namespace py = pybind11;

namespace torch::jit {
namespace {

// "myops::lltm(Tensor input, ...) -> Tensor[]": the schema with its namespace, as errors print it.
std::string qualifiedSchema(const c10::FunctionSchema& schema) {
  const std::string& s = schema.schema_str;
  if (s.find("::") != std::string::npos && s.find("::") < s.find('(')) return s;
  const std::string& name = schema.operator_name.name;
  return name.substr(0, name.find("::") + 2) + s;
}

// What createStackForSchema adds to a conversion error: where the value was, and the schema.
struct ArgumentContext {
  int64_t position = -1;  // -1 for a keyword argument
  std::string declaration;
};
thread_local const ArgumentContext* current_argument = nullptr;

[[noreturn]] void typeError(py::handle obj, const c10::Argument& arg, const std::string& op_name) {
  std::ostringstream msg;
  msg << op_name << "() Expected a value of type '" << arg.base_type() << "' for argument '" << arg.name
      << "' but instead found type '" << Py_TYPE(obj.ptr())->tp_name << "'.";
  if (current_argument != nullptr) {
    if (current_argument->position >= 0) msg << "\nPosition: " << current_argument->position;
    msg << "\nValue: " << py::str(obj).cast<std::string>() << "\nDeclaration: " << current_argument->declaration
        << "\nCast error details: Unable to cast " << py::str(obj).cast<std::string>() << " to " << arg.base_type();
  }
  TORCH_CHECK(false, msg.str());
}

bool isInt(py::handle obj) {
  return PyLong_Check(obj.ptr()) && !PyBool_Check(obj.ptr());
}

c10::IValue fromNumber(py::handle obj) {
  if (PyBool_Check(obj.ptr())) return obj.ptr() == Py_True;
  if (PyLong_Check(obj.ptr())) return obj.cast<int64_t>();
  if (PyFloat_Check(obj.ptr())) return obj.cast<double>();
  if (PyComplex_Check(obj.ptr())) {
    return c10::complex<double>(PyComplex_RealAsDouble(obj.ptr()), PyComplex_ImagAsDouble(obj.ptr()));
  }
  if (THPVariable_Check(obj.ptr()) && THPVariable_Unpack(obj.ptr()).numel() == 1) {
    return THPVariable_Unpack(obj.ptr()).item();
  }
  return {};
}

// A schema default ("None", "1", "2.5", "True", "[0, 1]", "\"mean\"") as the IValue of its type.
c10::IValue parseDefault(const c10::Argument& arg) {
  const std::string& d = *arg.default_value;
  std::string type = arg.base_type();
  if (d == "None") return {};
  if (!type.empty() && type.back() == '?') type.pop_back();
  if (d == "True" || d == "False") return d == "True";
  if (d.front() == '"' || d.front() == '\'') return d.substr(1, d.size() - 2);
  if (type.find('[') != std::string::npos) {
    const bool is_float = type.rfind("float", 0) == 0;
    std::vector<std::string> items;
    std::string inner = d.front() == '[' ? d.substr(1, d.size() - 2) : d;
    std::stringstream ss(inner);
    for (std::string item; std::getline(ss, item, ',');) {
      if (item.find_first_not_of(' ') != std::string::npos) items.push_back(item);
    }
    // int[2] stride=1 is [1, 1].
    if (d.front() != '[') {
      const auto open = type.find('['), close = type.find(']');
      const auto n = close > open + 1 ? std::stoul(type.substr(open + 1, close - open - 1)) : 1;
      items.assign(n, items.empty() ? "0" : items[0]);
    }
    if (is_float) {
      std::vector<double> v;
      for (const auto& i : items) v.push_back(std::stod(i));
      return v;
    }
    std::vector<int64_t> v;
    for (const auto& i : items) v.push_back(std::stoll(i));
    return v;
  }
  if (type == "float") return std::stod(d);
  if (type == "int" || type == "SymInt") return static_cast<int64_t>(std::stoll(d));
  if (type == "Scalar") {
    if (d.find_first_of(".e") != std::string::npos) return std::stod(d);
    return static_cast<int64_t>(std::stoll(d));
  }
  TORCH_CHECK(false, "cannot use the default value '", d, "' of argument '", arg.name, "' (type ", arg.type,
              ") in a call from Python");
}

}  // namespace

c10::IValue toIValue(py::handle obj, const c10::Argument& arg, const std::string& op_name) {
  std::string type = arg.base_type();
  if (!type.empty() && type.back() == '?') {
    if (obj.is_none()) return {};
    type.pop_back();
  }
  PyObject* o = obj.ptr();
  if (type == "Tensor") {
    if (!THPVariable_Check(o)) typeError(obj, arg, op_name);
    return THPVariable_Unpack(o);
  }
  if (type == "int" || type == "SymInt") {
    if (!isInt(obj)) typeError(obj, arg, op_name);
    return obj.cast<int64_t>();
  }
  if (type == "float") {
    if (!PyFloat_Check(o) && !isInt(obj)) typeError(obj, arg, op_name);
    return obj.cast<double>();
  }
  if (type == "bool") {
    if (!PyBool_Check(o)) typeError(obj, arg, op_name);
    return o == Py_True;
  }
  if (type == "str") {
    if (!PyUnicode_Check(o)) typeError(obj, arg, op_name);
    return obj.cast<std::string>();
  }
  if (type == "Scalar") {
    c10::IValue v = fromNumber(obj);
    if (v.isNone()) typeError(obj, arg, op_name);
    return v;
  }
  if (type == "ScalarType") return torch::toScalarType(obj, op_name.c_str(), arg.name.c_str(), 0);
  if (type == "Device") return torch::toDevice(obj);
  const auto bracket = type.find('[');
  if (bracket != std::string::npos) {
    const std::string elem = type.substr(0, bracket);
    if ((elem == "int" || elem == "SymInt") && isInt(obj)) {  // int[2] stride=1 takes a single int
      const auto close = type.find(']');
      const auto n = close > bracket + 1 ? std::stoul(type.substr(bracket + 1, close - bracket - 1)) : 1;
      return std::vector<int64_t>(n, obj.cast<int64_t>());
    }
    if (!PyList_Check(o) && !PyTuple_Check(o)) typeError(obj, arg, op_name);
    py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
    if (elem == "int" || elem == "SymInt") {
      std::vector<int64_t> v;
      for (auto item : seq) {
        if (!isInt(item)) typeError(obj, arg, op_name);
        v.push_back(item.cast<int64_t>());
      }
      return v;
    }
    if (elem == "float") {
      std::vector<double> v;
      for (auto item : seq) v.push_back(item.cast<double>());
      return v;
    }
    if (elem == "bool") {
      std::vector<bool> v;
      for (auto item : seq) v.push_back(item.cast<bool>());
      return v;
    }
    if (elem == "Tensor") {
      std::vector<at::Tensor> v;
      for (auto item : seq) {
        if (!THPVariable_Check(item.ptr())) typeError(obj, arg, op_name);
        v.push_back(THPVariable_Unpack(item.ptr()));
      }
      return v;
    }
  }
  TORCH_CHECK(false, op_name, "(): argument '", arg.name, "' has type '", arg.type,
              "', which a call from Python cannot pass here");
}

py::object toPyObject(c10::IValue v) {
  using Tag = c10::IValue::Tag;
  switch (v.tag()) {
    case Tag::None: return py::none();
    case Tag::Tensor: return py::reinterpret_steal<py::object>(THPVariable_Wrap(std::move(v).toTensor()));
    case Tag::Double: return py::float_(v.toDouble());
    case Tag::ComplexDouble: {
      const auto z = v.toComplexDouble();
      return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(z.real(), z.imag()));
    }
    case Tag::Int: return py::int_(v.toInt());
    case Tag::Bool: return py::bool_(v.toBool());
    case Tag::String: return py::str(v.toStringRef());
    case Tag::IntList: return py::cast(v.toIntVector());
    case Tag::DoubleList: return py::cast(v.toDoubleVector());
    case Tag::BoolList: return py::cast(v.toBoolVector());
    case Tag::Device: return py::module_::import("torch").attr("device")(v.toDevice().str());
    case Tag::TensorList: {
      py::list out;
      for (const auto& t : v.toTensorVector()) out.append(py::reinterpret_steal<py::object>(THPVariable_Wrap(t)));
      return std::move(out);
    }
    case Tag::GenericList: {
      py::list out;
      for (const auto& x : v.toList()) out.append(toPyObject(x));
      return std::move(out);
    }
    case Tag::Tuple: {
      const auto& xs = v.toTupleRef();
      py::tuple out(xs.size());
      for (size_t i = 0; i < xs.size(); ++i) out[i] = toPyObject(xs[i]);
      return std::move(out);
    }
  }
  TORCH_CHECK(false, "toPyObject: an IValue of kind ", v.tagKind());
}

Stack createStackForSchema(const c10::FunctionSchema& schema, const py::args& args, const py::kwargs& kwargs) {
  const std::string op_name = schema.operator_name.name;
  const auto& arguments = schema.arguments;
  const std::string declaration = qualifiedSchema(schema);
  TORCH_CHECK(args.size() + kwargs.size() <= arguments.size(), op_name, "() expected at most ", arguments.size(),
              " argument(s) but received ", args.size() + kwargs.size(), " argument(s). Declaration: ", declaration);
  Stack stack;
  stack.reserve(arguments.size());
  size_t consumed_kwargs = 0;
  ArgumentContext context;
  context.declaration = declaration;
  struct Reset {
    ~Reset() { current_argument = nullptr; }
  } reset;
  current_argument = &context;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const auto& arg = arguments[i];
    if (i < args.size()) {
      TORCH_CHECK(!arg.kwarg_only, op_name, "() takes ", i, " positional argument(s) but ", args.size(),
                  " were given. Declaration: ", declaration);
      context.position = static_cast<int64_t>(i);
      stack.push_back(toIValue(args[i], arg, op_name));
    } else if (kwargs.contains(arg.name.c_str())) {
      context.position = -1;
      stack.push_back(toIValue(kwargs[arg.name.c_str()], arg, op_name));
      ++consumed_kwargs;
    } else if (arg.default_value.has_value()) {
      stack.push_back(parseDefault(arg));
    } else {
      TORCH_CHECK(false, op_name, "() is missing value for argument '", arg.name, "'. Declaration: ", declaration);
    }
  }
  if (consumed_kwargs != kwargs.size()) {
    for (auto item : kwargs) {
      const auto key = item.first.cast<std::string>();
      bool known = false;
      for (const auto& arg : arguments) known = known || arg.name == key;
      TORCH_CHECK(known, "Unknown keyword argument '", key, "' for operator '", op_name, "'. Schema: ", declaration);
    }
  }
  return stack;
}

py::object createPyObjectForStack(Stack&& stack) {
  if (stack.empty()) return py::none();
  if (stack.size() == 1) return toPyObject(std::move(stack[0]));
  py::tuple out(stack.size());
  for (size_t i = 0; i < stack.size(); ++i) out[i] = toPyObject(std::move(stack[i]));
  return std::move(out);
}

py::object invokeOperatorFromPython(const c10::OperatorHandle& op, const py::args& args, const py::kwargs& kwargs) {
  Stack stack = createStackForSchema(op.schema(), args, kwargs);
  {
    // The kernels run without the GIL, as PyTorch's calls do; a kernel written in Python
    // takes it back (torch/csrc/utils/python_dispatch.cpp).
    py::gil_scoped_release no_gil;
    op.callBoxed(&stack);
  }
  return createPyObjectForStack(std::move(stack));
}

}  // namespace torch::jit
