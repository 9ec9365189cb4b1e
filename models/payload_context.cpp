#include "models/payload_context.h"

namespace pmusim {

namespace {
using extensions_member = payload_extension_array tlm::tlm_generic_payload::*;
// An explicit instantiation may name a private member ("the usual access checking rules do not
// apply to names used to specify explicit instantiations", C++17 [temp.explicit]/12): the
// instantiation below defines extensions_of() to return &tlm_generic_payload::m_extensions.
struct extensions_tag {
    friend constexpr extensions_member extensions_of(extensions_tag);
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
template <extensions_member M> struct name_extensions {
    friend constexpr extensions_member extensions_of(extensions_tag) { return M; }
};
#pragma GCC diagnostic pop
template struct name_extensions<&tlm::tlm_generic_payload::m_extensions>;
} // namespace

payload_extension_array tlm::tlm_generic_payload::* const payload_extensions = extensions_of(extensions_tag{});

} // namespace pmusim
