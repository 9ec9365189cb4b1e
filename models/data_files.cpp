#include "models/data_files.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace pmusim {
namespace {
namespace fs = std::filesystem;

// Only this file sees the build-time source path, so every other object file is the same in
// any checkout (and a compiler cache shares them).
fs::path installed_data_dir() {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    fs::path dir = fs::path(std::string(buf, size_t(n))).parent_path().parent_path() / "share" / "pmusim";
    std::error_code ec;
    return fs::is_directory(dir, ec) ? dir : fs::path();
}

} // namespace

std::string source_dir() { return PMUSIM_SOURCE_DIR; }

std::string data_dir() {
    if (const char* env = std::getenv("PMUSIM_DATA_DIR"); env && *env) return env;
    static const std::string found = [] {
        fs::path d = installed_data_dir();
        return d.empty() ? source_dir() : d.string();
    }();
    return found;
}

std::string data_file(std::string_view relative) { return data_dir() + "/" + std::string(relative); }

} // namespace pmusim
