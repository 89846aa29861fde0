#!/usr/bin/env python3
"""Every option a verb's --help lists is documented in the OPTIONS section of its
man page (man/tracekit-VERB.1.scd), the page documents no option --help lacks, and
every verb has a page.  A failure names the verb, the option and the file to edit.  Usage: test_man_help.py TRACEKIT MANDIR"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import help_options  # noqa: E402


def section(text, name):
    """The body of '# NAME' up to the next '# ' heading."""
    m = re.search(r'^# %s\n(.*?)(?=^# |\Z)' % re.escape(name), text, re.M | re.S)
    return m.group(1) if m else None


def documented(opt, body):
    return re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(opt), body) is not None


def check_verb(tracekit, mandir, verb):
    page = os.path.join(mandir, 'tracekit-%s.1.scd' % verb)
    if not os.path.exists(page):
        return ['verb %s: no man page; add man/tracekit-%s.1.scd (same sections as '
                'man/tracekit-list.1.scd) and reconfigure' % (verb, verb)]
    if verb == 'help':
        return []
    with open(page) as f:
        body = section(f.read(), 'OPTIONS')
    if body is None:
        return ['verb %s: man/tracekit-%s.1.scd has no "# OPTIONS" section' % (verb, verb)]
    in_help = help_options.options(help_options.help_text(tracekit, verb))
    errors = ['verb %s: option %s is in `tracekit %s --help` but not under # OPTIONS in '
              'man/tracekit-%s.1.scd; add:\n\t*%s* ...\n\t\tWHAT IT DOES.' %
              (verb, o, verb, verb, o) for o in in_help if not documented(o, body)]
    errors += ['verb %s: man/tracekit-%s.1.scd documents %s under # OPTIONS but '
               '`tracekit %s --help` does not list it (drop it from the page, or add it to '
               'the help text)' % (verb, verb, o, verb)
               for o in page_options(body) if o not in in_help]
    return errors


def page_options(body):
    """Options named on the term lines of an OPTIONS section (not the tab-indented text)."""
    found = []
    for line in body.splitlines():
        if line.startswith(('\t', '`')) or not line.strip():
            continue
        for opt in help_options.OPTION.findall(line.replace('*', ' ')):
            if opt not in found:
                found.append(opt)
    return found


def main():
    tracekit, mandir = sys.argv[1], sys.argv[2]
    verbs = help_options.verbs(tracekit)
    if len(verbs) < 5:
        print('tracekit --help listed no verbs: %r' % verbs)
        return 1
    errors = []
    with open(os.path.join(mandir, 'tracekit.1.scd')) as f:
        top = section(f.read(), 'VERBS') or ''
    for verb in verbs:
        if not documented(verb, top):
            errors.append('verb %s: not under # VERBS in man/tracekit.1.scd' % verb)
        errors += check_verb(tracekit, mandir, verb)
    for e in errors:
        print(e)
    checked = sum(len(help_options.options(help_options.help_text(tracekit, v)))
                  for v in verbs if v != 'help')
    print('%d verbs, %d options checked, %d problems' % (len(verbs), checked, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
