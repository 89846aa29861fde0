"""The options a verb's help text lists, read the way the bash completion reads them
(completion/tracekit.bash, _tracekit_optspec): every token -x / --long-name on the
usage lines and on the lines whose first non-blank character is '-'."""
import re
import subprocess

OPTION = re.compile(r'(?:^|(?<=[\s,\[|(]))(--?[A-Za-z][A-Za-z0-9-]*)')


def help_text(tracekit, verb=None):
    args = [tracekit, 'help'] + ([verb] if verb else [])
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def verbs(tracekit):
    """The verbs `tracekit --help` lists under 'Verbs:'."""
    out, seen = [], False
    for line in help_text(tracekit).splitlines():
        if line.startswith('Verbs:'):
            seen = True
        elif seen and re.match(r'^  [a-z]', line):
            out.append(line.split()[0])
        elif seen and line.strip() == '':
            seen = False
    return out


def options(text):
    """Option names in a help text, in order of first appearance."""
    found = []
    for line in text.splitlines():
        if not (line.startswith('usage:') or re.match(r'^\s+(-|tracekit )', line)):
            continue
        for opt in OPTION.findall(line):
            if opt not in found:
                found.append(opt)
    return found
