// aten/src/ATen/core/ivalue.h - IValue, "interpreter value": one value of any type an operator
// schema can name (Tensor, int, float, bool, str, Scalar, int[], Tensor[], None, a tuple of
// returns), so that arguments of every operator fit one stack.
// Mirrors PyTorch's aten/src/ATen/core/ivalue.h (which also holds TorchScript's objects,
// futures and dicts; this one holds what operator schemas use). Guide: docs/source/internals/cpp_extensions.rst.
//
// The dispatcher calls kernels unboxed, with their C++ argument types. A *boxed* call puts the
// arguments in a std::vector<IValue> (a Stack, ATen/core/stack.h) instead: one signature for
// every operator, which is how Python reaches an operator it has no generated binding for
// (torch.ops.myops.lltm, ATen/core/boxing/impl/make_boxed_from_unboxed_functor.h).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace c10 {

class IValue;
using GenericList = std::vector<IValue>;

class IValue final {
  using Payload = std::variant<std::monostate, at::Tensor, double, c10::complex<double>, int64_t, bool, std::string,
                               std::vector<int64_t>, std::vector<double>, std::vector<bool>, std::vector<at::Tensor>,
                               c10::Device, std::vector<IValue>>;

 public:
  enum class Tag { None, Tensor, Double, ComplexDouble, Int, Bool, String, IntList, DoubleList, BoolList,
                   TensorList, Device, GenericList, Tuple };

  IValue() = default;  // None
  /* implicit */ IValue(std::nullopt_t) {}
  /* implicit */ IValue(at::Tensor t) : tag_(Tag::Tensor), payload_(std::move(t)) {}
  /* implicit */ IValue(double d) : tag_(Tag::Double), payload_(d) {}
  /* implicit */ IValue(c10::complex<double> z) : tag_(Tag::ComplexDouble), payload_(z) {}
  /* implicit */ IValue(int64_t i) : tag_(Tag::Int), payload_(i) {}
  /* implicit */ IValue(int32_t i) : IValue(static_cast<int64_t>(i)) {}
  /* implicit */ IValue(bool b) : tag_(Tag::Bool), payload_(b) {}
  /* implicit */ IValue(std::string s) : tag_(Tag::String), payload_(std::move(s)) {}
  /* implicit */ IValue(const char* s) : IValue(std::string(s)) {}
  /* implicit */ IValue(std::vector<int64_t> v) : tag_(Tag::IntList), payload_(std::move(v)) {}
  /* implicit */ IValue(c10::IntArrayRef v) : IValue(v.vec()) {}
  /* implicit */ IValue(std::vector<double> v) : tag_(Tag::DoubleList), payload_(std::move(v)) {}
  /* implicit */ IValue(std::vector<bool> v) : tag_(Tag::BoolList), payload_(std::move(v)) {}
  /* implicit */ IValue(std::vector<at::Tensor> v) : tag_(Tag::TensorList), payload_(std::move(v)) {}
  /* implicit */ IValue(c10::ArrayRef<at::Tensor> v) : IValue(v.vec()) {}
  /* implicit */ IValue(c10::Device d) : tag_(Tag::Device), payload_(d) {}
  // A ScalarType travels as its int, as in PyTorch (the schema says which it is).
  /* implicit */ IValue(c10::ScalarType t) : IValue(static_cast<int64_t>(t)) {}
  // A Scalar becomes the number it holds.
  /* implicit */ IValue(const c10::Scalar& s) {
    if (s.isBoolean()) *this = IValue(s.toBool());
    else if (s.isIntegral(false)) *this = IValue(s.toLong());
    else if (s.isComplex()) *this = IValue(s.toComplexDouble());
    else *this = IValue(s.toDouble());
  }
  template <class T>
  /* implicit */ IValue(std::optional<T> v) {
    if (v.has_value()) *this = IValue(std::move(*v));
  }
  static IValue tuple(GenericList elements) {
    IValue v;
    v.tag_ = Tag::Tuple;
    v.payload_ = std::move(elements);
    return v;
  }
  static IValue list(GenericList elements) {
    IValue v;
    v.tag_ = Tag::GenericList;
    v.payload_ = std::move(elements);
    return v;
  }

  Tag tag() const { return tag_; }
  // "Tensor", "Int", ...: what error messages call the kind of value held.
  const char* tagKind() const;

