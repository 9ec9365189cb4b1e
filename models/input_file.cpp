#include "models/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "models/input_error.h"

namespace pmusim {

std::string read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what,
                            const std::string& from_file, unsigned from_line) {
    const bool named_elsewhere = !from_file.empty();
    auto fail = [&](const std::string& why) -> input_error {
        return named_elsewhere ? input_error(from_file, from_line, what + " '" + path + "': " + why)
                               : input_error(path, 0, "cannot read the " + what + ": " + why);
    };
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw fail("is a directory; expected a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw fail(std::strerror(errno));
    std::string text;
    char buf[1 << 16];
    while (in) {
        in.read(buf, sizeof buf);
        text.append(buf, size_t(in.gcount()));
        if (text.size() > max_bytes)
            throw fail(fmt::format("larger than {} bytes, the limit for {} {} (docs/reliability.md)", max_bytes,
                                   !what.empty() && std::string("aeiou").find(what.front()) != std::string::npos ? "an" : "a", what));
    }
    if (in.bad()) throw fail("read error");
    return text;
}

line_read getline_bounded(std::istream& in, std::string& line, uint64_t max_bytes) {
    line.clear();
    if (!in.good()) return line_read::end;
    for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
        if (c == '\n') return line_read::ok;
        if (line.size() >= max_bytes) return line_read::too_long;
        line.push_back(char(c));
    }
    return line.empty() ? line_read::end : line_read::ok;
}

} // namespace pmusim
