// Replays fuzz inputs without libFuzzer: every file named on the command line, or in a directory
// named there (sorted), is passed once to LLVMFuzzerTestOneInput. Lets any compiler (the GCC and
// sanitizer builds of CI) run the committed corpora and crash regressions as ctests; a target
// that finds a violation aborts, so the test fails.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("-", 0) == 0) continue; // libFuzzer options (-runs=0) are accepted and ignored
        if (fs::is_directory(arg)) {
            std::vector<fs::path> in_dir;
            for (const auto& e : fs::directory_iterator(arg))
                if (e.is_regular_file()) in_dir.push_back(e.path());
            std::sort(in_dir.begin(), in_dir.end());
            files.insert(files.end(), in_dir.begin(), in_dir.end());
        } else if (fs::exists(arg)) {
            files.emplace_back(arg);
        } else {
            std::fprintf(stderr, "replay: %s does not exist\n", arg.c_str());
            return 2;
        }
    }
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu inputs\n", files.size());
    return 0;
}
