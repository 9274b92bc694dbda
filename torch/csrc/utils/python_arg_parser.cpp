// torch/csrc/utils/python_arg_parser.cpp - PythonArgParser: signatures, matching, PyTorch's messages.
// Mirrors PyTorch's torch/csrc/utils/python_arg_parser.cpp and invalid_arguments.cpp.
// Guide: docs/source/internals/python_bindings.rst.
#include <torch/csrc/utils/python_arg_parser.h>
#include <torch/csrc/utils/device_lazy_init.h>

#include <ATen/Functions.h>
#include <torch/csrc/Device.h>
#include <torch/csrc/Generator.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/tensor_list.h>

#include <c10/util/Exception.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace py = pybind11;

namespace torch {
namespace {

// The type names signature strings use (C++ spellings, as the generator writes them).
const std::unordered_map<std::string, ParameterType> type_map = {
    {"Tensor", ParameterType::TENSOR},
    {"Scalar", ParameterType::SCALAR},
    {"int64_t", ParameterType::INT64},
    {"SymInt", ParameterType::INT64},
    {"double", ParameterType::DOUBLE},
    {"complex", ParameterType::COMPLEX},
    {"TensorList", ParameterType::TENSOR_LIST},
    {"c10::List<::std::optional<Tensor>>", ParameterType::TENSOR_LIST},  // Tensor?[] (index_put_)
    {"IntArrayRef", ParameterType::INT_LIST},
    {"SymIntArrayRef", ParameterType::INT_LIST},
    {"ArrayRef<double>", ParameterType::FLOAT_LIST},
    {"Generator", ParameterType::GENERATOR},
    {"bool", ParameterType::BOOL},
    {"Storage", ParameterType::STORAGE},
    {"PyObject*", ParameterType::PYOBJECT},
    {"ScalarType", ParameterType::SCALARTYPE},
    {"Layout", ParameterType::LAYOUT},
    {"MemoryFormat", ParameterType::MEMORY_FORMAT},
    {"Device", ParameterType::DEVICE},
    {"std::string", ParameterType::STRING},
    {"c10::string_view", ParameterType::STRING},
};

// Operators whose Tensor parameters also take Python numbers (torch.add(t, 2)).
bool should_allow_numbers_as_tensors(const std::string& name) {
  static const std::unordered_set<std::string> allowed = {
      "add", "add_", "__radd__", "__iadd__", "sub", "sub_", "__rsub__", "__isub__", "mul", "mul_",
      "__rmul__", "__imul__", "div", "div_", "__rtruediv__", "__itruediv__", "divide", "divide_",
      "true_divide", "true_divide_", "floor_divide", "floor_divide_", "__rfloordiv__", "__ifloordiv__",
      "multiply", "multiply_", "subtract", "subtract_", "__iand__", "__ior__", "__ixor__", "__ilshift__",
      "__irshift__", "fmod", "fmod_", "remainder", "remainder_", "xlogy", "xlogy_", "copysign", "copysign_"};
  return allowed.count(name) > 0;
}

const std::unordered_map<std::string, std::vector<std::string>> numpy_compatibility_arg_names = {
    {"dim", {"axis"}}, {"keepdim", {"keepdims"}}, {"input", {"x", "a", "x1"}}, {"other", {"x2"}}};

std::string typename_of(PyObject* obj) {
  return Py_TYPE(obj)->tp_name;
}

bool is_bool(PyObject* obj) {
  return PyBool_Check(obj) || (PyObject_HasAttrString(obj, "dtype") && !THPVariable_Check(obj) &&
                               std::string(typename_of(obj)) == "numpy.bool");
}
// An int that is not a bool: Python ints and numpy integers (anything with __index__).
bool is_index(PyObject* obj) {
  if (PyBool_Check(obj)) return false;
  if (PyLong_Check(obj)) return true;
  return !THPVariable_Check(obj) && PyIndex_Check(obj) && std::string(typename_of(obj)) != "numpy.bool";
}
bool is_double(PyObject* obj) {
  return PyFloat_Check(obj) || PyLong_Check(obj) || is_index(obj);
}
bool is_scalar(PyObject* obj) {
  return PyFloat_Check(obj) || PyLong_Check(obj) || PyComplex_Check(obj) || is_index(obj);
}

// Only the first element is looked at, as in PyTorch (the rest are checked while unpacking).
bool is_int_list(PyObject* obj, int broadcast_size, int64_t* failed_idx) {
  if (PyTuple_Check(obj) || PyList_Check(obj)) {
    if (PySequence_Size(obj) == 0) return true;
    py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(obj, 0));
    if (is_index(item.ptr())) return true;
    if (THPVariable_Check(item.ptr())) {
      const auto& var = THPVariable_Unpack(item.ptr());
      if (var.dim() == 0 && c10::isIntegralType(var.scalar_type(), false)) return true;
    }
    if (failed_idx != nullptr) *failed_idx = 0;
    return false;
  }
  return broadcast_size > 0 && is_index(obj);
}

bool is_tensor_and_append_overloaded(PyObject* obj, std::vector<PyObject*>* overloaded_args) {
  if (THPVariable_CheckExact(obj)) return true;
  if (check_has_torch_function(obj, /*ignore_mode=*/true)) {
    // A tensor subclass or tensor-like whose type overrides __torch_function__; subclasses
    // go before their base classes, others keep their order.
    bool seen = false;
    for (PyObject* a : *overloaded_args) seen |= Py_TYPE(a) == Py_TYPE(obj);
    if (!seen) {
      auto pos = overloaded_args->end();
      for (auto it = overloaded_args->begin(); it != overloaded_args->end(); ++it) {
        if (PyType_IsSubtype(Py_TYPE(obj), Py_TYPE(*it))) {
          pos = it;
          break;
        }
      }
      overloaded_args->insert(pos, obj);
    }
    return true;
  }
  return THPVariable_Check(obj);
}

std::string default_display(const std::string& s) {
  return s;
}

}  // namespace

