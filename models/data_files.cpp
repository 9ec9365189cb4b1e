#include "models/data_files.h"

#include <climits>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <unistd.h>

namespace pmusim {
namespace {
namespace fs = std::filesystem;

// Only this file sees the build-time source path, so every other object file is the same in
// any checkout (and a compiler cache shares them).
// <prefix>/share/pmusim for a binary or library in <prefix>/bin, <prefix>/lib or
// <prefix>/lib/<multiarch>, when that folder exists.
fs::path share_dir_near(const fs::path& binary) {
    std::error_code ec;
    for (fs::path up = binary.parent_path(); up.has_relative_path(); up = up.parent_path()) {
        fs::path dir = up.parent_path() / "share" / "pmusim";
        if (fs::is_directory(dir, ec)) return dir;
        if (up.filename() != "lib" && up.parent_path().filename() != "lib") break; // two levels at most
    }
    return {};
}

fs::path installed_data_dir() {
    // The running binary first (the pmusim command) ...
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0)
        if (fs::path dir = share_dir_near(fs::path(std::string(buf, size_t(n)))); !dir.empty()) return dir;
    // ... then the library holding this code (libpmusim.so linked into a user's sc_main).
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&installed_data_dir), &info) && info.dli_fname)
        if (fs::path dir = share_dir_near(fs::weakly_canonical(info.dli_fname)); !dir.empty()) return dir;
    return {};
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
