// A model source that includes the checkers: the layering check must reject it.
#include "../../../checkers/claims/claim.hpp"