// ---- FunctionParameter ------------------------------------------------------------------

FunctionParameter::FunctionParameter(const std::string& fmt, bool keyword_only) : keyword_only(keyword_only) {
  auto space = fmt.find(' ');
  TORCH_CHECK(space != std::string::npos, "FunctionParameter(): missing type: ", fmt);
  auto type_str = fmt.substr(0, space);
  auto question = type_str.find('?');
  if (question != std::string::npos) {
    allow_none = true;
    type_str = type_str.substr(0, question);
  }
  // IntArrayRef[2]
  auto bracket = type_str.find('[');
  if (bracket != std::string::npos) {
    auto size_str = type_str.substr(bracket + 1, type_str.length() - bracket - 2);
    size = size_str.empty() ? 0 : std::stoi(size_str);
    type_str = type_str.substr(0, bracket);
  }
  auto it = type_map.find(type_str);
  TORCH_CHECK(it != type_map.end(), "FunctionParameter(): invalid type string: ", type_str);
  type_ = it->second;

  auto name_str = fmt.substr(space + 1);
  auto eq = name_str.find('=');
  if (eq != std::string::npos) {
    name = name_str.substr(0, eq);
    optional = true;
    set_default_str(name_str.substr(eq + 1));
  } else {
    name = name_str;
  }
  python_name = PyUnicode_InternFromString(name.c_str());
  auto np = numpy_compatibility_arg_names.find(name);
  if (np != numpy_compatibility_arg_names.end()) {
    for (const auto& alias : np->second) numpy_python_names.push_back(PyUnicode_InternFromString(alias.c_str()));
  }
}

void FunctionParameter::set_default_str(const std::string& str) {
  default_str = str;
  if (str == "None") {
    allow_none = true;
    return;
  }
  switch (type_) {
    case ParameterType::TENSOR:
      TORCH_CHECK(false, "default value for Tensor must be none, got: ", str);
    case ParameterType::INT64:
      // `int reduction=Mean` (ATen/core/Reduction.h) is the one named int default.
      if (str == "Mean") {
        default_int = at::Reduction::Mean;
      } else if (str == "Sum") {
        default_int = at::Reduction::Sum;
      } else {
        default_int = std::stoll(str);
      }
      break;
    case ParameterType::BOOL:
      default_bool = (str == "True" || str == "true");
      break;
    case ParameterType::DOUBLE:
      default_double = std::stod(str);
      break;
    case ParameterType::COMPLEX:
      default_double = std::stod(str);
      break;
    case ParameterType::SCALAR:
      if (str == "True" || str == "False") {
        default_scalar = at::Scalar(str == "True");
      } else if (str.find_first_of(".e") != std::string::npos && str.find("0x") == std::string::npos) {
        default_scalar = at::Scalar(std::stod(str));
      } else {
        default_scalar = at::Scalar(static_cast<int64_t>(std::stoll(str)));
      }
      break;
    case ParameterType::INT_LIST:
      if (str != "None") {
        // "[0,1]" or a single int broadcast to `size`
        std::string body = str;
        if (!body.empty() && body.front() == '[') body = body.substr(1, body.size() - 2);
        std::stringstream ss(body);
        std::string item;
        while (std::getline(ss, item, ',')) {
          if (!item.empty()) default_intlist.push_back(std::stoll(item));
        }
        if (default_intlist.size() == 1 && size > 1) default_intlist.assign(size, default_intlist[0]);
      }
      break;
    case ParameterType::SCALARTYPE:
      if (str == "torch.int64" || str == "long") default_scalartype = at::ScalarType::Long;
      break;
    case ParameterType::LAYOUT:
      default_layout = at::Layout::Strided;
      break;
    case ParameterType::MEMORY_FORMAT:
      if (str == "torch.preserve_format") default_memory_format = at::MemoryFormat::Preserve;
      break;
    case ParameterType::STRING:
      default_string = (str.size() >= 2 && (str.front() == '"' || str.front() == '\'')) ? str.substr(1, str.size() - 2)
                                                                                         : str;
      break;
    default:
      break;
  }
}

std::string FunctionParameter::type_name() const {
  switch (type_) {
    case ParameterType::TENSOR: return "Tensor";
    case ParameterType::SCALAR: return "Number";
    case ParameterType::INT64: return "int";
    case ParameterType::DOUBLE: return "float";
    case ParameterType::COMPLEX: return "complex";
    case ParameterType::TENSOR_LIST: return "tuple of Tensors";
    case ParameterType::INT_LIST: return "tuple of ints";
    case ParameterType::FLOAT_LIST: return "tuple of floats";
    case ParameterType::GENERATOR: return "torch.Generator";
    case ParameterType::BOOL: return "bool";
    case ParameterType::STORAGE: return "torch.Storage";
    case ParameterType::PYOBJECT: return "object";
    case ParameterType::SCALARTYPE: return "torch.dtype";
    case ParameterType::LAYOUT: return "torch.layout";
    case ParameterType::MEMORY_FORMAT: return "torch.memory_format";
    case ParameterType::DEVICE: return "torch.device";
    case ParameterType::STRING: return "str";
  }
  return "?";
}

