// `pmusim sweep` and `pmusim sweep merge` (tb/sweep.h, docs/whatif.md).
#include "tb/sweep.h"

#include "vp/param_overrides.h"
#include "vp/yaml_nodes.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

// GCC 12 reports a false -Wdangling-pointer inside yaml-cpp 0.7's inline node code; clang has no such warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "models/data_files.h"
#include "models/input_error.h"
#include "models/input_file.h"
#include "models/limits.h"
#include "models/atomic_output.h"
#include "tb/results_columns.h"
#include "tb/sweep_sampling.h"
#include "tb/scenario.h"
#include "vp/unit_list.h"

namespace pmusim {
namespace fs = std::filesystem;

namespace {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

// One CSV record (RFC 4180: a quoted field may hold commas, doubled quotes and line breaks).
// `line` is the file line the record starts on; `next_line` advances past it. False at the end.
bool read_csv_record(std::istream& in, std::vector<std::string>& cells, unsigned& line, unsigned& next_line,
                     const std::string& file) {
    cells.clear();
    std::string text;
    if (!std::getline(in, text)) return false;
    line = ++next_line;
    std::string cur;
    bool quoted = false;
    for (;;) {
        for (size_t i = 0; i < text.size(); ++i) {
            char c = text[i];
            if (quoted) {
                if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') cur += '"', ++i;
                else if (c == '"') quoted = false;
                else cur += c;
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                cells.push_back(cur);
                cur.clear();
            } else if (c != '\r') {
                cur += c;
            }
        }
        if (!quoted) break;
        if (!std::getline(in, text)) throw input_error(file, line, "a quoted field that starts here never ends");
        ++next_line;
        cur += '\n';
    }
    cells.push_back(cur);
    return true;
}

// A decimal count: digits only (no sign, no spaces), below 2^64.
bool parse_u64(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 20) return false;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        const unsigned d = unsigned(c - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    out = v;
    return true;
}

std::string point_dir_name(uint64_t index) { return fmt::format("p{:05}", index); }

// A metric value as CSV text: integers exactly, other numbers with 12 significant digits.
std::string metric_text(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return fmt::format("{:.12g}", v.get<double>());
    return v.dump();
}

std::string tools_dir() {
    if (const char* env = std::getenv("PMUSIM_TOOLS")) return env;
    return pmusim::data_file("tools/whatif");
}

// Starts argv with stdout and stderr to files; returns the pid.
pid_t start(const std::vector<std::string>& argv, const fs::path& out, const fs::path& err) {
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (o < 0 || e < 0 || in < 0) _exit(126);
        dup2(o, 1);
        dup2(e, 2);
        dup2(in, 0);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    return pid;
}

// 64-bit FNV-1a: a stable digest (the same on every host and build) of what decides a point's
// result, kept in its done record so a resumed sweep reuses only points of the same sweep.
uint64_t fnv1a(const std::string& s, uint64_t h = 0xcbf29ce484222325ull) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

} // namespace

std::vector<std::string> sweep_spec::point(uint64_t index) const {
    if (!listed.empty()) return listed.at(size_t(index));
    std::vector<std::string> values(axes.size());
    for (size_t a = axes.size(); a-- > 0;) {
        values[a] = axes[a][size_t(index % axes[a].size())];
        index /= axes[a].size();
    }
    return values;
}

std::pair<uint64_t, uint64_t> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    uint64_t k = 0, n = 0;
    if (slash != std::string::npos && parse_u64(text.substr(0, slash), k) && parse_u64(text.substr(slash + 1), n) &&
        n >= 1 && k < n)
        return {k, n};
    throw input_error("", 0, "--shard " + text + ": expected K/N, decimal numbers with 0 <= K < N < 2^64 (e.g. 0/4 .. 3/4)");
}

