/* A small JSON reader for command-line inputs (the allocation maps of `jobsched plan expand`): the project has no JSON
 * library. Numbers keep their text, so a capacity written 1.1 is read exactly as 11/10 by its user. */
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace jobsched::json {

struct Value {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  /* A number's text as written, or a string's decoded text. */
  std::string text;
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members;
  /* The line the value starts on (from 1), for messages. */
  int line = 0;

  /* The member called `key` of an object, or nullptr. */
  const Value* find(const std::string& key) const;
  /* "null", "a boolean", "a number", "a string", "an array", "an object". */
  std::string kind_name() const;
};

/* The JSON document in `text`. Throws InputError "SOURCE:LINE: ..." on malformed JSON (a duplicate object key
 * included). */
Value parse(const std::string& text, const std::string& source);

} // namespace jobsched::json