// [marker: FunctionParameter_check]
bool FunctionParameter::check(PyObject* obj, std::vector<PyObject*>& overloaded_args, int argnum,
                              int64_t* failed_idx) const {
  switch (type_) {
    case ParameterType::TENSOR:
      if (is_tensor_and_append_overloaded(obj, &overloaded_args)) return true;
      return allow_numbers_as_tensors && is_scalar(obj);
    case ParameterType::SCALAR:
      if (is_scalar(obj)) return true;
      [[fallthrough]];
    case ParameterType::COMPLEX:
      if (PyComplex_Check(obj)) return true;
      [[fallthrough]];
    case ParameterType::DOUBLE:
      if (is_double(obj)) return true;
      if (THPVariable_Check(obj)) {
        // a 0-d tensor stands for its one number
        return THPVariable_Unpack(obj).dim() == 0;
      }
      return false;
    case ParameterType::INT64:
      if (is_index(obj)) return true;
      if (THPVariable_Check(obj)) {
        const auto& var = THPVariable_Unpack(obj);
        return c10::isIntegralType(var.scalar_type(), false) && var.dim() == 0;
      }
      return false;
    case ParameterType::BOOL:
      return is_bool(obj);
    case ParameterType::INT_LIST:
      return is_int_list(obj, size, failed_idx);
    case ParameterType::FLOAT_LIST:
      return PyTuple_Check(obj) || PyList_Check(obj);
    case ParameterType::TENSOR_LIST: {
      if (!(PyTuple_Check(obj) || PyList_Check(obj))) return false;
      const auto n = PySequence_Size(obj);
      for (Py_ssize_t i = 0; i < n; ++i) {
        py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(obj, i));
        if (!is_tensor_and_append_overloaded(item.ptr(), &overloaded_args)) {
          if (failed_idx != nullptr) *failed_idx = i;
          return false;
        }
      }
      return true;
    }
    case ParameterType::SCALARTYPE:
      return py::isinstance<THPDtype>(obj) || obj == reinterpret_cast<PyObject*>(&PyFloat_Type) ||
             obj == reinterpret_cast<PyObject*>(&PyLong_Type) || obj == reinterpret_cast<PyObject*>(&PyBool_Type) ||
             obj == reinterpret_cast<PyObject*>(&PyComplex_Type);
    case ParameterType::LAYOUT:
      return THPLayout_Check(obj);
    case ParameterType::MEMORY_FORMAT:
      return THPMemoryFormat_Check(obj);
    case ParameterType::DEVICE:
      return (PyLong_Check(obj) && !PyBool_Check(obj)) || PyUnicode_Check(obj) || py::isinstance<THPDevice>(obj);
    case ParameterType::STRING:
      return PyUnicode_Check(obj);
    case ParameterType::PYOBJECT:
      return true;
    case ParameterType::GENERATOR:
      return THPGenerator_Check(obj);
    case ParameterType::STORAGE:
      return false;
  }
  return false;
}
// [end marker: FunctionParameter_check]

// ---- FunctionSignature --------------------------------------------------------------------

FunctionSignature::FunctionSignature(const std::string& fmt, int index) : index(index) {
  auto open_paren = fmt.find('(');
  TORCH_CHECK(open_paren != std::string::npos, "missing opening parenthesis: ", fmt);
  name = fmt.substr(0, open_paren);
  bool allow_numbers_as_tensors = should_allow_numbers_as_tensors(name);

  auto last_offset = open_paren + 1;
  bool keyword_only = false;
  bool done = false;
  while (!done) {
    auto offset = fmt.find(", ", last_offset);
    auto next_offset = offset + 2;
    if (offset == std::string::npos) {
      offset = fmt.find(')', last_offset);
      done = next_offset == fmt.length();
      next_offset = offset + 1;
      // a trailing `|hidden` or `|deprecated` after the closing parenthesis
      if (!done && offset != std::string::npos) {
        auto tail = fmt.substr(offset + 1);
        hidden = tail.find("hidden") != std::string::npos;
        deprecated = tail.find("deprecated") != std::string::npos;
        done = true;
      }
    }
    TORCH_CHECK(offset != std::string::npos, "missing closing parenthesis: ", fmt);
    TORCH_CHECK(offset != last_offset || done, "malformed signature: ", fmt);
    auto param_str = fmt.substr(last_offset, offset - last_offset);
    last_offset = next_offset;
    if (param_str == "*") {
      keyword_only = true;
    } else if (!param_str.empty()) {
      params.emplace_back(param_str, keyword_only);
      params.back().allow_numbers_as_tensors = allow_numbers_as_tensors;
    }
  }
  max_args = params.size();
  for (auto& param : params) {
    if (!param.optional) min_args++;
    if (!param.keyword_only) max_pos_args++;
  }
}

std::string FunctionSignature::toString() const {
  std::ostringstream ss;
  bool keyword_already = false;
  ss << "(";
  int i = 0;
  for (const auto& param : params) {
    if (i != 0) ss << ", ";
    if (param.keyword_only && !keyword_already) {
      ss << "*, ";
      keyword_already = true;
    }
    ss << param.type_name() << " " << param.name;
    if (param.optional) ss << " = " << default_display(param.default_str);
    i++;
  }
  ss << ")";
  return ss.str();
}

