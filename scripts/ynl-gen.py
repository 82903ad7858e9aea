#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# ynl-gen.py - the C code of the "neuronsim" generic netlink family from its
# YNL spec, Documentation/netlink/specs/neuronsim.yaml, as the kernel's
# ynl-gen (tools/net/ynl) does for in-tree families
# (Documentation/userspace.rst, "The generic netlink family"):
#
#   uapi/linux/neuronsim_netlink.h   the uapi header: family name, version
#                                    and multicast group defines, the
#                                    command enum and one enum per
#                                    attribute set, with kernel-doc
#   kmod/netlink-gen.{c,h}           the module's request policies, one
#                                    per operation that takes attributes
#                                    (the attributes of its do and dump
#                                    requests, with the spec's checks),
#                                    the operations table, the multicast
#                                    groups and the family, and the
#                                    handlers' declarations
#   userspace/lib/netlink-gen.{c,h}  libneuronsim's reply policies (libnl),
#                                    one per attribute set
#
#   scripts/ynl-gen.py           write the files that differ (make ynl-gen)
#   scripts/ynl-gen.py --check   write nothing; print the diff and fail
#                                when a file differs (make check)
#
# It reads the subset of the genetlink-c schema the spec uses: scalar,
# string, pad and nest attributes, the min/max checks, operations with
# do/dump requests (a dump's "pre" hook is its start callback) and
# events, multicast groups (flag admin-perm); definitions that name a
# header (the enums of uapi/linux/neuronsim_kbin.h) are described, not
# generated.  Anything else is refused, so the spec cannot grow past what
# is generated.  Needs PyYAML (python3-yaml, scripts/deps.sh).

import argparse
import difflib
import os
import sys
import re

import yaml

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
SPEC = "Documentation/netlink/specs/neuronsim.yaml"
ME = "scripts/ynl-gen.py"

# C prefixes of the generated policies: the module's (kmod/nrsim.h) and
# the library's
KERNEL_PREFIX = "nrsim_nl"
LIB_PREFIX = "nsim_nl"

SCALARS = ("u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64")


class SpecError(Exception):
    pass


def c_upper(name):
    return name.upper().replace("-", "_")


def c_lower(name):
    return name.lower().replace("-", "_")


def tabs_to(name, col):
    """@name followed by tabs up to column @col (a multiple of 8)."""
    n = (col - len(name) + 7) // 8
    return name + "\t" * max(n, 1)


def flow(text):
    """@text as one line: a line break after a sentence is two spaces, as
    the comments write them, any other one space."""
    text = re.sub(r"([.!?)])\n\s*(?=\S)", r"\1  ", (text or "").strip())
    return re.sub(r"\s*\n\s*", " ", text)


def doc_lines(text, first, width=72):
    """Kernel-doc comment lines " * FIRST text..." wrapped at @width, the
    continuation lines indented by a tab, as the headers write them."""
    out = []
    line = " * " + first
    for tok in re.findall(r"\S+ *", flow(text)):
        w = tok.rstrip()
        sep = "" if line.endswith(("\t", " ")) else " "
        if len(line.expandtabs()) + len(sep) + len(w) > width and \
           line not in (" * ", " *\t"):
            out.append(line.rstrip())
            line = " *\t" + tok
        else:
            line += sep + tok
    out.append(line.rstrip())
    return out


def prose(text):
    """A block comment's lines for @text, its lines as the spec has them."""
    return [(" * " + l).rstrip() for l in (text or "").strip().split("\n")]


