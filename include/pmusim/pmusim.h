#pragma once
/// @file
/// Everything of pmusim's public API (docs/embedding.md).
#include "pmusim/access_context.h"
#include "pmusim/access_outcome.h"
#include "pmusim/model.h"
#include "pmusim/platform.h"
#include "pmusim/units.h"
#include "pmusim/devices.h"
#include "pmusim/version.h"
