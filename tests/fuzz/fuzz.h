/* SPDX-License-Identifier: MIT */
#ifndef ATIO_FUZZ_H
#define ATIO_FUZZ_H
/*
 * What the fuzz targets share (fuzz.c): a place for the files the readers
 * under test open by name, and a stream that swallows what the writers
 * they feed print. Each target defines LLVMFuzzerTestOneInput(), run by
 * libFuzzer (scripts/fuzz.sh) or by replay.c (the test suite).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The private directory of this process (made on first use, removed with
 * what is in it at exit). Aborts when it cannot be made: a target that
 * cannot run must not pass.
 */
const char *atio_fuzz_dir(void);

/*
 * Write the @size bytes at @data to file @name of atio_fuzz_dir(),
 * replacing it, and return its path (valid until the next call). Aborts
 * when it cannot be written.
 */
const char *atio_fuzz_file(const char *name, const uint8_t *data, size_t size);

/* A stream to /dev/null, opened once. Aborts when it cannot be opened. */
FILE *atio_fuzz_null(void);

/* @data as a NUL-terminated string (cut at its first NUL); free() it. */
char *atio_fuzz_text(const uint8_t *data, size_t size);
#endif