class Attr:
    def __init__(self, fam, aset, y, value):
        self.y = y
        self.name = y["name"]
        self.type = y.get("type")
        self.value = value
        self.c = c_upper(aset.prefix + self.name)
        self.checks = y.get("checks", {})
        known = {"name", "type", "doc", "checks", "enum", "nested-attributes",
                 "multi-attr", "value"}
        extra = set(y) - known
        if extra:
            raise SpecError("attribute %s: %s not supported" %
                            (self.name, ", ".join(sorted(extra))))
        if self.type not in SCALARS + ("string", "pad", "nest"):
            raise SpecError("attribute %s: type %s not supported" %
                            (self.name, self.type))
        if set(self.checks) - {"min", "max"} or \
           (self.checks and self.type not in SCALARS):
            raise SpecError("attribute %s: checks %s not supported" %
                            (self.name, ", ".join(sorted(self.checks))))
        for k, v in self.checks.items():
            if not isinstance(v, int):
                raise SpecError("attribute %s: %s must be a number" %
                                (self.name, k))
        self.fam = fam

    def type_doc(self):
        """What the uapi header says of the attribute before its doc."""
        if self.type == "pad":
            return ""
        t = self.type
        if self.type == "nest":
            t = "nest (enum %s)" % self.fam.sets[self.y["nested-attributes"]].enum_name
        if "enum" in self.y:
            t += ", enum " + self.fam.enums[self.y["enum"]]
        if "min" in self.checks and "max" in self.checks:
            t += ", %d..%d" % (self.checks["min"], self.checks["max"])
        elif "min" in self.checks:
            t += ", >= %d" % self.checks["min"]
        elif "max" in self.checks:
            t += ", <= %d" % self.checks["max"]
        return t

    def kernel_policy(self):
        nla = "NLA_" + self.type.upper()
        if self.type == "string":
            return "{ .type = NLA_NUL_STRING, }"
        if self.type == "nest":
            nested = self.fam.sets[self.y["nested-attributes"]]
            return "NLA_POLICY_NESTED(%s_%s_nl_policy)" % (KERNEL_PREFIX,
                                                          c_lower(nested.name))
        if self.type == "pad":
            raise SpecError("attribute %s: pad in a request" % self.name)
        mn, mx = self.checks.get("min"), self.checks.get("max")
        if mn is not None and mx is not None:
            return "NLA_POLICY_RANGE(%s, %d, %d)" % (nla, mn, mx)
        if mn is not None:
            return "NLA_POLICY_MIN(%s, %d)" % (nla, mn)
        if mx is not None:
            return "NLA_POLICY_MAX(%s, %d)" % (nla, mx)
        return "{ .type = %s, }" % nla

    def lib_policy(self):
        if self.type == "pad":
            return None
        if self.type == "nest":
            return "NLA_NESTED"
        return "NLA_" + self.type.upper()


class AttrSet:
    def __init__(self, fam, y):
        self.name = y["name"]
        self.prefix = y.get("name-prefix",
                            "%s-%s-a-" % (fam.name, self.name))
        self.enum_name = y.get("enum-name")
        if not self.enum_name:
            raise SpecError("attribute set %s: no enum-name" % self.name)
        self.doc = y.get("doc", "")
        self.cnt = y.get("attr-cnt-name",
                         "__" + c_upper(self.prefix + "max"))
        self.max = y.get("attr-max-name", c_upper(self.prefix + "max"))
        self.attrs = []
        v = 1
        for a in y["attributes"]:
            v = a.get("value", v)
            self.attrs.append(Attr(fam, self, a, v))
            v += 1
        self.by_name = {a.name: a for a in self.attrs}


