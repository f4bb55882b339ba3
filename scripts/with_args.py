#!/usr/bin/env python3
"""Runs a command with the words of a make knob after its own arguments.

Usage: scripts/with_args.py VAR KNOB -- COMMAND [ARG...]

The Makefile hands a knob that holds a command line of its own (ARGS, the
arguments of pytest under make regress) to this script through the
environment variable VAR, never as command text, so no shell parses it.
Here it is split into words as a shell splits them (quotes and backslashes,
Python's shlex in POSIX mode), with nothing run or expanded: `$(...)`,
backticks, `;` and `*` stay in the words as they are.  The words go after
COMMAND's own arguments (a later pytest -k wins over an earlier one).

Exit status: COMMAND's own; 2 when the knob's quotes do not close (the
message names KNOB), or on a usage error.
"""
import os
import shlex
import sys


def main(argv):
    if len(argv) < 5 or argv[3] != "--":
        print("usage: with_args.py VAR KNOB -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    var, knob, cmd = argv[1], argv[2], argv[4:]
    text = os.environ.get(var, "")
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError as e:
        print("%s=%s: %s (quote a word with ' or \", as in a shell)" % (knob, ascii(text)[1:-1], e),
              file=sys.stderr)
        return 2
    sys.stdout.flush()
    try:
        os.execvp(cmd[0], cmd + words)
    except OSError as e:
        print("with_args.py: %s: %s" % (cmd[0], e.strerror), file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv))
