// Tests c10::Half and c10::BFloat16 conversions: exact bit patterns, overflow to inf, subnormals, NaN, and round-half-to-even.
// Mirrors PyTorch's c10/test/util/Half_test.cpp and c10/test/util/bfloat16_test.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using c10::BFloat16;
using c10::Half;

namespace {

uint16_t halfBits(float f) {
  return Half(f).x;
}
float fromHalfBits(uint16_t bits) {
  return static_cast<float>(Half(bits, Half::from_bits()));
}
uint16_t bf16Bits(float f) {
  return BFloat16(f).x;
}
float fromBf16Bits(uint16_t bits) {
  return static_cast<float>(BFloat16(bits, BFloat16::from_bits()));
}

}  // namespace

// ---- Half ----

TEST(HalfTest, ExactValuesHaveKnownBits) {
  EXPECT_EQ(halfBits(1.0f), 0x3c00);
  EXPECT_EQ(halfBits(-2.5f), 0xc100);
  EXPECT_EQ(halfBits(0.0f), 0x0000);
  EXPECT_EQ(halfBits(-0.0f), 0x8000);
  EXPECT_EQ(halfBits(0.5f), 0x3800);
  EXPECT_EQ(halfBits(65504.0f), 0x7bff);  // the largest half
  EXPECT_EQ(halfBits(std::ldexp(1.0f, -14)), 0x0400);  // the smallest normal
  EXPECT_EQ(static_cast<float>(Half(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(Half(-2.5f)), -2.5f);
  EXPECT_EQ(static_cast<float>(Half(65504.0f)), 65504.0f);
}

TEST(HalfTest, OverflowGoesToInfinity) {
  EXPECT_EQ(halfBits(65519.0f), 0x7bff);  // below the halfway point: rounds down to max
  EXPECT_EQ(halfBits(65520.0f), 0x7c00);  // the halfway point ties to even = inf
  EXPECT_EQ(halfBits(-65520.0f), 0xfc00);
  EXPECT_EQ(halfBits(1e10f), 0x7c00);
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(65520.0f))));
  EXPECT_EQ(halfBits(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(halfBits(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(fromHalfBits(0x7c00), std::numeric_limits<float>::infinity());
}

TEST(HalfTest, Subnormals) {
  const float smallest = std::ldexp(1.0f, -24);
  EXPECT_EQ(halfBits(smallest), 0x0001);
  EXPECT_EQ(fromHalfBits(0x0001), smallest);
  EXPECT_EQ(static_cast<float>(Half(smallest)), smallest);
  EXPECT_EQ(fromHalfBits(0x03ff), std::ldexp(1023.0f, -24));  // the largest subnormal
  EXPECT_EQ(halfBits(std::ldexp(1023.0f, -24)), 0x03ff);
  // Halfway cases in the subnormal range also round to even.
  EXPECT_EQ(halfBits(std::ldexp(1.0f, -25)), 0x0000);  // 0.5 ulp -> 0
  EXPECT_EQ(halfBits(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 ulp -> 2
  EXPECT_EQ(halfBits(std::ldexp(5.0f, -25)), 0x0002);  // 2.5 ulp -> 2
  EXPECT_EQ(halfBits(std::ldexp(1.0f, -26)), 0x0000);  // underflow
  EXPECT_EQ(halfBits(-smallest), 0x8001);
}

TEST(HalfTest, NaNStaysNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const uint16_t bits = halfBits(nan);
  EXPECT_EQ(bits & 0x7c00, 0x7c00);
  EXPECT_NE(bits & 0x03ff, 0);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(nan))));
  EXPECT_TRUE(std::isnan(fromHalfBits(0x7e00)));
  EXPECT_TRUE(std::isnan(fromHalfBits(0x7c01)));
}

TEST(HalfTest, RoundHalfToEven) {
  // 1 + 2^-11 is halfway between 1 (even mantissa) and 1 + 2^-10: rounds to 1.
  EXPECT_EQ(halfBits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3*2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even): rounds up.
  EXPECT_EQ(halfBits(1.0f + std::ldexp(3.0f, -11)), 0x3c02);
  // Just above the halfway point rounds up.
  EXPECT_EQ(halfBits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  // Integers: half spacing is 2 in [2048, 4096).
  EXPECT_EQ(static_cast<float>(Half(2049.0f)), 2048.0f);
  EXPECT_EQ(static_cast<float>(Half(2051.0f)), 2052.0f);
  EXPECT_EQ(static_cast<float>(Half(2050.0f)), 2050.0f);
}

TEST(HalfTest, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const float f = fromHalfBits(static_cast<uint16_t>(bits));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(static_cast<float>(Half(f)))) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(halfBits(f), bits) << std::hex << "bits 0x" << bits << " value " << f;
  }
}

// ---- BFloat16 ----

TEST(BFloat16Test, ExactValuesHaveKnownBits) {
  EXPECT_EQ(bf16Bits(1.0f), 0x3f80);
  EXPECT_EQ(bf16Bits(-2.5f), 0xc020);
  EXPECT_EQ(bf16Bits(0.0f), 0x0000);
  EXPECT_EQ(bf16Bits(-0.0f), 0x8000);
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(BFloat16(-2.5f)), -2.5f);
  EXPECT_EQ(bf16Bits(std::numeric_limits<float>::infinity()), 0x7f80);
  EXPECT_EQ(bf16Bits(-std::numeric_limits<float>::infinity()), 0xff80);
}

