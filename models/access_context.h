#pragma once
// The access-context extension is public API (include/pmusim/access_context.h): embedders attach it
// to say who is accessing. This name stays for the models.
#include "pmusim/access_context.h"