namespace {

[[noreturn]] void extra_args(const FunctionSignature& signature, Py_ssize_t nargs) {
  const auto max_pos_args = signature.max_pos_args;
  const auto min_args = signature.min_args;
  if (min_args != max_pos_args) {
    TORCH_CHECK_TYPE(false, signature.name, "() takes from ", min_args, " to ", max_pos_args,
                     " positional arguments but ", nargs, " were given");
  }
  TORCH_CHECK_TYPE(false, signature.name, "() takes ", max_pos_args, " positional argument",
                   max_pos_args == 1 ? "" : "s", " but ", nargs, nargs == 1 ? " was" : " were", " given");
}

[[noreturn]] void missing_args(const FunctionSignature& signature, size_t idx) {
  int num_missing = 0;
  std::stringstream ss;
  for (size_t i = idx; i < signature.params.size(); ++i) {
    const auto& param = signature.params[i];
    if (!param.optional) {
      if (num_missing > 0) ss << ", ";
      ss << '"' << param.name << '"';
      num_missing++;
    }
  }
  // PyTorch's text says "arguments" for one and "argument" for several; kept as it is.
  TORCH_CHECK_TYPE(false, signature.name, "() missing ", num_missing, " required positional argument",
                   num_missing == 1 ? "s" : "", ": ", ss.str());
}

ssize_t find_param(const FunctionSignature& signature, PyObject* name) {
  ssize_t i = 0;
  for (const auto& param : signature.params) {
    int cmp = PyObject_RichCompareBool(name, param.python_name, Py_EQ);
    if (cmp < 0) throw py::error_already_set();
    if (cmp) return i;
    i++;
  }
  return -1;
}

[[noreturn]] void extra_kwargs(const FunctionSignature& signature, PyObject* kwargs, Py_ssize_t num_pos_args) {
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(kwargs, &pos, &key, &value)) {
    TORCH_CHECK_TYPE(PyUnicode_Check(key), "keywords must be strings");
    auto param_idx = find_param(signature, key);
    TORCH_CHECK_TYPE(param_idx >= 0, signature.name, "() got an unexpected keyword argument '",
                     PyUnicode_AsUTF8(key), "'");
    TORCH_CHECK_TYPE(param_idx >= num_pos_args, signature.name, "() got multiple values for argument '",
                     PyUnicode_AsUTF8(key), "'");
  }
  TORCH_CHECK_TYPE(false, "invalid keyword arguments");
}

}  // namespace

bool FunctionSignature::parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject* dst[],
                              std::vector<PyObject*>& overloaded_args, bool raise_exception) const {
  Py_ssize_t nargs = args ? PyTuple_GET_SIZE(args) : 0;
  auto remaining_kwargs = kwargs ? PyDict_Size(kwargs) : 0;
  size_t arg_pos = 0;
  // A single positional int list also takes varargs: zeros(2, 3) means zeros((2, 3)).
  bool allow_varargs_intlist = max_pos_args == 1 && params[0].type_ == ParameterType::INT_LIST;

  if (static_cast<size_t>(nargs) > max_pos_args && !allow_varargs_intlist) {
    if (raise_exception) extra_args(*this, nargs);
    return false;
  }
  overloaded_args.clear();
  if (self != nullptr && check_has_torch_function(self, /*ignore_mode=*/true)) {
    overloaded_args.push_back(self);
  }

  size_t i = 0;
  for (const auto& param : params) {
    PyObject* obj = nullptr;
    bool is_kwd = false;
    if (arg_pos < static_cast<size_t>(nargs)) {
      // extra positional args given after a single positional IntArrayRef arg
      if (param.keyword_only) {
        if (raise_exception) extra_args(*this, nargs);
        return false;
      }
      obj = PyTuple_GET_ITEM(args, arg_pos);
    } else if (kwargs) {
      obj = PyDict_GetItem(kwargs, param.python_name);
      for (PyObject* numpy_name : param.numpy_python_names) {
        if (obj) break;
        obj = PyDict_GetItem(kwargs, numpy_name);
      }
      is_kwd = true;
    }

    int64_t failed_idx = -1;
    bool varargs_eligible = allow_varargs_intlist && arg_pos == 0 && !is_kwd;
    if ((!obj && param.optional) || (obj == Py_None && param.allow_none)) {
      dst[i++] = nullptr;
    } else if (!obj) {
      if (raise_exception) missing_args(*this, i);
      return false;
    } else if (param.check(obj, overloaded_args, static_cast<int>(i), &failed_idx)) {
      dst[i++] = obj;
    } else if (varargs_eligible && is_int_list(args, param.size, nullptr)) {
      // take all positional arguments as this parameter: zeros(2, 3) -> zeros((2, 3))
      dst[i++] = args;
      arg_pos = nargs;
      continue;
    } else if (raise_exception) {
      if (is_kwd) {
        TORCH_CHECK_TYPE(false, name, "(): argument '", param.name, "' must be ", param.type_name(), ", not ",
                         typename_of(obj));
      }
      if (failed_idx != -1) {
        py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(obj, failed_idx));
        TORCH_CHECK_TYPE(false, name, "(): argument '", param.name, "' (position ", arg_pos + 1, ") must be ",
                         param.type_name(), ", but found element of type ", typename_of(item.ptr()), " at pos ",
                         failed_idx);
      }
      TORCH_CHECK_TYPE(false, name, "(): argument '", param.name, "' (position ", arg_pos + 1, ") must be ",
                       param.type_name(), ", not ", typename_of(obj));
    } else {
      return false;
    }

    if (!is_kwd) {
      arg_pos++;
    } else if (obj) {
      remaining_kwargs--;
    }
  }

  if (remaining_kwargs > 0) {
    if (raise_exception) extra_kwargs(*this, kwargs, nargs);
    return false;
  }
  return true;
}

