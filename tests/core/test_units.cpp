#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/core/units.hpp"

using linkdyn::parse_quantity;
using linkdyn::Quantity;

TEST(Units, BareNumbersAreSI) {
  std::string problem;
  EXPECT_DOUBLE_EQ(*parse_quantity("2.5", Quantity::length, problem), 2.5);
  EXPECT_DOUBLE_EQ(*parse_quantity("-0.152", Quantity::angle, problem), -0.152);
}

TEST(Units, DegreesRpmAndMillimetresConvertToSI) {
  std::string problem;
  EXPECT_NEAR(*parse_quantity("30 deg", Quantity::angle, problem), M_PI / 6.0, 1e-15);
  EXPECT_NEAR(*parse_quantity("140 rpm", Quantity::angular_velocity, problem), 140.0 * M_PI / 30.0, 1e-13);
  EXPECT_NEAR(*parse_quantity("7.5 mm", Quantity::length, problem), 0.0075, 1e-16);
  EXPECT_NEAR(*parse_quantity("0.152 rad", Quantity::angle, problem), 0.152, 1e-16);
}

TEST(Units, RejectsUnitsOfTheWrongKindAndNonNumbers) {
  std::string problem;
  EXPECT_FALSE(parse_quantity("30 deg", Quantity::length, problem));
  EXPECT_NE(problem.find("not accepted"), std::string::npos);
  EXPECT_FALSE(parse_quantity("abc", Quantity::plain, problem));
  EXPECT_FALSE(parse_quantity("nan", Quantity::plain, problem));
  EXPECT_FALSE(parse_quantity("1e400", Quantity::plain, problem));
}

TEST(Units, RefusesMagnitudesBeyondDoublePrecisionsUsefulRangeInSI) {
  std::string problem;
  EXPECT_FALSE(parse_quantity("1e300", Quantity::plain, problem));
  EXPECT_NE(problem.find("too large"), std::string::npos) << problem;
  EXPECT_FALSE(parse_quantity("-1e12", Quantity::length, problem));
  // The limit holds in SI: 2e11 rpm is 2.1e10 rad/s (accepted), 1e14 mm is 1e11 m (accepted).
  EXPECT_TRUE(parse_quantity("2e11 rpm", Quantity::angular_velocity, problem));
  EXPECT_TRUE(parse_quantity("1e14 mm", Quantity::length, problem));
  EXPECT_TRUE(parse_quantity("9.99e11", Quantity::plain, problem));
}
