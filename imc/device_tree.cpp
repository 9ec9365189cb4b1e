#include "imc/device_tree.h"

#include <cctype>
#include <fmt/format.h>

#include "models/input_error.h"

namespace pmusim::imc {

dt_property dt_property::string(std::string name, std::string value) {
    dt_property p;
    p.name = std::move(name);
    p.type = kind::strings;
    p.strings = {std::move(value)};
    return p;
}

dt_property dt_property::u32(std::string name, std::vector<uint64_t> values) {
    dt_property p;
    p.name = std::move(name);
    p.type = kind::cells;
    p.refs.assign(values.size(), "");
    p.cells = std::move(values);
    return p;
}

dt_property dt_property::u64(std::string name, std::vector<uint64_t> values) {
    dt_property p = u32(std::move(name), std::move(values));
    p.cell_bits = 64;
    return p;
}

dt_property dt_property::reference(std::string name, std::string label) {
    dt_property p = u32(std::move(name), {0});
    p.refs[0] = std::move(label);
    return p;
}

const dt_property* dt_node::find(std::string_view prop) const {
    for (const auto& p : props)
        if (p.name == prop) return &p;
    return nullptr;
}

void dt_node::set(dt_property p) {
    for (auto& q : props)
        if (q.name == p.name) {
            q = std::move(p);
            return;
        }
    props.push_back(std::move(p));
}

std::optional<std::string> dt_node::string_of(std::string_view prop) const {
    const dt_property* p = find(prop);
    if (!p || p->type != dt_property::kind::strings || p->strings.empty()) return std::nullopt;
    return p->strings.front();
}

std::optional<uint64_t> dt_node::cell_of(std::string_view prop) const {
    const dt_property* p = find(prop);
    if (!p || p->type != dt_property::kind::cells || p->cells.empty()) return std::nullopt;
    return p->cells.front();
}

const dt_node* dt_node::find_label(const std::string& wanted) const {
    if (!wanted.empty() && label == wanted) return this;
    for (const auto& c : children)
        if (const dt_node* n = c.find_label(wanted)) return n;
    return nullptr;
}

namespace {

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == ',' || c == '.' || c == '_' || c == '+' || c == '-' ||
           c == '#' || c == '@' || c == '?';
}

class dts_parser {
public:
    dts_parser(std::string_view text, const std::string& file) : s_(text), file_(file) {}

    dt_node parse() {
        skip();
        expect_word("/dts-v1/");
        expect(';');
        skip();
        if (!peek('/')) fail("'/ {' (the root node)");
        ++pos_;
        dt_node root = parse_node_body("/", "", line_);
        skip();
        if (pos_ != s_.size()) fail("end of file after the root node");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& expected) {
        std::string found = pos_ >= s_.size() ? "end of file" : "'" + std::string(s_.substr(pos_, 12)) + "'";
        auto nl = found.find('\n');
        if (nl != std::string::npos) found = found.substr(0, nl) + "'";
        throw input_error(file_, line_, fmt::format("expected {}, found {}", expected, found));
    }

    void skip() {
        while (pos_ < s_.size()) {
            char c = s_[pos_];
            if (c == '\n') {
                ++line_;
                ++pos_;
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++pos_;
            } else if (s_.compare(pos_, 2, "//") == 0) {
                while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
            } else if (s_.compare(pos_, 2, "/*") == 0) {
                auto end = s_.find("*/", pos_ + 2);
                if (end == std::string_view::npos) fail("'*/' closing the comment");
                for (size_t i = pos_; i < end; ++i) line_ += s_[i] == '\n';
                pos_ = end + 2;
            } else {
                break;
            }
        }
    }

    bool peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }

    void expect(char c) {
        skip();
        if (!peek(c)) fail(fmt::format("'{}'", c));
        ++pos_;
    }

    void expect_word(std::string_view w) {
        if (s_.compare(pos_, w.size(), w) != 0) fail("'" + std::string(w) + "'");
        pos_ += w.size();
    }

    std::string word() {
        size_t start = pos_;
        while (pos_ < s_.size() && name_char(s_[pos_])) ++pos_;
        return std::string(s_.substr(start, pos_ - start));
    }

