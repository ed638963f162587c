/* SPDX-License-Identifier: MIT */
/* The --help text. */
#include <stdio.h>

#include "atio/cli.h"
#include "atio/engine.h"

/*
 * See cli.h. Lines stay under 80 columns. No line may contain the four
 * letters r, a, t, e in a row, in any word: scripts find the result line
 * with "grep rate", and --help goes to stdout.
 */
void atio_cli_usage(FILE *f)
{
	fputs(
"Usage: atio [options] -f PATH\n"
"\n"
"atio measures storage: threads read or write their own test files (or a\n"
"shared set) for a fixed time, then atio prints one result line, MB/s or\n"
"IOPS, and latency and CPU time. It takes the options of at_io_iops.\n"
"\n"
"Workload (one option of each pair or group):\n"
"  --read, --write       read() or write() workload (default --read)\n"
"  --fsync, --fdatasync  write workload with an fsync() or fdatasync()\n"
"                        after every -q writes\n"
"  --seq, --rand         sequential or random offsets (default --seq)\n"
"  --mbs, --iops         report MB/s (2^20 bytes) or I/Os a second; syncs\n"
"                        a second with --fsync or --fdatasync (default\n"
"                        --mbs with --seq, --iops with --rand)\n"
"  --cached, --uncached  buffered I/O, or direct I/O (O_DIRECT) with -s a\n"
"                        multiple of 4K (default --cached)\n"
"\n"
"Sizes and threads:\n"
"  -s SIZE               block size of one I/O, 512 to 1G, a multiple of\n"
"                        512 (default 16M with --seq, 4K with --rand)\n"
"  -p N                  load threads, 1 to 4096 (default 1)\n"
"  -n N                  files shared by the threads, 1 to 65536 (default\n"
"                        -p: one file each)\n"
"  -u SIZE               total size of all files, at least a block per\n"
"                        thread: -p 4 -u 16G makes four 4G files\n"
"                        (default 16G)\n"
"  -q N                  with --fsync or --fdatasync: writes between two\n"
"                        syncs, 1 to 1048576 (default 1)\n"
"\n"
"Time:\n"
"  -t TIME               measured test time (default 60)\n"
"  -w TIME               warm-up before the measured time (default 0)\n"
"  -S                    skip the final sync() and leave it out of the\n"
"                        result (by default it is inside the measured time)\n"
"\n"
"Files:\n"
"  -f PATH               directory for the test files, or a file-name\n"
"                        prefix if PATH is not a directory (required,\n"
"                        except with -a and with --engine null)\n"
"  --remove              delete the files after the run (by default they\n"
"                        stay, for the next run to reuse)\n"
"  --keep-cache          keep atio from dropping its files from the page\n"
"                        cache before the run\n"
"\n"
"Output:\n"
"  -a                    print the test settings only, do no I/O\n"
"  -v                    also print the settings and per-thread results\n"
"  -vv                   and a progress line each second on stderr\n"
"  -vvv                  and every I/O on stderr\n"
"  --json                print one JSON document on stdout, nothing else\n"
"  -h, --help            print this help\n"
"  -V, --version         print the version\n"
"\n"
"atio extras:\n", f);
	fputs(
"  --engine NAME         I/O backend: sync (pread, pwrite), io_uring,\n"
"                        libaio (asynchronous only with --uncached: with\n"
"                        the page cache every submit waits for its I/O),\n"
"                        or null (no I/O at all: atio's own cost per I/O).\n"
"                        Default: sync, or with --iodepth above 1\n"
"                        io_uring, else libaio, else sync\n", f);
	fprintf(f,
"                        (this atio has %s)\n", atio_engine_names());
	fputs(
"  --iodepth N           I/Os in flight per thread, 1 to 65536 (default 1;\n"
"                        sync and null do one at a time)\n"
"  --no-thp              I/O buffers in base pages only, as fio has them\n"
"                        by default. Otherwise a thread's buffers of 2M or\n"
"                        more ask for transparent huge pages: an O_DIRECT\n"
"                        request pins fewer pages and reaches the device\n"
"                        in fewer, larger pieces\n"
"  --seed N              seed for random offsets and data (default: random)\n"
"  --start-at T          begin at T, seconds since the epoch (decimals\n"
"                        allowed), so that many hosts start at one instant\n"
"\n"
"SIZE is a number with an optional suffix K, M, G or T (powers of 1024,\n"
"either case, optionally followed by B or iB); a decimal is allowed when it\n"
"comes to whole bytes (1.5K). TIME is in seconds, or has a suffix s, m or h\n"
"(1.5m is 90 seconds).\n"
"\n"
"Exit status: 0 success; 1 the run failed (I/O error, no space, backend not\n"
"available); 2 bad usage or input; 130 interrupted (results so far printed).\n"
"\n"
"Examples: sequential read and write, 4 threads; random read and write,\n"
"16 threads; a database-like load, a sync after every 32 random writes:\n"
"  atio --read --seq -s 16M --mbs -p 4 -t 30 -u 16G -S --cached -f /mnt/dir\n"
"  atio --write --seq -s 16M --mbs -p 4 -t 30 -u 16G -S --cached -f /mnt/dir\n"
"  atio --read --rand -s 4K --iops -p 16 -t 30 -u 16G -S --cached -f /mnt/dir\n"
"  atio --fdatasync --rand -s 4K --iops -p 16 -t 30 -u 16G -S --cached \\\n"
"       -f /mnt/dir\n"
"  atio --fsync --rand -s 4K -q 32 --iops -p 16 -t 30 -u 16G -S --cached \\\n"
"       -f /mnt/dir\n", f);
}
