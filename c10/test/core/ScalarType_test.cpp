// Tests ScalarType: the full promote_types table, element sizes, signedness, names, and the TypeMeta round trip.
// Mirrors PyTorch's c10/core/ScalarType.{h,cpp} and test/test_type_promotion.py. Guide: docs/source/internals/tensors.rst.
#include <c10/core/ScalarType.h>
#include <c10/util/typeid.h>

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <type_traits>

using c10::ScalarType;

namespace {

constexpr ScalarType b1 = ScalarType::Bool;
constexpr ScalarType u1 = ScalarType::Byte;
constexpr ScalarType i1 = ScalarType::Char;
constexpr ScalarType i2 = ScalarType::Short;
constexpr ScalarType i4 = ScalarType::Int;
constexpr ScalarType i8 = ScalarType::Long;
constexpr ScalarType f2 = ScalarType::Half;
constexpr ScalarType bf = ScalarType::BFloat16;
constexpr ScalarType f4 = ScalarType::Float;
constexpr ScalarType f8 = ScalarType::Double;
constexpr ScalarType c2 = ScalarType::ComplexHalf;
constexpr ScalarType c4 = ScalarType::ComplexFloat;
constexpr ScalarType c8 = ScalarType::ComplexDouble;

constexpr int kN = 13;
constexpr ScalarType kOrder[kN] = {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8};

// Typed in from torch.promote_types of PyTorch 2.x.
// Row = first operand, column = second operand, both in kOrder.
// clang-format off
constexpr ScalarType kExpected[kN][kN] = {
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

std::string errorOf(ScalarType a, ScalarType b) {
  try {
    (void)c10::promoteTypes(a, b);
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "";
}

}  // namespace

TEST(ScalarTypeTest, PromoteTypesMatchesWholeReferenceTable) {
  for (int r = 0; r < kN; ++r) {
    for (int c = 0; c < kN; ++c) {
      EXPECT_EQ(c10::promoteTypes(kOrder[r], kOrder[c]), kExpected[r][c])
          << "promoteTypes(" << kOrder[r] << ", " << kOrder[c] << ")";
    }
  }
}

TEST(ScalarTypeTest, ReferenceTableIsSymmetric) {
  for (int r = 0; r < kN; ++r) {
    for (int c = 0; c < kN; ++c) {
      EXPECT_EQ(kExpected[r][c], kExpected[c][r]) << r << "," << c;
      EXPECT_EQ(c10::promoteTypes(kOrder[r], kOrder[c]), c10::promoteTypes(kOrder[c], kOrder[r]))
          << kOrder[r] << " vs " << kOrder[c];
    }
  }
}

TEST(ScalarTypeTest, PromoteTypesKeyFacts) {
  EXPECT_EQ(c10::promoteTypes(ScalarType::Byte, ScalarType::Char), ScalarType::Short);
  EXPECT_EQ(c10::promoteTypes(ScalarType::Half, ScalarType::BFloat16), ScalarType::Float);
  EXPECT_EQ(c10::promoteTypes(ScalarType::BFloat16, ScalarType::ComplexHalf), ScalarType::ComplexFloat);
  EXPECT_EQ(c10::promoteTypes(ScalarType::Double, ScalarType::ComplexFloat), ScalarType::ComplexDouble);
  EXPECT_EQ(c10::promoteTypes(ScalarType::Bool, ScalarType::Bool), ScalarType::Bool);
}

TEST(ScalarTypeTest, PromoteWithUndefinedIsUndefined) {
  EXPECT_EQ(c10::promoteTypes(ScalarType::Undefined, ScalarType::Float), ScalarType::Undefined);
  EXPECT_EQ(c10::promoteTypes(ScalarType::Int, ScalarType::Undefined), ScalarType::Undefined);
}

TEST(ScalarTypeTest, QuantizedPromotionThrows) {
  EXPECT_THROW(c10::promoteTypes(ScalarType::QInt8, ScalarType::Float), c10::Error);
  EXPECT_THROW(c10::promoteTypes(ScalarType::Float, ScalarType::QUInt8), c10::Error);
  EXPECT_EQ(errorOf(ScalarType::QInt8, ScalarType::Float),
            "promoteTypes with quantized numbers is not handled yet; figure out what the correct "
            "rules should be, offending types: QInt8 Float");
  // Identical types need no rule.
  EXPECT_EQ(c10::promoteTypes(ScalarType::QInt32, ScalarType::QInt32), ScalarType::QInt32);
}

TEST(ScalarTypeTest, ElementSizeOfEachType) {
  EXPECT_EQ(c10::elementSize(ScalarType::Byte), 1u);
  EXPECT_EQ(c10::elementSize(ScalarType::Char), 1u);
  EXPECT_EQ(c10::elementSize(ScalarType::Short), 2u);
  EXPECT_EQ(c10::elementSize(ScalarType::Int), 4u);
  EXPECT_EQ(c10::elementSize(ScalarType::Long), 8u);
  EXPECT_EQ(c10::elementSize(ScalarType::Half), 2u);
  EXPECT_EQ(c10::elementSize(ScalarType::Float), 4u);
  EXPECT_EQ(c10::elementSize(ScalarType::Double), 8u);
  EXPECT_EQ(c10::elementSize(ScalarType::ComplexHalf), 4u);
  EXPECT_EQ(c10::elementSize(ScalarType::ComplexFloat), 8u);
  EXPECT_EQ(c10::elementSize(ScalarType::ComplexDouble), 16u);
  EXPECT_EQ(c10::elementSize(ScalarType::Bool), 1u);
  EXPECT_EQ(c10::elementSize(ScalarType::QInt8), 1u);
  EXPECT_EQ(c10::elementSize(ScalarType::QUInt8), 1u);
  EXPECT_EQ(c10::elementSize(ScalarType::QInt32), 4u);
  EXPECT_EQ(c10::elementSize(ScalarType::BFloat16), 2u);
  EXPECT_THROW(c10::elementSize(ScalarType::Undefined), c10::Error);
}

TEST(ScalarTypeTest, EnumValuesArePyTorchs) {
  EXPECT_EQ(static_cast<int>(ScalarType::Byte), 0);
  EXPECT_EQ(static_cast<int>(ScalarType::Float), 6);
  EXPECT_EQ(static_cast<int>(ScalarType::ComplexDouble), 10);
  EXPECT_EQ(static_cast<int>(ScalarType::Bool), 11);
  EXPECT_EQ(static_cast<int>(ScalarType::QInt8), 12);
  EXPECT_EQ(static_cast<int>(ScalarType::BFloat16), 15);
}

TEST(ScalarTypeTest, IsSignedType) {
  EXPECT_FALSE(c10::isSignedType(ScalarType::Byte));
  EXPECT_FALSE(c10::isSignedType(ScalarType::Bool));
  for (ScalarType t : {ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long,
                       ScalarType::Half, ScalarType::Float, ScalarType::Double, ScalarType::BFloat16,
                       ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble}) {
    EXPECT_TRUE(c10::isSignedType(t)) << t;
  }
}

TEST(ScalarTypeTest, CategoryPredicates) {
  EXPECT_TRUE(c10::isIntegralType(ScalarType::Long, false));
  EXPECT_FALSE(c10::isIntegralType(ScalarType::Bool, false));
  EXPECT_TRUE(c10::isIntegralType(ScalarType::Bool, true));
  EXPECT_FALSE(c10::isIntegralType(ScalarType::Float, true));
  EXPECT_TRUE(c10::isFloatingType(ScalarType::BFloat16));
  EXPECT_FALSE(c10::isFloatingType(ScalarType::ComplexFloat));
  EXPECT_TRUE(c10::isComplexType(ScalarType::ComplexHalf));
  EXPECT_TRUE(c10::isReducedFloatingType(ScalarType::Half));
  EXPECT_FALSE(c10::isReducedFloatingType(ScalarType::Float));
  EXPECT_TRUE(c10::isQIntType(ScalarType::QInt32));
}

TEST(ScalarTypeTest, RealAndComplexCounterparts) {
  EXPECT_EQ(c10::toRealValueType(ScalarType::ComplexFloat), ScalarType::Float);
  EXPECT_EQ(c10::toRealValueType(ScalarType::ComplexDouble), ScalarType::Double);
  EXPECT_EQ(c10::toRealValueType(ScalarType::ComplexHalf), ScalarType::Half);
  EXPECT_EQ(c10::toRealValueType(ScalarType::Int), ScalarType::Int);
  EXPECT_EQ(c10::toComplexType(ScalarType::Float), ScalarType::ComplexFloat);
  EXPECT_EQ(c10::toComplexType(ScalarType::Double), ScalarType::ComplexDouble);
  EXPECT_EQ(c10::toComplexType(ScalarType::Half), ScalarType::ComplexHalf);
  EXPECT_THROW(c10::toComplexType(ScalarType::Long), c10::Error);
}

TEST(ScalarTypeTest, GetDtypeNamesGivesPythonNames) {
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Float), P("float32", "float"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Double), P("float64", "double"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Half), P("float16", "half"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Long), P("int64", "long"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Int), P("int32", "int"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Short), P("int16", "short"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Char), P("int8", ""));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Byte), P("uint8", ""));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::Bool), P("bool", ""));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::BFloat16), P("bfloat16", ""));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::ComplexHalf), P("complex32", "chalf"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::ComplexFloat), P("complex64", "cfloat"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::ComplexDouble), P("complex128", "cdouble"));
  EXPECT_EQ(c10::getDtypeNames(ScalarType::QInt8), P("qint8", ""));
}

