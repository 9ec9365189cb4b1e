#pragma once
// Bash completion generated from the command line definition itself (every subcommand and its
// options), so that it cannot drift from `pmusim --help`. `pmusim completion bash` prints it;
// the build writes it to pmusim.bash and `make install` puts it where bash-completion looks.
#include <CLI/CLI.hpp>
#include <string>

namespace pmusim {

std::string bash_completion(const CLI::App& app);

} // namespace pmusim