class Family:
    def __init__(self, y):
        known = {"name", "protocol", "uapi-header", "c-family-name",
                 "c-version-name", "cmd-max-name", "cmd-cnt-name", "doc",
                 "definitions", "attribute-sets", "operations",
                 "mcast-groups", "version"}
        extra = set(y) - known
        if extra:
            raise SpecError("%s not supported" % ", ".join(sorted(extra)))
        self.y = y
        self.name = y["name"]
        self.doc = y["doc"]
        self.header = y.get("uapi-header", "linux/%s.h" % self.name)
        self.family_define = y.get("c-family-name",
                                   c_upper(self.name + "-family-name"))
        self.version_define = y.get("c-version-name",
                                    c_upper(self.name + "-family-version"))
        self.version = y.get("version", 1)
        self.enums = {}
        for d in y.get("definitions", []):
            if not d.get("header"):
                raise SpecError("definition %s: only definitions of a header "
                                "are supported" % d["name"])
            self.enums[d["name"]] = d.get("enum-name", d["name"])
        self.sets = {}
        for s in y["attribute-sets"]:
            self.sets[s["name"]] = None
        for s in y["attribute-sets"]:
            self.sets[s["name"]] = AttrSet(self, s)
        ops = y["operations"]
        self.op_prefix = ops.get("name-prefix", self.name + "-cmd-")
        self.op_enum = ops.get("enum-name")
        if not self.op_enum:
            raise SpecError("operations: no enum-name")
        self.cmd_cnt = y.get("cmd-cnt-name",
                             "__" + c_upper(self.op_prefix + "max"))
        self.cmd_max = y.get("cmd-max-name", c_upper(self.op_prefix + "max"))
        self.ops = []
        v = 1
        for op in ops["list"]:
            v = op.get("value", v)
            self.ops.append((op, v, c_upper(self.op_prefix + op["name"])))
            v += 1
        self.groups = []
        self.group_flags = {}
        for g in y.get("mcast-groups", {}).get("list", []):
            self.groups.append((g.get("c-define-name",
                                      c_upper("%s-mcgrp-%s" % (self.name,
                                                               g["name"]))),
                                g["name"]))
            flags = g.get("flags", [])
            if set(flags) - {"admin-perm"}:
                raise SpecError("mcast group %s: flags %s not supported"
                                % (g["name"], flags))
            self.group_flags[g["name"]] = flags
        for op, _, _ in self.ops:
            for mode in ("do", "dump"):
                extra = set(op.get(mode, {})) - {"request", "reply", "pre"}
                if extra or (mode == "do" and "pre" in op.get(mode, {})):
                    raise SpecError("operation %s: %s %s not supported"
                                    % (op["name"], mode,
                                       ", ".join(sorted(extra) or ["pre"])))

    def op_set(self, op):
        return self.sets[op["attribute-set"]]

    def short(self, op, name):
        """An attribute as the header's prose names it: DEV_ARCH_NAME."""
        a = self.op_set(op).by_name[name]
        return c_upper(a.name)

    def request_attrs(self, op):
        """The attributes of the do and dump requests of @op, by value."""
        names = []
        for mode in ("do", "dump"):
            for n in op.get(mode, {}).get("request", {}).get("attributes", []):
                if n not in names:
                    names.append(n)
        s = self.op_set(op)
        return sorted((s.by_name[n] for n in names), key=lambda a: a.value)


def banner(comment_open, what):
    return [comment_open,
            " * %s - generated by %s from" % (what, ME),
            " * %s: do not edit." % SPEC]


# ---------------------------------------------------------------------
# uapi header


def op_doc(fam, op):
    """The command enum's text for @op: its modes, their attributes, its
    group, then the spec's doc."""
    parts = []
    for mode, word in (("do", "doit"), ("dump", "dump")):
        if mode not in op:
            continue
        req = op[mode].get("request", {}).get("attributes", [])
        parts.append(word + (" (%s)" % ", ".join(fam.short(op, n) for n in req)
                             if req else ""))
    if "event" in op:
        attrs = op["event"].get("attributes", [])
        parts.append('notification of group "%s" (%s)' %
                     (op["mcgrp"], ", ".join(fam.short(op, n) for n in attrs)))
    return "; ".join(parts) + ".  " + flow(op["doc"])


