/* SPDX-License-Identifier: MIT */
/*
 * stamp-scan FILE BLOCK: for the command-line tests, check every 512-byte
 * sector of FILE with atio_stamp_check() (its stamp names its offset and
 * the rest is the keystream the stamp names) and print one line per BLOCK
 * bytes: "OFFSET fill", "OFFSET write" when every sector of the block
 * checks and carries that kind, else "OFFSET bad". Exit 0, or 1 when the
 * file cannot be read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/data/stamp.h"

int main(int argc, char **argv)
{
	unsigned char sector[ATIO_SECTOR];
	unsigned long block;
	uint64_t off = 0;
	FILE *f;

	if (argc != 3 || (block = strtoul(argv[2], NULL, 10)) == 0 || block % ATIO_SECTOR) {
		fprintf(stderr, "usage: stamp-scan FILE BLOCK (a multiple of 512)\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "stamp-scan: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (;;) {
		int kind = 0;
		size_t n = 0;

		for (unsigned long i = 0; i < block / ATIO_SECTOR; i++) {
			struct atio_stamp st;
			size_t bad;

			if (fread(sector, 1, sizeof(sector), f) != sizeof(sector))
				break;
			n++;
			if (atio_stamp_check(sector, off + i * ATIO_SECTOR, &st, &bad) != 0)
				kind = -1;
			else if (kind == 0)
				kind = (int)st.kind;
			else if (kind != (int)st.kind)
				kind = -1;
		}
		if (n == 0)
			break;
		printf("%" PRIu64 " %s\n", off,
		       kind == ATIO_STAMP_FILL ? "fill" : kind == ATIO_STAMP_WRITE ? "write" : "bad");
		off += block;
	}
	fclose(f);
	return 0;
}
