/* JSON in and out of jobsched, all through nlohmann-json: the files runs write (summary.json, performance.json), the
 * documents the plan commands print, and what jobsched reads back (summaries, allocation maps). The library escapes
 * strings, formats numbers and parses; this file only fixes how numbers are rounded and how lines are laid out, so
 * that every JSON jobsched writes looks the same and diffs of it stay readable. */
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace jobsched {

/* Objects keep their keys in insertion order: the order in which the README documents them. */
using Json = nlohmann::ordered_json;

/* A computed number as output files hold it: rounded to 6 decimals as FormattedNumber rounds (core/time_format.hpp),
 * then a JSON integer when the rounded value is whole ("3", not "3.0"), else the double nearest to the rounded value,
 * which json_text writes as the same text as jobs.csv ("0.5", "0.00005", "1234.567891"). JSON has no NaN or
 * infinity: such a value is null. */
Json json_number(double value);

/* The number written as the decimal `text` ("6", "1.25", "0.333333333333"): a JSON integer when it is a whole number
 * that fits in 64 bits, else the double nearest to it, which json_text writes back as the same digits when there are
 * at most 15 of them. */
Json json_decimal(std::string_view text);

/* `document` as text, with a final newline: the top level one member per line, two-space indentation; below it, a
 * list of scalars ("[1, 2]") and a record (an object whose values are scalars, or lists or objects of scalars:
 * "{\"job\": 1, \"vps\": {\"x86\": 3}}") on one line, and other containers (lists of records...) on one line when
 * it fits in 120 columns, else one member per line in turn. Strings, integers, booleans and null as nlohmann writes
 * them (strings are UTF-8: a byte sequence that is not is written as U+FFFD); a double as the shortest fixed-point text
 * that reads back to it ("0.00005", never "5e-05"; a NaN or an infinity as null). */
std::string json_text(const Json& document);

/* The JSON document in `text`, read from `source` (a file name, for messages). Throws InputError
 * "SOURCE: malformed JSON: ..." (one line, with the line and column nlohmann reports) on malformed input, a key given
 * twice in one object included. */
Json parse_json(const std::string& text, const std::string& source);

/* parse_json of the content of `file`; InputError "FILE: cannot read" when it cannot be read. */
Json read_json_file(const std::filesystem::path& file);

} // namespace jobsched
