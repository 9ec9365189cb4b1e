#include "models/access_record.h"

#include <algorithm>
#include <iterator>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pmusim {

namespace {

// A JSON string as nlohmann::json::dump() writes it (no ensure_ascii): the short escapes, other
// control characters as \u00xx; a string with non-ASCII bytes is left to nlohmann (UTF-8 checks).
void append_json_string(std::string& out, const std::string& s) {
    auto plain = [](unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; };
    if (std::all_of(s.begin(), s.end(), plain)) { // the usual case: copied whole
        out += '"';
        out += s;
        out += '"';
        return;
    }
    for (unsigned char c : s)
        if (c >= 0x80) {
            out += nlohmann::json(s).dump();
            return;
        }
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) fmt::format_to(std::back_inserter(out), "\\u{:04x}", unsigned(c));
            else out += char(c);
        }
    }
    out += '"';
}

} // namespace

std::string access_record::json() const {
    std::string out;
    out.reserve(256);
    char separator = '{';
    auto key = [&](const char* name) {
        out += separator;
        separator = ',';
        out += '"';
        out += name;
        out += "\":";
    };
    auto text = [&](const char* name, const std::string& v) { key(name); append_json_string(out, v); };
    auto optional_text = [&](const char* name, const std::optional<std::string>& v) { if (v) text(name, *v); };
    auto number = [&](const char* name, uint64_t v) { key(name); fmt::format_to(std::back_inserter(out), "{}", v); };
    // Sorted by key, as nlohmann::json's std::map keeps them.
    optional_text("address", address);
    text("context", context);
    if (cpu_cycle) number("cpu_cycle", *cpu_cycle);
    optional_text("detail", detail);
    optional_text("encoding", encoding);
    text("file", file);
    number("line", line);
    text("op", op);
    text("outcome", outcome);
    optional_text("pc", pc);
    if (size) number("size", *size);
    optional_text("syndrome", syndrome);
    optional_text("target", target);
    text("time", time);
    number("time_fs", time_fs);
    optional_text("value", value);
    out += '}';
    return out;
}

} // namespace pmusim
