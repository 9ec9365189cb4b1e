// The file-level directives of the sequence language (docs/sequence-language.md, "Files,
// names and loops"): `include FILE`, `let NAME = EXPR` and `repeat N` ... `end`. They are
// expanded while the file is read, before anything runs, into the flat statement list the
// runner executes; every statement keeps the file and line it was written at, and its
// origin says through which includes and repeat iterations it was reached.
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "models/limits.h"
#include "tb/sequence_parser.h"

namespace pmusim::seq {

namespace {

namespace fs = std::filesystem;

struct source_line {
    std::string_view text;
    unsigned number;
};

std::vector<source_line> split_lines(std::string_view text, unsigned first_line) {
    std::vector<source_line> lines;
    unsigned n = first_line;
    size_t start = 0;
    while (start <= text.size()) {
        size_t nl = text.find('\n', start);
        lines.push_back({text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start), n++});
        if (nl == std::string_view::npos) break;
        start = nl + 1;
    }
    return lines;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

// The line without its comment, split into the first word and the trimmed rest.
std::pair<std::string_view, std::string_view> directive_parts(std::string_view line) {
    std::string_view code = trim(line.substr(0, line.find('#')));
    size_t end = 0;
    while (end < code.size() && !is_blank(code[end])) ++end;
    return {code.substr(0, end), trim(code.substr(end))};
}

// " (a, b)" from frames innermost first; empty for none.
std::string render_origin(const std::vector<std::string>& frames) {
    if (frames.empty()) return {};
    std::string s = " (";
    for (size_t i = 0; i < frames.size(); ++i) s += (i ? ", " : "") + frames[i];
    return s + ")";
}

class expander {
public:
    explicit expander(std::vector<statement>& out) : out_(out) {}

    void top_file(std::string_view text, const std::string& file, unsigned first_line) {
        include_stack_.push_back({file, fs::weakly_canonical(fs::path(file), ec_)});
        read_bytes_ = std::min<uint64_t>(text.size(), limits::max_sequence_file_bytes);
        auto lines = split_lines(text, first_line);
        // Room for one statement a line: a plain file fills it without the vector's doublings,
        // whose old and new buffers together would be the peak (includes and repeats may grow it).
        out_.reserve(std::min<size_t>(lines.size(), limits::max_sequence_statements));
        block(lines, 0, lines.size(), file, {});
    }

private:
    struct open_file {
        std::string file;        // as messages name it
        fs::path canonical;      // for cycle detection
    };

    [[noreturn]] void fail(const std::string& file, unsigned line, const std::vector<std::string>& frames,
                           const std::string& message) const {
        throw input_error(file, line, message, render_origin(frames));
    }

    // Runs `f`, giving an input_error it throws about `file` the origin `frames`.
    template <class F> auto with_origin(const std::string& file, const std::vector<std::string>& frames, F&& f) {
        try {
            return f();
        } catch (const input_error& e) {
            if (frames.empty() || e.file() != file || !e.origin().empty()) throw;
            throw input_error(e.file(), e.line(), e.message(), render_origin(frames));
        }
    }

    // One line (of `bytes` bytes, its newline included) reached through an include or a repeat.
    void spend(const std::string& file, unsigned line, const std::vector<std::string>& frames, uint64_t bytes = 0) {
        if (budget_ == 0)
            fail(file, line, frames,
                 "the includes and repeats expand to more than " + std::to_string(limits::max_expanded_sequence_lines) +
                     " lines; expected a smaller repeat count (docs/reliability.md \"Limits\")");
        if (bytes > byte_budget_) too_many_bytes(file, line, frames);
        --budget_;
        byte_budget_ -= bytes;
    }
    [[noreturn]] void too_many_bytes(const std::string& file, unsigned line, const std::vector<std::string>& frames) const {
        fail(file, line, frames,
             "the includes and repeats expand to more than " + std::to_string(limits::max_expanded_sequence_bytes) +
                 " bytes; expected a smaller repeat count or shorter lines (docs/reliability.md \"Limits\")");
    }

