#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The option tables (boottrace --list-options, tab-separated: VERB --long
# -s ARG FLAGS VALUES) against a man page. Prints each flag one side has
# and the other lacks and exits 1 when there is one.
#
#   options-vs-man.py LISTING MANPAGE options VERB [SECTION]
#       the options of VERB (hidden ones aside) against the .TP tags of the
#       man page's ".SS VERB" (with ".SH VERB OPTIONS" and ".SH COMMON
#       OPTIONS"), or of ".SH SECTION" when given; VERB may be "a,b" for
#       a page whose one OPTIONS section serves two verbs.
#   options-vs-man.py LISTING MANPAGE synopsis
#       every flag of every verb's SYNOPSIS lines (".B boottrace VERB" up
#       to the next .br, ".B bootconfig" for the symlink) is in that verb's
#       table.
import re
import sys

FLAG = re.compile(r'(?<![A-Za-z0-9-])(--[a-z][a-z0-9-]*|-[A-Za-z](?![A-Za-z0-9-]))')


def table(path):
    out = {}
    for line in open(path).read().splitlines():
        f = line.split('\t')
        if len(f) < 6:
            continue
        verb, long_, short, _arg, flags, _values = f[:6]
        s = out.setdefault(verb, {'shown': set(), 'all': set()})
        for name in (long_, short):
            if name != '-':
                s['all'].add(name)
                if flags != 'hidden':
                    s['shown'].add(name)
    return out


def roff_text(line):
    t = line.replace('\\-', '-')
    return re.sub(r'\\f[BIRP]', '', t)


def man_flags(page, verbs, section):
    out, on, tag, found = set(), False, False, False
    for line in page.splitlines():
        if line.startswith('.SS ') or line.startswith('.SH '):
            name = line[4:].strip().strip('"')
            if section:
                on = line.startswith('.SH ') and name == section
                found |= on
            else:
                on = name in verbs or name in [v.upper() + ' OPTIONS' for v in verbs] \
                    or name == 'COMMON OPTIONS'
                found |= line.startswith('.SS ') and name in verbs
            tag = False
            continue
        if not on:
            continue
        if line.startswith('.TP'):
            tag = True
            continue
        if tag:
            out |= set(FLAG.findall(roff_text(line)))
            tag = False
    return out if found else None


def check_options(tab, page, verbs, section):
    want = set()
    for v in verbs:
        if v not in tab:
            print('%s: not in the option tables' % v)
            return 1
        want |= tab[v]['shown']
    name = ','.join(verbs)
    m = man_flags(page, verbs, section)
    if m is None:
        print('%s: no "%s" section in the man page' % (name, section or '.SS ' + verbs[0]))
        return 1
    bad = ['%s: %s in the option table, not in the man page' % (name, f) for f in sorted(want - m)]
    bad += ['%s: %s in the man page, not in the option table' % (name, f) for f in sorted(m - want)]
    for b in bad:
        print(b)
    return 1 if bad else 0


def check_synopsis(tab, page):
    bad, verb, on = [], None, False
    for line in page.splitlines():
        if line.startswith('.SH '):
            on = line[4:].strip() == 'SYNOPSIS'
            continue
        if not on:
            continue
        m = re.match(r'^\.B (boottrace (\S+)|bootconfig)\b', roff_text(line))
        if m:
            verb = m.group(2) or 'bootconfig'
            verb = verb if verb in tab else None
            text = roff_text(line)[len(m.group(0)):]
        elif line.startswith('.br') or line.startswith('.PP'):
            verb = None
            continue
        else:
            text = roff_text(line)
        if verb:
            for f in FLAG.findall(text):
                if f not in tab[verb]['all']:
                    bad.append('%s: %s in the SYNOPSIS, not in the option table' % (verb, f))
    for b in bad:
        print(b)
    return 1 if bad else 0


def main():
    tab = table(sys.argv[1])
    page = open(sys.argv[2]).read()
    if sys.argv[3] == 'synopsis':
        return check_synopsis(tab, page)
    verbs = sys.argv[4].split(',')
    section = sys.argv[5] if len(sys.argv) > 5 else None
    return check_options(tab, page, verbs, section)


sys.exit(main())
