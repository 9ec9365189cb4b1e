// `pmusim sweep` and `pmusim sweep merge` (tb/sweep.h, docs/whatif.md).
#include "tb/sweep.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

// GCC 12 reports a false -Wdangling-pointer inside yaml-cpp 0.7's inline node code; clang has no such warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "models/input_error.h"
#include "tb/atomic_output.h"
#include "models/data_files.h"
#include "tb/scenario.h"
#include "tb/unit_factory.h"

namespace pmusim {
namespace fs = std::filesystem;

namespace {

unsigned line_of(const YAML::Node& n) {
    return n.IsDefined() && !n.Mark().is_null() ? unsigned(n.Mark().line) + 1 : 0;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::vector<std::string> csv_split(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
            else if (c == '"') quoted = false;
            else cur += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string point_dir_name(unsigned index) { return fmt::format("p{:05}", index); }

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

struct point_result {
    int exit = 0;        // simulate's exit code
    int analysis = 0;    // the analysis command's exit code
    std::map<std::string, std::string> metrics;
};

} // namespace

std::pair<unsigned, unsigned> parse_shard(const std::string& text) {
    // Digits only, each part within `unsigned` (what the shard loop counts in): stoul alone takes
    // "-1" and wraps, and 4294967296 would truncate to 0 (a division by zero) or 4294967297 to 1.
    auto part = [](const std::string& t, unsigned long long& v) {
        if (t.empty() || t.size() > 10 || t.find_first_not_of("0123456789") != std::string::npos) return false;
        v = std::stoull(t);
        return v <= std::numeric_limits<unsigned>::max();
    };
    auto slash = text.find('/');
    unsigned long long k = 0, n = 0;
    if (slash != std::string::npos && part(text.substr(0, slash), k) && part(text.substr(slash + 1), n) && n >= 1 &&
        k < n)
        return {unsigned(k), unsigned(n)};
    throw input_error("", 0,
                      fmt::format("--shard {}: expected K/N with 0 <= K < N <= {} (e.g. 0/4 .. 3/4)", text,
                                  std::numeric_limits<unsigned>::max()));
}

sweep_spec load_sweep(const std::string& path) {
    sweep_spec s;
    s.file = path;
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile&) {
        throw input_error(path, 0, "cannot read the sweep file");
    } catch (const YAML::Exception& e) {
        throw input_error(path, e.mark.is_null() ? 0 : unsigned(e.mark.line) + 1, "malformed YAML: " + e.msg);
    }
    auto fail = [&](const YAML::Node& n, const std::string& m) -> void { throw input_error(path, line_of(n) ? line_of(n) : 1, m); };
    if (!root.IsMap()) fail(root, "top level: expected a map with scenario and grid or points");
    static const std::set<std::string> keys = {"scenario", "grid", "points", "analysis", "stats", "description"};
    for (auto it = root.begin(); it != root.end(); ++it)
        if (!keys.count(it->first.Scalar()))
            fail(it->first, "unknown top-level key '" + it->first.Scalar() + "'; allowed keys: scenario, grid, points, analysis, stats, description");
    if (!root["scenario"] || !root["scenario"].IsScalar()) fail(root, "scenario: expected the path of a scenario file");
    s.scenario = (fs::path(path).parent_path() / root["scenario"].Scalar()).lexically_normal().string();
    if (!fs::exists(s.scenario)) fail(root["scenario"], "scenario: no file '" + s.scenario + "'");
    const bool grid = bool(root["grid"]), list = bool(root["points"]);
    std::vector<unsigned> param_lines; // the sweep file line naming each parameter
    if (grid == list) fail(root, "expected exactly one of 'grid' (a map NAME: [values]) or 'points' (a list of maps)");
    if (grid) {
        YAML::Node g = root["grid"];
        if (!g.IsMap() || g.size() == 0) fail(g, "grid: expected a map NAME: [VALUE, ...]");
        std::vector<std::vector<std::string>> axes;
        for (auto it = g.begin(); it != g.end(); ++it) {
            s.params.push_back(it->first.Scalar());
            param_lines.push_back(line_of(it->first));
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
            axes.push_back(vals);
        }
        // Cartesian product; the first parameter varies slowest.
        std::vector<size_t> idx(axes.size(), 0);
        for (unsigned n = 0;; ++n) {
            sweep_point p;
            p.index = n;
            for (size_t a = 0; a < axes.size(); ++a) p.values.push_back(axes[a][idx[a]]);
            s.points.push_back(p);
            size_t a = axes.size();
            while (a > 0 && ++idx[a - 1] == axes[a - 1].size()) idx[--a] = 0;
            if (a == 0) break;
        }
    } else {
        YAML::Node l = root["points"];
        if (!l.IsSequence() || l.size() == 0) fail(l, "points: expected a non-empty list of maps NAME: VALUE");
        for (size_t i = 0; i < l.size(); ++i) {
            if (!l[i].IsMap()) fail(l[i], fmt::format("points[{}]: expected a map NAME: VALUE", i));
            std::vector<std::string> names;
            sweep_point p;
            p.index = unsigned(i);
            for (auto it = l[i].begin(); it != l[i].end(); ++it) {
                names.push_back(it->first.Scalar());
                p.values.push_back(it->second.Scalar());
            }
            if (i == 0) {
                s.params = names;
                for (auto it = l[i].begin(); it != l[i].end(); ++it) param_lines.push_back(line_of(it->first));
            }
            else if (names != s.params)
                fail(l[i], fmt::format("points[{}]: expected the same names in the same order as points[0]", i));
            s.points.push_back(p);
        }
    }
    // A misspelled parameter (or set.PATH) would run every point to failure: the first point's
    // names and values must load before anything runs; the error names the parameter's line.
    register_all_units(); // unit schemas before the platform is validated
    std::map<std::string, std::string> first;
    for (size_t i = 0; i < s.params.size(); ++i) first[s.params[i]] = s.points.front().values[i];
    try {
        (void)load_scenario(s.scenario, first);
    } catch (const input_error& e) {
        const std::string why = e.what();
        unsigned line = line_of(grid ? root["grid"] : root["points"]);
        for (size_t i = 0; i < s.params.size(); ++i)
            if (why.find("'" + s.params[i] + "'") != std::string::npos || why.find(s.params[i] + ":") != std::string::npos)
                line = param_lines[i];
        throw input_error(path, line ? line : 1, "the sweep's first point does not load: " + why);
    }
    if (YAML::Node a = root["analysis"]) {
        if (!a.IsSequence() || a.size() == 0) fail(a, "analysis: expected a command as a list like [python3, \"{tools}/fie_analysis.py\", \"{out}\"]");
        for (const auto& t : a) s.analysis.push_back(t.Scalar());
    }
    if (YAML::Node a = root["stats"]) {
        if (!a.IsSequence()) fail(a, "stats: expected a list of INSTANCE.EVENT names (stats.json events)");
        for (const auto& t : a) s.stats.push_back(t.Scalar());
    }
    return s;
}

namespace {

std::string header(const sweep_spec& spec, const std::vector<std::string>& metric_names) {
    std::string h = "point";
    for (const auto& p : spec.params) h += "," + csv_field(p);
    h += ",exit";
    for (const auto& m : metric_names) h += "," + csv_field(m);
    return h;
}

// Reads what a finished point left: stats columns and the analysis's JSON object.
void collect_metrics(const sweep_spec& spec, const fs::path& dir, point_result& r) {
    if (!spec.stats.empty()) {
        std::ifstream f(dir / "stats.json");
        nlohmann::json st;
        if (f) {
            try {
                st = nlohmann::json::parse(f);
            } catch (const std::exception&) {
            }
        }
        for (const auto& name : spec.stats) {
            std::string v;
            if (st.contains("events"))
                for (const auto& e : st["events"])
                    if (e["instance"].get<std::string>() + "." + e["event"].get<std::string>() == name)
                        v = std::to_string(e["count"].get<uint64_t>());
            r.metrics[name] = v;
        }
    }
    if (!spec.analysis.empty()) {
        std::ifstream f(dir / "analysis.json");
        try {
            nlohmann::json a = nlohmann::json::parse(f);
            for (auto it = a.begin(); it != a.end(); ++it) r.metrics[it.key()] = metric_text(it.value());
        } catch (const std::exception&) {
            if (r.analysis == 0) r.analysis = 1; // no JSON object: the analysis failed
        }
    }
}

// A shard's results.csv is complete when results.csv.complete sits next to it, written after the
// CSV was renamed into place: "pmusim sweep results: shard K/N, R rows". `sweep merge` refuses a
// results file without it (the run was interrupted, or the file was copied alone) and one whose
// rows do not match it (truncated, edited, or rows missing from the shard).
const char* const complete_suffix = ".complete";

std::string complete_line(unsigned shard, unsigned shards, size_t rows) {
    return fmt::format("pmusim sweep results: shard {}/{}, {} rows", shard, shards, rows);
}

} // namespace

int run_sweep(const sweep_spec& spec, const sweep_options& opt) {
    std::error_code ec;
    fs::create_directories(fs::path(opt.out_dir) / "points", ec);
    if (ec) throw input_error(opt.out_dir, 0, "cannot create the output folder: " + ec.message());
    // A previous run's results must not pass for this one's if this one is interrupted.
    const fs::path results_path = fs::path(opt.out_dir) / "results.csv";
    const fs::path complete_path = results_path.string() + complete_suffix;
    fs::remove(complete_path, ec);
    fs::remove(results_path, ec);
    std::vector<const sweep_point*> mine;
    for (const auto& p : spec.points)
        if (p.index % opt.shards == opt.shard) mine.push_back(&p);

    std::map<unsigned, point_result> results;
    struct running {
        const sweep_point* point;
        bool analysis;
    };
    std::map<pid_t, running> active;
    size_t next = 0;
    auto point_dir = [&](const sweep_point& p) { return fs::path(opt.out_dir) / "points" / point_dir_name(p.index); };
    auto start_simulate = [&](const sweep_point& p) {
        fs::path dir = point_dir(p);
        // A point's folder is one run's set: what an earlier run (or its analysis) left is removed.
        fs::remove_all(dir, ec);
        fs::create_directories(dir);
        std::vector<std::string> argv = {opt.self_exe, "simulate", spec.scenario, "-o", dir.string(), "--no-progress"};
        for (size_t i = 0; i < spec.params.size(); ++i) argv.push_back("--set=" + spec.params[i] + "=" + p.values[i]);
        active[start(argv, dir / "simulate.out", dir / "simulate.err")] = {&p, false};
    };
    auto start_analysis = [&](const sweep_point& p) {
        fs::path dir = point_dir(p);
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
        active[start(argv, dir / "analysis.json", dir / "analysis.err")] = {&p, true};
    };
    const unsigned jobs = std::max(1u, opt.jobs);
    while (next < mine.size() || !active.empty()) {
        while (active.size() < jobs && next < mine.size()) start_simulate(*mine[next++]);
        int wstatus = 0;
        pid_t pid = waitpid(-1, &wstatus, 0);
        if (pid < 0) break;
        auto it = active.find(pid);
        if (it == active.end()) continue;
        running r = it->second;
        active.erase(it);
        int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
        point_result& res = results[r.point->index];
        if (!r.analysis) {
            res.exit = code;
            if (code == 0 && !spec.analysis.empty()) {
                start_analysis(*r.point);
                continue;
            }
        } else {
            res.analysis = code;
        }
        collect_metrics(spec, point_dir(*r.point), res);
    }

    // Columns: stats in the order given, then the analysis metrics sorted by name.
    std::set<std::string> analysis_names;
    for (const auto& [i, r] : results)
        for (const auto& [k, _] : r.metrics)
            if (std::find(spec.stats.begin(), spec.stats.end(), k) == spec.stats.end()) analysis_names.insert(k);
    std::vector<std::string> metric_names = spec.stats;
    metric_names.insert(metric_names.end(), analysis_names.begin(), analysis_names.end());
    atomic_output results_file(results_path.string());
    std::ofstream& csv = results_file.stream();
    csv << header(spec, metric_names) << '\n';
    int status = 0;
    for (const sweep_point* p : mine) {
        const point_result& r = results[p->index];
        // exit: simulate's code, or 10 + the analysis's when only the analysis failed.
        int code = r.exit ? r.exit : r.analysis ? 10 + r.analysis : 0;
        if (code) {
            status = 1;
            std::cerr << fmt::format("pmusim sweep: point {} failed (exit {}); see {}\n", p->index, code,
                                     point_dir(*p).string());
        }
        csv << p->index;
        for (const auto& v : p->values) csv << ',' << csv_field(v);
        csv << ',' << code;
        for (const auto& m : metric_names) {
            auto f = r.metrics.find(m);
            csv << ',' << (f == r.metrics.end() ? "" : csv_field(f->second));
        }
        csv << '\n';
    }
    results_file.commit();
    atomic_output complete(complete_path.string());
    complete.stream() << complete_line(opt.shard, opt.shards, mine.size()) << '\n';
    complete.commit();
    return status;
}

int merge_sweep(const sweep_spec& spec, const std::vector<std::string>& inputs, const std::string& output) {
    struct row {
        std::map<std::string, std::string> fields;
        std::string source;
    };
    std::map<unsigned, row> rows;
    std::set<std::string> metric_set;
    for (const auto& in : inputs) {
        fs::path p = fs::is_directory(in) ? fs::path(in) / "results.csv" : fs::path(in);
        std::ifstream f(p, std::ios::binary);
        if (!f) throw input_error(p.string(), 0, "cannot read this results CSV");
        // The completion marker says which shard this is and how many rows it holds.
        const std::string marker = p.string() + complete_suffix;
        std::ifstream mf(marker, std::ios::binary);
        if (!mf)
            throw input_error(p.string(), 0, "incomplete shard: " + marker + " is missing (the sweep that writes this file " +
                                                 "did not finish, or the file was copied without it); run the shard again");
        std::string mline;
        std::getline(mf, mline);
        unsigned m_shard = 0, m_shards = 0;
        size_t m_rows = 0;
        {
            char tail = 0;
            unsigned long long rows_read = 0;
            if (std::sscanf(mline.c_str(), "pmusim sweep results: shard %u/%u, %llu rows%c", &m_shard, &m_shards, &rows_read,
                            &tail) != 3 ||
                m_shards == 0 || m_shard >= m_shards || mline != complete_line(m_shard, m_shards, rows_read))
                throw input_error(marker, 1, "expected 'pmusim sweep results: shard K/N, R rows', found '" + mline + "'");
            m_rows = size_t(rows_read);
        }
        std::set<unsigned> in_file;
        const std::string shard_name = fmt::format("shard {}/{}", m_shard, m_shards);
        std::string line;
        if (!std::getline(f, line)) throw input_error(p.string(), 1, "empty file: expected a header line");
        std::vector<std::string> head = csv_split(line);
        std::vector<std::string> expect_start = {"point"};
        for (const auto& n : spec.params) expect_start.push_back(n);
        expect_start.push_back("exit");
        if (head.size() < expect_start.size() || !std::equal(expect_start.begin(), expect_start.end(), head.begin()))
            throw input_error(p.string(), 1, "header does not match the sweep " + spec.file + " (expected it to start with " +
                                                 header(spec, {}) + ")");
        for (size_t i = expect_start.size(); i < head.size(); ++i) metric_set.insert(head[i]);
        unsigned n = 1;
        while (std::getline(f, line)) {
            ++n;
            if (line.empty()) continue;
            auto cells = csv_split(line);
            if (cells.size() != head.size())
                throw input_error(p.string(), n, fmt::format("expected {} fields, found {}", head.size(), cells.size()));
            unsigned idx = 0;
            try {
                idx = unsigned(std::stoul(cells[0]));
            } catch (const std::exception&) {
                throw input_error(p.string(), n, "point: expected a point number, found '" + cells[0] + "'");
            }
            if (idx >= spec.points.size())
                throw input_error(p.string(), n, fmt::format("point {} is not in the sweep (it has points 0..{})", idx,
                                                             spec.points.size() - 1));
            for (size_t k = 0; k < spec.params.size(); ++k)
                if (cells[1 + k] != spec.points[idx].values[k])
                    throw input_error(p.string(), n, fmt::format("point {}: {} is '{}' here but '{}' in the sweep", idx,
                                                                 spec.params[k], cells[1 + k], spec.points[idx].values[k]));
            if (idx % m_shards != m_shard)
                throw input_error(p.string(), n, fmt::format("point {} does not belong to {} (its marker {})", idx,
                                                             shard_name, marker));
            auto prev = rows.find(idx);
            if (prev != rows.end())
                throw input_error(p.string(), n, fmt::format("duplicate point {} (also in {})", idx, prev->second.source));
            in_file.insert(idx);
            row r;
            r.source = fmt::format("{}:{}", p.string(), n);
            for (size_t k = 0; k < head.size(); ++k) r.fields[head[k]] = cells[k];
            rows[idx] = std::move(r);
        }
        // Every point of the shard, exactly as many rows as the marker promised.
        std::string absent;
        size_t absent_count = 0;
        for (const auto& pt : spec.points)
            if (pt.index % m_shards == m_shard && !in_file.count(pt.index)) {
                ++absent_count;
                if (absent_count <= 20) absent += (absent.empty() ? "" : " ") + std::to_string(pt.index);
            }
        if (absent_count)
            throw input_error(p.string(), 0, fmt::format("partial shard: {} of {} lacks {} point(s): {}{}", shard_name,
                                                         spec.file, absent_count, absent, absent_count > 20 ? " ..." : ""));
        if (in_file.size() != m_rows)
            throw input_error(p.string(), 0, fmt::format("partial shard: {} holds {} rows but {} says {}", p.string(),
                                                         in_file.size(), marker, m_rows));
    }
    // The same column rule as run_sweep: stats first (as listed), then the others sorted.
    std::vector<std::string> metric_names;
    for (const auto& s : spec.stats)
        if (metric_set.count(s)) metric_names.push_back(s);
    for (const auto& m : metric_set)
        if (std::find(spec.stats.begin(), spec.stats.end(), m) == spec.stats.end()) metric_names.push_back(m);
    atomic_output merged(output);
    std::ofstream& out = merged.stream();
    out << header(spec, metric_names) << '\n';
    for (const auto& [idx, r] : rows) {
        out << idx;
        for (const auto& n : spec.params) out << ',' << csv_field(r.fields.at(n));
        out << ',' << r.fields.at("exit");
        for (const auto& m : metric_names) {
            auto f = r.fields.find(m);
            out << ',' << (f == r.fields.end() ? "" : csv_field(f->second));
        }
        out << '\n';
    }
    merged.commit();
    std::vector<unsigned> missing;
    for (const auto& p : spec.points)
        if (!rows.count(p.index)) missing.push_back(p.index);
    if (!missing.empty()) {
        std::string list;
        for (unsigned m : missing) list += (list.empty() ? "" : " ") + std::to_string(m);
        std::cerr << fmt::format("pmusim sweep merge: {} of {} points missing: {}\n", missing.size(), spec.points.size(), list);
        return 1;
    }
    return 0;
}

} // namespace pmusim
