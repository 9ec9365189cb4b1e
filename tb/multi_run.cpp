#include "tb/multi_run.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "models/input_error.h"

namespace pmusim {

namespace fs = std::filesystem;

std::vector<std::string> sequence_files(const std::vector<std::string>& arguments) {
    std::vector<std::string> files;
    for (const auto& a : arguments) {
        std::error_code ec;
        if (!fs::is_directory(a, ec)) {
            files.push_back(a); // a missing file becomes that file's error testcase
            continue;
        }
        std::vector<std::string> found;
        for (fs::recursive_directory_iterator it(a, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".seq" && it->is_regular_file(ec)) found.push_back(it->path().string());
        if (ec) throw input_error(a, 0, "cannot list the folder: " + ec.message());
        if (found.empty()) throw input_error(a, 0, "the folder holds no .seq file");
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A private folder for the children's captured output and results, removed at the end.
struct scratch_dir {
    std::string path;
    scratch_dir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/pmusim-run-XXXXXX";
        if (!::mkdtemp(pattern.data())) throw input_error(pattern, 0, std::string("cannot create a scratch folder: ") + std::strerror(errno));
        path = pattern;
    }
    ~scratch_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(size_t i, const char* kind) const { return fmt::format("{}/{}.{}", path, i, kind); }
};

// In the child: stdout and stderr into files, run the file, leave the suite as JSON, exit
// with the file's status without returning into the parent's stack.
[[noreturn]] void child(const scratch_dir& dir, size_t i, const std::string& file,
                        const std::function<junit_suite(const std::string&, int&)>& run_one) {
    int status = 3;
    const int out = ::open(dir.file(i, "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(dir.file(i, "err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(status);
    try {
        junit_suite suite = run_one(file, status);
        std::cout.flush();
        std::cerr.flush();
        std::ofstream(dir.file(i, "json"), std::ios::binary) << junit_suite_to_json(suite);
    } catch (const std::exception& e) {
        // Never unwind into the parent's loop, which this process shares a copy of.
        std::cerr << "pmusim: model error: " << e.what() << std::endl;
        status = 3;
    }
    std::fflush(nullptr);
    ::_exit(status);
}

const char* verdict_word(int status) { return status == 0 ? "PASS" : status == 1 ? "FAIL" : "ERROR"; }

} // namespace

multi_run_result run_files_in_children(const std::vector<std::string>& files, unsigned jobs,
                                       const std::function<junit_suite(const std::string&, int&)>& run_one) {
    scratch_dir dir;
    std::vector<pid_t> pids(files.size(), -1);
    std::vector<int> status(files.size(), -1); // -1 while running or not started
    std::vector<int> wait_status(files.size(), 0);
    size_t started = 0, printed = 0;
    unsigned running = 0;
    multi_run_result result;
    unsigned passed = 0, failed = 0, errors = 0;
    std::cout.flush();
    std::cerr.flush();
    while (printed < files.size()) {
        while (running < std::max(1u, jobs) && started < files.size()) {
            const pid_t pid = ::fork();
            if (pid < 0) throw input_error("", 0, std::string("cannot start a process: ") + std::strerror(errno));
            if (pid == 0) child(dir, started, files[started], run_one);
            pids[started++] = pid;
            ++running;
        }
        int wstatus = 0;
        const pid_t done = ::waitpid(-1, &wstatus, 0);
        if (done < 0) {
            if (errno == EINTR) continue;
            throw input_error("", 0, std::string("waiting for a file's process failed: ") + std::strerror(errno));
        }
        const auto it = std::find(pids.begin(), pids.end(), done);
        if (it == pids.end()) continue; // not one of ours
        --running;
        const size_t i = size_t(it - pids.begin());
        wait_status[i] = wstatus;
        status[i] = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 3;
        // Relay every finished file that has no unfinished file before it: the output order is
        // the order of `files` whatever -j is.
        for (; printed < started && status[printed] >= 0; ++printed) {
            const size_t k = printed;
            std::cout << slurp(dir.file(k, "out")) << std::flush;
            std::cerr << slurp(dir.file(k, "err")) << std::flush;
            const std::string json = slurp(dir.file(k, "json"));
            junit_suite suite;
            if (!json.empty() && WIFEXITED(wait_status[k]) && status[k] <= 3) {
                suite = junit_suite_from_json(json);
            } else {
                // No result: the child died (a signal) or could not capture its output.
                suite.name = files[k];
                const int w = wait_status[k];
                std::string why = WIFSIGNALED(w) ? fmt::format("{}: the run ended with signal {} ({})", files[k],
                                                               WTERMSIG(w), strsignal(WTERMSIG(w)))
                                      : fmt::format("{}: the run ended without a result (exit {})", files[k], status[k]);
                std::cerr << "pmusim: model error: " << why << '\n';
                suite.testcases.push_back({files[k], junit_testcase::verdict::error, "model error", why, 0});
                status[k] = 3;
            }
            (status[k] == 0 ? passed : status[k] == 1 ? failed : errors)++;
            std::cout << fmt::format("{} {} (exit {})", verdict_word(status[k]), files[k], status[k]) << std::endl;
            result.suites.push_back(std::move(suite));
            result.status = std::max(result.status, status[k]);
        }
    }
    std::cout << fmt::format("pmusim: {} files: {} passed, {} failed, {} errors", files.size(), passed, failed, errors)
              << std::endl;
    return result;
}

} // namespace pmusim
