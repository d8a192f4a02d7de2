/*
 * src/features/schema.c - names and formulas of the features, in schema
 * order (feature_list.h), and lookups by index and by name.
 */
#include <string.h>

#include "feature_list.h"
#include "ios_features.h"

#define NAME_ENTRY(name, formula) #name,
#define FORMULA_ENTRY(name, formula) formula,
#define COUNT_ENTRY(name, formula) +1

static const char *const feature_names[] = {IOS_FEATURES(NAME_ENTRY)};
static const char *const feature_formulas[] = {IOS_FEATURES(FORMULA_ENTRY)};

_Static_assert(0 IOS_FEATURES(COUNT_ENTRY) == IOSAGE_NUM_FEATURES,
               "IOSAGE_NUM_FEATURES does not match feature_list.h");

const char *iosage_feature_name(int i)
{
    return i >= 0 && i < IOSAGE_NUM_FEATURES ? feature_names[i] : NULL;
}

const char *iosage_feature_formula(int i)
{
    return i >= 0 && i < IOSAGE_NUM_FEATURES ? feature_formulas[i] : NULL;
}

int iosage_feature_model_input(int i)
{
    return i >= 0 && i < IOSAGE_NUM_MODEL_FEATURES;
}

int iosage_feature_index(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < IOSAGE_NUM_FEATURES; i++)
        if (strcmp(feature_names[i], name) == 0)
            return i;
    return -1;
}
