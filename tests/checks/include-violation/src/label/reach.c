/* A label file that reaches into features: check-includes must refuse it. */
#include "features/internal.h"
#include <internal.h>
#include "iosage/label.h"
