/* SPDX-License-Identifier: MIT */
#ifndef ATIO_SYSINFO_H
#define ATIO_SYSINFO_H

/*
 * What a result document records about the machine it ran on, so that a
 * report made from it later says where its figures come from: the kernel
 * (uname), the host name, and the block device under the target with its
 * model and whether it rotates, as sysfs tells them (sysinfo.c). Nothing
 * here changes the run.
 */

#include "atio/base/json.h"

/*
 * The "system" object on @j: {"kernel", "machine", "hostname", "device",
 * "device_model", "rotational"} for target @path (a file, a directory, a
 * file-name prefix or a block device). A figure that cannot be found is
 * null.
 */
void atio_sysinfo_json(struct atio_json *j, const char *path);

#endif
