#include "vp/platform_listing.h" // forwarding header: moved to vp/ (issue 30); removed after the merge