// ---- PythonArgParser ----------------------------------------------------------------------

PythonArgParser::PythonArgParser(const std::vector<std::string>& fmts, bool traceable) : traceable(traceable) {
  int index = 0;
  for (const auto& fmt : fmts) {
    signatures_.emplace_back(fmt, index);
    ++index;
  }
  for (const auto& signature : signatures_) {
    max_args_ = std::max(max_args_, signature.max_args);
  }
  if (!signatures_.empty()) function_name = signatures_[0].name;
}

std::vector<std::string> PythonArgParser::get_signatures() const {
  std::vector<std::string> options;
  for (const auto& signature : signatures_) {
    if (!signature.hidden) options.push_back(signature.toString());
  }
  return options;
}

PythonArgs PythonArgParser::raw_parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject* parsed_args[]) {
  if (signatures_.size() == 1) {
    auto& signature = signatures_[0];
    std::vector<PyObject*> overloaded_args;
    signature.parse(self, args, kwargs, parsed_args, overloaded_args, true);
    return PythonArgs(traceable, signature, parsed_args, std::move(overloaded_args));
  }
  for (auto& signature : signatures_) {
    std::vector<PyObject*> overloaded_args;
    if (signature.parse(self, args, kwargs, parsed_args, overloaded_args, false)) {
      return PythonArgs(traceable, signature, parsed_args, std::move(overloaded_args));
    }
  }
  print_error(self, args, kwargs, parsed_args);
}

void PythonArgParser::print_error(PyObject* self, PyObject* args, PyObject* kwargs, PyObject* parsed_args[]) {
  size_t num_args = (args ? PyTuple_GET_SIZE(args) : 0) + (kwargs ? PyDict_Size(kwargs) : 0);
  std::vector<unsigned> plausible_idxs;
  unsigned i = 0;
  for (auto& signature : signatures_) {
    if (num_args >= signature.min_args && num_args <= signature.max_args && !signature.hidden) {
      plausible_idxs.push_back(i);
    }
    i++;
  }
  if (plausible_idxs.size() == 1) {
    // Only one signature could take this many arguments: say precisely what is wrong with it.
    auto& signature = signatures_[plausible_idxs[0]];
    std::vector<PyObject*> overloaded_args;
    signature.parse(self, args, kwargs, parsed_args, overloaded_args, true);
  }
  py::tuple empty_args(0);
  std::vector<const FunctionSignature*> options;
  for (const auto& signature : signatures_) {
    if (!signature.hidden) options.push_back(&signature);
  }
  auto msg = format_invalid_args(args ? args : empty_args.ptr(), kwargs, function_name + "()", options);
  TORCH_CHECK_TYPE(false, msg);
}

// ---- format_invalid_args (PyTorch's torch/csrc/utils/invalid_arguments.cpp) ----------------

namespace {

// One parsed option of the "expected one of" list: its positional parameters (before `*`)
// and all parameters by name.
struct Option {
  std::vector<const FunctionParameter*> positional;
  std::vector<const FunctionParameter*> all;
  const FunctionParameter* find(const std::string& name) const {
    for (auto* p : all) {
      if (p->name == name) return p;
    }
    return nullptr;
  }
};

bool matches(const FunctionParameter* param, PyObject* obj) {
  if (param == nullptr) return false;
  if (obj == Py_None && param->allow_none) return true;
  std::vector<PyObject*> overloaded;
  int64_t failed_idx = -1;
  return param->check(obj, overloaded, 0, &failed_idx);
}

std::string describe(PyObject* arg, bool expand) {
  if (expand && (PyTuple_Check(arg) || PyList_Check(arg))) {
    bool is_tuple = PyTuple_Check(arg);
    std::string result = typename_of(arg) + " of ";
    result += is_tuple ? "(" : "[";
    auto n = PySequence_Length(arg);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (i != 0) result += ", ";
      py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(arg, i));
      result += typename_of(item.ptr());
    }
    if (is_tuple) {
      if (n == 1) result += ",";
      result += ")";
    } else {
      result += "]";
    }
    return result;
  }
  return typename_of(arg);
}

