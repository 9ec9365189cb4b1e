#include "tb/unit_factory.h"

#include <map>

namespace pmusim {

namespace {
std::map<std::string, unit_factory>& unit_factories() {
    static std::map<std::string, unit_factory> f;
    return f;
}
std::vector<std::pair<std::string, feature_factory>>& features() {
    static std::vector<std::pair<std::string, feature_factory>> f;
    return f;
}
} // namespace

void register_unit_factory(const std::string& type, unit_factory factory) {
    unit_factories()[type] = std::move(factory);
}

void register_feature_factory(const std::string& name, feature_factory factory) {
    for (auto& [n, f] : features())
        if (n == name) {
            f = std::move(factory);
            return;
        }
    features().emplace_back(name, std::move(factory));
}

const unit_factory* find_unit_factory(const std::string& type) {
    auto it = unit_factories().find(type);
    return it == unit_factories().end() ? nullptr : &it->second;
}

const std::vector<std::pair<std::string, feature_factory>>& feature_factories() { return features(); }

void register_all_units() {
    static bool done = false;
    if (done) return;
    done = true;
    register_amu_units();
    register_dsu_units();
    register_cmn_units();
    register_imc_units();
}

} // namespace pmusim
