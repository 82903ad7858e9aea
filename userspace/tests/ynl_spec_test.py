#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# ynl_spec_test.py - host test (TAP) of the YNL spec of the "neuronsim"
# generic netlink family, Documentation/netlink/specs/neuronsim.yaml
# (Documentation/userspace.rst, "The generic netlink family"):
#   1. it validates against the kernel's genetlink-c schema,
#      $NEURONSIM_SHARED/ref/netlink/genetlink-c.yaml (default
#      ../shared next to the tree; without it the test SKIPs, saying so);
#   2. every C name the spec implies (commands, attributes and their
#      count/max names, enum entries, the family-name, version and
#      multicast-group defines) exists in the uapi headers with the value
#      the spec gives it: a C program generated from the spec prints
#      them, compiled against uapi/;
#   3. every enumerator of the header enums the spec names is in the
#      spec (an enumerator that is an alias of another, "X = NAME", is
#      not a value of its own), so a new attribute, command or code
#      cannot be left out of it.
# Value rules are the ynl tools': attributes and operations count from
# 1, enum entries from 0 (or value-start), an entry's "value" restarts
# the count, the family version is 1 when the spec gives none.
# Run by scripts/check.sh after make all (it is in HOST_TESTS).

import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
SPEC = os.path.join(TOP, "Documentation", "netlink", "specs", "neuronsim.yaml")
SHARED = os.environ.get("NEURONSIM_SHARED") or os.path.join(TOP, "..", "shared")
SCHEMA = os.path.join(SHARED, "ref", "netlink", "genetlink-c.yaml")
UAPI = os.path.join(TOP, "uapi")

results = []


def report(ok, name, diag=None, skip=None):
    n = len(results) + 1
    results.append(ok)
    line = "%s %d %s" % ("ok" if ok else "not ok", n, name)
    if skip:
        line += " # SKIP " + skip
    print(line)
    for d in ("" if ok else diag or "").splitlines():
        print("# " + d)
    sys.stdout.flush()


def c_name(*parts):
    return "".join(parts).upper().replace("-", "_")


def implied(spec):
    """(C name -> value) of every number and string the spec implies,
    and (enum-name -> set of C names) of the enums it describes."""
    vals, enums = {}, {}
    for d in spec.get("definitions", []):
        if d["type"] not in ("enum", "flags"):
            continue
        prefix = d.get("name-prefix", "%s-%s-" % (spec["name"], d["name"]))
        names, v = set(), d.get("value-start", 0)
        for i, e in enumerate(d["entries"]):
            if isinstance(e, dict):
                name = e["name"]
                v = e.get("value", v)
            else:
                name = e
            cn = c_name(prefix, name)
            vals[cn] = (1 << i) if d["type"] == "flags" else v
            names.add(cn)
            v += 1
        if d.get("enum-name"):
            enums[d["enum-name"]] = names
    for aset in spec["attribute-sets"]:
        prefix = aset.get("name-prefix",
                          "%s-%s-a-" % (spec["name"], aset["name"]))
        names, v = set(), 1
        for a in aset["attributes"]:
            v = a.get("value", v)
            cn = c_name(prefix, a["name"])
            vals[cn] = v
            names.add(cn)
            v += 1
        if "attr-cnt-name" in aset:
            vals[aset["attr-cnt-name"]] = v
            names.add(aset["attr-cnt-name"])
        if "attr-max-name" in aset:
            vals[aset["attr-max-name"]] = v - 1
            names.add(aset["attr-max-name"])
        if aset.get("enum-name"):
            enums[aset["enum-name"]] = names
    ops = spec["operations"]
    prefix = ops.get("name-prefix", spec["name"] + "-cmd-")
    names, v = set(), 1
    for op in ops["list"]:
        v = op.get("value", v)
        cn = c_name(prefix, op["name"])
        vals[cn] = v
        names.add(cn)
        v += 1
    for key, val in (("cmd-cnt-name", v), ("cmd-max-name", v - 1)):
        if key in spec:
            vals[spec[key]] = val
            names.add(spec[key])
    if ops.get("enum-name"):
        enums[ops["enum-name"]] = names
    vals[spec.get("c-family-name", c_name(spec["name"], "-family-name"))] = \
        spec["name"]
    vals[spec.get("c-version-name", c_name(spec["name"], "-family-version"))] = \
        spec.get("version", 1)
    for g in spec.get("mcast-groups", {}).get("list", []):
        vals[g.get("c-define-name",
                   c_name(spec["name"], "-mcgrp-", g["name"]))] = g["name"]
    return vals, enums