// `sample: { method: random|lhs, points: N, seed: S }` with a grid: N points of the grid's values
// (tb/sweep_sampling.h), listed like `points:` so everything downstream is unchanged.
template <class Fail> void sample_the_grid(sweep_spec& s, const YAML::Node& smp, Fail fail) {
    if (s.axes.empty()) fail(smp, "sample: only with 'grid' (it picks points from the grid's value lists)");
    if (!smp.IsMap()) fail(smp, "sample: expected a map { method: random|lhs, points: N, seed: S }");
    for (auto it = smp.begin(); it != smp.end(); ++it)
        if (it->first.Scalar() != "method" && it->first.Scalar() != "points" && it->first.Scalar() != "seed")
            fail(it->first, "sample: unknown key '" + it->first.Scalar() + "'; allowed keys: method, points, seed");
    const YAML::Node m = smp["method"], n = smp["points"], seed = smp["seed"];
    if (!m || !m.IsScalar() || (m.Scalar() != "random" && m.Scalar() != "lhs"))
        fail(m ? m : smp, "sample.method: expected random or lhs");
    uint64_t points = 0, seed_value = 0;
    if (!n || !n.IsScalar() || !parse_u64(n.Scalar(), points) || points == 0 || points > 1'000'000)
        fail(n ? n : smp, "sample.points: expected a number of points, 1 to 1000000");
    if (seed && (!seed.IsScalar() || !parse_u64(seed.Scalar(), seed_value)))
        fail(seed, "sample.seed: expected an unsigned integer");
    std::vector<size_t> sizes;
    for (const auto& a : s.axes) sizes.push_back(a.size());
    const auto rows = sample_grid(sizes, m.Scalar() == "lhs" ? sweep_sampling::lhs : sweep_sampling::random, points, seed_value);
    for (const auto& r : rows) {
        std::vector<std::string> values;
        for (size_t p = 0; p < r.size(); ++p) values.push_back(s.axes[p][r[p]]);
        s.listed.push_back(std::move(values));
    }
    s.axes.clear();
    s.point_count = s.listed.size();
}

sweep_spec load_sweep(const std::string& path) {
    if (fs::is_directory(path)) throw input_error(path, 0, "is a folder: expected a sweep file (.yaml)");
    return parse_sweep(read_input_file(path, limits::max_scenario_file_bytes, "sweep file"), path);
}

sweep_spec parse_sweep(const std::string& text, const std::string& path) {
    sweep_spec s;
    s.file = path;
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw input_error(path, e.mark.is_null() ? 0 : unsigned(e.mark.line) + 1, "malformed YAML: " + e.msg);
    }
    auto fail = [&](const YAML::Node& n, const std::string& m) -> void { throw input_error(path, yaml_line(n) ? yaml_line(n) : 1, m); };
    if (!root.IsMap()) fail(root, "top level: expected a map with scenario and grid or points");
    static const std::set<std::string> keys = {"scenario", "grid", "points", "analysis", "stats", "description", "sample"};
    for (auto it = root.begin(); it != root.end(); ++it)
        if (!keys.count(it->first.Scalar()))
            fail(it->first, "unknown top-level key '" + it->first.Scalar() + "'; allowed keys: scenario, grid, points, analysis, stats, description, sample");
    if (!root["scenario"] || !root["scenario"].IsScalar()) fail(root, "scenario: expected the path of a scenario file");
    s.scenario = (fs::path(path).parent_path() / root["scenario"].Scalar()).lexically_normal().string();
    if (std::error_code ec; !fs::is_regular_file(s.scenario, ec))
        fail(root["scenario"], "scenario: '" + s.scenario + "' " +
                                   (fs::is_directory(s.scenario, ec) ? "is a directory; expected a scenario file (.yaml)"
                                    : fs::exists(s.scenario, ec)    ? "is not a regular file; expected a scenario file (.yaml)"
                                                                    : "does not exist; expected a scenario file (.yaml)"));
    const bool grid = bool(root["grid"]), list = bool(root["points"]);
    if (grid == list) fail(root, "expected exactly one of 'grid' (a map NAME: [values]) or 'points' (a list of maps)");
    std::set<std::string> names;
    auto add_param = [&](const YAML::Node& key) {
        const std::string& name = key.Scalar();
        if (name.empty() || name == "point" || name == "exit")
            fail(key, "'" + name + "' cannot be a parameter name (the columns point and exit are the sweep's own)");
        if (!names.insert(name).second) fail(key, "parameter '" + name + "' appears twice");
        s.params.push_back(name);
        s.param_lines.push_back(yaml_line(key));
    };
    if (grid) {
        YAML::Node g = root["grid"];
        if (!g.IsMap() || g.size() == 0) fail(g, "grid: expected a map NAME: [VALUE, ...]");
        s.point_count = 1;
        for (auto it = g.begin(); it != g.end(); ++it) {
            add_param(it->first);
            if (!it->second.IsSequence() || it->second.size() == 0)
                fail(it->second, "grid." + it->first.Scalar() + ": expected a non-empty list of values");
            std::vector<std::string> vals;
            // A copy: yaml-cpp's it->second lives only as long as the iterator's proxy object,
            // so a range-for over it would read a destroyed node (found by ASan).
            const YAML::Node values = it->second;
            for (const auto& v : values) {
                if (!v.IsScalar()) fail(v, "grid." + it->first.Scalar() + ": expected scalar values");
                vals.push_back(v.Scalar());
            }
            if (s.point_count > UINT64_MAX / vals.size())
                fail(it->first, "grid: more than 2^64-1 points (the product of the lists' lengths)");
            s.point_count *= vals.size();
            s.axes.push_back(std::move(vals));
        }
    } else {
        YAML::Node l = root["points"];
        if (!l.IsSequence() || l.size() == 0) fail(l, "points: expected a non-empty list of maps NAME: VALUE");
        for (size_t i = 0; i < l.size(); ++i) {
            if (!l[i].IsMap()) fail(l[i], fmt::format("points[{}]: expected a map NAME: VALUE", i));
            std::vector<std::string> point_names, values;
            for (auto it = l[i].begin(); it != l[i].end(); ++it) {
                if (i == 0) add_param(it->first);
                if (!it->second.IsScalar()) fail(it->second, fmt::format("points[{}].{}: expected a scalar value", i, it->first.Scalar()));
                point_names.push_back(it->first.Scalar());
                values.push_back(it->second.Scalar());
            }
            if (point_names != s.params)
                fail(l[i], fmt::format("points[{}]: expected the same names in the same order as points[0]", i));
            s.listed.push_back(std::move(values));
        }
        s.point_count = s.listed.size();
    }
    if (YAML::Node smp = root["sample"]) sample_the_grid(s, smp, fail); // tb/sweep_sampling.h
    if (YAML::Node a = root["analysis"]) {
        if (!a.IsSequence() || a.size() == 0) fail(a, "analysis: expected a command as a list like [python3, \"{tools}/fie_analysis.py\", \"{out}\"]");
        for (const auto& t : a) s.analysis.push_back(t.Scalar());
    }
    if (YAML::Node a = root["stats"]) {
        if (!a.IsSequence()) fail(a, "stats: expected a list of INSTANCE.EVENT names (stats.json events)");
        for (const auto& t : a) {
            if (!t.IsScalar() || t.Scalar().find('.') == std::string::npos)
                fail(t, "stats: expected INSTANCE.EVENT names such as dsu0.cycles");
            if (names.count(t.Scalar())) fail(t, "stats: '" + t.Scalar() + "' is also a parameter name (one column each)");
            if (std::find(s.stats.begin(), s.stats.end(), t.Scalar()) != s.stats.end())
                fail(t, "stats: '" + t.Scalar() + "' appears twice");
            s.stats.push_back(t.Scalar());
            s.stats_lines.push_back(yaml_line(t));
        }
    }
    return s;
}

