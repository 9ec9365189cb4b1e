#include "vp/unit_list.h" // forwarding header: moved to vp/ (issue 30); removed after the merge