// kwargs in the order PyTorch's std::unordered_map visits them (reverse of insertion
// for a few names), so the texts match.
std::vector<std::pair<std::string, PyObject*>> kwargs_in_order(PyObject* kwargs) {
  std::vector<std::pair<std::string, PyObject*>> out;
  if (kwargs == nullptr) return out;
  PyObject *key = nullptr, *value = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(kwargs, &pos, &key, &value)) {
    out.emplace_back(PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : "?", value);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// "(Tensor, !str!)": each argument's type, with `!` around those the option rejects. Without
// an option (the "got" of several options) the types are given plainly.
std::string formatted_arg_desc(const Option* option, PyObject* args, PyObject* kwargs) {
  std::string result = "(";
  const auto nargs = PyTuple_GET_SIZE(args);
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    PyObject* arg = PyTuple_GET_ITEM(args, i);
    if (option == nullptr) {
      result += describe(arg, false);
    } else {
      bool ok = static_cast<size_t>(i) < option->positional.size() && matches(option->positional[i], arg);
      result += ok ? describe(arg, true) : "!" + describe(arg, true) + "!";
    }
    result += ", ";
  }
  for (const auto& [name, value] : kwargs_in_order(kwargs)) {
    if (option == nullptr) {
      result += name + "=" + describe(value, false);
    } else {
      bool ok = matches(option->find(name), value);
      std::string text = name + "=" + describe(value, true);
      result += ok ? text : "!" + text + "!";
    }
    result += ", ";
  }
  if (nargs > 0) result.erase(result.length() - 2);
  result += ")";
  return result;
}

}  // namespace

std::string format_invalid_args(PyObject* given_args, PyObject* given_kwargs, const std::string& function_name,
                                const std::vector<const FunctionSignature*>& options) {
  std::string error_msg = function_name + " received an invalid combination of arguments - ";
  std::vector<Option> parsed;
  for (const auto* signature : options) {
    Option option;
    for (const auto& param : signature->params) {
      option.all.push_back(&param);
      if (!param.keyword_only) option.positional.push_back(&param);
    }
    parsed.push_back(option);
  }
  const auto kwargs = kwargs_in_order(given_kwargs);
  const size_t num_got = PyTuple_GET_SIZE(given_args) + kwargs.size();
  if (options.size() == 1) {
    error_msg += "got " + formatted_arg_desc(&parsed[0], given_args, given_kwargs);
    error_msg += ", but expected " + options[0]->toString();
    return error_msg;
  }
  error_msg += "got " + formatted_arg_desc(nullptr, given_args, given_kwargs) + ", but expected one of:\n";
  for (size_t k = 0; k < options.size(); ++k) {
    const auto& option = parsed[k];
    error_msg += " * " + options[k]->toString() + "\n";
    if (num_got != option.positional.size()) continue;
    std::vector<std::string> unmatched;
    for (const auto& kv : kwargs) {
      if (option.find(kv.first) == nullptr) unmatched.push_back(kv.first);
    }
    if (!unmatched.empty()) {
      error_msg += "      didn't match because some of the keywords were incorrect: ";
      for (size_t u = 0; u < unmatched.size(); ++u) error_msg += (u ? ", " : "") + unmatched[u];
      error_msg += "\n";
    } else {
      error_msg += "      didn't match because some of the arguments have invalid types: ";
      error_msg += formatted_arg_desc(&option, given_args, given_kwargs) + "\n";
    }
  }
  return error_msg;
}

}  // namespace torch

// ---- PythonArgs: converting the matched arguments ------------------------------------------
namespace torch {

namespace {
// An int argument: a Python int beyond int64 is PyTorch's ValueError (THPUtils_unpackLong).
int64_t unpack_index(PyObject* obj) {
  if (THPVariable_Check(obj)) return torch::utils::tensor_item(THPVariable_Unpack(obj)).toLong();
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
  TORCH_CHECK_VALUE(overflow == 0, "Overflow when unpacking long long");
  return value;
}
}  // namespace

at::Scalar toScalar(PyObject* obj) {
  if (THPVariable_Check(obj)) return torch::utils::tensor_item(THPVariable_Unpack(obj));
  if (PyBool_Check(obj)) return at::Scalar(obj == Py_True);
  if (PyLong_Check(obj)) {
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow != 0) {
      // [2**63, 2**64): PyTorch keeps these as an unsigned 64-bit Scalar; here the nearest
      // double, which a floating tensor takes as PyTorch does and an integer one refuses.
      // Beyond, CPython's own OverflowError, as in PyTorch ("int too big to convert", "can't
      // convert negative int to unsigned").
      const unsigned long long u = PyLong_AsUnsignedLongLong(obj);
      if (PyErr_Occurred()) throw py::error_already_set();
      return at::Scalar(static_cast<double>(u));
    }
    return at::Scalar(static_cast<int64_t>(value));
  }
  if (PyComplex_Check(obj)) {
    return at::Scalar(c10::complex<double>(PyComplex_RealAsDouble(obj), PyComplex_ImagAsDouble(obj)));
  }
  if (PyFloat_Check(obj)) return at::Scalar(PyFloat_AsDouble(obj));
  if (std::string(typename_of(obj)) == "numpy.bool") return at::Scalar(PyObject_IsTrue(obj) == 1);
  if (PyIndex_Check(obj)) return at::Scalar(static_cast<int64_t>(unpack_index(obj)));
  double value = PyFloat_AsDouble(obj);  // numpy floating scalars
  if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
  return at::Scalar(value);
}

PyObject* scalarToPython(const at::Scalar& s) {
  if (s.isBoolean()) return PyBool_FromLong(s.toBool());
  if (s.isIntegral(false)) return PyLong_FromLongLong(s.toLong());
  if (s.isComplex()) {
    auto z = s.toComplexDouble();
    return PyComplex_FromDoubles(z.real(), z.imag());
  }
  return PyFloat_FromDouble(s.toDouble());
}