    // After the node name: `{ props and children };`
    dt_node parse_node_body(std::string name, std::string label, unsigned line) {
        dt_node n;
        n.name = std::move(name);
        n.label = std::move(label);
        n.line = line;
        expect('{');
        for (;;) {
            skip();
            if (peek('}')) {
                ++pos_;
                expect(';');
                return n;
            }
            unsigned item_line = line_;
            std::string first = word();
            if (first.empty()) fail("a property or node name, or '}'");
            skip();
            std::string label_here;
            if (peek(':')) { // `label: node-name {`
                ++pos_;
                label_here = first;
                skip();
                first = word();
                if (first.empty()) fail(fmt::format("a node name after the label '{}:'", label_here));
                skip();
            }
            if (peek('{')) {
                n.children.push_back(parse_node_body(first, label_here, item_line));
                continue;
            }
            if (!label_here.empty()) fail(fmt::format("'{{' opening the node labelled '{}'", label_here));
            dt_property p;
            p.name = first;
            p.line = item_line;
            if (peek(';')) {
                ++pos_;
                n.props.push_back(std::move(p));
                continue;
            }
            if (!peek('=')) fail(fmt::format("'=', ';' or '{{' after '{}'", first));
            ++pos_;
            parse_values(p);
            n.props.push_back(std::move(p));
        }
    }

    void parse_values(dt_property& p) {
        for (;;) {
            skip();
            if (peek('"')) {
                if (p.type == dt_property::kind::cells) fail("cells only, not strings mixed with cells");
                p.type = dt_property::kind::strings;
                p.strings.push_back(quoted());
            } else if (peek('<') || s_.compare(pos_, 6, "/bits/") == 0) {
                if (p.type == dt_property::kind::strings) fail("strings only, not cells mixed with strings");
                p.type = dt_property::kind::cells;
                if (peek('/')) {
                    pos_ += 6;
                    skip();
                    std::string bits = word();
                    if (bits != "64" && bits != "32") fail("32 or 64 after /bits/");
                    p.cell_bits = unsigned(std::stoul(bits));
                    skip();
                }
                cells(p);
            } else {
                fail(fmt::format("a string \"...\" or cells <...> for property '{}'", p.name));
            }
            skip();
            if (peek(',')) {
                ++pos_;
                continue;
            }
            expect(';');
            return;
        }
    }

    std::string quoted() {
        ++pos_; // opening quote
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            if (s_[pos_] == '\n') fail("'\"' closing the string on the same line");
            if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
            out += s_[pos_++];
        }
        if (!peek('"')) fail("'\"' closing the string");
        ++pos_;
        return out;
    }

    void cells(dt_property& p) {
        if (!peek('<')) fail("'<' opening a cell list");
        ++pos_;
        for (;;) {
            skip();
            if (peek('>')) {
                ++pos_;
                return;
            }
            if (peek('&')) {
                ++pos_;
                std::string l = word();
                if (l.empty()) fail("a label after '&'");
                p.cells.push_back(0);
                p.refs.push_back(l);
                continue;
            }
            std::string tok = word();
            if (tok.empty()) fail("a number, &label or '>' in the cell list");
            try {
                size_t used = 0;
                uint64_t v = std::stoull(tok, &used, 0);
                if (used != tok.size()) throw std::invalid_argument(tok);
                if (p.cell_bits == 32 && v > 0xffffffffULL) fail(fmt::format("a 32-bit cell, not {}", tok));
                p.cells.push_back(v);
                p.refs.push_back("");
            } catch (const std::logic_error&) {
                throw input_error(file_, line_, fmt::format("expected a number in the cell list of '{}', found '{}'",
                                                            p.name, tok));
            }
        }
    }

    std::string_view s_;
    std::string file_;
    size_t pos_ = 0;
    unsigned line_ = 1;
};

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o;
}

void format_node(const dt_node& n, unsigned depth, std::string& out) {
    std::string ind(depth, '\t');
    out += ind;
    if (!n.label.empty()) out += n.label + ": ";
    out += n.name + " {\n";
    for (const auto& p : n.props) {
        out += ind + '\t' + p.name;
        switch (p.type) {
        case dt_property::kind::empty: break;
        case dt_property::kind::strings: {
            out += " = ";
            for (size_t i = 0; i < p.strings.size(); ++i)
                out += (i ? ", \"" : "\"") + escape(p.strings[i]) + "\"";
            break;
        }
        case dt_property::kind::cells: {
            out += p.cell_bits == 64 ? " = /bits/ 64 <" : " = <";
            for (size_t i = 0; i < p.cells.size(); ++i) {
                if (i) out += ' ';
                out += i < p.refs.size() && !p.refs[i].empty() ? "&" + p.refs[i] : fmt::format("{:#x}", p.cells[i]);
            }
            out += '>';
            break;
        }
        }
        out += ";\n";
    }
    for (const auto& c : n.children) {
        out += '\n';
        format_node(c, depth + 1, out);
    }
    out += ind + "};\n";
}

} // namespace

dt_node parse_dts(std::string_view text, const std::string& file) { return dts_parser(text, file).parse(); }

std::string format_dts(const dt_node& root, bool header) {
    std::string out = header ? "/dts-v1/;\n\n" : "";
    format_node(root, 0, out);
    return out;
}

} // namespace pmusim::imc
