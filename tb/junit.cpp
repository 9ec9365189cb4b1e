#include "tb/junit.h"

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
    fs_t time = 0;
    for (const auto& s : suites) {
        tests += s.testcases.size();
        failures += s.count(v::failed);
        errors += s.count(v::error);
        time += s.time_fs;
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << fmt::format("<testsuites name=\"pmusim\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{}\">\n", tests,
                       failures, errors, junit_seconds(time));
    for (const auto& s : suites) {
        const std::string suite = xml_attribute(s.name);
        out << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\">\n",
                           suite, s.testcases.size(), s.count(v::failed), s.count(v::error), junit_seconds(s.time_fs));
        if (!s.properties.empty()) {
            out << "    <properties>\n";
            for (const auto& [name, value] : s.properties)
                out << fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_attribute(name), xml_attribute(value));
            out << "    </properties>\n";
        }
        for (const auto& t : s.testcases) {
            out << fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"", suite, xml_attribute(t.name),
                               junit_seconds(t.duration_fs));
            if (t.result == v::passed) {
                out << "/>\n";
                continue;
            }
            out << fmt::format(">\n      <{} type=\"{}\" message=\"{}\"/>\n    </testcase>\n", element(t.result),
                               xml_attribute(t.type), xml_attribute(t.message));
        }
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
}

std::string junit_suite_to_json(const junit_suite& s) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& t : s.testcases)
        cases.push_back({{"name", t.name}, {"result", int(t.result)}, {"type", t.type}, {"message", t.message},
                         {"duration_fs", t.duration_fs}});
    nlohmann::json properties = nlohmann::json::array();
    for (const auto& [name, value] : s.properties) properties.push_back({name, value});
    return nlohmann::json{{"name", s.name}, {"time_fs", s.time_fs}, {"testcases", cases}, {"properties", properties}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

junit_suite junit_suite_from_json(const std::string& text) {
    auto j = nlohmann::json::parse(text);
    junit_suite s;
    s.name = j.at("name").get<std::string>();
    s.time_fs = j.at("time_fs").get<fs_t>();
    for (const auto& p : j.at("properties")) s.properties.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
    for (const auto& c : j.at("testcases"))
        s.testcases.push_back({c.at("name").get<std::string>(), junit_testcase::verdict(c.at("result").get<int>()),
                               c.at("type").get<std::string>(), c.at("message").get<std::string>(),
                               c.at("duration_fs").get<fs_t>()});
    return s;
}

} // namespace pmusim
