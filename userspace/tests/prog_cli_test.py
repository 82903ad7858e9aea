#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""prog_cli_test.py - host test (TAP) of the engine programs on the command
line (Documentation/execute.rst, Documentation/compiler.rst), on the release
build/bin/ programs:

  - "mkneff prog" writes the demo NEFF with a program; "neuronsim-cc info
    --program" and "dump --program" show its streams (per engine the
    instruction count, the opcode histogram and the triggers per queue, and
    one line or object per instruction), text and -j;
  - "neuronsim-cc replay" runs it to the end (-j: semaphores, per-engine
    counts, per-queue block order, virtual time);
  - "replay --trace FILE" writes Chrome trace-event JSON: it is validated
    here with python3's json and a JSON Schema of the trace-event format
    (ph, ts, dur, pid, tid, name; flow events "s"/"f" with ids; metadata
    events), then by meaning: one named track per engine and per DMA queue,
    slices of a track that do not overlap, every flow one "s" inside a
    trigger slice and one "f" at the start of its block's slice, and the
    trace agrees with the replay's -j report (instructions, blocks, end);
  - "races" finds no race in the demo program, exits 2 on errors and
    on a deadlocking program (naming the wait no schedule satisfies);
  - a deadlocking program (mkneff bad deadlock) compiles, and its replay
    exits 1 saying where each engine waits; a trigger-count mismatch
    (mkneff bad trigger-count) is refused at compile time, no plan written;
  - a plan without a program says so;
  - with $NEURONSIM_SHARED/cases/neff (default ../shared): the largest real
    NEFF's trace, validated the same way.