def render_uapi(fam):
    guard = "_UAPI_" + c_upper(fam.header.replace("/", "_").replace(".", "_"))
    base = os.path.basename(fam.header)
    out = ["/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */"]
    out += banner("/*", base)
    out += [" *", ' * The "%s" generic netlink family.' % fam.name, " *"]
    out += prose(fam.doc)
    out += [" *",
            " * Documentation/userspace.rst shows the family in use.",
            " */",
            "#ifndef " + guard,
            "#define " + guard,
            ""]
    defs = [(fam.family_define, '"%s"' % fam.name),
            (fam.version_define, str(fam.version))]
    defs += [(d, '"%s"' % n) for d, n in fam.groups]
    col = (max(len("#define " + d) for d, _ in defs) // 8 + 1) * 8
    out += [tabs_to("#define " + d, col) + v for d, v in defs]
    out.append("")

    # commands
    unspec = c_upper(fam.op_prefix + "unspec")
    out += ["/**",
            " * enum %s - commands and notifications of the family." % fam.op_enum,
            " * @%s: unused." % unspec]
    for op, _, c in fam.ops:
        out += doc_lines(op_doc(fam, op), "@%s:" % c)
    out += [" * @%s: internal." % fam.cmd_cnt,
            " * @%s: highest command." % fam.cmd_max,
            " */",
            "enum %s {" % fam.op_enum,
            "\t%s," % unspec]
    prev = 0
    for op, v, c in fam.ops:
        out.append("\t%s%s," % (c, "" if v == prev + 1 else " = %d" % v))
        prev = v
    out += ["",
            "\t%s," % fam.cmd_cnt,
            "\t%s = %s - 1" % (fam.cmd_max, fam.cmd_cnt),
            "};",
            ""]

    # attribute sets
    for s in fam.sets.values():
        unspec = c_upper(s.prefix + "unspec")
        out += ["/**"]
        out += doc_lines(s.doc, "enum %s -" % s.enum_name)
        out.append(" * @%s: unused." % unspec)
        for a in s.attrs:
            td = a.type_doc()
            doc = flow(a.y.get("doc"))
            text = "%s%s%s" % (td, ", " if td and doc else "", doc)
            if text and not text.endswith("."):
                text += "."
            out += doc_lines(text, "@%s:" % a.c)
        out += [" * @%s: internal." % s.cnt,
                " * @%s: highest attribute." % s.max,
                " */",
                "enum %s {" % s.enum_name,
                "\t%s," % unspec]
        prev = 0
        for a in s.attrs:
            out.append("\t%s%s," % (a.c, "" if a.value == prev + 1
                                    else " = %d" % a.value))
            prev = a.value
        out += ["",
                "\t%s," % s.cnt,
                "\t%s = %s - 1" % (s.max, s.cnt),
                "};",
                ""]
    out.append("#endif /* %s */" % guard)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------
# the module's request policies


def kernel_policies(fam):
    """(op, policy name, its highest attribute, the attributes) of every
    operation whose requests take attributes."""
    res = []
    for op, _, c in fam.ops:
        attrs = fam.request_attrs(op)
        if attrs:
            res.append((c, "%s_%s_nl_policy" % (KERNEL_PREFIX,
                                                c_lower(op["name"])),
                        attrs[-1].c, attrs, op))
    return res


def render_policy_h(spdx, about, guard, netlink_h, fam, arrays):
    """A generated header declaring the policy @arrays, (name, size)."""
    out = ["/* SPDX-License-Identifier: %s */" % spdx]
    out += banner("/*", "netlink-gen.h")
    out += [" *"] + [" * " + l for l in about] + [" */",
            "#ifndef " + guard,
            "#define " + guard,
            "",
            "#include <%s>" % netlink_h,
            "",
            "#include <%s>" % fam.header,
            ""]
    for name, size in arrays:
        out.append("extern const struct nla_policy %s[%s + 1];" % (name, size))
    out += ["", "#endif /* %s */" % guard]
    return "\n".join(out) + "\n"


def render_policy_c(spdx, about, arrays):
    """The generated file defining the policy @arrays, (comment, name,
    size, [(attribute, policy)])."""
    out = ["// SPDX-License-Identifier: %s" % spdx]
    out += banner("/*", "netlink-gen.c")
    out += [" *"] + [" * " + l for l in about] + [" */",
                                                  "#include \"netlink-gen.h\""]
    for comment, name, size, entries in arrays:
        out += ["",
                "/* %s */" % comment,
                "const struct nla_policy %s[%s + 1] = {" % (name, size)]
        out += ["\t[%s] = %s," % e for e in entries]
        out.append("};")
    return "\n".join(out) + "\n"


def kernel_handlers(fam, op):
    """(genl_ops member, handler name, its C declaration) of @op's
    callbacks, in the order of struct genl_ops."""
    base = "%s_%s" % (KERNEL_PREFIX, c_lower(op["name"]))
    res = []
    if "do" in op:
        res.append(("doit", base + "_doit",
                    "int %s_doit(struct sk_buff *skb, struct genl_info *info);"
                    % base))
    if "pre" in op.get("dump", {}):
        name = c_lower(op["dump"]["pre"])
        res.append(("start", name,
                    "int %s(struct netlink_callback *cb);" % name))
    if "dump" in op:
        res.append(("dumpit", base + "_dumpit",
                    "int %s_dumpit(struct sk_buff *skb, struct netlink_callback *cb);"
                    % base))
    return res


def kernel_group_enum(fam, name):
    return c_upper("%s-mcgrp-%s" % (KERNEL_PREFIX, name))


def render_kernel_h(fam):
    text = render_policy_h(
        "GPL-2.0",
        ["The \"%s\" generic netlink family (netlink-gen.c): its request"
         % fam.name,
         "policies, one per operation that takes attributes (the attributes",
         "of its do and dump requests, with the spec's checks), the handlers",
         "of its operations (netlink.c defines them), its multicast groups",
         "and the family itself."],
        "_NRSIM_NETLINK_GEN_H", "net/genetlink.h", fam,
        [(name, last) for _, name, last, _, _ in kernel_policies(fam)])
    out = ["", "/* the operations' handlers (netlink.c) */"]
    for op, _, _ in fam.ops:
        out += [d for _, _, d in kernel_handlers(fam, op)]
    out += ["",
            "/* the family's multicast groups, by index */",
            "enum %s_mcgrp {" % KERNEL_PREFIX]
    out += ["	%s," % kernel_group_enum(fam, n) for _, n in fam.groups]
    out += ["};",
            "",
            "extern struct genl_family %s_family;" % KERNEL_PREFIX]
    head, tail = text.rsplit("\n#endif", 1)
    return head + "\n".join(out) + "\n\n#endif" + tail


def render_kernel_c(fam):
    arrays = []
    for c, name, last, attrs, op in kernel_policies(fam):
        modes = ", ".join(m for m in ("do", "dump") if m in op)
        arrays.append(("%s - %s" % (c, modes), name, last,
                       [(a.c, a.kernel_policy()) for a in attrs]))
    text = render_policy_c(
        "GPL-2.0",
        ["The \"%s\" generic netlink family: its request policies, operations,"
         % fam.name, "multicast groups and the family (netlink-gen.h)."],
        arrays)
    text = text.replace('#include "netlink-gen.h"',
                        '#include <linux/module.h>\n\n#include "netlink-gen.h"', 1)
    policy = {c: (name, last) for c, name, last, _, _ in kernel_policies(fam)}
    out = ["",
           "/* the operations that take requests (events have no handler) */",
           "static const struct genl_ops %s_ops[] = {" % KERNEL_PREFIX]
    first = None
    for op, v, c in fam.ops:
        hs = kernel_handlers(fam, op)
        if not hs:
            continue
        if first is None:
            first = c
        out += ["\t{", "\t\t.cmd = %s," % c]
        out += ["\t\t.%s = %s," % (m, n) for m, n, _ in hs]
        if c in policy:
            out += ["\t\t.policy = %s," % policy[c][0],
                    "\t\t.maxattr = %s," % policy[c][1]]
        out.append("\t},")
    out += ["};",
            "",
            "static const struct genl_multicast_group %s_mcgrps[] = {"
            % KERNEL_PREFIX]
    for d, n in fam.groups:
        out += ["\t[%s] = {" % kernel_group_enum(fam, n),
                "\t\t.name = %s," % d]
        if "admin-perm" in fam.group_flags[n]:
            out.append("\t\t.flags = GENL_MCAST_CAP_SYS_ADMIN,")
        out.append("\t},")
    out += ["};",
            "",
            "/*",
            " * parallel_ops: the handlers take the locks they need; every",
            " * operation from the first is strictly validated (resv_start_op)",
            " */",
            "struct genl_family %s_family __ro_after_init = {" % KERNEL_PREFIX,
            "\t.name = %s," % fam.family_define,
            "\t.version = %s," % fam.version_define,
            "\t.module = THIS_MODULE,",
            "\t.parallel_ops = true,",
            "\t.resv_start_op = %s," % first,
            "\t.ops = %s_ops," % KERNEL_PREFIX,
            "\t.n_ops = ARRAY_SIZE(%s_ops)," % KERNEL_PREFIX,
            "\t.mcgrps = %s_mcgrps," % KERNEL_PREFIX,
            "\t.n_mcgrps = ARRAY_SIZE(%s_mcgrps)," % KERNEL_PREFIX,
            "};"]
    return text + "\n".join(out) + "\n"


# ---------------------------------------------------------------------
# the library's reply policies


def lib_policy_name(fam, s):
    if s.name == fam.name:
        return "%s_policy" % LIB_PREFIX
    return "%s_%s_policy" % (LIB_PREFIX, c_lower(s.name))


def render_lib_h(fam):
    return render_policy_h(
        "LGPL-2.1 OR BSD-2-Clause",
        ["libnl policies of the replies and events of the \"%s\"" % fam.name,
         "generic netlink family, one per attribute set (netlink-gen.c)."],
        "NEURONSIM_LIB_NETLINK_GEN_H", "netlink/attr.h", fam,
        [(lib_policy_name(fam, s), s.max) for s in fam.sets.values()])


def render_lib_c(fam):
    arrays = [("enum " + s.enum_name, lib_policy_name(fam, s), s.max,
               [(a.c, "{ .type = %s }" % a.lib_policy())
                for a in s.attrs if a.lib_policy()])
              for s in fam.sets.values()]
    return render_policy_c(
        "LGPL-2.1 OR BSD-2-Clause",
        ["libnl policies of the replies and events of the \"%s\"" % fam.name,
         "generic netlink family (netlink-gen.h): every attribute but pad."],
        arrays)


# ---------------------------------------------------------------------


def outputs(fam):
    return [("uapi/" + fam.header, render_uapi(fam)),
            ("kmod/netlink-gen.h", render_kernel_h(fam)),
            ("kmod/netlink-gen.c", render_kernel_c(fam)),
            ("userspace/lib/netlink-gen.h", render_lib_h(fam)),
            ("userspace/lib/netlink-gen.c", render_lib_c(fam))]


def main():
    ap = argparse.ArgumentParser(
        description="generate the neuronsim netlink family's C code from "
        "its YNL spec")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail and print the diff when a "
                    "generated file differs")
    args = ap.parse_args()
    try:
        with open(os.path.join(TOP, SPEC)) as f:
            fam = Family(yaml.safe_load(f))
        outs = outputs(fam)
    except (SpecError, KeyError) as e:
        print("%s: %s: %s" % (ME, SPEC, e), file=sys.stderr)
        return 2
    differ = 0
    for rel, text in outs:
        path = os.path.join(TOP, rel)
        try:
            with open(path) as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old == text:
            continue
        differ += 1
        if args.check:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True),
                "a/" + rel, "b/" + rel))
        else:
            with open(path, "w") as f:
                f.write(text)
            print("  GEN     " + rel)
    if args.check and differ:
        print("%s: %d generated file(s) differ from %s: run make ynl-gen"
              % (ME, differ, SPEC), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
