#include "tb/atomic_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "models/input_error.h"

namespace pmusim {

atomic_output::atomic_output(std::string path)
    : path_(std::move(path)), temp_(path_ + ".tmp-" + std::to_string(::getpid())) {
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_) throw input_error(path_, 0, std::string("cannot create the output file: ") + std::strerror(errno));
}

atomic_output::~atomic_output() {
    if (committed_) return;
    out_.close();
    std::remove(temp_.c_str());
}

void atomic_output::commit() {
    out_.flush();
    const bool written = out_.good();
    out_.close();
    if (!written || out_.fail()) {
        std::remove(temp_.c_str());
        committed_ = true;
        throw input_error(path_, 0, "writing the output file failed (disk full?); nothing was written");
    }
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
        const int e = errno;
        std::remove(temp_.c_str());
        committed_ = true;
        throw input_error(path_, 0, std::string("cannot rename the finished output into place: ") + std::strerror(e));
    }
    committed_ = true;
}

} // namespace pmusim