TEST(ScalarTypeTest, ToStringGivesEnumNames) {
  EXPECT_STREQ(c10::toString(ScalarType::Float), "Float");
  EXPECT_STREQ(c10::toString(ScalarType::Long), "Long");
  EXPECT_STREQ(c10::toString(ScalarType::Byte), "Byte");
  EXPECT_STREQ(c10::toString(ScalarType::BFloat16), "BFloat16");
  EXPECT_STREQ(c10::toString(ScalarType::ComplexFloat), "ComplexFloat");
  EXPECT_STREQ(c10::toString(ScalarType::QUInt8), "QUInt8");
  EXPECT_STREQ(c10::toString(ScalarType::Undefined), "UNKNOWN_SCALAR");
  std::ostringstream os;
  os << ScalarType::Half;
  EXPECT_EQ(os.str(), "Half");
}

TEST(ScalarTypeTest, CppTypeMapping) {
  EXPECT_EQ(c10::CppTypeToScalarType<float>::value, ScalarType::Float);
  EXPECT_EQ(c10::CppTypeToScalarType<int64_t>::value, ScalarType::Long);
  EXPECT_EQ(c10::CppTypeToScalarType<c10::Half>::value, ScalarType::Half);
  EXPECT_TRUE((std::is_same_v<c10::ScalarTypeToCPPTypeT<ScalarType::Double>, double>));
  EXPECT_TRUE((std::is_same_v<c10::ScalarTypeToCPPTypeT<ScalarType::Bool>, bool>));
}

