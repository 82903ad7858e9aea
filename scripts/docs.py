#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""docs.py - pull the API into Documentation/ from the headers.

A page of Documentation/ names the header whose kernel-doc comments
document what it describes, as the kernel's documentation does:

    .. kernel-doc:: uapi/linux/neuronsim.h
       :identifiers: neuronsim_load neuronsim_unload

(without ``:identifiers:``, every comment of the file).  The header is
the one place the API's words live; the page pulls them.  This script
does what the kernel's Sphinx extension does with such a directive: it
runs the kernel's ``kernel-doc -rst`` on the file and puts its text where
the directive stands.

    scripts/docs.py KERNEL_DOC OUT   write OUT/PAGE.rst for every page of
                                     Documentation/, directives expanded
    scripts/docs.py KERNEL_DOC       check only

KERNEL_DOC is the path of the kernel's scripts/kernel-doc.  Exit status 1,
with one line per fault naming the page, its line and the directive, when
a directive names a file that does not exist, an identifier the file has
no kernel-doc comment for, or a file kernel-doc warns about; 0 otherwise.
"""

import os
import re
import subprocess
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(__file__), '..'))
DOC = os.path.join(TOP, 'Documentation')
DIRECTIVE = re.compile(r'^\.\. kernel-doc::\s+(\S+)\s*$')
OPTION = re.compile(r'^\s+:(\w+):\s*(.*)$')
# what kernel-doc -rst writes for each documented name
DEFINED = re.compile(r'^\.\. c:(?:type|function|macro|struct|enum|union)::\s+(.*)$')


def kernel_doc(kdoc, path, names):
    """The rst kernel-doc makes of @path (of @names only), its warnings."""
    cmd = ['perl', kdoc, '-rst', '-sphinx-version', '3.0']
    for n in names:
        cmd += ['-function', n]
    cmd.append(path)
    p = subprocess.run(cmd, cwd=TOP, capture_output=True, text=True, check=False)
    warnings = [w for w in p.stderr.splitlines() if w.strip()]
    if p.returncode:
        warnings.append('kernel-doc exited with %d' % p.returncode)
    return p.stdout, warnings


def defined_names(text):
    """The names kernel-doc documented in @text."""
    out = set()
    for line in text.splitlines():
        m = DEFINED.match(line)
        if m:
            # "struct neuronsim_load", "int neuronsim_open (int index)",
            # "NEURONSIM_IOC_LOAD": the word before "(" or the last word
            decl = m.group(1).split('(')[0].split()
            if decl:
                out.add(decl[-1].lstrip('*'))
    return out


def expand(page, kdoc, faults):
    """@page's text with its directives replaced by kernel-doc's text."""
    lines = open(page, encoding='utf-8').read().splitlines()
    out = []
    i = 0
    rel = os.path.relpath(page, TOP)
    while i < len(lines):
        m = DIRECTIVE.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        where = '%s:%d: kernel-doc:: %s' % (rel, i + 1, m.group(1))
        path = m.group(1)
        names = []
        i += 1
        while i < len(lines) and OPTION.match(lines[i]):
            key, val = OPTION.match(lines[i]).groups()
            if key != 'identifiers':
                faults.append('%s: option :%s: is not supported' % (where, key))
            names += val.split()
            i += 1
        if not os.path.isfile(os.path.join(TOP, path)):
            faults.append('%s: no such file' % where)
            continue
        text, warnings = kernel_doc(kdoc, path, names)
        faults += ['%s: %s' % (where, w) for w in warnings]
        have = defined_names(text)
        for n in names:
            if n not in have:
                faults.append('%s: %s has no kernel-doc comment in %s' % (where, n, path))
        if not have:
            faults.append('%s: kernel-doc found no comment' % where)
        out += text.splitlines()
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    kdoc = os.path.abspath(sys.argv[1])
    outdir = sys.argv[2] if len(sys.argv) == 3 else None
    faults = []
    pulls = 0
    for name in sorted(os.listdir(DOC)):
        if not name.endswith('.rst'):
            continue
        page = os.path.join(DOC, name)
        pulls += sum(1 for l in open(page, encoding='utf-8') if DIRECTIVE.match(l))
        text = expand(page, kdoc, faults)
        if outdir:
            os.makedirs(outdir, exist_ok=True)
            with open(os.path.join(outdir, name), 'w', encoding='utf-8') as f:
                f.write(text)
    for f in faults:
        print(f)
    print('docs: %d kernel-doc directives, %d faults' % (pulls, len(faults)))
    return 1 if faults or not pulls else 0


if __name__ == '__main__':
    sys.exit(main())
