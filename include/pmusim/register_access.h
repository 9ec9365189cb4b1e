#pragma once
/// @file
/// One register access through a TLM-2.0 forward interface, made the way every pmusim initiator
/// makes it (the sequence runner, the firmware profile runner, the ISS, the examples;
/// docs/embedding.md): transport_register, outcome_of and bus_error_detail. They are written once,
/// in models/register_access.h (copied and installed next to this header as pmusim/models/register_access.h).
#include "pmusim/models/register_access.h"
