#pragma once
// An output file (JSON log, JUnit, VCD, generated docs) that appears under its name only when it
// is complete: it is written to "<name>.tmp-<pid>" in the same directory and renamed over the
// name by commit(). An interrupted run (Ctrl-C, a crash, a full disk) leaves at most the
// temporary file, never a truncated file under the real name (docs/reliability.md).
#include <fstream>
#include <string>

namespace pmusim {

class atomic_output {
public:
    explicit atomic_output(std::string path); // throws input_error when the file cannot be created
    ~atomic_output();                          // without commit(): removes the temporary file
    atomic_output(const atomic_output&) = delete;
    atomic_output& operator=(const atomic_output&) = delete;

    std::ofstream& stream() { return out_; }
    // Flushes, checks every write succeeded (input_error naming the file otherwise, e.g. a full
    // disk) and renames the temporary file to the final name.
    void commit();

private:
    std::string path_, temp_;
    std::ofstream out_;
    bool committed_ = false;
};

} // namespace pmusim
