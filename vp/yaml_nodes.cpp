#include "vp/yaml_nodes.h"

namespace pmusim {

unsigned yaml_line(const YAML::Node& n) {
    if (!n.IsDefined()) return 0;
    const YAML::Mark m = n.Mark();
    return m.is_null() ? 0 : unsigned(m.line) + 1;
}

std::string yaml_found(const YAML::Node& n) {
    if (!n.IsDefined() || n.IsNull()) return "nothing";
    if (n.IsScalar()) return "'" + n.Scalar() + "'";
    if (n.IsSequence()) return "a list";
    return "a map";
}

} // namespace pmusim