TEST(BFloat16Test, RoundHalfToEven) {
  // 1 + 2^-8 is halfway between 1 (0x3f80, even) and 1 + 2^-7 (0x3f81): rounds to 1.
  EXPECT_EQ(bf16Bits(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f + std::ldexp(1.0f, -8))), 1.0f);
  // 1 + 3*2^-8 is halfway between 0x3f81 (odd) and 0x3f82 (even): rounds up.
  EXPECT_EQ(bf16Bits(1.0f + std::ldexp(3.0f, -8)), 0x3f82);
  // Just above halfway rounds up, just below rounds down.
  EXPECT_EQ(bf16Bits(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3f81);
  EXPECT_EQ(bf16Bits(1.0f + std::ldexp(1.0f, -8) - std::ldexp(1.0f, -20)), 0x3f80);
  // 257 is halfway between 256 and 258 in bfloat16: ties to 256.
  EXPECT_EQ(static_cast<float>(BFloat16(257.0f)), 256.0f);
  EXPECT_EQ(static_cast<float>(BFloat16(259.0f)), 260.0f);
}

TEST(BFloat16Test, LargestFloatRoundsToInfinity) {
  EXPECT_EQ(bf16Bits(std::numeric_limits<float>::max()), 0x7f80);
}

TEST(BFloat16Test, NaNBecomesCanonicalNaN) {
  EXPECT_EQ(bf16Bits(std::numeric_limits<float>::quiet_NaN()), 0x7fc0);
  EXPECT_EQ(bf16Bits(-std::numeric_limits<float>::quiet_NaN()), 0x7fc0);
  // A NaN whose payload sits only in the low 16 bits must not round into infinity.
  float low_payload_nan;
  const uint32_t nan_bits = 0x7f800001;
  std::memcpy(&low_payload_nan, &nan_bits, sizeof(nan_bits));
  EXPECT_EQ(bf16Bits(low_payload_nan), 0x7fc0);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(low_payload_nan))));
}

TEST(BFloat16Test, SubnormalsKeepTheirTopBits) {
  const float tiny = fromBf16Bits(0x0001);  // the smallest bfloat16 subnormal
  EXPECT_EQ(tiny, std::ldexp(1.0f, -133));
  EXPECT_EQ(bf16Bits(tiny), 0x0001);
}

TEST(BFloat16Test, EveryBFloat16RoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const float f = fromBf16Bits(static_cast<uint16_t>(bits));
    if (std::isnan(f)) {
      continue;
    }
    ASSERT_EQ(bf16Bits(f), bits) << std::hex << "bits 0x" << bits;
  }
}

TEST(BFloat16Test, ConversionToFloatIsTheHighHalf) {
  EXPECT_EQ(fromBf16Bits(0x3f80), 1.0f);
  EXPECT_EQ(fromBf16Bits(0x4049), 3.140625f);
  EXPECT_EQ(static_cast<float>(BFloat16(3.14159265f)), 3.140625f);
}
