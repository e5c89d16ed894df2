/* The values of a platform file SimGrid would take without a word (platform/platform_values.hpp): the reader of XML
 * start tags, and each profile rule with the line it names. */
#include "core/errors.hpp"
#include "platform/platform_values.hpp"

#include <gtest/gtest.h>

#include <string>

using jobsched::check_profile_text;
using jobsched::InputError;
using jobsched::ProfileKind;
using jobsched::read_platform_elements;

namespace {

/* The message check_profile_text throws, "" when it accepts the text. */
std::string profile_error(const std::string& text, ProfileKind kind)
{
  try {
    check_profile_text("p.txt", text, kind);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(PlatformValues, ReadsStartTagsWithTheirLinesAndSkipsCommentsAndTheDoctype)
{
  const std::string text = "<?xml version='1.0'?>\n"
                           "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                           "<platform version=\"4.1\">\n"
                           "  <!-- <cluster id=\"commented\" bb_bw=\"-1GBps\"/> -->\n"
                           "  <cluster id=\"c\" prefix=\"n\"\n"
                           "           bb_bw='&#45;1GBps' suffix=\"&amp;\"/>\n"
                           "  <zone id=\"z\" routing=\"Full\"><host id=\"h\" speed=\"1Gf\"/></zone>\n"
                           "</platform>\n";
  const auto elements = read_platform_elements(text);
  ASSERT_EQ(elements.size(), 4u);
  EXPECT_EQ(elements[0].name, "platform");
  EXPECT_EQ(elements[0].line, 3);
  EXPECT_EQ(elements[1].name, "cluster");
  EXPECT_EQ(elements[1].line, 5);
  EXPECT_EQ(elements[1].attributes.at("id"), "c");
  EXPECT_EQ(elements[1].attributes.at("bb_bw"), "-1GBps");
  EXPECT_EQ(elements[1].attributes.at("suffix"), "&");
  EXPECT_EQ(elements[2].name, "zone");
  EXPECT_EQ(elements[3].name, "host");
  EXPECT_EQ(elements[3].line, 7);
}

TEST(PlatformValues, StopsAtWhatItCannotRead)
{
  const auto elements = read_platform_elements("<platform version=\"4.1\">\n<host id=\"h\" speed=1Gf/>\n<link/>");
  ASSERT_EQ(elements.size(), 1u);
  EXPECT_EQ(elements[0].name, "platform");
}

TEST(PlatformValues, AcceptsTheProfilesSimGridReadsAsWritten)
{
  EXPECT_EQ(profile_error("3000 0.5\n20000 1.0\n40000 0.0\n45000 1.0\n", ProfileKind::kSpeed), "");
  EXPECT_EQ(profile_error("# owner\n8000 0\n\n9000 1\n% end\n", ProfileKind::kState), "");
  EXPECT_EQ(profile_error("PERIODICITY 100\n0 1\n50 0\n", ProfileKind::kState), "");
  EXPECT_EQ(profile_error("LOOPAFTER 0\n0 1e6\n10 2e6\n", ProfileKind::kBandwidth), "");
  EXPECT_EQ(profile_error("0 0\n5 1e-3\n", ProfileKind::kLatency), "");
  EXPECT_EQ(profile_error("STOCHASTIC\nNORM 10 1 UNIF 0 1\n", ProfileKind::kState), ""); // left to SimGrid
  // Refused by s35, read by SimGrid 3.32 as written (the runs finished on s34).
  EXPECT_EQ(profile_error("0 1\n10 0.5 # half speed\n20 1#full\n", ProfileKind::kSpeed), "");
  EXPECT_EQ(profile_error("0 1\r10 0.5\r", ProfileKind::kSpeed), "");
  EXPECT_EQ(profile_error("0 1e6\n10 0\n20 1e6\n", ProfileKind::kBandwidth), ""); // a link down, then back
  EXPECT_EQ(profile_error("PERIODICITY 0\n0 1\n10 0\n", ProfileKind::kState), "");
  EXPECT_EQ(profile_error("PERIODICITY 20\nLOOPAFTER 0\n0 1\n10 0\n", ProfileKind::kState), "");
  EXPECT_EQ(profile_error("PERIODICITY10\n0 1\n5 0\n", ProfileKind::kState), "");
  EXPECT_EQ(profile_error("", ProfileKind::kSpeed), ""); // no event: SimGrid changes nothing
  EXPECT_EQ(profile_error("# nothing\n\n", ProfileKind::kState), "");
}

TEST(PlatformValues, RefusesSpeedFactorsThatAreNegativeOrNotFinite)
{
  EXPECT_EQ(profile_error("0 1\n10 -0.5\n", ProfileKind::kSpeed),
            "p.txt:2: a speed factor must be finite and 0 or more, not -0.5");
  EXPECT_EQ(profile_error("0 inf\n", ProfileKind::kSpeed),
            "p.txt:1: a speed factor must be finite and 0 or more, not inf");
  EXPECT_EQ(profile_error("0 nan\n", ProfileKind::kSpeed),
            "p.txt:1: a speed factor must be finite and 0 or more, not nan");
}

TEST(PlatformValues, RefusesStatesOtherThanZeroAndOne)
{
  EXPECT_EQ(profile_error("8000 0\n9000 2\n", ProfileKind::kState),
            "p.txt:2: a state must be 0 (off) or 1 (on), not 2");
  EXPECT_EQ(profile_error("\n8000 NaN\n", ProfileKind::kState), "p.txt:2: a state must be 0 (off) or 1 (on), not NaN");
  EXPECT_EQ(profile_error("8000 0.5\n", ProfileKind::kState), "p.txt:1: a state must be 0 (off) or 1 (on), not 0.5");
}

TEST(PlatformValues, RefusesBandwidthsAndLatenciesOutOfRange)
{
  EXPECT_EQ(profile_error("0 -1\n", ProfileKind::kBandwidth),
            "p.txt:1: a bandwidth must be finite and 0 or more, not -1");
  EXPECT_EQ(profile_error("0 inf\n", ProfileKind::kBandwidth),
            "p.txt:1: a bandwidth must be finite and 0 or more, not inf");
  EXPECT_EQ(profile_error("0 1\n3 -1e-3\n", ProfileKind::kLatency),
            "p.txt:2: a latency must be finite and 0 or more, not -1e-3");
}

TEST(PlatformValues, RefusesLinesOfOtherThanTwoFieldsAndBadNumbers)
{
  EXPECT_EQ(profile_error("0 1\n10 0.5 7\n", ProfileKind::kSpeed),
            "p.txt:2: 3 fields: a profile line is a date and a speed value");
  EXPECT_EQ(profile_error("10\n", ProfileKind::kState), "p.txt:1: 1 field: a profile line is a date and a state value");
  EXPECT_EQ(profile_error("10 1x\n", ProfileKind::kSpeed), "p.txt:1: '1x' is not a number");
  EXPECT_EQ(profile_error("ten 1\n", ProfileKind::kSpeed),
            "p.txt:1: date 'ten' is not a number of seconds, finite and 0 or more");
  EXPECT_EQ(profile_error("-5 1\n", ProfileKind::kSpeed),
            "p.txt:1: date '-5' is not a number of seconds, finite and 0 or more");
  EXPECT_EQ(profile_error("10 1\n5 0\n", ProfileKind::kState),
            "p.txt:2: date 5 comes before the previous line's 10: the dates must not decrease");
}

TEST(PlatformValues, RefusesLoopsSimGridRefusesOrOfNoLength)
{
  EXPECT_EQ(profile_error("LOOPAFTER 0\n0 1\n", ProfileKind::kSpeed),
            "p.txt: a round of 0 s (events all at date 0, LOOPAFTER 0) would repeat them forever");
  EXPECT_EQ(profile_error("PERIODICITY 0\n0 1\n", ProfileKind::kSpeed),
            "p.txt: a round of 0 s (events all at date 0, LOOPAFTER 0) would repeat them forever");
  EXPECT_EQ(profile_error("PERIODICITY -1\n0 1\n", ProfileKind::kSpeed),
            "p.txt:1: PERIODICITY takes one number of seconds, finite and 0 or more");
  EXPECT_EQ(profile_error("PERIODICITY 5\n0 1\n10 0\n", ProfileKind::kState),
            "p.txt: PERIODICITY 5 must be at least the last date, 10");
  EXPECT_EQ(profile_error("PERIODICITY 20\nLOOPAFTER 5\n0 1\n", ProfileKind::kState),
            "p.txt: PERIODICITY 20 with LOOPAFTER 5 (SimGrid takes one or the other; LOOPAFTER 0 only with it)");
  EXPECT_EQ(profile_error("PERIODICITYX\n0 1\n", ProfileKind::kState),
            "p.txt:1: PERIODICITY takes one number of seconds, finite and 0 or more");
}