def headers(spec):
    hs = [spec.get("uapi-header", "linux/%s.h" % spec["name"])]
    for d in spec.get("definitions", []):
        if d.get("header") and d["header"] not in hs:
            hs.append(d["header"])
    return hs


def compiled_values(spec, vals):
    """Compile a program printing every name of @vals; (values, error)."""
    lines = ["#include <stdio.h>"]
    lines += ["#include <%s>" % h for h in headers(spec)]
    lines.append("int main(void)\n{")
    for name, v in sorted(vals.items()):
        if isinstance(v, str):
            lines.append('\tprintf("%%s s %%s\\n", "%s", %s);' % (name, name))
        else:
            lines.append('\tprintf("%%s i %%lld\\n", "%s", (long long)(%s));'
                         % (name, name))
    lines.append("\treturn 0;\n}\n")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "names.c")
        exe = os.path.join(tmp, "names")
        with open(src, "w") as f:
            f.write("\n".join(lines))
        cc = subprocess.run([os.environ.get("CC", "cc"), "-std=gnu11", "-Wall",
                             "-Werror", "-I", UAPI, "-o", exe, src],
                            capture_output=True, text=True)
        if cc.returncode:
            return None, cc.stderr
        out = subprocess.run([exe], capture_output=True, text=True,
                             check=True).stdout
    got = {}
    for line in out.splitlines():
        name, kind, v = line.split(" ", 2)
        got[name] = v if kind == "s" else int(v)
    return got, None


def header_enums(spec):
    """enum-name -> [(enumerator, is_alias)] parsed from the headers."""
    found = {}
    for h in headers(spec):
        text = open(os.path.join(UAPI, h)).read()
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        for m in re.finditer(r"enum\s+(\w+)\s*\{(.*?)\}", text, re.S):
            ents = []
            for item in m.group(2).split(","):
                item = item.strip()
                if not item:
                    continue
                name, _, val = item.partition("=")
                val = val.strip()
                ents.append((name.strip(),
                             bool(val) and re.fullmatch(r"[A-Za-z_]\w*", val)
                             is not None))
            found[m.group(1)] = ents
    return found


def main():
    print("TAP version 13")
    try:
        import yaml
    except ImportError as e:
        print("1..0 # SKIP python3-yaml is missing (scripts/deps.sh): %s" % e)
        return 0
    spec = yaml.safe_load(open(SPEC))

    if not os.path.exists(SCHEMA):
        report(True, "the spec validates against the kernel's genetlink-c schema",
               skip="%s is absent (set NEURONSIM_SHARED)" % SCHEMA)
    else:
        try:
            import jsonschema
        except ImportError as e:
            report(False, "the spec validates against the kernel's genetlink-c schema",
                   "python3-jsonschema is missing (scripts/deps.sh): %s" % e)
        else:
            schema = yaml.safe_load(open(SCHEMA))
            # the schema's $schema is draft-07
            errs = sorted(jsonschema.Draft7Validator(schema).iter_errors(spec),
                          key=lambda e: list(e.path))
            report(not errs and spec.get("protocol") == "genetlink-c",
                   "the spec validates against the kernel's genetlink-c schema (%s)"
                   % os.path.relpath(SCHEMA, TOP),
                   "\n".join("%s: %s" % ("/".join(map(str, e.path)), e.message)
                             for e in errs) or
                   ("protocol is %r, want genetlink-c" % spec.get("protocol")))

    vals, enums = implied(spec)
    got, err = compiled_values(spec, vals)
    if err is not None:
        report(False, "every C name of the spec is in the uapi headers", err)
    else:
        bad = ["%s: header %r, spec %r" % (n, got[n], v)
               for n, v in sorted(vals.items()) if got.get(n) != v]
        report(not bad, "every C name of the spec (commands, attributes, enum entries, family name %s, version, multicast groups) is in the uapi headers with the spec's value (%d names)"
               % (spec["name"], len(vals)), "\n".join(bad))

    hdr = header_enums(spec)
    missing = []
    for ename, names in sorted(enums.items()):
        if ename not in hdr:
            missing.append("enum %s is not in %s" % (ename, ", ".join(headers(spec))))
            continue
        for name, alias in hdr[ename]:
            if alias or name in names:
                continue
            # an attribute set's or the command enum's unused 0 entry
            if name.endswith("_UNSPEC"):
                continue
            missing.append("%s (enum %s) is not in the spec" % (name, ename))
    report(not missing, "every enumerator of the headers' enums %s is in the spec"
           % ", ".join(sorted(enums)), "\n".join(missing))

    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
