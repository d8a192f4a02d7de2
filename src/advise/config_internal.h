/*
 * src/advise/config_internal.h - classifying config files and extracting
 * their settings (config_keys.c), for config.c.
 */
#ifndef IOS_ADVISE_CONFIG_INTERNAL_H
#define IOS_ADVISE_CONFIG_INTERNAL_H

#include "internal.h"

/* enum iosage_config_kind of a file from its name and text. */
int ios_config_classify(const char *path, const char *text);

/* Fill c->settings from c->text according to c->kind. */
void ios_config_settings(struct iosage_config *c);

#endif