"""
import bisect
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CC = os.path.join(TOP, "build", "bin", "neuronsim-cc")
MKNEFF = os.path.join(TOP, "build", "bin", "mkneff")

# The trace-event format (Chrome's "Trace Event Format" document): the
# object form, and the event kinds the replay writes.
SCHEMA = {
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "otherData": {"type": "object"},
        "traceEvents": {"type": "array", "items": {"$ref": "#/$defs/event"}},
    },
    "$defs": {
        "event": {
            "type": "object",
            "required": ["ph", "pid", "tid", "name"],
            "properties": {
                "ph": {"enum": ["X", "M", "s", "f"]},
                "pid": {"type": "integer", "minimum": 0},
                "tid": {"type": "integer", "minimum": 0},
                "name": {"type": "string"},
                "cat": {"type": "string"},
                "ts": {"type": "number", "minimum": 0},
                "dur": {"type": "number", "minimum": 0},
                "id": {"type": "integer"},
                "bp": {"enum": ["e"]},
                "args": {"type": "object"},
            },
            "allOf": [
                {"if": {"properties": {"ph": {"const": "X"}}},
                 "then": {"required": ["ts", "dur", "cat"]}},
                {"if": {"properties": {"ph": {"const": "M"}}},
                 "then": {"required": ["args"],
                          "properties": {"name": {"enum": [
                              "process_name", "thread_name",
                              "process_sort_index", "thread_sort_index"]}}}},
                {"if": {"properties": {"ph": {"enum": ["s", "f"]}}},
                 "then": {"required": ["id", "ts", "cat"]}},
                {"if": {"properties": {"ph": {"const": "f"}}},
                 "then": {"required": ["bp"]}},
            ],
        }
    },
}

n = 0
fails = 0


def ok(name, cond, why=""):
    global n, fails
    n += 1
    if cond:
        print(f"ok {n} {name}")
    else:
        fails += 1
        print(f"not ok {n} {name}")
        for line in str(why).splitlines()[-30:]:
            print(f"# {line}")


def dig(obj, *keys):
    """obj[k0][k1]..., or None when a key or index is missing."""
    for k in keys:
        try:
            obj = obj[k]
        except (KeyError, IndexError, TypeError):
            return None
    return obj


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def schema_errors(doc, most=4000):
    """The JSON Schema's complaints (python3-jsonschema), None without it.
    A trace of more than @most events is validated on its metadata events
    and an even sample of @most others (the validator takes 0.1 ms an
    event); the checks by meaning in check_trace() read every event."""
    try:
        import jsonschema
    except ImportError:
        return None
    ev = doc.get("traceEvents") if isinstance(doc, dict) else None
    if isinstance(ev, list) and len(ev) > most:
        step = len(ev) // most + 1
        doc = dict(doc, traceEvents=[e for i, e in enumerate(ev)
                                     if i % step == 0 or
                                     (isinstance(e, dict) and e.get("ph") == "M")])
    v = jsonschema.Draft202012Validator(SCHEMA)
    return [f"{list(e.path)}: {e.message}" for e in v.iter_errors(doc)][:5]


def ns(x):
    """ts/dur in microseconds with 3 decimals -> integer nanoseconds."""
    return round(x * 1000)


def check_trace(path, rep):
    """Problems of the trace at @path against the replay report @rep."""
    errs = []
    with open(path) as f:
        doc = json.load(f)
    se = schema_errors(doc)
    if se:
        return [f"schema: {e}" for e in se]
    ev = doc["traceEvents"]
    names = {}
    slices = {}
    flows = {}
    for e in ev:
        key = (e["pid"], e["tid"])
        if e["ph"] == "M":
            if e["name"] in ("process_name", "thread_name"):
                names[(e["pid"], e["tid"] if e["name"] == "thread_name" else None)] = \
                    e["args"]["name"]
        elif e["ph"] == "X":
            slices.setdefault(key, []).append(e)
        else:
            flows.setdefault(e["id"], []).append(e)
    # one named process per subgraph, one named track per engine and queue
    for i, sg in enumerate(rep["subgraphs"]):
        pid = i + 1
        if not names.get((pid, None), "").startswith(sg["name"]):
            errs.append(f"pid {pid}: no process_name for {sg['name']}")
        for t, eng in enumerate(sg["engines"], 1):
            if names.get((pid, t)) != eng["engine"]:
                errs.append(f"pid {pid} tid {t}: thread_name is not {eng['engine']}")
        for k, q in enumerate(sg["queues"]):
            if names.get((pid, 16 + k)) != "dma " + q["name"]:
                errs.append(f"pid {pid} tid {16 + k}: thread_name is not dma {q['name']}")
    # slices of one track do not overlap
    for key, ss in slices.items():
        ss.sort(key=lambda e: e["ts"])
        for a, b in zip(ss, ss[1:]):
            if ns(a["ts"]) + ns(a["dur"]) > ns(b["ts"]):
                errs.append(f"{key}: slices overlap at {a['ts']} and {b['ts']}")
                break
    # every flow: one "s" in a trigger slice, one "f" where its block starts
    triggers = {}
    starts = set()
    for key, ss in slices.items():
        for x in ss:
            if x["cat"] == "trigger":
                triggers.setdefault(key, []).append((ns(x["ts"]), ns(x["ts"]) + ns(x["dur"])))
            elif x["cat"] == "dma" and key[1] >= 16:
                starts.add((key, ns(x["ts"])))
    for key in triggers:
        triggers[key].sort()
    for fid, fe in flows.items():
        kinds = sorted(e["ph"] for e in fe)
        if kinds != ["f", "s"]:
            errs.append(f"flow {fid}: events {kinds}")
            continue
        s = next(e for e in fe if e["ph"] == "s")
        f = next(e for e in fe if e["ph"] == "f")
        tr = triggers.get((s["pid"], s["tid"]), [])
        i = bisect.bisect_right(tr, (ns(s["ts"]), float("inf"))) - 1
        if i < 0 or not tr[i][0] <= ns(s["ts"]) < tr[i][1]:
            errs.append(f"flow {fid}: its start is in no trigger slice")
        if ((f["pid"], f["tid"]), ns(f["ts"])) not in starts:
            errs.append(f"flow {fid}: its end starts no block slice")
        if ns(f["ts"]) < ns(s["ts"]):
            errs.append(f"flow {fid}: the block starts before its trigger")
    # the trace says what the report says
    instrs = blocks = end = 0
    for key, ss in slices.items():
        for x in ss:
            end = max(end, ns(x["ts"]) + ns(x["dur"]))
            if key[1] >= 16:
                blocks += 1
            elif x["cat"] == "compute":
                instrs += x["args"]["count"]
            else:
                instrs += 1
    if instrs != rep["instructions"]:
        errs.append(f"{instrs} instructions in slices, the report says {rep['instructions']}")
    if blocks != rep["blocks"] or len(flows) != rep["blocks"]:
        errs.append(f"{blocks} block slices, {len(flows)} flows; the report says {rep['blocks']}")
    if end != rep["virtual_ns"]:
        errs.append(f"the last slice ends at {end} ns, the report says {rep['virtual_ns']}")
    return errs


def main():
    tmp = tempfile.mkdtemp(prefix="nsim-prog.")
    neff = os.path.join(tmp, "prog.neff")
    plan = os.path.join(tmp, "prog.kbin")
    trace = os.path.join(tmp, "prog.trace.json")
    print("TAP version 13")

    r = run(MKNEFF, "prog", neff)
    ok("mkneff prog writes the demo NEFF with a program", r.returncode == 0, r.stderr)

    r = run(CC, "info", "--program", "-j", neff)
    prog = None
    try:
        prog = json.loads(r.stdout)["subgraphs"][0]["program"]
    except (ValueError, KeyError, IndexError, TypeError):
        pass
    counts = {e["engine"]: e["instructions"] for e in prog["engines"]} if prog else {}
    sp = prog["engines"][4] if prog else {}
    ok("info --program -j: per engine instructions, opcodes, triggers per queue",
       r.returncode == 0 and prog and prog["instructions"] == 12 and
       counts == {"pe": 4, "act": 1, "pool": 3, "dve": 1, "sp": 3} and
       sp.get("member") == "sg00/SP.bin" and sp.get("triggers") == {"qSPIO0": 2} and
       sp.get("opcodes") == {"0xa0": 1, "0xc1": 2} and
       prog["engines"][2]["triggers"] == {"qPoolIO0": 1},
       r.stdout + r.stderr)
    r = run(CC, "info", "--program", neff)
    ok("info --program: a line per engine",
       r.returncode == 0 and
       "    sp sg00/SP.bin: 3 instructions, 1 waits, 1 updates; opcodes 0xa0 x1, 0xc1 x2; triggers qSPIO0 x2\n"
       in r.stdout, r.stdout + r.stderr)

    r = run(CC, "compile", neff, "-o", plan)
    r2 = run(CC, "compile", "-j", neff, "-o", plan)
    ok("compile: the program NEFF compiles, its totals count the instructions",
       r.returncode == 0 and r.stdout.endswith(" UDMA pieces, 12 instructions\n") and
       r2.returncode == 0 and dig(json.loads(r2.stdout or "{}"), "instructions") == 12,
       r.stdout + r.stderr + r2.stdout)
    r = run(CC, "dump", "--program", plan)
    ok("dump --program: one line per instruction with its wait, update, trigger",
       r.returncode == 0 and "KBIN v3" in r.stdout and
       "sg00 sp [1] 0xc1 trigger trigger qSPIO0 #1\n" in r.stdout and
       "sg00 sp [2] 0xa0 wait wait 25>=2 update 1+=1\n" in r.stdout and
       "sg00 pool [1] 0xc1 trigger trigger qPoolIO0 #0\n" in r.stdout,
       r.stdout + r.stderr)
    r = run(CC, "dump", "--program", "-j", plan)
    lst = []
    try:
        lst = json.loads(r.stdout)["subgraphs"][0]["program"]["engines"][4]["list"]
    except (ValueError, KeyError, IndexError, TypeError):
        pass
    ok("dump --program -j: the instruction list",
       r.returncode == 0 and len(lst) == 3 and
       lst[1] == {"index": 1, "opcode": 0xc1, "class": "trigger",
                  "trigger": {"queue": "qSPIO0", "block": 1}} and
       lst[2]["wait"] == {"semaphore": 25, "value": 2} and
       lst[2]["update"] == {"semaphore": 1}, r.stdout + r.stderr)

    r = run(CC, "replay", "-j", "--trace", trace, plan)
    rep = None
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        pass
    want = [0] * 128
    for i, v in ((1, 1), (2, 1), (3, 1), (4, 1), (24, 2), (25, 2), (40, 1)):
        want[i] = v
    good = (r.returncode == 0 and dig(rep, "finished") is True and
            dig(rep, "instructions") == 12 and dig(rep, "blocks") == 3 and
            dig(rep, "subgraphs", 0, "semaphores") == want and
            dig(rep, "subgraphs", 0, "queues", 0, "order") == [0, 1] and
            dig(rep, "subgraphs", 0, "engines", 0, "classes") ==
            {"compute": 2, "wait": 2, "trigger": 0, "dma": 0} and
            (dig(rep, "virtual_ns") or 0) > 0)
    ok("replay -j: finished, semaphores, counts, block order, virtual time",
       good, r.stdout + r.stderr)
    try:
        errs = check_trace(trace, rep) if good else ["no good report"]
    except (KeyError, IndexError, TypeError, ValueError) as e:
        errs = [f"unreadable: {e!r}"]
    if schema_errors({"traceEvents": []}) is None:
        print("# python3-jsonschema is absent: the schema part is skipped")
    ok("replay --trace: valid trace-event JSON that agrees with the report",
       not errs, "\n".join(errs))
    r2 = run(CC, "replay", plan)
    ok("replay: the text report",
       r2.returncode == 0 and "1 subgraphs, 12 instructions, 3 DMA blocks, finished in" in r2.stdout and
       "  queue qSPIO0 (sp): 2 of 2 blocks, order 0..1, 12288 bytes" in r2.stdout,
       r2.stdout + r2.stderr)

    r = run(CC, "races", plan)
    r2 = run(CC, "races", "-j", "--schedules", "3", plan)
    r3 = run(CC, "races", os.path.join(tmp, "missing.kbin"))
    r4 = run(CC, "races", "--schedules", "x", plan)
    r5 = run(CC, "races", "--shadow", "-j", plan)
    ok("races: the demo program is race-free (exit 0), -j with schedules, exit 2 on errors",
       r.returncode == 0 and r.stdout.endswith(" 0 pairs (0 same-engine-triggers, 0 triggers-ordered, 0 unordered) in 1 subgraphs, 3 accesses, 6 spans\n") and
       r2.returncode == 0 and dig(json.loads(r2.stdout or "{}"), "count") == 0 and
       dig(json.loads(r2.stdout or "{}"), "schedules") == 3 and
       dig(json.loads(r2.stdout or "{}"), "subgraphs", 0, "nodes") == 15 and
       r3.returncode == 2 and r4.returncode == 2 and "is not 0..1000" in r4.stderr and
       r5.returncode == 0 and dig(json.loads(r5.stdout or "{}"), "shadow") == {"violations": 0},
       r.stdout + r.stderr + r2.stdout + r3.stderr + r4.stderr + r5.stdout + r5.stderr)

    dl = os.path.join(tmp, "deadlock.neff")
    r = run(MKNEFF, "bad", "deadlock", dl)
    r1 = run(CC, "replay", dl)
    r2 = run(CC, "replay", "-j", dl)
    try:
        w = json.loads(r2.stdout)["subgraphs"][0]["engines"][3]["waiting"]
    except (ValueError, KeyError, IndexError, TypeError):
        w = None
    ok("replay of a deadlock: exit 1, where each engine waits",
       r.returncode == 0 and r1.returncode == 1 and
       "sg00: deadlock at" in r1.stdout and
       "waits at instruction 0 (opcode 0x41) for semaphore 4 >= 2, it is 1" in r1.stdout and
       "deadlock: 1 of 1 subgraphs did not finish" in r1.stderr and
       r2.returncode == 1 and
       w == {"index": 0, "opcode": 0x41, "semaphore": 4, "wanted": 2, "current": 1} and
       '"errno":"EDEADLK"' in r2.stderr.replace(" ", ""),
       r1.stdout + r1.stderr + r2.stdout + r2.stderr)

    r3 = run(CC, "races", dl)
    r4 = run(CC, "races", "-j", dl)
    try:
        w = json.loads(r4.stdout)["subgraphs"][0]["stuck_at"]
    except (ValueError, KeyError, IndexError, TypeError):
        w = None
    ok("races of a deadlock: exit 2, the first wait no schedule satisfies named",
       r3.returncode == 2 and
       "sg00: stuck: dve instruction 0 (opcode 0x41) waits for semaphore 4 >= 2, "
       "and at most 1 can be added before it" in r3.stdout and
       r4.returncode == 2 and w is not None and
       {k: w.get(k) for k in ("engine", "instruction", "semaphore", "wanted", "reachable")} ==
       {"engine": "dve", "instruction": 0, "semaphore": 4, "wanted": 2, "reachable": 1},
       r3.stdout + r3.stderr + r4.stdout + r4.stderr)

    tc = os.path.join(tmp, "tc.neff")
    tcp = os.path.join(tmp, "tc.kbin")
    run(MKNEFF, "bad", "trigger-count", tc)
    r = run(CC, "compile", tc, "-o", tcp)
    ok("compile refuses a trigger-count mismatch with the NEFF's names, no plan",
       r.returncode == 1 and not os.path.exists(tcp) and
       r.stderr == f"neuronsim-cc: {tc}: sg00: sg00/SP.bin (def.json 'sp_instr'): "
       "queue 'qSPIO0' has 2 blocks but the sp stream triggers it 1 times "
       "(triggers are not the queue's blocks)\n", r.stderr)

    demo = os.path.join(tmp, "demo.neff")
    dp = os.path.join(tmp, "demo.kbin")
    run(MKNEFF, "demo", demo)
    r0 = run(CC, "compile", "-j", demo, "-o", dp)
    r = run(CC, "replay", dp)
    r2 = run(CC, "dump", "--program", dp)
    ok("a plan without a program says so",
       r0.returncode == 0 and '"instructions": null' in r0.stdout and
       r.returncode == 1 and "the plan has no program (KBIN v2, no program section)" in r.stderr and
       "  sg00: no program (KBIN v2: no program section)\n" in r2.stdout,
       r.stderr + r2.stdout)

    shared = os.environ.get("NEURONSIM_SHARED") or os.path.join(TOP, "..", "shared")
    ndir = os.path.join(shared, "cases", "neff")
    if not os.path.isdir(ndir):
        n_skip = f"# SKIP {ndir} is absent"
        print(f"ok {n + 1} the largest real NEFF's trace {n_skip}")
    else:
        big = max((os.path.join(ndir, f) for f in os.listdir(ndir) if f.endswith(".neff")),
                  key=os.path.getsize)
        bt = os.path.join(tmp, "big.trace.json")
        r = run(CC, "replay", "-j", "--trace", bt, big)
        try:
            brep = json.loads(r.stdout)
        except ValueError:
            brep = None
        try:
            errs = check_trace(bt, brep) if brep else ["no report: " + r.stderr]
        except (KeyError, IndexError, TypeError, ValueError) as e:
            errs = [f"unreadable: {e!r}"]
        ok(f"the largest real NEFF's trace ({os.path.basename(big)}, "
           f"{os.path.getsize(bt) if os.path.exists(bt) else 0} bytes) is valid and agrees",
           r.returncode == 0 and not errs, "\n".join(errs))
    total = n + (0 if os.path.isdir(ndir) else 1)
    print(f"1..{total}")
    subprocess.run(["rm", "-rf", tmp])
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
