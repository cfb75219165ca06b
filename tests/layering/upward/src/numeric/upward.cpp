// A numeric source that includes a higher module: the layering check must reject it.
#include "lgcheck/bounds/theorem41.hpp"
