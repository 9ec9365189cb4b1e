#pragma once
// Integer expressions of the sequence language (docs/sequence-language.md, "let and
// expressions"): names bound with `let`, numbers, + - * / % << >> & | ^ ~ and parentheses,
// evaluated exactly in unsigned 64-bit arithmetic. Anything that cannot be represented
// (overflow, a negative difference, a shift of 64 or more, division by zero) is bad input.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace pmusim::seq {

// The names a sequence file has bound with `let NAME = EXPR`, visible to the rest of the file,
// to the files it includes and to the lines after their `include`.
using name_table = std::map<std::string, uint64_t, std::less<>>;

// A name that `let` can bind: a letter or '_', then letters, digits and '_'.
bool is_value_name(std::string_view s);

// Evaluates `text` (spaces allowed between tokens). Throws input_error(file, line, ...) naming
// what was expected and `context` (a phrase such as "after 'write64'") on any error.
uint64_t evaluate(std::string_view text, const name_table& names, const std::string& file, unsigned line,
                  std::string_view context = {});

// Deepest parenthesis nesting evaluate() accepts (it recurses per level).
inline constexpr unsigned max_expression_depth = 64;

} // namespace pmusim::seq
