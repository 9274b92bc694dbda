// torch/csrc/utils/structseq.cpp - torch.return_types named tuples (see structseq.h).
// Mirrors PyTorch's torch/csrc/utils/structseq.cpp. Guide: docs/source/internals/generated_code.rst.
#include <torch/csrc/utils/structseq.h>

#include <deque>
#include <string>
#include <vector>

#include <torch/csrc/autograd/python_variable.h>

#include <structmember.h>

#include <map>
#include <sstream>

namespace torch::autograd {
// Generated (python_torch_functions.cpp): each named-tuple return of native_functions.yaml.
std::vector<std::pair<std::string, std::vector<const char*>>> generated_return_types();
}  // namespace torch::autograd

namespace torch::utils {

namespace {
std::map<std::string, PyTypeObject*>& registry() {
  static std::map<std::string, PyTypeObject*> types;
  return types;
}
}  // namespace

PyObject* returned_structseq_repr(PyStructSequence* obj) {
  PyTypeObject* type = Py_TYPE(obj);
  std::stringstream ss;
  ss << type->tp_name << "(\n";
  const Py_ssize_t n = PyTuple_GET_SIZE(reinterpret_cast<PyObject*>(obj));
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject* item = PyStructSequence_GET_ITEM(reinterpret_cast<PyObject*>(obj), i);
    PyObject* repr = PyObject_Repr(item);
    if (!repr) return nullptr;
    ss << type->tp_members[i].name << "=" << PyUnicode_AsUTF8(repr);
    Py_DECREF(repr);
    if (i < n - 1) ss << ",\n";
  }
  ss << ")";
  return PyUnicode_FromString(ss.str().c_str());
}

PyTypeObject* get_return_type(const std::string& name, const std::vector<const char*>& fields) {
  auto& types = registry();
  auto it = types.find(name);
  if (it != types.end()) return it->second;
  // The descriptors must outlive the type: kept once per name in containers that never
  // move their elements (deque), so they stay reachable for as long as the process runs.
  static std::deque<std::vector<PyStructSequence_Field>> all_members;
  static std::deque<std::string> all_names;
  static std::deque<PyStructSequence_Desc> all_descs;
  auto& members = all_members.emplace_back();
  for (const char* field : fields) members.push_back({field, ""});
  members.push_back({nullptr, nullptr});
  const std::string& qualified = all_names.emplace_back("torch.return_types." + name);
  auto* desc = &all_descs.emplace_back(
      PyStructSequence_Desc{qualified.c_str(), nullptr, members.data(), static_cast<int>(fields.size())});
  auto* type = new PyTypeObject{};
  if (PyStructSequence_InitType2(type, desc) < 0) {
    TORCH_CHECK(false, "PyStructSequence_InitType2 failed for torch.return_types.", name);
  }
  type->tp_repr = reinterpret_cast<reprfunc>(returned_structseq_repr);
  types[name] = type;
  return type;
}

PyObject* wrap_structseq(PyTypeObject* type, const std::vector<at::Tensor>& items) {
  PyObject* r = PyStructSequence_New(type);
  if (!r) return nullptr;
  for (size_t i = 0; i < items.size(); i++) {
    PyStructSequence_SET_ITEM(r, static_cast<Py_ssize_t>(i), THPVariable_Wrap(items[i]));
  }
  return r;
}

void initReturnTypes(PyObject* module) {
  PyObject* dict = PyDict_New();
  for (const auto& [name, fields] : torch::autograd::generated_return_types()) {
    PyTypeObject* type = get_return_type(name, fields);
    PyDict_SetItemString(dict, name.c_str(), reinterpret_cast<PyObject*>(type));
  }
  PyModule_AddObject(module, "_return_types", dict);
}

}  // namespace torch::utils