at::Tensor PythonArgs::tensor(int i) const {
  PyObject* obj = args[i];
  if (obj && THPVariable_Check(obj)) return THPVariable_Unpack(obj);
  if (!obj) return at::Tensor();
  // add(t, 2): the number becomes a 0-d "wrapped number" tensor, which type promotion
  // treats as a Python number (int32 tensor + 2 stays int32).
  at::Scalar s = toScalar(obj);
  at::Tensor t = at::empty({}, s.type() == at::ScalarType::Double ? at::ScalarType::Double : s.type());
  t.fill_(s);
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

std::optional<at::Tensor> PythonArgs::optionalTensor(int i) const {
  if (!args[i]) return std::nullopt;
  return tensor(i);
}

std::vector<at::Tensor> PythonArgs::tensorlist(int i) const {
  std::vector<at::Tensor> res;
  PyObject* arg = args[i];
  if (!arg) return res;
  const auto n = PySequence_Size(arg);
  for (Py_ssize_t k = 0; k < n; ++k) {
    py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(arg, k));
    res.push_back(THPVariable_Unpack(item.ptr()));
  }
  return res;
}

// Tensor?[] (index_put_): as in PyTorch, the Python list holds tensors (None is refused by
// check(); the C++ type still allows "no index" for a dimension).
std::vector<std::optional<at::Tensor>> PythonArgs::list_of_optional_tensors(int i) const {
  std::vector<std::optional<at::Tensor>> res;
  for (auto& t : tensorlist(i)) res.emplace_back(std::move(t));
  return res;
}

at::Scalar PythonArgs::scalar(int i) const {
  if (!args[i]) return signature.params[i].default_scalar;
  return toScalar(args[i]);
}

std::optional<at::Scalar> PythonArgs::scalarOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return scalar(i);
}

std::vector<int64_t> PythonArgs::intlist(int i) const {
  PyObject* arg = args[i];
  const auto& param = signature.params[i];
  if (!arg) return param.default_intlist;
  if (param.size > 0 && is_index(arg)) return std::vector<int64_t>(param.size, unpack_index(arg));
  const bool tuple = PyTuple_Check(arg);
  const auto n = tuple ? PyTuple_GET_SIZE(arg) : PyList_GET_SIZE(arg);
  std::vector<int64_t> res(n);
  for (Py_ssize_t idx = 0; idx < n; ++idx) {
    PyObject* obj = tuple ? PyTuple_GET_ITEM(arg, idx) : PyList_GET_ITEM(arg, idx);
    bool ok = is_index(obj);
    if (!ok && THPVariable_Check(obj)) {
      const auto& var = THPVariable_Unpack(obj);
      ok = var.dim() == 0 && c10::isIntegralType(var.scalar_type(), false);
    }
    TORCH_CHECK_TYPE(ok, signature.name, "(): argument '", param.name, "' failed to unpack the object at pos ",
                     idx + 1, " with error \"type must be tuple of ints,but got ", typename_of(obj), "\"");
    try {
      res[idx] = unpack_index(obj);
    } catch (const c10::ValueError& e) {
      TORCH_CHECK_TYPE(false, signature.name, "(): argument '", param.name, "' failed to unpack the object at pos ",
                       idx + 1, " with error \"", e.msg(), "\"");
    }
  }
  return res;
}

std::optional<std::vector<int64_t>> PythonArgs::intlistOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return intlist(i);
}

std::vector<double> PythonArgs::doublelist(int i) const {
  std::vector<double> res;
  if (!args[i]) return res;
  const auto n = PySequence_Size(args[i]);
  for (Py_ssize_t k = 0; k < n; ++k) {
    py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(args[i], k));
    res.push_back(PyFloat_AsDouble(item.ptr()));
  }
  return res;
}

int64_t PythonArgs::toInt64(int i) const {
  if (!args[i]) return signature.params[i].default_int;
  return unpack_index(args[i]);
}
std::optional<int64_t> PythonArgs::toInt64Optional(int i) const {
  if (!args[i]) return std::nullopt;
  return toInt64(i);
}
double PythonArgs::toDouble(int i) const {
  if (!args[i]) return signature.params[i].default_double;
  if (THPVariable_Check(args[i])) return torch::utils::tensor_item(THPVariable_Unpack(args[i])).toDouble();
  double value = PyFloat_AsDouble(args[i]);
  if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
  return value;
}
std::optional<double> PythonArgs::toDoubleOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return toDouble(i);
}
c10::complex<double> PythonArgs::toComplex(int i) const {
  if (!args[i]) return c10::complex<double>(signature.params[i].default_double, 0);
  return toScalar(args[i]).toComplexDouble();
}
bool PythonArgs::toBool(int i) const {
  if (!args[i]) return signature.params[i].default_bool;
  return PyObject_IsTrue(args[i]) == 1;
}
std::optional<bool> PythonArgs::toBoolOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return toBool(i);
}

