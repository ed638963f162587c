/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "atio/engine.h"

static const struct atio_engine_ops *const engines[] = {
	&atio_engine_sync,
};

const struct atio_engine_ops *atio_engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const char *atio_engine_names(void)
{
	return "sync";
}
