#pragma once
// The outcome enum is public API (include/pmusim/access_outcome.h); this name stays for the models.
#include "pmusim/access_outcome.h"
