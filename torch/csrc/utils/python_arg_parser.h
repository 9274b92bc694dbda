// torch/csrc/utils/python_arg_parser.h - match Python arguments against signature strings.
// Mirrors PyTorch's torch/csrc/utils/python_arg_parser.h. Guide: docs/source/internals/python_bindings.rst.
//
// Every generated binding (python_torch_functions.cpp, python_variable_methods.cpp) starts
//
//   static PythonArgParser parser({
//     "add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
//   });
//   ParsedArgs<4> parsed_args;
//   auto _r = parser.parse(self, args, kwargs, parsed_args);
//
// parse() tries each signature in turn; the first whose parameters accept the positional
// and keyword arguments wins, and _r.idx says which. _r.tensor(0), _r.scalar(2),
// _r.intlist(0) ... then convert each argument to its C++ type. When no signature accepts
// the arguments, the TypeError says why in PyTorch's words: for one plausible signature the
// precise complaint ("zeros(): argument 'dtype' must be torch.dtype, not str"), otherwise
// "add() received an invalid combination of arguments - got (str, int), but expected one of: ...".
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>

#include <Python.h>

#include <optional>
#include <string>
#include <vector>

namespace torch {

enum class ParameterType {
  TENSOR, SCALAR, INT64, DOUBLE, COMPLEX, TENSOR_LIST, INT_LIST, FLOAT_LIST, BOOL, STORAGE,
  PYOBJECT, SCALARTYPE, LAYOUT, MEMORY_FORMAT, DEVICE, STRING, GENERATOR
};

// One parameter of a signature: "Scalar alpha=1", "IntArrayRef[2] stride", "Tensor? weight".
struct FunctionParameter {
  FunctionParameter(const std::string& fmt, bool keyword_only);

  // Whether obj can be this parameter. Tensor-likes with __torch_function__ go to
  // overloaded_args; for a list whose first element is wrong, *failed_idx is set to 0.
  bool check(PyObject* obj, std::vector<PyObject*>& overloaded_args, int argnum, int64_t* failed_idx) const;
  void set_default_str(const std::string& str);
  // The type as messages print it: "Tensor", "Number", "tuple of ints", "torch.dtype".
  std::string type_name() const;

  ParameterType type_;
  bool optional = false;     // has a default, may be left out
  bool allow_none = false;   // None is accepted ("Type?" or default None)
  bool keyword_only = false;
  bool allow_numbers_as_tensors = false;  // add(t, 2): a number where a Tensor is expected
  int size = 0;                           // IntArrayRef[2]: one int is broadcast to 2
  std::string name;
  PyObject* python_name = nullptr;  // interned name, for the kwargs lookup
  std::vector<PyObject*> numpy_python_names;  // dim also answers to axis, keepdim to keepdims
  std::string default_str;

  // the default value, parsed once
  at::Scalar default_scalar;
  std::vector<int64_t> default_intlist;
  std::string default_string;
  bool default_bool = false;
  int64_t default_int = 0;
  double default_double = 0;
  at::ScalarType default_scalartype = at::ScalarType::Undefined;
  at::Layout default_layout = at::Layout::Strided;
  at::MemoryFormat default_memory_format = at::MemoryFormat::Contiguous;
};

struct FunctionSignature {
  FunctionSignature(const std::string& fmt, int index);

  // Fills dst with the argument for each parameter (nullptr: not given / None). With
  // raise_exception the first problem is thrown as PyTorch's TypeError; without, false.
  bool parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject* dst[],
             std::vector<PyObject*>& overloaded_args, bool raise_exception) const;
  // "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"
  std::string toString() const;

  std::string name;
  std::vector<FunctionParameter> params;
  size_t min_args = 0;      // parameters without a default
  size_t max_args = 0;      // all parameters
  size_t max_pos_args = 0;  // parameters before the `*`
  int index;
  bool hidden = false;
  bool deprecated = false;
};

// The parsed arguments of one call, converted on demand.
struct PythonArgs {
  PythonArgs(bool traceable, const FunctionSignature& signature, PyObject** args,
             std::vector<PyObject*> overloaded_args)
      : idx(signature.index), traceable(traceable), signature(signature), args(args),
        overloaded_args(std::move(overloaded_args)) {}

  int idx;  // which signature matched
  bool traceable;
  const FunctionSignature& signature;
  PyObject** args;
  std::vector<PyObject*> overloaded_args;  // arguments whose type overrides __torch_function__

  bool has_torch_function() const { return !overloaded_args.empty(); }
  std::string get_func_name() const { return signature.name; }
  bool isNone(int i) const { return args[i] == nullptr; }
  PyObject* pyobject(int i) const { return args[i] ? args[i] : Py_None; }