void check_sweep_params(const sweep_spec& spec) {
    if (spec.point_count == 0) return;
    const std::vector<std::string> first = spec.point(0);
    for (size_t i = 0; i < spec.params.size(); ++i) {
        try {
            load_scenario(spec.scenario, {{spec.params[i], first[i]}});
        } catch (const input_error& e) {
            // Only a name the scenario or its platform lacks is refused here; a value that makes a
            // point invalid fails that point alone (its row keeps the exit code). These are the
            // scenario loader's messages for an undeclared parameter and a missing platform path.
            const std::string& m = e.message();
            const bool unknown_name = m.find("is not declared in the scenario's params") != std::string::npos ||
                                      m.find("the platform has no") != std::string::npos ||
                                      m.find("expected a path to a key of a map") != std::string::npos;
            if (unknown_name) throw input_error(spec.file, spec.param_lines[i], spec.params[i] + ": " + e.what());
        }
    }
}

void check_sweep_overrides(const sweep_spec& spec, const std::vector<std::string>& overrides) {
    std::vector<param_override> parsed = parse_override_arguments(overrides);
    if (parsed.empty() || spec.point_count == 0) return;
    std::map<std::string, std::string> first;
    const std::vector<std::string> values = spec.point(0);
    for (size_t i = 0; i < spec.params.size(); ++i) first[spec.params[i]] = values[i];
    scenario s;
    try {
        s = load_scenario(spec.scenario, first);
    } catch (const input_error&) {
        return; // the point's own error, reported in its row like any other point's
    }
    apply_param_overrides(s.platform_text, s.platform.file, s.platform, parsed);
}

void list_sweep(const sweep_spec& spec, const sweep_options& opt, std::ostream& out) {
    out << "point";
    for (const auto& p : spec.params) out << ',' << csv_field(p);
    out << '\n';
    for (uint64_t idx = opt.shard; idx < spec.point_count; idx += opt.shards) {
        out << idx;
        for (const auto& v : spec.point(idx)) out << ',' << csv_field(v);
        out << '\n';
        if (spec.point_count - idx <= opt.shards) break; // idx + shards would pass the end (or wrap)
    }
}

