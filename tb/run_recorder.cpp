#include "tb/run_recorder.h"

#include <fmt/format.h>

namespace pmusim {

vcd_writer::vcd_writer(std::vector<observable> signals) : signals_(std::move(signals)), last_(signals_.size()) {}

void vcd_writer::sample(fs_t t) {
    std::vector<std::pair<size_t, uint64_t>> changed;
    for (size_t i = 0; i < signals_.size(); ++i) {
        uint64_t v = signals_[i].value();
        if (!last_[i] || *last_[i] != v) {
            last_[i] = v;
            changed.emplace_back(i, v);
        }
    }
    if (changed.empty()) return;
    if (!changes_.empty() && changes_.back().first == t) {
        for (auto& c : changed) changes_.back().second.push_back(c);
    } else {
        changes_.emplace_back(t, std::move(changed));
    }
}

static std::string vcd_id(size_t i) {
    std::string id;
    do {
        id += char('!' + i % 94);
        i /= 94;
    } while (i);
    return id;
}

void vcd_writer::write(std::ostream& out, const std::string& top) const {
    out << "$timescale 1 fs $end\n$scope module " << top << " $end\n";
    for (size_t i = 0; i < signals_.size(); ++i) {
        std::string name = signals_[i].name;
        for (char& c : name)
            if (c == ' ') c = '_';
        out << "$var wire " << signals_[i].width << ' ' << vcd_id(i) << ' ' << name << " $end\n";
    }
    out << "$upscope $end\n$enddefinitions $end\n";
    for (const auto& [t, vals] : changes_) {
        out << '#' << t << '\n';
        for (const auto& [i, v] : vals) {
            if (signals_[i].width == 1) {
                out << (v & 1) << vcd_id(i) << '\n';
            } else {
                std::string bits;
                for (int b = int(signals_[i].width) - 1; b >= 0; --b) bits += ((v >> b) & 1) ? '1' : '0';
                auto first = bits.find('1');
                out << 'b' << (first == std::string::npos ? "0" : bits.substr(first)) << ' ' << vcd_id(i) << '\n';
            }
        }
    }
}

void run_recorder::access(const nlohmann::json& record) {
    if (json) *json << record.dump() << '\n';
}

void run_recorder::line(const std::string& text) {
    if (log) *log << text << '\n';
}

void run_recorder::expectation(expectation_result r) {
    if (!r.passed) ++failures_;
    expectations_.push_back(std::move(r));
}

static std::string xml_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        default: o += c;
        }
    }
    return o;
}

void run_recorder::write_junit(std::ostream& out, const std::string& suite, double host_seconds) const {
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << fmt::format("<testsuites><testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                       xml_escape(suite), expectations_.size(), failures_, host_seconds);
    for (const auto& e : expectations_) {
        out << fmt::format("  <testcase classname=\"{}\" name=\"{}:{} {}\"", xml_escape(suite), xml_escape(e.file),
                           e.line, xml_escape(e.statement));
        if (e.passed) {
            out << "/>\n";
        } else {
            out << fmt::format("><failure message=\"{}\"/></testcase>\n", xml_escape(e.message));
        }
    }
    out << "</testsuite></testsuites>\n";
}

} // namespace pmusim