    // Lines [begin, end) of `file`, reached through `frames`.
    void block(const std::vector<source_line>& lines, size_t begin, size_t end, const std::string& file,
               const std::vector<std::string>& frames) {
        std::shared_ptr<const std::string> origin; // made at the first statement: most iterations of a
                                                   // large repeat of directives need none
        for (size_t i = begin; i < end; ++i) {
            const source_line& l = lines[i];
            if (!frames.empty()) spend(file, l.number, frames, l.text.size() + 1);
            auto [word, rest] = directive_parts(l.text);
            if (std::string_view t = trim(l.text); word.empty() && t.rfind("# test:", 0) == 0) {
                std::string_view name = trim(t.substr(7));
                label_ = name.empty() ? nullptr : std::make_shared<const std::string>(name);
                continue;
            }
            if (word == "let") {
                let(rest, file, l.number, frames);
            } else if (word == "include") {
                include(rest, file, l.number, frames);
            } else if (word == "repeat") {
                i = repeat(lines, i, end, rest, file, frames);
            } else if (word == "end") {
                fail(file, l.number, frames, "expected 'end' only to close a 'repeat' block, found 'end' without one");
            } else {
                auto s = with_origin(file, frames, [&] { return parse_line(l.text, file, l.number, &names_); });
                if (!s) continue;
                if (std::holds_alternative<platform_decl>(s->body)) {
                    if (include_stack_.size() > 1)
                        fail(file, l.number, frames,
                             "expected 'platform' only in the file given to pmusim, found it in an included file");
                    if (!frames.empty())
                        fail(file, l.number, frames, "expected 'platform' only as the first statement of the file, "
                                                     "found it inside a 'repeat' block");
                    if (!out_.empty()) {
                        const statement& first = out_.front();
                        const bool here = first.file == file && !first.origin;
                        fail(file, l.number, frames,
                             "expected 'platform' only as the first statement of the file, found it after the "
                             "statement at " + (here ? "line " + std::to_string(first.line) : location(first)));
                    }
                }
                if (!frames.empty() && !origin) origin = std::make_shared<const std::string>(render_origin(frames));
                s->origin = origin;
                s->label = label_;
                // Every statement is held until the run ends (about 300 bytes each): a bound on their
                // number bounds the memory whatever the lines' length (6-byte lines filling 256 MiB
                // would be 44 million statements, about 10 GB).
                if (out_.size() == limits::max_sequence_statements)
                    fail(file, l.number, frames,
                         "more than " + std::to_string(limits::max_sequence_statements) +
                             " statements; expected a shorter sequence (docs/reliability.md \"Limits\")");
                out_.push_back(std::move(*s));
            }
        }
    }

    uint64_t expression(std::string_view text, const std::string& file, unsigned line,
                        const std::vector<std::string>& frames, std::string_view context) {
        return with_origin(file, frames, [&] { return evaluate(text, names_, file, line, context); });
    }

    // let NAME = EXPR
    void let(std::string_view rest, const std::string& file, unsigned line, const std::vector<std::string>& frames) {
        size_t eq = rest.find('=');
        std::string_view name = trim(rest.substr(0, eq));
        if (eq == std::string_view::npos || !is_value_name(name))
            fail(file, line, frames,
                 "expected 'let NAME = VALUE' with NAME made of letters, digits and _ (not starting with a digit), "
                 "found 'let " + std::string(rest) + "'");
        std::string_view value = trim(rest.substr(eq + 1));
        if (value.empty()) fail(file, line, frames, "expected a value after 'let " + std::string(name) + " =', found end of line");
        names_[std::string(name)] = expression(value, file, line, frames, "after 'let " + std::string(name) + " ='");
    }

    // include FILE: the file's lines, in place, relative to the including file's directory.
    void include(std::string_view rest, const std::string& file, unsigned line, const std::vector<std::string>& frames) {
        std::string_view target = rest;
        if (target.size() >= 2 && target.front() == '"' && target.back() == '"') target = target.substr(1, target.size() - 2);
        if (target.empty()) fail(file, line, frames, "expected a file name after 'include', found end of line");
        fs::path p(std::string{target});
        if (p.is_relative()) p = fs::path(file).parent_path() / p;
        const std::string shown = p.lexically_normal().string();
        if (include_stack_.size() > limits::max_include_depth)
            fail(file, line, frames,
                 "expected includes nested at most " + std::to_string(limits::max_include_depth) +
                     " deep, found a deeper one ('" + shown + "')");
        std::error_code ec;
        if (!fs::is_regular_file(p, ec))
            fail(file, line, frames, "cannot include '" + shown + "': " + (fs::exists(p, ec) ? "not a regular file" : "no such file"));
        const fs::path canonical = fs::weakly_canonical(p, ec);
        for (size_t k = 0; k < include_stack_.size(); ++k)
            if (include_stack_[k].canonical == canonical) {
                std::string chain;
                for (size_t j = k; j < include_stack_.size(); ++j) chain += include_stack_[j].file + " includes ";
                fail(file, line, frames, "include cycle: " + chain + shown + "; expected each file at most once in a chain of includes");
            }
        const std::string& text = contents(p, canonical, shown, file, line, frames);
        std::vector<std::string> inner{"included from " + file + ":" + std::to_string(line)};
        inner.insert(inner.end(), frames.begin(), frames.end());
        include_stack_.push_back({shown, canonical});
        auto lines = split_lines(text, 1);
        block(lines, 0, lines.size(), shown, inner);
        include_stack_.pop_back();
    }

