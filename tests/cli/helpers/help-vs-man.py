#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The options a verb's --help lists against the options its section of
# boottrace(1) lists: prints each flag one has and the other lacks, as
# "VERB: --flag in --help, not in the man page" (or the reverse), and
# exits 1 when there is one. Usage: help-vs-man.py MANPAGE VERB HELPFILE
#
# --help: the option lines (a line indented by at most 8 blanks, then '-':
# deeper lines continue a description), the flags in its leading part, up
# to the description (two spaces or " : ").
# The man page: the tags of the .TP items in ".SS VERB" (up to the next .SS
# or .SH), in ".SH VERB OPTIONS" (bootconfig's) and in ".SH COMMON OPTIONS"
# (what every verb takes).
import re
import sys

FLAG = re.compile(r'(?<![A-Za-z0-9-])(--[a-z][a-z0-9-]*|-[A-Za-z](?![A-Za-z0-9-]))')


def help_flags(text):
    out = set()
    for line in text.splitlines():
        m = re.match(r'^[ \t]{1,8}(-.*)$', line)
        if not m:
            continue
        spec = re.split(r'  | : |: ', m.group(1), maxsplit=1)[0]
        out |= set(FLAG.findall(spec))
    return out


def man_flags(page, verb):
    out, on, tag, found = set(), False, False, False
    for line in page.splitlines():
        if line.startswith('.SS ') or line.startswith('.SH '):
            name = line[4:].strip().strip('"')
            on = name in (verb, verb.upper() + ' OPTIONS', 'COMMON OPTIONS')
            found |= line.startswith('.SS ') and name == verb
            tag = False
            continue
        if not on:
            continue
        if line.startswith('.TP'):
            tag = True
            continue
        if tag:
            t = line.replace('\\-', '-')
            t = re.sub(r'\\f[BIRP]', '', t)
            out |= set(FLAG.findall(t))
            tag = False
    return out if found else None


def main():
    verb = sys.argv[2]
    m = man_flags(open(sys.argv[1]).read(), verb)
    if m is None:
        print('%s: no ".SS %s" section in the man page' % (verb, verb))
        return 1
    h = help_flags(open(sys.argv[3]).read())
    bad = ['%s: %s in --help, not in the man page' % (verb, f) for f in sorted(h - m)]
    bad += ['%s: %s in the man page, not in --help' % (verb, f) for f in sorted(m - h)]
    for b in bad:
        print(b)
    return 1 if bad else 0


sys.exit(main())
