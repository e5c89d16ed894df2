/* core/json.hpp: numbers rounded as the CSV files round them (against format_number, a second formatter), the line
 * layout on a hand-written document, strings escaped, and parse errors as one line naming the source. */
#include "core/json.hpp"
#include "core/time_format.hpp"
#include "support/input_error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

using namespace jobsched;
using jobsched::testing::input_error_of;

namespace {
/* A value as json_text writes it. */
std::string text_of(const Json& value)
{
  std::string text = json_text(value);
  text.pop_back(); // the final newline
  return text;
}
} // namespace

TEST(JsonNumber, WholeValuesAreIntegersOthersRoundedToSixDecimals)
{
  EXPECT_EQ(text_of(json_number(3.0)), "3");
  EXPECT_EQ(text_of(json_number(-0.0)), "0");
  EXPECT_EQ(text_of(json_number(999.99999999999989)), "1000"); // rounds to a whole number: an integer
  EXPECT_EQ(text_of(json_number(0.1 + 0.2)), "0.3");
  EXPECT_EQ(text_of(json_number(0.1234567)), "0.123457");
  EXPECT_EQ(text_of(json_number(1e15)), "1000000000000000");
  EXPECT_EQ(text_of(json_number(0.00005)), "0.00005"); // not nlohmann's 5e-05
  EXPECT_EQ(text_of(json_decimal("0.333333333333")), "0.333333333333");
  EXPECT_EQ(text_of(json_decimal("6")), "6");
  EXPECT_EQ(text_of(json_number(-0.0000001)), "0");
  EXPECT_TRUE(json_number(3.0).is_number_integer());
  EXPECT_TRUE(json_number(std::nan("")).is_null());
  EXPECT_TRUE(json_number(std::numeric_limits<double>::infinity()).is_null());
  EXPECT_TRUE(json_number(-std::numeric_limits<double>::infinity()).is_null());
  EXPECT_EQ(text_of(Json{{"a", std::nan("")}}), "{\n  \"a\": null\n}"); // a NaN stored anyway is still JSON
}

// Below a billion, the JSON text is exactly what jobs.csv writes (format_number, a second formatter); above, it reads
// back to the same value.
TEST(JsonNumber, SameTextAsTheCsvFilesOnRandomValues)
{
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> exponent(-7, 17);
  int mismatches = 0;
  for (int i = 0; i < 100000; i++) {
    double v = std::pow(10.0, exponent(gen)) * (i % 2 ? -1 : 1);
    if (i % 3 == 0) v = std::round(v);
    const std::string csv = format_number(v);
    const std::string json = text_of(json_number(v));
    const double rounded = std::strtod(csv.c_str(), nullptr);
    const bool same_text_expected = std::abs(v) < 1e9;
    if (same_text_expected ? json != csv : std::strtod(json.c_str(), nullptr) != rounded)
      if (++mismatches < 5) ADD_FAILURE() << v << ": json " << json << ", csv " << csv;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(JsonText, TopLevelOnePerLineRecordsOnOneLineLongListsOfRecordsBroken)
{
  Json doc;
  doc["name"] = "a \"b\" \\ c\td\xc3\xa9";
  doc["empty"] = Json::object();
  doc["reasons"] = Json{{"too large", 3}, {"x", 1}};
  doc["list"] = Json::array({1, 2.5, nullptr, true});
  Json numbers = Json::array();
  Json records = Json::array();
  for (int i = 0; i < 40; i++)
    numbers.push_back(1000 + i);
  for (int i = 0; i < 3; i++)
    records.push_back(Json{{"id", i}, {"vps", {{"x86", 3}}}, {"name", std::string(30, 'a' + static_cast<char>(i))}});
  doc["numbers"] = numbers;                                      // 206 columns, but a list of scalars: one line
  doc["records"] = records;                                      // 3 records do not fit: one per line
  doc["short"] = Json::array({records[0], Json::array({1, 2})}); // fits: one line
  doc["nested"] = Json{{"records", records}};                    // breaks, and so does the list inside it
  std::string numbers_line = "[";
  for (int i = 0; i < 40; i++)
    numbers_line += std::to_string(1000 + i) + (i < 39 ? ", " : "]");
  auto record = [](int i) {
    return "{\"id\": " + std::to_string(i) + ", \"vps\": {\"x86\": 3}, \"name\": \"" +
           std::string(30, 'a' + static_cast<char>(i)) + "\"}";
  };
  std::string expected = "{\n"
                         "  \"name\": \"a \\\"b\\\" \\\\ c\\td\xc3\xa9\",\n"
                         "  \"empty\": {},\n"
                         "  \"reasons\": {\"too large\": 3, \"x\": 1},\n"
                         "  \"list\": [1, 2.5, null, true],\n"
                         "  \"numbers\": " +
                         numbers_line + ",\n  \"records\": [\n    " + record(0) + ",\n    " + record(1) + ",\n    " +
                         record(2) + "\n  ],\n  \"short\": [" + record(0) + ", [1, 2]],\n  \"nested\": {\n" +
                         "    \"records\": [\n      " + record(0) + ",\n      " + record(1) + ",\n      " + record(2) +
                         "\n    ]\n  }\n}\n";
  EXPECT_EQ(json_text(doc), expected);
  // What is written reads back the same.
  EXPECT_EQ(parse_json(json_text(doc), "doc"), doc);
  // A byte that is not UTF-8 becomes U+FFFD instead of invalid JSON.
  EXPECT_EQ(json_text(Json{{"k", "a\xff"}}), "{\n  \"k\": \"a\xef\xbf\xbd\"\n}\n");
}

TEST(JsonParse, ErrorsAreOneLineNamingTheSource)
{
  auto error = [](const std::string& text) {
    std::string what = input_error_of([&] { parse_json(text, "in.json"); });
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return what;
  };
  EXPECT_EQ(error("{\"a\": 1,\n \"b\": }")
                .rfind("in.json: malformed JSON: parse error at line 2, column 7: syntax error while parsing value - "
                       "unexpected '}'",
                       0),
            0u);
  EXPECT_EQ(error("{\"a\": NaN}").rfind("in.json: malformed JSON: parse error at line 1, column 7", 0), 0u);
  EXPECT_EQ(error("{\"a\": 1, \"a\": 2}"), "in.json: malformed JSON: the key \"a\" is given twice in an object");
  EXPECT_EQ(error("{\"a\": 1e999}").rfind("in.json: malformed JSON: number overflow", 0), 0u);
  EXPECT_EQ(error("{\"a\": \"\xff\"}").rfind("in.json: malformed JSON: parse error", 0), 0u);
  EXPECT_EQ(error("").rfind("in.json: malformed JSON: parse error at line 1, column 1", 0), 0u);
  EXPECT_EQ(parse_json("{\"b\": 1, \"a\": {\"b\": 2}}", "x").dump(), "{\"b\":1,\"a\":{\"b\":2}}"); // order kept
}