  bool isNone() const { return tag_ == Tag::None; }
  bool isTensor() const { return tag_ == Tag::Tensor; }
  bool isDouble() const { return tag_ == Tag::Double; }
  bool isComplexDouble() const { return tag_ == Tag::ComplexDouble; }
  bool isInt() const { return tag_ == Tag::Int; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isString() const { return tag_ == Tag::String; }
  bool isIntList() const { return tag_ == Tag::IntList; }
  bool isDoubleList() const { return tag_ == Tag::DoubleList; }
  bool isBoolList() const { return tag_ == Tag::BoolList; }
  bool isTensorList() const { return tag_ == Tag::TensorList; }
  bool isDevice() const { return tag_ == Tag::Device; }
  bool isList() const { return tag_ == Tag::GenericList; }
  bool isTuple() const { return tag_ == Tag::Tuple; }
  bool isScalar() const { return isDouble() || isInt() || isBool() || isComplexDouble(); }

  const at::Tensor& toTensor() const& { return get<at::Tensor>(Tag::Tensor); }
  at::Tensor toTensor() && { return std::move(std::get<at::Tensor>(expect(Tag::Tensor))); }
  double toDouble() const { return get<double>(Tag::Double); }
  c10::complex<double> toComplexDouble() const { return get<c10::complex<double>>(Tag::ComplexDouble); }
  int64_t toInt() const { return get<int64_t>(Tag::Int); }
  bool toBool() const { return get<bool>(Tag::Bool); }
  const std::string& toStringRef() const { return get<std::string>(Tag::String); }
  const std::vector<int64_t>& toIntVector() const { return get<std::vector<int64_t>>(Tag::IntList); }
  c10::IntArrayRef toIntList() const { return toIntVector(); }
  const std::vector<double>& toDoubleVector() const { return get<std::vector<double>>(Tag::DoubleList); }
  const std::vector<bool>& toBoolVector() const { return get<std::vector<bool>>(Tag::BoolList); }
  const std::vector<at::Tensor>& toTensorVector() const { return get<std::vector<at::Tensor>>(Tag::TensorList); }
  c10::Device toDevice() const { return get<c10::Device>(Tag::Device); }
  c10::ScalarType toScalarType() const { return static_cast<c10::ScalarType>(toInt()); }
  const GenericList& toList() const { return get<GenericList>(Tag::GenericList); }
  const GenericList& toTupleRef() const { return get<GenericList>(Tag::Tuple); }
  c10::Scalar toScalar() const {
    if (isDouble()) return toDouble();
    if (isInt()) return toInt();
    if (isBool()) return toBool();
    if (isComplexDouble()) return toComplexDouble();
    TORCH_CHECK(false, "IValue is not a Scalar: it holds a ", tagKind());
  }

  // to<T>(): the conversion the boxed-call machinery uses, by the C++ type a kernel takes.
  template <class T>
  T to() const;

 private:
  template <class T>
  const T& get(Tag expected) const {
    return std::get<T>(expect(expected));
  }
  const Payload& expect(Tag expected) const {
    TORCH_CHECK(tag_ == expected, "Expected ", tagName(expected), " but got ", tagKind());
    return payload_;
  }
  Payload& expect(Tag expected) {
    TORCH_CHECK(tag_ == expected, "Expected ", tagName(expected), " but got ", tagKind());
    return payload_;
  }
  static const char* tagName(Tag tag);

  Tag tag_ = Tag::None;
  Payload payload_;
};

inline const char* IValue::tagName(Tag tag) {
  switch (tag) {
    case Tag::None: return "None";
    case Tag::Tensor: return "Tensor";
    case Tag::Double: return "Double";
    case Tag::ComplexDouble: return "ComplexDouble";
    case Tag::Int: return "Int";
    case Tag::Bool: return "Bool";
    case Tag::String: return "String";
    case Tag::IntList: return "IntList";
    case Tag::DoubleList: return "DoubleList";
    case Tag::BoolList: return "BoolList";
    case Tag::TensorList: return "TensorList";
    case Tag::Device: return "Device";
    case Tag::GenericList: return "GenericList";
    case Tag::Tuple: return "Tuple";
  }
  return "Invalid";
}

inline const char* IValue::tagKind() const {
  return tagName(tag_);
}

// ---- IValue::to<T>() ----
namespace ivalue_detail {
template <class T>
struct to_impl;
template <>
struct to_impl<at::Tensor> {
  static at::Tensor call(const IValue& v) { return v.isNone() ? at::Tensor() : v.toTensor(); }
};
template <>
struct to_impl<double> {
  static double call(const IValue& v) { return v.isInt() ? static_cast<double>(v.toInt()) : v.toDouble(); }
};
template <>
struct to_impl<int64_t> {
  static int64_t call(const IValue& v) { return v.toInt(); }
};
template <>
struct to_impl<bool> {
  static bool call(const IValue& v) { return v.toBool(); }
};
template <>
struct to_impl<std::string> {
  static std::string call(const IValue& v) { return v.toStringRef(); }
};
template <>
struct to_impl<c10::Scalar> {
  static c10::Scalar call(const IValue& v) { return v.toScalar(); }
};
template <>
struct to_impl<c10::ScalarType> {
  static c10::ScalarType call(const IValue& v) { return v.toScalarType(); }
};
template <>
struct to_impl<c10::Device> {
  static c10::Device call(const IValue& v) { return v.toDevice(); }
};
template <>
struct to_impl<std::vector<int64_t>> {
  static std::vector<int64_t> call(const IValue& v) { return v.toIntVector(); }
};
template <>
struct to_impl<std::vector<double>> {
  static std::vector<double> call(const IValue& v) { return v.toDoubleVector(); }
};
template <>
struct to_impl<std::vector<at::Tensor>> {
  static std::vector<at::Tensor> call(const IValue& v) { return v.toTensorVector(); }
};
template <class T>
struct to_impl<std::optional<T>> {
  static std::optional<T> call(const IValue& v) {
    if (v.isNone()) return std::nullopt;
    return to_impl<T>::call(v);
  }
};
}  // namespace ivalue_detail

template <class T>
T IValue::to() const {
  return ivalue_detail::to_impl<T>::call(*this);
}

}  // namespace c10

namespace at {
using c10::IValue;
}
