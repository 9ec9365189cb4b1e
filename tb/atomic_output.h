#include "models/atomic_output.h" // forwarding header: moved to models/ (issue 30); removed after the merge