namespace {

std::string header(const sweep_spec& spec, const std::vector<std::string>& metric_names) {
    std::string h = "point";
    for (const auto& p : spec.params) h += "," + csv_field(p);
    h += ",exit";
    for (const auto& t : typed_column_names(spec.params)) h += "," + csv_field(t); // tb/results_columns.h
    for (const auto& m : metric_names) h += "," + csv_field(m);
    return h;
}

// A shard's results.csv is complete when results.csv.complete sits next to it, written after the
// CSV was renamed into place: "pmusim sweep results: shard K/N, R rows". `sweep merge` refuses a
// results file without it (the run was interrupted, or the file was copied alone) and one whose
// rows do not match it (truncated, edited, or rows missing from the shard).
const char* const complete_suffix = ".complete";

std::string complete_line(uint64_t shard, uint64_t shards, uint64_t rows) {
    return fmt::format("pmusim sweep results: shard {}/{}, {} rows", shard, shards, rows);
}

// A point is done when points/pNNNNN/point.done holds its codes and the key of what produced
// them, written last (atomically) after simulate and the analysis ended. A re-run of the sweep in
// the same folder skips such points when the key matches.
const char* const done_file = "point.done";

struct point_codes {
    int exit = 0;     // simulate's exit code
    int analysis = 0; // the analysis command's (2 also when its JSON is not acceptable)
    int code() const { return exit ? exit : analysis ? 10 + analysis : 0; } // the row's exit column
};

std::string done_line(uint64_t index, const point_codes& c, uint64_t key) {
    return fmt::format("pmusim sweep point {}: exit {}, analysis {}, key {:016x}", index, c.exit, c.analysis, key);
}

bool read_done(const fs::path& dir, uint64_t index, uint64_t key, point_codes& c) {
    std::ifstream f(dir / done_file);
    std::string line;
    if (!f || !std::getline(f, line)) return false;
    int e = 0, a = 0;
    unsigned long long i = 0, k = 0;
    if (std::sscanf(line.c_str(), "pmusim sweep point %llu: exit %d, analysis %d, key %llx", &i, &e, &a, &k) != 4) return false;
    if (i != index || k != key || line != done_line(index, {e, a}, key)) return false;
    c = {e, a};
    return true;
}

// What decides a point's result: the scenario (its path and text), the analysis command and the
// point's parameter values. Files the scenario includes are not in it: after editing those, run
// with --no-resume (docs/whatif.md, "Resume").
uint64_t point_key(const sweep_spec& spec, const std::vector<std::string>& overrides, const std::string& scenario_text,
                   const std::vector<std::string>& values) {
    uint64_t h = fnv1a(spec.scenario);
    for (const auto& o : overrides) h = fnv1a(std::string(1, '\0') + "-C " + o, h); // none: keys as before -C existed
    h = fnv1a(std::string(1, '\0') + scenario_text, h);
    for (const auto& a : spec.analysis) h = fnv1a(std::string(1, '\0') + a, h);
    for (size_t i = 0; i < values.size(); ++i) h = fnv1a(std::string(1, '\0') + spec.params[i] + "=" + values[i], h);
    return h;
}

// The analysis's JSON object: its keys become columns, so none may be a parameter, a stats
// column, point or exit. Returns an error text, or "" when acceptable (and fills `metrics`).
std::string read_analysis(const sweep_spec& spec, const fs::path& dir, std::map<std::string, std::string>* metrics) {
    std::ifstream f(dir / "analysis.json");
    nlohmann::json a;
    try {
        a = nlohmann::json::parse(f);
    } catch (const std::exception& e) {
        return std::string("analysis.json: expected one JSON object: ") + e.what();
    }
    if (!a.is_object()) return "analysis.json: expected one JSON object {\"metric\": value, ...}";
    for (auto it = a.begin(); it != a.end(); ++it) {
        const std::string& k = it.key();
        const auto typed = typed_column_names(spec.params);
        if (k == "point" || k == "exit" || std::find(typed.begin(), typed.end(), k) != typed.end() ||
            std::find(spec.params.begin(), spec.params.end(), k) != spec.params.end() ||
            std::find(spec.stats.begin(), spec.stats.end(), k) != spec.stats.end())
            return "analysis.json: key '" + k + "' is the name of a parameter, a stats column, a typed column, point or exit; " +
                   "an analysis may not overwrite them";
        if (metrics) (*metrics)[k] = metric_text(it.value());
    }
    return "";
}

// The stats columns of a point: counts of INSTANCE.EVENT from its stats.json. An unknown name
// (stats.json lists every event of every unit, counted or not) is bad input in the sweep file.
std::map<std::string, std::string> read_stats(const sweep_spec& spec, const fs::path& dir, bool check_names) {
    std::map<std::string, std::string> out;
    if (spec.stats.empty()) return out;
    nlohmann::json st;
    try {
        std::ifstream f(dir / "stats.json");
        st = nlohmann::json::parse(f);
    } catch (const std::exception&) {
        return out;
    }
    if (!st.contains("events")) return out;
    for (const auto& e : st["events"])
        out[e["instance"].get<std::string>() + "." + e["event"].get<std::string>()] = std::to_string(e["count"].get<uint64_t>());
    if (check_names)
        for (size_t i = 0; i < spec.stats.size(); ++i)
            if (!out.count(spec.stats[i]))
                throw input_error(spec.file, spec.stats_lines[i],
                                  "stats: no event '" + spec.stats[i] + "' on the scenario's platform (" +
                                      (dir / "stats.json").string() + " lists every INSTANCE.EVENT, e.g. dsu0.cycles)");
    return out;
}

// The progress line on a terminal, as `simulate` draws one: points done of the shard, running,
// failed, resumed, host time and an estimate of the time left.
class sweep_progress {
public:
    sweep_progress(bool on, uint64_t total) : on_(on), total_(total), start_(std::chrono::steady_clock::now()) {}
    uint64_t done = 0, resumed = 0, failed = 0;
    void show(size_t running) const {
        if (!on_) return;
        const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        const uint64_t ran = done - resumed;
        std::string left = ran ? fmt::format("about {:.1f} s left", host / double(ran) * double(total_ - done)) : "time left unknown";
        std::cerr << fmt::format("\rpmusim sweep: {} of {} points done ({} resumed), {} running, {} failed, host {:.1f} s, {}   ",
                                 done, total_, resumed, running, failed, host, left)
                  << std::flush;
    }
    void finish() const {
        if (on_) std::cerr << '\n';
    }

private:
    bool on_;
    uint64_t total_;
    std::chrono::steady_clock::time_point start_;
};

// An exclusive flock on the output folder itself, held until the sweep returns; the kernel drops it
// when the process ends, however it ends, so no stale lock file is ever left behind.
class output_folder_lock {
public:
    explicit output_folder_lock(const std::string& dir) : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
        if (fd_ < 0) throw input_error(dir, 0, std::string("cannot open the output folder: ") + std::strerror(errno));
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int e = errno;
            ::close(fd_);
            throw input_error(dir, 0, e == EWOULDBLOCK
                                          ? std::string("another pmusim sweep is writing this output folder; wait for it "
                                                        "to end or give another -o")
                                          : std::string("cannot lock the output folder: ") + std::strerror(e));
        }
    }
    ~output_folder_lock() { ::close(fd_); }
    output_folder_lock(const output_folder_lock&) = delete;
    output_folder_lock& operator=(const output_folder_lock&) = delete;

