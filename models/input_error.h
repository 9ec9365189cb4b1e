#pragma once
// Bad user input (sequence files, platform/scenario YAML, command-line values).
// Every such error names the file and line and says what was expected; the
// command turns it into exit code 2 (see docs/sequence-language.md).
#include <stdexcept>
#include <string>

namespace pmusim {

class input_error : public std::runtime_error {
public:
    // `origin`, when not empty, says how file:line was reached and follows it in what():
    // "b.seq:3 (included from a.seq:7): message" (sequence files' include and repeat).
    input_error(std::string file, unsigned line, const std::string& message, std::string origin = {})
        : std::runtime_error(format(file, line, message, origin)), file_(std::move(file)), line_(line),
          message_(message), origin_(std::move(origin)) {}
    const std::string& file() const { return file_; }
    unsigned line() const { return line_; }
    const std::string& origin() const { return origin_; }
    // The message without the "file:line: " prefix.
    const std::string& message() const { return message_; }

private:
    static std::string format(const std::string& file, unsigned line, const std::string& message,
                              const std::string& origin) {
        if (file.empty()) return message;
        if (line == 0) return file + origin + ": " + message;
        return file + ":" + std::to_string(line) + origin + ": " + message;
    }
    std::string file_;
    unsigned line_;
    std::string message_;
    std::string origin_;
};

// An internal inconsistency of the model itself (exit code 3), never the user's fault.
class model_error : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

} // namespace pmusim
