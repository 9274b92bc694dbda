// c10/core/ScalarType.cpp - dtype names, sizes and the type promotion table.
// Mirrors PyTorch's c10/core/ScalarType.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/core/ScalarType.h>

namespace c10 {

const char* toString(ScalarType t) {
#define DEFINE_CASE(_, name) \
  case ScalarType::name:     \
    return #name;
  switch (t) {
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(DEFINE_CASE)
    case ScalarType::QInt8:
      return "QInt8";
    case ScalarType::QUInt8:
      return "QUInt8";
    case ScalarType::QInt32:
      return "QInt32";
    default:
      return "UNKNOWN_SCALAR";
  }
#undef DEFINE_CASE
}

size_t elementSize(ScalarType t) {
#define CASE_ELEMENTSIZE_CASE(ctype, name) \
  case ScalarType::name:                   \
    return sizeof(ctype);
  switch (t) {
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(CASE_ELEMENTSIZE_CASE)
    case ScalarType::QInt8:
    case ScalarType::QUInt8:
      return 1;
    case ScalarType::QInt32:
      return 4;
    default:
      TORCH_CHECK(false, "Unknown ScalarType");
  }
#undef CASE_ELEMENTSIZE_CASE
}

std::pair<std::string, std::string> getDtypeNames(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return {"uint8", ""};
    case ScalarType::Char: return {"int8", ""};
    case ScalarType::Short: return {"int16", "short"};
    case ScalarType::Int: return {"int32", "int"};
    case ScalarType::Long: return {"int64", "long"};
    case ScalarType::Half: return {"float16", "half"};
    case ScalarType::Float: return {"float32", "float"};
    case ScalarType::Double: return {"float64", "double"};
    case ScalarType::ComplexHalf: return {"complex32", "chalf"};
    case ScalarType::ComplexFloat: return {"complex64", "cfloat"};
    case ScalarType::ComplexDouble: return {"complex128", "cdouble"};
    case ScalarType::Bool: return {"bool", ""};
    case ScalarType::QInt8: return {"qint8", ""};
    case ScalarType::QUInt8: return {"quint8", ""};
    case ScalarType::QInt32: return {"qint32", ""};
    case ScalarType::BFloat16: return {"bfloat16", ""};
    default: TORCH_CHECK(false, "Unknown ScalarType");
  }
}

ScalarType toRealValueType(ScalarType t) {
  switch (t) {
    case ScalarType::ComplexHalf: return ScalarType::Half;
    case ScalarType::ComplexFloat: return ScalarType::Float;
    case ScalarType::ComplexDouble: return ScalarType::Double;
    default: return t;
  }
}

ScalarType toComplexType(ScalarType t) {
  switch (t) {
    case ScalarType::BFloat16:
      // BFloat16 has no complex counterpart; PyTorch maps it to complex64.
    case ScalarType::Float:
    case ScalarType::ComplexFloat:
      return ScalarType::ComplexFloat;
    case ScalarType::Half:
    case ScalarType::ComplexHalf:
      return ScalarType::ComplexHalf;
    case ScalarType::Double:
    case ScalarType::ComplexDouble:
      return ScalarType::ComplexDouble;
    default:
      TORCH_CHECK(false, "Unknown Complex ScalarType for ", t);
  }
}

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b) {
    return a;
  }
  if (a == ScalarType::Undefined || b == ScalarType::Undefined) {
    return ScalarType::Undefined;
  }
  TORCH_CHECK(!isQIntType(a) && !isQIntType(b),
              "promoteTypes with quantized numbers is not handled yet; figure out what the "
              "correct rules should be, offending types: ",
              toString(a), " ", toString(b));

  // The table, indexed in this order (PyTorch's; quantized types excluded):
  //   b1=Bool u1=Byte i1=Char i2=Short i4=Int i8=Long f2=Half bf=BFloat16 f4=Float
  //   f8=Double c2=ComplexHalf c4=ComplexFloat c8=ComplexDouble
  constexpr auto b1 = ScalarType::Bool;
  constexpr auto u1 = ScalarType::Byte;
  constexpr auto i1 = ScalarType::Char;
  constexpr auto i2 = ScalarType::Short;
  constexpr auto i4 = ScalarType::Int;
  constexpr auto i8 = ScalarType::Long;
  constexpr auto f2 = ScalarType::Half;
  constexpr auto bf = ScalarType::BFloat16;
  constexpr auto f4 = ScalarType::Float;
  constexpr auto f8 = ScalarType::Double;
  constexpr auto c2 = ScalarType::ComplexHalf;
  constexpr auto c4 = ScalarType::ComplexFloat;
  constexpr auto c8 = ScalarType::ComplexDouble;
  constexpr int kN = 13;
  auto index_of = [&](ScalarType t) -> int {
    constexpr ScalarType order[kN] = {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8};
    for (int i = 0; i < kN; ++i) {
      if (order[i] == t) return i;
    }
    return -1;
  };
  // [marker: promoteTypes]
  // clang-format off
  static constexpr ScalarType _promoteTypesLookup[kN][kN] = {
      /*        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8  c2  c4  c8 */
      /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8},
      /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8},
      /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8},
      /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8},
      /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8, c2, c4, c8},
      /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8, c2, c4, c8},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8, c2, c4, c8},
      /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8, c4, c4, c8},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8},
      /* c2 */ {c2, c2, c2, c2, c2, c2, c2, c4, c4, c8, c2, c4, c8},
      /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8},
      /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
  };
  // clang-format on
  // [end marker: promoteTypes]
  const int ia = index_of(a);
  const int ib = index_of(b);
  TORCH_CHECK(ia >= 0 && ib >= 0, "Promotion for ", toString(a), " and ", toString(b),
              " is not supported");
  return _promoteTypesLookup[ia][ib];
}

std::ostream& operator<<(std::ostream& stream, ScalarType scalar_type) {
  return stream << toString(scalar_type);
}

}  // namespace c10
