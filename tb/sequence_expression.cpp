// Integer expressions of the sequence language; see sequence_expression.h.
// A recursive-descent parser over C's precedence levels, evaluating as it goes.
#include "tb/sequence_expression.h"

#include <cctype>
#include <cstdio>

#include "models/input_error.h"
#include "models/values.h"
#include "tb/sequence_parser.h"

namespace pmusim::seq {

namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
    return v == 0 ? "0x0" : buf;
}

class evaluator {
public:
    evaluator(std::string_view text, const name_table& names, const std::string& file, unsigned line,
              std::string_view context)
        : text_(text), names_(names), file_(file), line_(line), context_(context) {}

    uint64_t run() {
        skip_space();
        if (pos_ == text_.size()) fail("a number, a name or '('", "end of line");
        uint64_t v = bitwise_or();
        skip_space();
        if (pos_ != text_.size()) fail("an operator (+ - * / % << >> & | ^) or the end of the expression", rest());
        return v;
    }

private:
    // ---- errors -------------------------------------------------------------
    std::string where() const {
        std::string s = "in the expression '" + std::string(text_) + "'";
        if (!context_.empty()) s += " " + std::string(context_);
        return s;
    }
    [[noreturn]] void fail(std::string_view what, std::string_view found) const {
        throw input_error(file_, line_, "expected " + std::string(what) + " " + where() + ", found " + std::string(found));
    }
    [[noreturn]] void arithmetic(const std::string& what) const {
        throw input_error(file_, line_, what + " " + where() + " (values are unsigned 64-bit integers)");
    }
    std::string rest() const { return "'" + std::string(text_.substr(pos_)) + "'"; }

    // ---- scanning -----------------------------------------------------------
    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) ++pos_;
    }
    bool accept(std::string_view op) {
        skip_space();
        if (text_.substr(pos_, op.size()) != op) return false;
        pos_ += op.size();
        return true;
    }
    bool peek_is(std::string_view op) {
        skip_space();
        return text_.substr(pos_, op.size()) == op;
    }

    // ---- grammar (lowest precedence first, as in C) -------------------------
    uint64_t bitwise_or() {
        uint64_t v = bitwise_xor();
        while (!peek_is("||") && accept("|")) v |= bitwise_xor();
        return v;
    }
    uint64_t bitwise_xor() {
        uint64_t v = bitwise_and();
        while (accept("^")) v ^= bitwise_and();
        return v;
    }
    uint64_t bitwise_and() {
        uint64_t v = shift();
        while (!peek_is("&&") && accept("&")) v &= shift();
        return v;
    }
    uint64_t shift() {
        uint64_t v = additive();
        for (;;) {
            if (accept("<<")) {
                uint64_t n = additive();
                if (n >= 64) arithmetic("a shift by " + std::to_string(n) + " (expected 0..63)");
                if (n && (v >> (64 - n)) != 0) arithmetic("overflow: " + hex(v) + " << " + std::to_string(n) + " loses set bits");
                v <<= n;
            } else if (accept(">>")) {
                uint64_t n = additive();
                if (n >= 64) arithmetic("a shift by " + std::to_string(n) + " (expected 0..63)");
                v >>= n;
            } else {
                return v;
            }
        }
    }
    uint64_t additive() {
        uint64_t v = multiplicative();
        for (;;) {
            if (accept("+")) {
                uint64_t r = multiplicative();
                if (__builtin_add_overflow(v, r, &v)) arithmetic("overflow: the sum exceeds 2^64-1");
            } else if (accept("-")) {
                uint64_t r = multiplicative();
                if (r > v) arithmetic("a negative result: " + hex(v) + " - " + hex(r));
                v -= r;
            } else {
                return v;
            }
        }
    }
    uint64_t multiplicative() {
        uint64_t v = unary();
        for (;;) {
            if (accept("*")) {
                uint64_t r = unary();
                if (__builtin_mul_overflow(v, r, &v)) arithmetic("overflow: the product exceeds 2^64-1");
            } else if (accept("/")) {
                uint64_t r = unary();
                if (r == 0) arithmetic("a division by zero");
                v /= r;
            } else if (accept("%")) {
                uint64_t r = unary();
                if (r == 0) arithmetic("a remainder of a division by zero");
                v %= r;
            } else {
                return v;
            }
        }
    }
    uint64_t unary() {
        if (accept("~")) return ~unary_nested();
        return primary();
    }
    uint64_t unary_nested() {
        if (++depth_ > max_expression_depth) fail("at most " + std::to_string(max_expression_depth) + " nested operators", rest());
        uint64_t v = unary();
        --depth_;
        return v;
    }
    uint64_t primary() {
        skip_space();
        if (pos_ == text_.size()) fail("a number, a name or '('", "end of line");
        char c = text_[pos_];
        if (c == '(') {
            if (++depth_ > max_expression_depth)
                fail("at most " + std::to_string(max_expression_depth) + " nested parentheses", rest());
            ++pos_;
            uint64_t v = bitwise_or();
            if (!accept(")")) fail("')'", pos_ == text_.size() ? std::string("end of line") : rest());
            --depth_;
            return v;
        }
        size_t b = pos_;
        if (std::isdigit(static_cast<unsigned char>(c))) {
            while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
            // where() copies the whole expression: only for the message, or a line of n numbers
            // would cost n^2 (a 1.2 MB `let` took a minute; docs/reliability.md "Limits").
            const std::string_view number = text_.substr(b, pos_ - b);
            if (const auto v = values::scan_integer(number)) return *v;
            return values::parse_integer(number, file_, line_, where());
        }
        if (is_name_start(c)) {
            while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
            std::string_view name = text_.substr(b, pos_ - b);
            auto it = names_.find(name);
            if (it == names_.end())
                throw input_error(file_, line_, "'" + std::string(name) + "' is not defined " + where() +
                                                    " (bind it with 'let " + std::string(name) +
                                                    " = VALUE' on an earlier line)");
            return it->second;
        }
        fail("a number, a name or '('", rest());
    }

    std::string_view text_;
    const name_table& names_;
    const std::string& file_;
    unsigned line_;
    std::string_view context_;
    size_t pos_ = 0;
    unsigned depth_ = 0;
};

} // namespace

bool is_value_name(std::string_view s) {
    if (s.empty() || !is_name_start(s[0])) return false;
    for (char c : s)
        if (!is_name_char(c)) return false;
    return true;
}

uint64_t evaluate(std::string_view text, const name_table& names, const std::string& file, unsigned line,
                  std::string_view context) {
    return evaluator(text, names, file, line, context).run();
}

} // namespace pmusim::seq
