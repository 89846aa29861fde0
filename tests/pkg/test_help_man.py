#!/usr/bin/env python3
"""`tracekit help VERB` opens tracekit-VERB(1) on a terminal when man finds the page,
and prints the built-in text when it does not, or when its output is a pipe.
Usage: test_help_man.py TRACEKIT BUILT_MAN_DIR"""
import os
import pty
import shutil
import subprocess
import sys
import tempfile


def on_terminal(argv, env):
    """Run argv with a pty as stdin/stdout/stderr; return what it printed."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    out = b''
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode(errors='replace')


def main():
    tracekit, built = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not shutil.which('man'):
        print('SKIP: man is not installed')
        return 1 if os.environ.get('CI') == 'true' else 77
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        with_page = os.path.join(tmp, 'with', 'man1')
        os.makedirs(with_page)
        shutil.copy(os.path.join(built, 'tracekit-record.1'), with_page)
        os.makedirs(os.path.join(tmp, 'without', 'man1'))
        env = dict(os.environ, MANPAGER='cat', PAGER='cat', MANWIDTH='80', LC_ALL='C')
        cases = [
            ('page installed, terminal', os.path.dirname(with_page), True, 'General Commands Manual'),
            ('no page, terminal', os.path.join(tmp, 'without'), True, 'usage: tracekit record'),
            ('page installed, pipe', os.path.dirname(with_page), False, 'usage: tracekit record'),
        ]
        for name, manpath, tty, want in cases:
            env['MANPATH'] = manpath
            argv = [tracekit, 'help', 'record']
            if tty:
                out = on_terminal(argv, env)
            else:
                out = subprocess.run(argv, env=env, capture_output=True, text=True).stdout
            # man's page header; the built-in text has none
            if want not in out or (want != 'General Commands Manual' and 'General Commands Manual' in out):
                print('FAIL %s: expected %r in:\n%s' % (name, want, out[:400]))
                failed = 1
            else:
                print('ok   %s' % name)
    return failed


if __name__ == '__main__':
    sys.exit(main())
