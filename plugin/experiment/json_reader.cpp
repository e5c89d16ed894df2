/* A small recursive-descent JSON reader (RFC 8259) for the command line's inputs; see json_reader.hpp. */
#include "experiment/json_reader.hpp"

#include "core/errors.hpp"

#include <set>

namespace jobsched::json {

const Value* Value::find(const std::string& key) const
{
  for (const auto& [name, value] : members)
    if (name == key) return &value;
  return nullptr;
}

std::string Value::kind_name() const
{
  switch (kind) {
  case Kind::null:
    return "null";
  case Kind::boolean:
    return "a boolean";
  case Kind::number:
    return "a number";
  case Kind::string:
    return "a string";
  case Kind::array:
    return "an array";
  case Kind::object:
    return "an object";
  }
  return "a value";
}

namespace {

class Reader {
 public:
  Reader(const std::string& text, const std::string& source) : text_(text), source_(source) {}

  Value document()
  {
    Value v = value(0);
    skip_space();
    if (pos_ < text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  const std::string& text_;
  const std::string& source_;
  size_t pos_ = 0;
  int line_ = 1;

  [[noreturn]] void fail(const std::string& what) const
  {
    throw InputError(source_ + ":" + std::to_string(line_) + ": malformed JSON: " + what);
  }

  void skip_space()
  {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      if (text_[pos_] == '\n') line_++;
      pos_++;
    }
  }

  bool take(char c)
  {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      pos_++;
      return true;
    }
    return false;
  }

  void expect(char c, const char* where)
  {
    if (!take(c)) fail(std::string("expected '") + c + "' " + where);
  }

  Value value(int depth)
  {
    if (depth > 64) fail("nested too deeply");
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end of input");
    Value v;
    v.line = line_;
    char c = text_[pos_];
    if (c == '{') {
      pos_++;
      v.kind = Value::Kind::object;
      std::set<std::string> keys;
      if (take('}')) return v;
      do {
        skip_space();
        if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string as object key");
        std::string key = string();
        if (!keys.insert(key).second) fail("duplicate key \"" + key + "\"");
        expect(':', "after an object key");
        v.members.emplace_back(key, value(depth + 1));
      } while (take(','));
      expect('}', "to close an object");
    } else if (c == '[') {
      pos_++;
      v.kind = Value::Kind::array;
      if (take(']')) return v;
      do
        v.items.push_back(value(depth + 1));
      while (take(','));
      expect(']', "to close an array");
    } else if (c == '"') {
      v.kind = Value::Kind::string;
      v.text = string();
    } else if (literal("true")) {
      v.kind = Value::Kind::boolean;
      v.boolean = true;
    } else if (literal("false")) {
      v.kind = Value::Kind::boolean;
    } else if (literal("null")) {
      v.kind = Value::Kind::null;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Value::Kind::number;
      v.text = number();
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  bool literal(const std::string& word)
  {
    if (text_.compare(pos_, word.size(), word) != 0) return false;
    pos_ += word.size();
    return true;
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  std::string number()
  {
    size_t start = pos_;
    if (text_[pos_] == '-') pos_++;
    if (pos_ >= text_.size() || !digit(text_[pos_])) fail("a number needs digits");
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() && digit(text_[pos_ + 1])) fail("a number has a leading zero");
    while (pos_ < text_.size() && digit(text_[pos_]))
      pos_++;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      pos_++;
      if (pos_ >= text_.size() || !digit(text_[pos_])) fail("a number needs digits after '.'");
      while (pos_ < text_.size() && digit(text_[pos_]))
        pos_++;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      pos_++;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) pos_++;
      if (pos_ >= text_.size() || !digit(text_[pos_])) fail("a number needs digits in its exponent");
      while (pos_ < text_.size() && digit(text_[pos_]))
        pos_++;
    }
    return text_.substr(start, pos_ - start);
  }

  void append_utf8(std::string& out, unsigned code)
  {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  unsigned hex4()
  {
    if (pos_ + 4 > text_.size()) fail("a \\u escape needs four hex digits");
    unsigned code = 0;
    for (int k = 0; k < 4; k++) {
      char h = text_[pos_++];
      code <<= 4;
      if (digit(h))
        code |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("a \\u escape needs four hex digits");
    }
    return code;
  }

  std::string string()
  {
    pos_++; // the opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      char e = text_[pos_++];
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned code = hex4();
        if (code >= 0xD800 && code < 0xDC00) { // a surrogate pair
          if (!literal("\\u")) fail("an unpaired surrogate in a \\u escape");
          unsigned low = hex4();
          if (low < 0xDC00 || low >= 0xE000) fail("an unpaired surrogate in a \\u escape");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code < 0xE000) {
          fail("an unpaired surrogate in a \\u escape");
        }
        append_utf8(out, code);
        break;
      }
      default:
        fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }
};

} // namespace

Value parse(const std::string& text, const std::string& source)
{
  return Reader(text, source).document();
}

} // namespace jobsched::json