at::ScalarType PythonArgs::scalartype(int i) const {
  PyObject* obj = args[i];
  if (!obj) {
    auto st = signature.params[i].default_scalartype;
    return st == at::ScalarType::Undefined ? c10::get_default_dtype_as_scalartype() : st;
  }
  // dtype=float, dtype=int, dtype=bool: Python's types name the matching dtypes.
  if (obj == reinterpret_cast<PyObject*>(&PyFloat_Type)) return at::ScalarType::Double;
  if (obj == reinterpret_cast<PyObject*>(&PyLong_Type)) return at::ScalarType::Long;
  if (obj == reinterpret_cast<PyObject*>(&PyBool_Type)) return at::ScalarType::Bool;
  if (obj == reinterpret_cast<PyObject*>(&PyComplex_Type)) return at::ScalarType::ComplexDouble;
  return py::handle(obj).cast<const THPDtype&>().scalar_type;
}
std::optional<at::ScalarType> PythonArgs::scalartypeOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return scalartype(i);
}
at::Layout PythonArgs::layout(int i) const {
  if (!args[i]) return signature.params[i].default_layout;
  return THPLayout_Unpack(args[i]);
}
std::optional<at::Layout> PythonArgs::layoutOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return layout(i);
}
// [marker: default_device]
// torch.set_default_device / `with torch.device(...)` (torch/utils/_device.py): the device a
// factory gets when its call names none. PyTorch injects it through a TorchFunctionMode for the
// functions in torch.utils._device._device_constructors(); this tree has no function modes, so
// the parser supplies it for the same functions (never for *_like, new_*, or .to()).
namespace {
thread_local std::optional<at::Device> default_device_override;

bool is_device_constructor(const std::string& name) {
  static const std::unordered_set<std::string> constructors = {
      "arange", "as_tensor", "asarray", "bartlett_window", "blackman_window", "empty", "empty_permuted",
      "empty_quantized", "empty_strided", "eye", "fft_fftfreq", "fft_rfftfreq", "full", "hamming_window",
      "hann_window", "kaiser_window", "linspace", "logspace", "ones", "rand", "randint", "randn", "randperm",
      "range", "scalar_tensor", "sparse_bsc_tensor", "sparse_bsr_tensor", "sparse_compressed_tensor",
      "sparse_coo_tensor", "sparse_csc_tensor", "sparse_csr_tensor", "tensor", "tril_indices", "triu_indices",
      "zeros"};
  return constructors.count(name) > 0;
}
}  // namespace

static void set_default_device_override(std::optional<at::Device> device) {
  default_device_override = device;
}
static std::optional<at::Device> get_default_device_override() {
  return default_device_override;
}

at::Device PythonArgs::device(int i) const {
  if (!args[i]) {
    if (default_device_override && is_device_constructor(signature.name)) return *default_device_override;
    return at::Device(at::DeviceType::CPU);
  }
  const at::Device device = toDevice(args[i]);
  // Naming a CUDA device initialises CUDA, or raises why it cannot be used (PyTorch's
  // generated bindings call device_lazy_init for factories and .to()).
  torch::utils::device_lazy_init(device.type());
  return device;
}
std::optional<at::Device> PythonArgs::deviceOptional(int i) const {
  if (!args[i]) {
    if (default_device_override && is_device_constructor(signature.name)) return default_device_override;
    return std::nullopt;
  }
  return device(i);
}
// [end marker: default_device]
at::MemoryFormat PythonArgs::memoryformat(int i) const {
  if (!args[i]) return signature.params[i].default_memory_format;
  return THPMemoryFormat_Unpack(args[i]);
}
std::optional<at::Generator> PythonArgs::generatorOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return THPGenerator_Unwrap(args[i]);
}
std::optional<at::MemoryFormat> PythonArgs::memoryformatOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return memoryformat(i);
}
std::string PythonArgs::string(int i) const {
  if (!args[i]) return signature.params[i].default_string;
  return PyUnicode_AsUTF8(args[i]);
}
std::optional<std::string> PythonArgs::stringOptional(int i) const {
  if (!args[i]) return std::nullopt;
  return string(i);
}

}  // namespace torch

namespace torch {

void initArgParserTestBindings(PyObject* module) {
  py::module_ m = py::reinterpret_borrow<py::module_>(module);
  // torch.utils._device keeps the stack of default devices; the parser reads its top.
  m.def("_set_default_device_override", [](py::object device) {
    if (device.is_none()) {
      set_default_device_override(std::nullopt);
    } else {
      set_default_device_override(device.cast<THPDevice>().device);
    }
  });
  m.def("_get_default_device_override", []() -> py::object {
    auto device = get_default_device_override();
    if (!device) return py::none();
    return py::cast(THPDevice{*device});
  });
  m.def("_parse_args_for_testing", [](const std::vector<std::string>& signatures, py::tuple args, py::dict kwargs) {
    PythonArgParser parser(signatures);
    ParsedArgs<32> parsed_args;
    auto r = parser.parse(nullptr, args.ptr(), kwargs.ptr(), parsed_args);
    // the matched signature and the value each parameter received (None: not given)
    py::dict values;
    for (size_t i = 0; i < r.signature.params.size(); ++i) {
      const auto& param = r.signature.params[i];
      const bool has_default = param.optional && param.default_str != "None";
      if (r.isNone(static_cast<int>(i)) && !has_default) {
        values[py::str(param.name)] = py::none();
      } else if (param.type_ == ParameterType::INT_LIST) {
        values[py::str(param.name)] = py::cast(r.intlist(static_cast<int>(i)));
      } else if (param.type_ == ParameterType::SCALAR) {
        values[py::str(param.name)] = py::reinterpret_steal<py::object>(scalarToPython(r.scalar(static_cast<int>(i))));
      } else {
        values[py::str(param.name)] = py::handle(r.args[i]);
      }
    }
    return py::make_tuple(r.idx, values);
  });
}

}  // namespace torch