TEST(TypeMetaTest, MakeFloatHasItemsizeFourAndRoundTrips) {
  const caffe2::TypeMeta m = caffe2::TypeMeta::Make<float>();
  EXPECT_EQ(m.itemsize(), 4u);
  EXPECT_EQ(m.toScalarType(), ScalarType::Float);
  EXPECT_EQ(c10::typeMetaToScalarType(m), ScalarType::Float);
  EXPECT_EQ(c10::scalarTypeToTypeMeta(ScalarType::Float), m);
  EXPECT_TRUE(m.Match<float>());
  EXPECT_FALSE(m.Match<double>());
  EXPECT_STREQ(m.name(), "float");
}

TEST(TypeMetaTest, RoundTripEveryScalarType) {
  for (int i = 0; i < static_cast<int>(ScalarType::Undefined); ++i) {
    const auto t = static_cast<ScalarType>(i);
    const auto m = c10::scalarTypeToTypeMeta(t);
    EXPECT_EQ(c10::typeMetaToScalarType(m), t) << t;
    EXPECT_EQ(m.itemsize(), c10::elementSize(t)) << t;
  }
  EXPECT_EQ(caffe2::TypeMeta::Make<double>().itemsize(), 8u);
  EXPECT_EQ(caffe2::TypeMeta::Make<c10::complex<double>>().itemsize(), 16u);
}

TEST(TypeMetaTest, NamesAreTheCompilersAsInPyTorch) {
  EXPECT_STREQ(caffe2::TypeMeta::Make<int64_t>().name(), "long int");
  EXPECT_STREQ(caffe2::TypeMeta::Make<int16_t>().name(), "short int");
  EXPECT_STREQ(caffe2::TypeMeta::Make<int8_t>().name(), "signed char");
  EXPECT_STREQ(caffe2::TypeMeta::Make<uint8_t>().name(), "unsigned char");
  EXPECT_STREQ(caffe2::TypeMeta::Make<c10::Half>().name(), "c10::Half");
  EXPECT_STREQ(caffe2::TypeMeta::Make<c10::complex<float>>().name(), "c10::complex<float>");
}

TEST(TypeMetaTest, DefaultIsUninitialized) {
  caffe2::TypeMeta m;
  EXPECT_FALSE(m.isScalarType());
  EXPECT_EQ(m.itemsize(), 0u);
  EXPECT_STREQ(m.name(), "nullptr (uninitialized)");
  EXPECT_NE(m, caffe2::TypeMeta::Make<float>());
}