  at::Tensor tensor(int i) const;
  std::optional<at::Tensor> optionalTensor(int i) const;
  std::vector<at::Tensor> tensorlist(int i) const;
  std::vector<std::optional<at::Tensor>> list_of_optional_tensors(int i) const;
  at::Scalar scalar(int i) const;
  std::optional<at::Scalar> scalarOptional(int i) const;
  std::vector<int64_t> intlist(int i) const;
  std::optional<std::vector<int64_t>> intlistOptional(int i) const;
  std::vector<double> doublelist(int i) const;
  int64_t toInt64(int i) const;
  std::optional<int64_t> toInt64Optional(int i) const;
  double toDouble(int i) const;
  std::optional<double> toDoubleOptional(int i) const;
  c10::complex<double> toComplex(int i) const;
  bool toBool(int i) const;
  std::optional<bool> toBoolOptional(int i) const;
  at::ScalarType scalartype(int i) const;
  std::optional<at::ScalarType> scalartypeOptional(int i) const;
  at::Layout layout(int i) const;
  std::optional<at::Layout> layoutOptional(int i) const;
  at::Device device(int i) const;
  std::optional<at::Device> deviceOptional(int i) const;
  at::MemoryFormat memoryformat(int i) const;
  std::optional<at::MemoryFormat> memoryformatOptional(int i) const;
  std::string string(int i) const;
  std::optional<std::string> stringOptional(int i) const;
  std::optional<at::Generator> generatorOptional(int i) const;  // Generator? (torch/csrc/Generator.h)
};

template <int N>
struct ParsedArgs {
  ParsedArgs() : args() {}
  PyObject* args[N];
};

class PythonArgParser {
 public:
  explicit PythonArgParser(const std::vector<std::string>& fmts, bool traceable = false);

  template <int N>
  PythonArgs parse(PyObject* self, PyObject* args, PyObject* kwargs, ParsedArgs<N>& dst) {
    TORCH_CHECK(N >= max_args_, "PythonArgParser: dst ParsedArgs buffer does not have enough capacity, expected ",
                max_args_, " (got ", N, ")");
    return raw_parse(self, args, kwargs, dst.args);
  }
  // For methods without arguments: checks that none were given.
  PythonArgs parse(PyObject* self, PyObject* args, PyObject* kwargs, ParsedArgs<0>& dst) {
    return raw_parse(self, args, kwargs, nullptr);
  }
  std::vector<std::string> get_signatures() const;

 private:
  [[noreturn]] void print_error(PyObject* self, PyObject* args, PyObject* kwargs, PyObject* parsed_args[]);
  PythonArgs raw_parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject* parsed_args[]);

  std::vector<FunctionSignature> signatures_;
  std::string function_name;
  size_t max_args_ = 0;
  bool traceable;
};

// "add() received an invalid combination of arguments - got (str, int), but expected ..."
// (PyTorch's torch/csrc/utils/invalid_arguments.cpp).
std::string format_invalid_args(PyObject* given_args, PyObject* given_kwargs, const std::string& function_name,
                                const std::vector<const FunctionSignature*>& options);

// A Python number (or 0-d tensor) as a c10::Scalar.
at::Scalar toScalar(PyObject* obj);
// The Python number for a c10::Scalar (new reference).
PyObject* scalarToPython(const at::Scalar& s);

// Python objects of layouts and memory formats (torch.strided, torch.contiguous_format).
void initLayoutAndMemoryFormatBindings(PyObject* module);
bool THPLayout_Check(PyObject* obj);
at::Layout THPLayout_Unpack(PyObject* obj);
bool THPMemoryFormat_Check(PyObject* obj);
at::MemoryFormat THPMemoryFormat_Unpack(PyObject* obj);

// __torch_function__ (torch/csrc/utils/python_torch_function.cpp, torch/overrides.py).
// True if obj's type overrides __torch_function__ (and subclass handling is not disabled).
bool check_has_torch_function(PyObject* obj, bool ignore_mode = false);
// Calls the overrides of r.overloaded_args in turn; the first that does not return
// NotImplemented gives the result. torch_api is the module (or Tensor class) holding
// the public function of that name.
PyObject* handle_torch_function(PythonArgs& r, PyObject* self, PyObject* args, PyObject* kwargs,
                                PyObject* torch_api, const char* module_name);
// For methods without arguments: offer Tensor.<name>(self) to self's override.
PyObject* handle_torch_function(PyObject* self, const std::string& func_name);
void initTorchFunctionBindings(PyObject* module);
// torch._C._parse_args_for_testing(signatures, args, kwargs): run a PythonArgParser over
// these signature strings (test/aten/test_arg_parser.py) and return the matched index.
void initArgParserTestBindings(PyObject* module);

}  // namespace torch