    // Read once per run: a repeat may include the same file many times.
    const std::string& contents(const fs::path& p, const fs::path& canonical, const std::string& shown,
                                const std::string& file, unsigned line, const std::vector<std::string>& frames) {
        auto it = cache_.find(canonical.string());
        if (it != cache_.end()) return it->second;
        // Read in chunks against the budget, not trusting the size the file system reports
        // (a /proc file says 0 and may be endless).
        const uint64_t allowed = limits::max_sequence_file_bytes - read_bytes_;
        std::ifstream in(p, std::ios::binary);
        if (!in) fail(file, line, frames, "cannot include '" + shown + "': cannot read the file");
        std::string text;
        char chunk[65536];
        while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
            text.append(chunk, size_t(in.gcount()));
            if (text.size() > allowed)
                fail(file, line, frames,
                     "cannot include '" + shown + "': the sequence file and the files it includes exceed " +
                         std::to_string(limits::max_sequence_file_bytes) + " bytes (docs/reliability.md \"Limits\")");
        }
        if (in.bad()) fail(file, line, frames, "cannot include '" + shown + "': cannot read the file");
        read_bytes_ += text.size();
        return cache_.emplace(canonical.string(), std::move(text)).first->second;
    }

    // repeat N ... end; returns the index of the `end` line.
    size_t repeat(const std::vector<source_line>& lines, size_t at, size_t end, std::string_view rest,
                  const std::string& file, const std::vector<std::string>& frames) {
        const unsigned line = lines[at].number;
        if (rest.empty()) fail(file, line, frames, "expected a count after 'repeat', found end of line");
        const uint64_t count = expression(rest, file, line, frames, "after 'repeat'");
        if (count > limits::max_repeat_count)
            fail(file, line, frames,
                 "expected a repeat count of at most " + std::to_string(limits::max_repeat_count) + ", found " +
                     std::to_string(count));
        if (repeat_depth_ >= limits::max_repeat_nesting)
            fail(file, line, frames,
                 "expected 'repeat' blocks nested at most " + std::to_string(limits::max_repeat_nesting) + " deep");
        // The matching `end`: repeat/end pairs nest; the search stops at the enclosing block's end.
        size_t close = at + 1;
        for (unsigned open = 1; close < end; ++close) {
            auto [word, tail] = directive_parts(lines[close].text);
            if (word == "repeat") ++open;
            if (word == "end" && --open == 0) {
                if (!tail.empty()) fail(file, lines[close].number, frames, "expected end of line after 'end', found '" + std::string(tail) + "'");
                break;
            }
        }
        if (close >= end)
            fail(file, line, frames, "expected an 'end' closing this 'repeat' before the end of the file");
        // Refused before the first iteration when the body alone, count times, is over the byte
        // budget (nested repeats and includes in it are counted once here, so never wrongly):
        // a 10 KB line repeated 10^6 times would otherwise build 256 MiB of statements first.
        uint64_t body_bytes = 0;
        for (size_t k = at + 1; k < close; ++k) body_bytes += lines[k].text.size() + 1;
        if (body_bytes && count > byte_budget_ / body_bytes) too_many_bytes(file, line, frames);
        ++repeat_depth_;
        std::vector<std::string> inner(1);
        inner.insert(inner.end(), frames.begin(), frames.end());
        for (uint64_t k = 1; k <= count; ++k) {
            spend(file, line, frames);
            inner[0] = "iteration " + std::to_string(k) + " of " + std::to_string(count) + " of the repeat at " + file +
                       ":" + std::to_string(line);
            block(lines, at + 1, close, file, inner);
        }
        --repeat_depth_;
        return close;
    }

    std::vector<statement>& out_;
    name_table names_;
    std::shared_ptr<const std::string> label_; // the last `# test: LABEL` line's label
    std::vector<open_file> include_stack_;
    std::unordered_map<std::string, std::string> cache_;
    uint64_t read_bytes_ = 0;
    uint64_t budget_ = limits::max_expanded_sequence_lines;
    uint64_t byte_budget_ = limits::max_expanded_sequence_bytes;
    unsigned repeat_depth_ = 0;
    std::error_code ec_;
};

} // namespace

std::vector<statement> parse_sequence(std::string_view text, const std::string& file, unsigned first_line) {
    std::vector<statement> out;
    expander(out).top_file(text, file, first_line);
    return out;
}

} // namespace pmusim::seq