private:
    int fd_;
};

} // namespace

int run_sweep(const sweep_spec& spec, const sweep_options& opt) {
    std::error_code ec;
    fs::create_directories(fs::path(opt.out_dir) / "points", ec);
    if (ec) throw input_error(opt.out_dir, 0, "cannot create the output folder: " + ec.message());
    // One sweep at a time per folder: a second one would remove and rerun the first's points under
    // it, and a point's collision (simulate refusing a folder in use, exit 2) would be recorded as
    // its result and kept by every resume (docs/reliability.md, "Classes of failure").
    const output_folder_lock lock(opt.out_dir);
    // A previous run's results must not pass for this one's if this one is interrupted.
    const fs::path results_path = fs::path(opt.out_dir) / "results.csv";
    const fs::path complete_path = results_path.string() + complete_suffix;
    fs::remove(complete_path, ec);
    fs::remove(results_path, ec);
    const std::string scenario_text = read_file(spec.scenario);
    const uint64_t shard_points = spec.point_count > opt.shard ? (spec.point_count - opt.shard - 1) / opt.shards + 1 : 0;
    auto point_dir = [&](uint64_t idx) { return fs::path(opt.out_dir) / "points" / point_dir_name(idx); };

    struct running {
        uint64_t index;
        bool analysis;
        point_codes codes;
    };
    std::map<pid_t, running> active;
    std::map<uint64_t, point_codes> unrecorded; // points ended by a signal: not done, run again next time
    sweep_progress progress(opt.progress && isatty(STDERR_FILENO), shard_points);
    bool stats_checked = spec.stats.empty();
    auto stop_all = [&] {
        for (const auto& [pid, _] : active) kill(pid, SIGTERM);
        for (const auto& [pid, _] : active) waitpid(pid, nullptr, 0);
        active.clear();
        progress.finish();
    };

    auto start_simulate = [&](uint64_t idx, const std::vector<std::string>& values) {
        fs::path dir = point_dir(idx);
        // A point's folder is one run's set: what an earlier run (or its analysis) left is removed.
        fs::remove_all(dir, ec);
        fs::create_directories(dir);
        std::vector<std::string> argv = {opt.self_exe, "simulate", spec.scenario, "-o", dir.string(), "--no-progress"};
        for (const auto& o : opt.overrides) argv.push_back("--param=" + o);
        for (size_t i = 0; i < spec.params.size(); ++i) argv.push_back("--set=" + spec.params[i] + "=" + values[i]);
        active[start(argv, dir / "simulate.out", dir / "simulate.err")] = {idx, false, {}};
    };
    auto start_analysis = [&](uint64_t idx, point_codes codes) {
        fs::path dir = point_dir(idx);
        std::vector<std::string> argv;
        bool has_out = false;
        for (std::string t : spec.analysis) {
            for (auto [key, val] : {std::pair<std::string, std::string>{"{out}", dir.string()}, {"{tools}", tools_dir()}}) {
                for (size_t at; (at = t.find(key)) != std::string::npos;) {
                    t.replace(at, key.size(), val);
                    if (key == "{out}") has_out = true;
                }
            }
            argv.push_back(t);
        }
        if (!has_out) argv.push_back(dir.string());
        active[start(argv, dir / "analysis.json", dir / "analysis.err")] = {idx, true, codes};
    };

    uint64_t next = opt.shard;
    bool more = shard_points > 0;
    auto advance = [&] {
        if (spec.point_count - next <= opt.shards) more = false; // next + shards would pass the end (or wrap)
        else next += opt.shards;
    };
    const unsigned jobs = std::max(1u, opt.jobs);
    progress.show(0);
    try {
        while (more || !active.empty()) {
            while (active.size() < jobs && more) {
                const uint64_t idx = next;
                advance();
                const std::vector<std::string> values = spec.point(idx);
                point_codes codes;
                if (opt.resume && read_done(point_dir(idx), idx, point_key(spec, opt.overrides, scenario_text, values), codes)) {
                    ++progress.done, ++progress.resumed;
                    if (codes.code()) ++progress.failed;
                    continue;
                }
                start_simulate(idx, values);
            }
            progress.show(active.size());
            if (active.empty()) continue;
            int wstatus = 0;
            pid_t pid = waitpid(-1, &wstatus, 0);
            if (pid < 0) break;
            auto it = active.find(pid);
            if (it == active.end()) continue;
            running r = it->second;
            active.erase(it);
            const bool signalled = !WIFEXITED(wstatus);
            const int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
            const fs::path dir = point_dir(r.index);
            if (!r.analysis) {
                r.codes.exit = code;
                if (code == 0 && !stats_checked) {
                    read_stats(spec, dir, true); // throws for an unknown stats: name, before more points run
                    stats_checked = true;
                }
                if (code == 0 && !spec.analysis.empty()) {
                    start_analysis(r.index, r.codes);
                    continue;
                }
            } else {
                r.codes.analysis = code;
                if (code == 0) {
                    const std::string error = read_analysis(spec, dir, nullptr);
                    if (!error.empty()) {
                        r.codes.analysis = 2;
                        std::ofstream(dir / "analysis.err", std::ios::app) << "pmusim sweep: " << (dir / "analysis.json").string()
                                                                          << ": " << error << '\n';
                    }
                }
            }
            ++progress.done;
            if (r.codes.code()) ++progress.failed;
            if (signalled) {
                unrecorded[r.index] = r.codes;
                continue;
            }
            atomic_output done((dir / done_file).string());
            done.stream() << done_line(r.index, r.codes, point_key(spec, opt.overrides, scenario_text, spec.point(r.index))) << '\n';
            done.commit();
        }
    } catch (...) {
        stop_all();
        throw;
    }
    progress.show(0);
    progress.finish();

    // The rows come from the points' folders (this run's and resumed ones alike), so a resumed
    // sweep writes the same bytes as one uninterrupted run. Two passes keep memory independent
    // of the number of points: the analysis metric names first, then the rows.
    auto codes_of = [&](uint64_t idx) {
        point_codes c;
        auto u = unrecorded.find(idx);
        if (u != unrecorded.end()) return u->second;
        if (!read_done(point_dir(idx), idx, point_key(spec, opt.overrides, scenario_text, spec.point(idx)), c))
            throw model_error(fmt::format("sweep: point {} ran but has no done record", idx));
        return c;
    };
    auto for_each_point = [&](auto&& visit) {
        for (uint64_t idx = opt.shard; idx < spec.point_count; idx += opt.shards) {
            visit(idx);
            if (spec.point_count - idx <= opt.shards) break;
        }
    };
    std::set<std::string> analysis_names;
    if (!spec.analysis.empty())
        for_each_point([&](uint64_t idx) {
            std::map<std::string, std::string> m;
            if (codes_of(idx).code() == 0 && read_analysis(spec, point_dir(idx), &m).empty())
                for (const auto& [k, _] : m) analysis_names.insert(k);
        });
    // Columns: stats in the order given, then the analysis metrics sorted by name.
    std::vector<std::string> metric_names = spec.stats;
    metric_names.insert(metric_names.end(), analysis_names.begin(), analysis_names.end());
    atomic_output results_file(results_path.string());
    std::ofstream& csv = results_file.stream();
    csv << header(spec, metric_names) << '\n';
    int status = 0;
    for_each_point([&](uint64_t idx) {
        const point_codes c = codes_of(idx);
        std::map<std::string, std::string> metrics;
        if (c.exit == 0) {
            metrics = read_stats(spec, point_dir(idx), !stats_checked);
            stats_checked = true;
        }
        if (c.code() == 0 && !spec.analysis.empty()) read_analysis(spec, point_dir(idx), &metrics);
        if (c.code()) {
            status = 1;
            std::cerr << fmt::format("pmusim sweep: point {} failed (exit {}); see {}\n", idx, c.code(), point_dir(idx).string());
        }
        csv << idx;
        for (const auto& v : spec.point(idx)) csv << ',' << csv_field(v);
        csv << ',' << c.code();
        const auto typed = typed_column_values(spec.params, spec.point(idx), point_dir(idx));
        for (const auto& t : typed_column_names(spec.params)) csv << ',' << csv_field(typed.at(t));
        for (const auto& m : metric_names) {
            auto f = metrics.find(m);
            csv << ',' << (f == metrics.end() ? "" : csv_field(f->second));
        }
        csv << '\n';
    });
    results_file.commit();
    atomic_output complete(complete_path.string());
    complete.stream() << complete_line(opt.shard, opt.shards, shard_points) << '\n';
    complete.commit();
    return status;
}

