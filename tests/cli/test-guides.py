#!/usr/bin/env python3
"""Every atio command the README and the guides in doc/ show still runs.

The commands are those of the ```sh blocks (continued lines joined; each
part of a && or ; or | chain) and the inline `atio ...` spans of the text
that hold no placeholder in capitals (`-s SIZE`) and more than an
option's name (`atio --meta`). A run's command is run
with -a, which parses it, checks its values and prints its settings
without any I/O: exit 0 wanted. A plan (--and, --then) is checked job by
job, as -a takes one job. The other commands (merge, report, sweep,
watch) read files the guide made before: only their command word is
checked to be one atio has; --check and --prepare (which take no -a) and
--jobs FILE are left out.

Usage: test-guides.py ATIO SRCDIR. Prints "ok - ..." / "not ok - ..."
lines; exit 1 when any check failed.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

COMMANDS = {'merge', 'report', 'sweep', 'watch', 'flush'}
SEPARATORS = {'&&', '||', ';', '|'}
PLACEHOLDER = re.compile(r'\b[A-Z][A-Z_]{2,}\b|\.\.\.|…')


def shell_commands(text):
    """The commands of the ```sh blocks, continued lines joined."""
    out = []
    for block in re.findall(r'^```(?:sh|bash|console)\n(.*?)^```', text, re.M | re.S):
        joined = re.sub(r'\\\n\s*', ' ', block)
        out += [line for line in joined.split('\n') if line.strip()]
    return out


def inline_commands(text):
    """The inline `atio ...` spans outside fenced blocks, without placeholders."""
    prose = re.sub(r'^```.*?^```', '', text, flags=re.M | re.S)
    spans = re.findall(r'`((?:build/)?atio [^`]+)`', prose)
    # `atio --meta` alone names an option, it is no command
    return [s for s in spans if not PLACEHOLDER.search(s) and len(s.split()) > 2]


def atio_argvs(line):
    """Each atio invocation of a shell line: its words after the program."""
    try:
        lex = shlex.shlex(line, posix=True, punctuation_chars=';&|<>')
        lex.whitespace_split = True
        lex.commenters = '#'
        words = list(lex)
    except ValueError:
        return []
    parts, cur = [], []
    for w in words:
        if w in SEPARATORS:
            parts.append(cur)
            cur = []
        else:
            cur.append(w)
    parts.append(cur)
    argvs = []
    for p in parts:
        # redirections and their targets go
        clean, skip = [], False
        for w in p:
            if skip:
                skip = False
                continue
            if w in ('>', '>>', '<', '2>', '&>', '>&'):
                skip = True
                continue
            clean.append(w)
        if clean and os.path.basename(clean[0]) == 'atio':
            argvs.append(clean[1:])
    return argvs


def without_output_files(job):
    """A job without --csv FILE: -a measures nothing to write there."""
    out, skip = [], False
    for w in job:
        if skip:
            skip = False
        elif w == '--csv':
            skip = True
        elif not w.startswith('--csv='):
            out.append(w)
    return out


def jobs(argv):
    """A plan's jobs: the words between --and and --then."""
    cur, out = [], []
    for w in argv:
        if w in ('--and', '--then'):
            out.append(cur)
            cur = []
        else:
            cur.append(w)
    out.append(cur)
    return [j for j in out if j]


def main():
    atio, srcdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    files = [os.path.join(srcdir, 'README.md')] + sorted(glob.glob(os.path.join(srcdir, 'doc', '*.md')))
    failed = checked = 0
    work = tempfile.mkdtemp(prefix='atio-test-guides.')
    for path in files:
        name = os.path.relpath(path, srcdir)
        text = open(path, encoding='utf-8').read()
        lines = shell_commands(text) + inline_commands(text)
        for line in lines:
            for argv in atio_argvs(line):
                if not argv or argv[0] in ('--help', '--version', '-h'):
                    continue
                if argv[0] in COMMANDS or not argv[0].startswith('-'):
                    what = f'{name}: atio {argv[0]} is a command atio has'
                    if argv[0] in COMMANDS:
                        print(f'ok - {what}')
                    else:
                        print(f'not ok - {what}\n#   in: {line}')
                        failed += 1
                    checked += 1
                    continue
                if '--jobs' in argv or '--check' in argv or '--prepare' in argv:
                    continue   # a file of jobs; -a is the test run's alone
                for job in jobs(argv):
                    r = subprocess.run([atio] + without_output_files(job) + ['-a'], cwd=work, capture_output=True,
                                       text=True, errors='replace')
                    what = f'{name}: atio {" ".join(job)}'
                    checked += 1
                    if r.returncode == 0:
                        print(f'ok - {what}')
                    else:
                        failed += 1
                        print(f'not ok - {what}\n#   exit {r.returncode}: {r.stderr.strip()[:300]}')
    # The extraction finds the commands: the README's quick start at least,
    # and dozens across the guides.
    if checked >= 40:
        print(f'ok - {checked} commands found in the README and the guides')
    else:
        failed += 1
        print(f'not ok - {checked} commands found in the README and the guides (40 or more expected)')
    os.rmdir(work)
    print(f'test-guides: {checked} checked, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
