#include "vp/junit.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pmusim {

unsigned junit_suite::count(junit_testcase::verdict v) const {
    unsigned n = 0;
    for (const auto& t : testcases) n += t.result == v;
    return n;
}

std::string junit_seconds(fs_t t) {
    std::string s = fmt::format("{}.{:015}", t / fs_per_second, t % fs_per_second);
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

std::string junit_wall_seconds(double seconds) { return fmt::format("{:.6f}", seconds < 0 ? 0.0 : seconds); }

junit_suite one_testcase_per_file(junit_suite s) {
    using v = junit_testcase::verdict;
    junit_testcase whole{s.name, v::passed, "", "", s.time_fs, s.wall_seconds};
    if (s.count(v::error)) whole.result = v::error;
    else if (s.count(v::failed)) whole.result = v::failed;
    for (const auto& t : s.testcases) {
        if (t.result != whole.result || t.result == v::passed) continue;
        if (whole.type.empty()) whole.type = t.type;
        whole.message += (whole.message.empty() ? "" : "\n") + t.message;
    }
    s.testcases = {whole};
    return s;
}

namespace {

// An attribute value: markup characters escaped, line breaks kept as character references,
// other control characters (not allowed in XML 1.0) shown as '?'.
std::string xml_attribute(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        case '\n': o += "&#10;"; break;
        case '\t': o += "&#9;"; break;
        default: o += (unsigned char)c < 0x20 ? '?' : c;
        }
    }
    return o;
}

const char* element(junit_testcase::verdict v) { return v == junit_testcase::verdict::failed ? "failure" : "error"; }

} // namespace

void write_junit(std::ostream& out, const std::vector<junit_suite>& suites) {
    using v = junit_testcase::verdict;
    size_t tests = 0, failures = 0, errors = 0;
    double time = 0;
    for (const auto& s : suites) {
        tests += s.testcases.size();
        failures += s.count(v::failed);
        errors += s.count(v::error);
        time += s.wall_seconds;
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << fmt::format("<testsuites name=\"pmusim\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{}\">\n", tests,
                       failures, errors, junit_wall_seconds(time));
    for (const auto& s : suites) {
        const std::string suite = xml_attribute(s.name);
        out << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\">\n",
                           suite, s.testcases.size(), s.count(v::failed), s.count(v::error), junit_wall_seconds(s.wall_seconds));
        out << "    <properties>\n";
        out << fmt::format("      <property name=\"simulated_seconds\" value=\"{}\"/>\n", junit_seconds(s.time_fs));
        for (const auto& [name, value] : s.properties)
            out << fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_attribute(name), xml_attribute(value));
        out << "    </properties>\n";
        for (const auto& t : s.testcases) {
            // Properties inside a testcase as pytest's record_property writes them.
            out << fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{}\">\n", suite, xml_attribute(t.name),
                               junit_wall_seconds(t.wall_seconds));
            out << fmt::format("      <properties><property name=\"simulated_seconds\" value=\"{}\"/></properties>\n",
                               junit_seconds(t.duration_fs));
            if (t.result != v::passed)
                out << fmt::format("      <{} type=\"{}\" message=\"{}\"/>\n", element(t.result), xml_attribute(t.type),
                                   xml_attribute(t.message));
            out << "    </testcase>\n";
        }
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
}

std::string junit_suite_to_json(const junit_suite& s) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& t : s.testcases)
        cases.push_back({{"name", t.name}, {"result", int(t.result)}, {"type", t.type}, {"message", t.message},
                         {"duration_fs", t.duration_fs}, {"wall_seconds", t.wall_seconds}});
    nlohmann::json properties = nlohmann::json::array();
    for (const auto& [name, value] : s.properties) properties.push_back({name, value});
    return nlohmann::json{{"name", s.name}, {"time_fs", s.time_fs}, {"wall_seconds", s.wall_seconds}, {"testcases", cases}, {"properties", properties}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

junit_suite junit_suite_from_json(const std::string& text) {
    auto j = nlohmann::json::parse(text);
    junit_suite s;
    s.name = j.at("name").get<std::string>();
    s.time_fs = j.at("time_fs").get<fs_t>();
    s.wall_seconds = j.at("wall_seconds").get<double>();
    for (const auto& p : j.at("properties")) s.properties.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
    for (const auto& c : j.at("testcases"))
        s.testcases.push_back({c.at("name").get<std::string>(), junit_testcase::verdict(c.at("result").get<int>()),
                               c.at("type").get<std::string>(), c.at("message").get<std::string>(),
                               c.at("duration_fs").get<fs_t>(), c.at("wall_seconds").get<double>()});
    return s;
}

} // namespace pmusim