int merge_sweep(const sweep_spec& spec, const std::vector<std::string>& inputs, const std::string& output) {
    struct row {
        std::vector<std::string> cells;
        std::string source;
    };
    // The output may not be one of the inputs (nor its marker): merging over a shard destroys it.
    std::error_code ec;
    const fs::path out_real = fs::weakly_canonical(output, ec);
    for (const auto& in : inputs) {
        const fs::path p = fs::is_directory(in) ? fs::path(in) / "results.csv" : fs::path(in);
        const fs::path in_real = fs::weakly_canonical(p, ec);
        if (out_real == in_real || out_real == fs::path(in_real.string() + complete_suffix))
            throw input_error(output, 0, "the merged output is one of the inputs (" + p.string() + "); refusing to overwrite it");
    }
    std::map<uint64_t, row> rows;
    std::vector<std::string> head;       // every input's header must be this one
    std::string head_source;
    for (const auto& in : inputs) {
        fs::path p = fs::is_directory(in) ? fs::path(in) / "results.csv" : fs::path(in);
        std::ifstream f(p, std::ios::binary);
        if (!f || fs::is_directory(p)) throw input_error(p.string(), 0, "cannot read this results CSV");
        // The completion marker says which shard this is and how many rows it holds.
        const std::string marker = p.string() + complete_suffix;
        std::ifstream mf(marker, std::ios::binary);
        if (!mf)
            throw input_error(p.string(), 0, "incomplete shard: " + marker + " is missing (the sweep that writes this file " +
                                                 "did not finish, or the file was copied without it); run the shard again");
        std::string mline;
        std::getline(mf, mline);
        uint64_t m_shard = 0, m_shards = 0, m_rows = 0;
        {
            char tail = 0;
            unsigned long long k = 0, n = 0, r = 0;
            if (std::sscanf(mline.c_str(), "pmusim sweep results: shard %llu/%llu, %llu rows%c", &k, &n, &r, &tail) != 3 ||
                n == 0 || k >= n || mline != complete_line(k, n, r))
                throw input_error(marker, 1, "expected 'pmusim sweep results: shard K/N, R rows', found '" + mline + "'");
            m_shard = k, m_shards = n, m_rows = r;
        }
        const std::string shard_name = fmt::format("shard {}/{}", m_shard, m_shards);
        std::vector<std::string> cells;
        unsigned line = 0, next_line = 0;
        if (!read_csv_record(f, cells, line, next_line, p.string()))
            throw input_error(p.string(), 1, "empty file: expected a header line");
        std::vector<std::string> expect_start = {"point"};
        for (const auto& n : spec.params) expect_start.push_back(n);
        expect_start.push_back("exit");
        if (cells.size() < expect_start.size() || !std::equal(expect_start.begin(), expect_start.end(), cells.begin()))
            throw input_error(p.string(), 1, "header does not match the sweep " + spec.file + " (expected it to start with " +
                                                 header(spec, {}) + ")");
        if (head_source.empty()) {
            head = cells;
            head_source = p.string();
        } else if (cells != head) {
            std::string mine, theirs;
            for (const auto& c : cells)
                if (std::find(head.begin(), head.end(), c) == head.end()) mine += " " + c;
            for (const auto& c : head)
                if (std::find(cells.begin(), cells.end(), c) == cells.end()) theirs += " " + c;
            throw input_error(p.string(), 1,
                              "columns differ from " + head_source + "'s" +
                                  (mine.empty() ? "" : "; only here:" + mine) + (theirs.empty() ? "" : "; only there:" + theirs) +
                                  (mine.empty() && theirs.empty() ? " (the same columns in another order)" : "") +
                                  " (shards of one sweep have the same columns; was one run with another analysis or stats?)");
        }
        std::set<uint64_t> in_file;
        while (read_csv_record(f, cells, line, next_line, p.string())) {
            if (cells.size() == 1 && cells[0].empty()) continue; // a blank line
            if (cells.size() != head.size())
                throw input_error(p.string(), line, fmt::format("expected {} fields, found {}", head.size(), cells.size()));
            uint64_t idx = 0;
            if (!parse_u64(cells[0], idx))
                throw input_error(p.string(), line, "point: expected a point number, found '" + cells[0] + "'");
            if (idx >= spec.point_count)
                throw input_error(p.string(), line, fmt::format("point {} is not in the sweep (it has points 0..{})", idx,
                                                                spec.point_count - 1));
            const std::vector<std::string> values = spec.point(idx);
            for (size_t k = 0; k < spec.params.size(); ++k)
                if (cells[1 + k] != values[k])
                    throw input_error(p.string(), line, fmt::format("point {}: {} is '{}' here but '{}' in the sweep", idx,
                                                                    spec.params[k], cells[1 + k], values[k]));
            if (idx % m_shards != m_shard)
                throw input_error(p.string(), line, fmt::format("point {} does not belong to {} (its marker {})", idx,
                                                                shard_name, marker));
            auto prev = rows.find(idx);
            if (prev != rows.end())
                throw input_error(p.string(), line, fmt::format("duplicate point {} (also in {})", idx, prev->second.source));
            in_file.insert(idx);
            rows[idx] = {cells, fmt::format("{}:{}", p.string(), line)};
        }
        // Every point of the shard, exactly as many rows as the marker promised.
        std::string absent;
        uint64_t absent_count = 0;
        for (uint64_t idx = m_shard; idx < spec.point_count; idx += m_shards) {
            if (!in_file.count(idx)) {
                ++absent_count;
                if (absent_count <= 20) absent += (absent.empty() ? "" : " ") + std::to_string(idx);
            }
            if (spec.point_count - idx <= m_shards) break;
        }
        if (absent_count)
            throw input_error(p.string(), 0, fmt::format("partial shard: {} of {} lacks {} point(s): {}{}", shard_name,
                                                         spec.file, absent_count, absent, absent_count > 20 ? " ..." : ""));
        if (in_file.size() != m_rows)
            throw input_error(p.string(), 0, fmt::format("partial shard: {} holds {} rows but {} says {}", p.string(),
                                                         in_file.size(), marker, m_rows));
    }
    atomic_output merged(output);
    std::ofstream& out = merged.stream();
    for (size_t k = 0; k < head.size(); ++k) out << (k ? "," : "") << csv_field(head[k]);
    out << '\n';
    for (const auto& [idx, r] : rows) {
        for (size_t k = 0; k < r.cells.size(); ++k) out << (k ? "," : "") << csv_field(r.cells[k]);
        out << '\n';
    }
    merged.commit();
    const uint64_t missing = spec.point_count - rows.size();
    if (missing) {
        std::string list;
        unsigned listed = 0;
        for (uint64_t idx = 0; idx < spec.point_count && listed < 50; ++idx)
            if (!rows.count(idx)) list += (listed++ ? " " : "") + std::to_string(idx);
        std::cerr << fmt::format("pmusim sweep merge: {} of {} points missing: {}{}\n", missing, spec.point_count, list,
                                 missing > listed ? " ..." : "");
        return 1;
    }
    return 0;
}

} // namespace pmusim
