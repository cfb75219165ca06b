// A model source (lgcheck_base, which the kernel links) that includes the
// search side's report module: the layering check must reject it.
#include "lgcheck/report/verdict.hpp"
