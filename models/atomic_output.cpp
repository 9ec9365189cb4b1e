#include "models/atomic_output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "models/input_error.h"

namespace pmusim {

namespace fs = std::filesystem;

namespace {

// A pid whose process is gone (kill(pid, 0) fails with ESRCH). Our own pid is alive.
bool process_gone(const std::string& digits) {
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return false;
    const long pid = std::stol(digits);
    return pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

} // namespace

fs::path output_target(const std::string& path) {
    fs::path p = path;
    std::error_code ec;
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
        fs::path next = fs::read_symlink(p, ec);
        if (ec) break;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    return p;
}

void remove_stale_temporaries(const fs::path& target) {
    const std::string prefix = target.filename().string() + ".tmp-";
    const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        if (!process_gone(name.substr(prefix.size()))) continue;
        std::error_code ignored;
        fs::remove_all(it->path(), ignored);
    }
}

atomic_output::atomic_output(std::string path) : path_(std::move(path)) {
    // `-` is standard output: the special file /dev/stdout, written in place like any other.
    const std::string given = path_ == "-" ? "/dev/stdout" : path_;
    std::error_code ec;
    const fs::file_status st = fs::status(given, ec); // through every link, as the kernel opens it
    if (path_ == "-" || (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st))) {
        // A device, FIFO, socket or pipe: streamed in place (replacing /dev/null would be a disaster);
        // standard output appended to, whatever it is (a regular file keeps what was printed before).
        file_.open(given, std::ios::binary | (path_ == "-" ? std::ios::app : std::ios::out));
        if (!file_) throw input_error(path_, 0, std::string("cannot open the output: ") + std::strerror(errno));
        return;
    }
    const fs::path target = output_target(given);
    target_ = target.string();
    if (fs::is_directory(st)) throw input_error(path_, 0, "is a directory; expected an output file name");
    remove_stale_temporaries(target);
    temp_ = target_ + ".tmp-" + std::to_string(::getpid());
    file_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!file_) throw input_error(path_, 0, std::string("cannot create the output file: ") + std::strerror(errno));
}

atomic_output::~atomic_output() {
    if (committed_ || temp_.empty()) return;
    file_.close();
    std::remove(temp_.c_str());
}

void atomic_output::commit() {
    file_.flush();
    const bool written = file_.good();
    if (temp_.empty()) { // standard output or a special file, written in place
        file_.close();
        committed_ = true;
        if (!written || file_.fail()) throw input_error(path_, 0, "writing the output failed");
        return;
    }
    file_.close();
    if (!written || file_.fail()) {
        std::remove(temp_.c_str());
        committed_ = true;
        throw input_error(path_, 0, "writing the output file failed (disk full?); nothing was written");
    }
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
        const int e = errno;
        std::remove(temp_.c_str());
        committed_ = true;
        throw input_error(path_, 0, std::string("cannot rename the finished output into place: ") + std::strerror(e));
    }
    committed_ = true;
}

void refuse_inputs_as_outputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
    for (const auto& out : outputs) {
        if (out.empty() || out == "-") continue;
        const fs::path target = output_target(out);
        for (const auto& in : inputs) {
            if (in.empty() || in == "-") continue;
            std::error_code ec;
            if (!fs::exists(in, ec)) continue;
            const bool same = fs::exists(target, ec) && fs::equivalent(target, in, ec) && !ec;
            if (same)
                throw input_error(out, 0, "this output is also an input of the run (" + in +
                                              "); refusing to overwrite it: choose another output name");
        }
    }
}

void refuse_shared_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    // Where each output would be written: links followed, the folder's path made canonical.
    auto written_at = [](const std::string& path) -> std::optional<fs::path> {
        if (path.empty() || path == "-") return std::nullopt;
        std::error_code ec;
        const fs::file_status st = fs::status(path, ec);
        if (fs::exists(st) && !fs::is_regular_file(st)) return std::nullopt; // a device or FIFO; a folder is refused later
        const fs::path target = fs::weakly_canonical(fs::absolute(output_target(path), ec), ec);
        return ec ? fs::absolute(path).lexically_normal() : target;
    };
    for (size_t i = 0; i < outputs.size(); ++i) {
        const auto a = written_at(outputs[i].second);
        if (!a) continue;
        for (size_t j = i + 1; j < outputs.size(); ++j) {
            const auto b = written_at(outputs[j].second);
            if (b && *a == *b)
                throw input_error(outputs[j].second, 0,
                                  outputs[i].first + " and " + outputs[j].first +
                                      " name the same file; one would replace the other: give each output a name "
                                      "of its own");
        }
    }
}

output_folder::output_folder(std::string dir, std::vector<std::string> owned, std::vector<std::string> carried)
    : carried_(std::move(carried)) {
    std::error_code ec;
    // Absolute and without a trailing `/` or `.`: `-o out/` and `-o .` name the folder itself, and
    // the fresh folder goes beside it, never inside it.
    dir_ = fs::absolute(output_target(dir), ec).lexically_normal();
    if (!dir_.has_filename()) dir_ = dir_.parent_path();
    if (dir_ == dir_.root_path()) throw input_error(dir, 0, "expected an output folder other than the root folder");
    if (fs::exists(dir_, ec)) {
        if (!fs::is_directory(dir_, ec)) throw input_error(dir, 0, "exists and is not a folder; expected an output folder");
        std::string foreign;
        for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            bool ours = false;
            for (const auto& o : owned)
                ours = ours || name == o || name.compare(0, o.size() + 5, o + ".tmp-") == 0;
            for (const auto& c : carried_) ours = ours || name == c;
            if (!ours) foreign += (foreign.empty() ? "'" : ", '") + name + "'";
        }
        if (!foreign.empty())
            throw input_error(dir, 0, "the output folder holds " + foreign +
                                          ", which this run does not write; the folder is replaced as a whole by "
                                          "each run: choose a new or empty folder");
    }
    if (!dir_.parent_path().empty()) {
        fs::create_directories(dir_.parent_path(), ec);
        if (ec) throw input_error(dir, 0, "cannot create the output folder's parent: " + ec.message());
    }
    remove_stale_temporaries(dir_);
    fresh_ = dir_.string() + ".tmp-" + std::to_string(::getpid());
    fs::remove_all(fresh_, ec);
    fs::create_directory(fresh_, ec);
    if (ec) throw input_error(dir, 0, "cannot create the output folder: " + ec.message());
}

output_folder::~output_folder() {
    if (committed_) return;
    std::error_code ec;
    fs::remove_all(fresh_, ec);
}

void output_folder::commit() {
    committed_ = true;
    std::error_code ec;
    if (!fs::exists(dir_, ec)) {
        if (std::rename(fresh_.c_str(), dir_.c_str()) == 0) return;
    } else if (::renameat2(AT_FDCWD, fresh_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) == 0) {
        // fresh_ now holds the previous folder. Carried files keep their inode (an open stderr
        // keeps writing into them).
        for (const auto& c : carried_) {
            if (fs::exists(fresh_ / c, ec)) fs::rename(fresh_ / c, dir_ / c, ec);
        }
        fs::remove_all(fresh_, ec); // the rest of the previous run's folder
        return;
    }
    const int e = errno;
    fs::remove_all(fresh_, ec);
    throw input_error(dir_.string(), 0, std::string("cannot move the finished outputs into place: ") + std::strerror(e));
}

} // namespace pmusim
