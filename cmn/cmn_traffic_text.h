#pragma once
// The text grammar of CMN-600 traffic, apart from the CHI engine (cmn_traffic.h): the platform's
// `traffic` and `io` texts and the words of the `traffic` command (cmn_traffic_command.cpp), read
// with the one value grammar (models/values.h) into cmn_generator_config and cmn_io_range.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cmn/cmn_mesh.h"
#include "cmn/cmn_traffic.h"

namespace pmusim {

// The settings a generator takes, KEY=VALUE (apply_cmn_generator_settings).
inline constexpr std::array<std::string_view, 6> cmn_traffic_keys{"rate", "range", "mix", "seed", "start", "count"};

// Parses the `traffic` text: `X,Y pP[.D] rate=R range=LO-HI mix=Op:W,... [seed=N] [start=C] [count=N]`
// per line.
std::vector<cmn_generator_config> parse_cmn_traffic(const cmn_mesh& mesh, const std::string& text,
                                                    const cmn_text_origin& origin,
                                                    const std::vector<cmn_io_range>& io_ranges = {});
// Throws input_error(file, line) when the mesh lacks a home for the generator's range: an HN-F and an
// SN-F or SBSX for the lines outside the I/O ranges.
void check_cmn_generator_homes(const cmn_mesh& mesh, const std::vector<cmn_io_range>& io_ranges,
                               const cmn_generator_config& g, const std::string& file, unsigned line);
// The requester `X,Y` `pP[.D]` of a generator: sets g.xp, g.port, g.device; throws input_error(file, line).
void parse_cmn_requester(const cmn_mesh& mesh, const std::string& xy, const std::string& port,
                         cmn_generator_config& g, const std::string& file, unsigned line);
// Applies `KEY=VALUE` settings (rate, range, mix, seed, start, count) to `g`; throws input_error(file, line).
// `given` collects the keys written.
void apply_cmn_generator_settings(cmn_generator_config& g, const std::vector<std::string>& settings,
                                  std::vector<std::string>& given, const std::string& file, unsigned line);
// The `traffic` statement's words resolved against the mesh: the requester (`X,Y`, `pP[.D]`) and either
// `off` (returns nullopt) or settings applied over the generator running there (`running`, may be null:
// then rate=, range= and mix= are needed). `keep_stream` tells whether the running generator's random
// stream goes on (no seed= written). Throws input_error without a file (the caller names the statement).
struct cmn_traffic_change {
    cmn_generator_config config;
    bool off = false;
    bool keep_stream = false;
};
cmn_traffic_change resolve_cmn_traffic_statement(const cmn_mesh& mesh, const std::vector<cmn_io_range>& io_ranges,
                                                 const std::vector<std::string>& requester,
                                                 const std::vector<std::string>& settings,
                                                 const std::function<const cmn_generator_config*(
                                                     size_t xp, unsigned port, unsigned device)>& running);
// Parses the `io` text: `LO-HI [hniN]` per line (default hni0): I/O ranges served by HN-Is.
std::vector<cmn_io_range> parse_cmn_io_ranges(const cmn_mesh& mesh, const std::string& text,
                                              const cmn_text_origin& origin);

} // namespace pmusim
