// A kernel source that includes the search code: the layering check must reject it.
#include "lgcheck/semantics/forward.hpp"
