#pragma once
// Every file pmusim writes (JSON log, JUnit, VCD, generated docs, what-if outputs) goes through
// atomic_output (docs/reliability.md, "Outputs"):
// - a regular file (or a new name) appears under its name only when complete: it is written to
//   "<name>.tmp-<pid>" in the same directory and renamed over the name by commit(); an interrupted
//   run (Ctrl-C, a crash, a full disk) leaves at most the temporary file, which the next run
//   writing the same name removes once its process is gone;
// - `-` is standard output, and a special file (character device such as /dev/null, FIFO,
//   socket) is written in place, streaming: it is never replaced by a regular file;
// - a symbolic link is followed: its target is replaced, the link stays.
// refuse_inputs_as_outputs() refuses, before any work, an output that is one of the run's inputs.
// output_folder makes a folder of outputs one consistent set.
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace pmusim {

class atomic_output {
public:
    explicit atomic_output(std::string path); // throws input_error when the file cannot be created
    ~atomic_output();                          // without commit(): removes the temporary file
    atomic_output(const atomic_output&) = delete;
    atomic_output& operator=(const atomic_output&) = delete;

    std::ofstream& stream() { return file_; }
    // Flushes, checks every write succeeded (input_error naming the file otherwise, e.g. a full
    // disk) and renames the temporary file to the final name (in-place outputs: only the checks).
    void commit();

private:
    std::string path_;   // as the user wrote it, for messages
    std::string target_; // what is replaced: the path with symbolic links followed
    std::string temp_;   // empty: written in place
    std::ofstream file_;
    bool committed_ = false;
};

// Where a path leads: symbolic links followed (also a dangling one, to the file it would create).
std::filesystem::path output_target(const std::string& path);

// Throws input_error (exit 2) naming the output when it is the same file as one of the inputs
// (`run in.seq --log-json in.seq`, `--vcd plat.yaml`): to be called before any work.
// `-` and empty names are skipped; inputs that do not exist cannot be overwritten.
void refuse_inputs_as_outputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

// Throws input_error (exit 2) when two outputs of one run name the same file (`--log-json o.x
// --junit o.x`, also through links or `..`): one would replace the other. `outputs` holds
// (option, path) pairs; `-`, empty names and special files (written in place) are skipped.
void refuse_shared_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// Removes "<name>.tmp-<pid>" files (and folders) beside `target` left by processes that are gone.
void remove_stale_temporaries(const std::filesystem::path& target);

// A folder of outputs (`simulate -o DIR`) that appears complete or not at all: its files are
// written into a fresh folder "<DIR>.tmp-<pid>" beside it, which commit() swaps with DIR in one
// atomic step (renameat2 RENAME_EXCHANGE) and then removes the previous contents. A previous run's
// files therefore never mix with this run's (no stale samples). DIR may hold only files pmusim
// writes there (`owned`): anything else is refused before any work (the folder is replaced whole),
// except `carried` names (the stdout/stderr files `pmusim sweep` opens in a point's folder before
// its simulate runs), which are moved into the new folder right after the swap.
class output_folder {
public:
    output_folder(std::string dir, std::vector<std::string> owned, std::vector<std::string> carried = {});
    ~output_folder(); // without commit(): removes the fresh folder
    output_folder(const output_folder&) = delete;
    output_folder& operator=(const output_folder&) = delete;
    std::filesystem::path file(const std::string& name) const { return fresh_ / name; }
    void commit();

private:
    std::filesystem::path dir_, fresh_;
    std::vector<std::string> carried_;
    bool committed_ = false;
};

} // namespace pmusim
