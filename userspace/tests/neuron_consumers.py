#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""neuron_consumers.py - consumers of the Neuron tools' formats, written
from their documented schema (Documentation/userspace.rst, "Consumers of
the Neuron tools"), run on what selftests/consumers.sh captured in the VM.

  neuron_consumers.py DIR

DIR holds STATE.ls (neuronsim -j ls), STATE.monitor (neuronsim -j monitor,
one report per line) and STATE.prom (neuronsim monitor --prometheus) for
the states idle, loaded and executing.  For each:

  - ls: `jq '.[0].nc_count'` prints the first device's NeuronCore count,
    and every key of neuron-ls -j is there with neuron-ls's type;
  - monitor: every line parses on its own (a pipe consumer reads a line
    at a time); every key path neuron-monitor's exporter reads is there
    with its type; then the report is fed to the Prometheus client the
    way the exporter does it and every documented series is built;
  - prom: the client's parser reads the exposition; every documented
    family is there with its labels and the instance labels.

Prints KTAP; exit status 1 when a check failed.
"""
import json
import os
import re
import shutil
import subprocess
import sys

from prometheus_client import CollectorRegistry, Counter, Gauge, Info
from prometheus_client.exposition import generate_latest
from prometheus_client.parser import text_string_to_metric_families

STATES = ("idle", "loaded", "executing")

# ---- the schema, one place: what the consumers read, with its type ----
# A dict is an object with at least these keys; ("map", X) an object of
# any keys, each X; ("opt", X) null or X; [X] an array of X; a tuple of
# types: any of them.
NUM = (int, float)
INT = int
STR = str
OPT_NUM = (int, float, type(None))

LS_DEVICE = {
    "neuron_device": INT, "bdf": STR, "cpu_affinity": STR, "numa_node": STR,
    "connected_to": "null-or-ints", "nc_count": INT,
    "logical_neuroncore_config": INT, "memory_size": INT,
    "neuroncore_ids": [INT],
    "neuron_processes": [{"pid": INT, "command": STR,
                          "neuron_runtime_version": STR}],
}


def group(**keys):
    return dict(period=NUM, error=STR, **keys)


HOST_BREAKDOWN = {"application_memory": INT, "constants": INT,
                  "dma_buffers": INT, "tensors": INT}
NC_MEM = {"constants": INT, "model_code": INT, "model_shared_scratchpad": INT,
          "runtime_memory": INT, "tensors": INT}
PERCENTILES = ("p0", "p1", "p25", "p50", "p75", "p99", "p100")
LATENCY = {p: OPT_NUM for p in PERCENTILES}
CPU_USAGE = {k: NUM for k in ("user", "nice", "system", "idle", "io_wait",
                              "irq", "soft_irq")}
ERROR_TYPES = ("generic", "numerical", "transient", "model", "runtime",
               "hardware")
STATUS_TYPES = ("completed", "completed_with_err", "completed_with_num_err",
                "timed_out", "incorrect_input", "failed_to_queue")

RUNTIME = {
    "pid": INT, "address": STR, "neuron_runtime_tag": STR, "error": STR,
    "report": {
        "neuroncore_counters": group(neuroncores_in_use=(
            "map", {"neuroncore_utilization": NUM, "flops": INT})),
        "execution_stats": group(
            error_summary={k: INT for k in ERROR_TYPES},
            execution_summary={k: INT for k in STATUS_TYPES},
            # null when no execution ended in the period (neuron-monitor's
            # user guide, execution_stats)
            latency_stats={"total_latency": ("opt", LATENCY),
                           "device_latency": ("opt", LATENCY)}),
        "memory_used": group(
            neuron_runtime_used_bytes={
                "host": INT, "neuron_device": INT,
                "usage_breakdown": {"host": HOST_BREAKDOWN,
                                    "neuroncore_memory_usage": ("map", NC_MEM)}},
            loaded_models=[{
                "name": STR, "uuid": STR, "model_id": INT, "is_running": bool,
                "subgraphs": ("map", {
                    "memory_used_bytes": {"host": INT, "neuron_device": INT,
                                          "usage_breakdown": dict},
                    "neuroncore_index": INT, "neuron_device_index": INT})}]),
        "neuron_runtime_vcpu_usage": group(
            vcpu_usage={"user": NUM, "system": NUM}),
    },
}

REPORT = {
    "neuron_runtime_data": [RUNTIME],
    "system_data": {
        "neuron_hw_counters": group(neuron_devices=[{
            "neuron_device_index": INT, "mem_ecc_corrected": INT,
            "mem_ecc_uncorrected": INT, "sram_ecc_corrected": INT,
            "sram_ecc_uncorrected": INT}]),
        "vcpu_usage": group(average_usage=CPU_USAGE,
                            usage_data=("map", CPU_USAGE),
                            context_switch_count=INT),
        "memory_info": group(memory_total_bytes=INT, memory_used_bytes=INT,
                             swap_total_bytes=INT, swap_used_bytes=INT),
    },
    "instance_info": {k: STR for k in (
        "instance_name", "instance_id", "instance_type",
        "instance_availability_zone", "instance_availability_zone_id",
        "instance_region", "ami_id", "subnet_id", "error")},
    "neuron_hardware_info": {
        "neuron_device_type": STR, "neuron_device_version": STR,
        "neuroncore_version": STR, "neuron_device_count": INT,
        "neuron_device_memory_size": INT, "neuroncore_per_device_count": INT,
        "logical_neuroncore_config": INT, "error": STR},
}

INSTANCE_LABELS = ("instance_name", "instance_id", "instance_type",
                   "availability_zone", "region", "subnet_id")
NC_MEM_FAMILIES = ["neuroncore_memory_usage_" + k for k in NC_MEM]
# the exporter's families: name -> labels besides the instance labels
FAMILIES = {
    "neuroncore_utilization_ratio": ("neuroncore", "runtime_tag"),
    "neuron_runtime_vcpu_usage_ratio": ("usage_type", "runtime_tag"),
    "neuron_runtime_memory_used_bytes": ("memory_location", "runtime_tag"),
    **{f: ("neuroncore", "memory_location", "runtime_tag")
       for f in NC_MEM_FAMILIES},
    "execution_errors_total": ("error_type", "runtime_tag"),
    "execution_status_total": ("status_type", "runtime_tag"),
    "execution_latency_seconds": ("percentile", "runtime_tag"),
    "hardware_ecc_events_total": ("event_type", "neuron_device_index"),
    "system_vcpu_count": (),
    "system_vcpu_usage_ratio": ("usage_type",),
    "system_memory_total_bytes": (),
    "system_memory_used_bytes": (),
    "system_swap_total_bytes": (),
    "system_swap_used_bytes": (),
    "instance_info": (),
    "neuron_hardware_info": (),
}
# families that need a runtime (a process holding NeuronCores)
RUNTIME_FAMILIES = {f for f, labels in FAMILIES.items() if "runtime_tag" in labels}


def walk(value, schema, path, faults):
    """every key of @schema in @value with its type; faults named by path"""
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            faults.append(f"{path}: an object wanted, got {type(value).__name__}")
            return
        for k, sub in schema.items():
            if k not in value:
                faults.append(f"{path}.{k}: missing")
            else:
                walk(value[k], sub, f"{path}.{k}", faults)
    elif isinstance(schema, list):
        if not isinstance(value, list):
            faults.append(f"{path}: an array wanted, got {type(value).__name__}")
            return
        for i, v in enumerate(value):
            walk(v, schema[0], f"{path}[{i}]", faults)
    elif isinstance(schema, tuple) and schema and schema[0] == "opt":
        if value is not None:
            walk(value, schema[1], path, faults)
    elif isinstance(schema, tuple) and schema and schema[0] == "map":
        if not isinstance(value, dict):
            faults.append(f"{path}: an object wanted, got {type(value).__name__}")
            return
        for k, v in value.items():
            walk(v, schema[1], f"{path}.{k}", faults)
    elif schema == "null-or-ints":
        if value is not None and not (isinstance(value, list) and
                                      all(type(x) is int for x in value)):
            faults.append(f"{path}: null or an array of integers wanted, got {value!r}")
    elif schema is dict:
        if not isinstance(value, dict):
            faults.append(f"{path}: an object wanted, got {type(value).__name__}")
    else:
        types = schema if isinstance(schema, tuple) else (schema,)
        # JSON true is not a number, 1 is not a bool
        ok = any(type(value) is t for t in types)
        if not ok:
            faults.append(f"{path}: {'/'.join(t.__name__ for t in types)} wanted, "
                          f"got {type(value).__name__} {value!r}")


class Exporter:
    """the exporter's way: a report in, every series set in a registry"""

    def __init__(self):
        self.reg = CollectorRegistry()
        self.metrics = {}

    def metric(self, kind, name, labels):
        if name not in self.metrics:
            self.metrics[name] = kind(name, name.replace("_", " "), labels,
                                      registry=self.reg)
        return self.metrics[name]

    def feed(self, report):
        ii, hw = report["instance_info"], report["neuron_hardware_info"]
        inst = {"instance_name": ii["instance_name"],
                "instance_id": ii["instance_id"],
                "instance_type": ii["instance_type"],
                "availability_zone": ii["instance_availability_zone"],
                "region": ii["instance_region"],
                "subnet_id": ii["subnet_id"]}
        il = list(inst)
        for rt in report["neuron_runtime_data"] or []:
            tag = {**inst, "runtime_tag": str(rt["neuron_runtime_tag"])}
            rl = il + ["runtime_tag"]
            rep = rt["report"]
            g = rep.get("neuroncore_counters")
            if g:
                m = self.metric(Gauge, "neuroncore_utilization_ratio", rl + ["neuroncore"])
                for nc, d in g["neuroncores_in_use"].items():
                    m.labels(**tag, neuroncore=nc).set(d["neuroncore_utilization"] / 100.0)
            g = rep.get("neuron_runtime_vcpu_usage")
            if g:
                m = self.metric(Gauge, "neuron_runtime_vcpu_usage_ratio", rl + ["usage_type"])
                for k, v in g["vcpu_usage"].items():
                    m.labels(**tag, usage_type=k).set(v / 100.0)
            g = rep.get("memory_used")
            if g:
                used = g["neuron_runtime_used_bytes"]
                m = self.metric(Gauge, "neuron_runtime_memory_used_bytes",
                                rl + ["memory_location"])
                for loc in ("host", "neuron_device"):
                    m.labels(**tag, memory_location=loc).set(used[loc])
                for nc, d in used["usage_breakdown"]["neuroncore_memory_usage"].items():
                    for k, v in d.items():
                        m = self.metric(Gauge, "neuroncore_memory_usage_" + k,
                                        rl + ["neuroncore", "memory_location"])
                        m.labels(**tag, neuroncore=nc, memory_location="None").set(v)
            g = rep.get("execution_stats")
            if g:
                m = self.metric(Counter, "execution_errors", rl + ["error_type"])
                for k, v in g["error_summary"].items():
                    m.labels(**tag, error_type=k).inc(v)
                m = self.metric(Counter, "execution_status", rl + ["status_type"])
                for k, v in g["execution_summary"].items():
                    m.labels(**tag, status_type=k).inc(v)
                m = self.metric(Gauge, "execution_latency_seconds", rl + ["percentile"])
                # the exporter skips a null total_latency
                for k, v in (g["latency_stats"]["total_latency"] or {}).items():
                    if v is not None:
                        m.labels(**tag, percentile=k).set(v)
        sd = report["system_data"]
        g = sd.get("neuron_hw_counters")
        if g:
            m = self.metric(Counter, "hardware_ecc_events",
                            il + ["event_type", "neuron_device_index"])
            for d in g["neuron_devices"]:
                for k, v in d.items():
                    if k != "neuron_device_index":
                        m.labels(**inst, event_type=k,
                                 neuron_device_index=str(d["neuron_device_index"])).inc(v)
        g = sd.get("vcpu_usage")
        if g:
            self.metric(Gauge, "system_vcpu_count", il).labels(**inst).set(len(g["usage_data"]))
            m = self.metric(Gauge, "system_vcpu_usage_ratio", il + ["usage_type"])
            for k, v in g["average_usage"].items():
                m.labels(**inst, usage_type=k).set(v / 100.0)
        g = sd.get("memory_info")
        if g:
            for k in ("memory_total_bytes", "memory_used_bytes",
                      "swap_total_bytes", "swap_used_bytes"):
                self.metric(Gauge, "system_" + k, il).labels(**inst).set(g[k])
        self.metric(Info, "instance", []).info({k: str(v) for k, v in ii.items()})
        self.metric(Info, "neuron_hardware", []).info({k: str(v) for k, v in hw.items()})

    def families(self):
        text = generate_latest(self.reg).decode()
        return {f.name: f for f in text_string_to_metric_families(text)}


class Ktap:
    def __init__(self):
        self.n = 0
        self.fails = 0
        print("TAP version 13")

    def check(self, name, faults):
        self.n += 1
        if faults:
            self.fails += 1
            print(f"not ok {self.n} {name}")
            for f in faults[:20]:
                print(f"# {f}")
            if len(faults) > 20:
                print(f"# ... and {len(faults) - 20} more")
        else:
            print(f"ok {self.n} {name}")


def family_faults(fams, want, where):
    """every family of @want in @fams with its labels and the instance labels"""
    faults = []
    for name in want:
        f = fams.get(name)
        # the parser names a counter family without its _total
        if f is None and name.endswith("_total"):
            f = fams.get(name[:-len("_total")])
        if f is None and name in ("instance_info", "neuron_hardware_info"):
            f = fams.get(name[:-len("_info")])
        if f is None:
            faults.append(f"{where}: no family {name}")
            continue
        if not f.samples:
            faults.append(f"{where}: {name} has no series")
            continue
        s = f.samples[0]
        labels = FAMILIES[name] + (INSTANCE_LABELS if name not in
                                   ("instance_info", "neuron_hardware_info") else ())
        for lab in labels:
            if lab not in s.labels:
                faults.append(f"{where}: {s.name} lacks label {lab} ({s.labels})")
    return faults


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [ln.rstrip("\n") for ln in f if ln.strip()]


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    d = sys.argv[1]
    k = Ktap()
    jq = shutil.which("jq")
    for state in STATES:
        # ---- neuron-ls -j ----
        path = os.path.join(d, f"{state}.ls")
        faults, devs = [], None
        try:
            devs = json.loads(open(path, encoding="utf-8").read())
        except (OSError, ValueError) as e:
            faults.append(f"{path}: {e}")
        if devs is not None:
            walk(devs, [LS_DEVICE], "ls", faults)
            if not isinstance(devs, list) or len(devs) < 2:
                faults.append(f"ls: {len(devs) if isinstance(devs, list) else 0} devices, 2 or more wanted")
        k.check(f"{state}: ls -j has every key of neuron-ls -j with its type", faults)
        if devs and isinstance(devs, list):
            faults = []
            if jq is None:
                faults.append("jq is not installed (scripts/deps.sh installs it)")
            else:
                r = subprocess.run([jq, ".[0].nc_count", path], capture_output=True,
                                   text=True, check=False)
                want = devs[0].get("nc_count")
                if r.returncode or r.stdout.strip() != str(want) or not want:
                    faults.append(f"jq '.[0].nc_count': status {r.returncode}, "
                                  f"'{r.stdout.strip()}' (want {want}) {r.stderr.strip()}")
            k.check(f"{state}: jq '.[0].nc_count' reads the NeuronCore count", faults)
            procs = [p["pid"] for dv in devs for p in dv.get("neuron_processes", [])]
            want_procs = 0 if state == "idle" else 2
            k.check(f"{state}: ls -j lists {want_procs} processes holding NeuronCores",
                    [] if len(set(procs)) == want_procs else [f"processes: {procs}"])

        # ---- neuron-monitor reports ----
        path = os.path.join(d, f"{state}.monitor")
        faults, reports = [], []
        try:
            for i, ln in enumerate(read_lines(path)):
                try:
                    reports.append(json.loads(ln))
                except ValueError as e:
                    faults.append(f"line {i + 1} is not JSON on its own: {e}")
        except OSError as e:
            faults.append(str(e))
        if not reports:
            faults.append("no report")
        for i, r in enumerate(reports):
            walk(r, REPORT, f"report[{i}]", faults)
        k.check(f"{state}: monitor -j: {len(reports)} reports, every key path with its type", faults)
        if not reports or faults:
            continue
        last = reports[-1]
        faults = []
        hw = last["neuron_hardware_info"]
        if hw["neuron_device_count"] < 2:
            faults.append(f"neuron_device_count {hw['neuron_device_count']}")
        if devs and hw["neuroncore_per_device_count"] != devs[0]["nc_count"]:
            faults.append(f"neuroncore_per_device_count {hw['neuroncore_per_device_count']}, "
                          f"ls says {devs[0]['nc_count']}")
        rts = last["neuron_runtime_data"]
        if state == "idle" and rts:
            faults.append(f"idle: {len(rts)} runtimes")
        if state != "idle":
            if len(rts) != 2:
                faults.append(f"{len(rts)} runtimes, 2 holders wanted")
            for rt in rts:
                mu = rt["report"]["memory_used"]
                if not mu["loaded_models"]:
                    faults.append(f"pid {rt['pid']}: no loaded model")
                if mu["neuron_runtime_used_bytes"]["neuron_device"] <= 0:
                    faults.append(f"pid {rt['pid']}: no device memory")
        if state == "executing":
            done = sum(rt["report"]["execution_stats"]["execution_summary"]["completed"]
                       for r in reports for rt in r["neuron_runtime_data"])
            util = max((c["neuroncore_utilization"] for r in reports
                        for rt in r["neuron_runtime_data"]
                        for c in rt["report"]["neuroncore_counters"]["neuroncores_in_use"].values()),
                       default=0)
            p50 = [(rt["report"]["execution_stats"]["latency_stats"]["total_latency"]
                    or {}).get("p50") for r in reports for rt in r["neuron_runtime_data"]]
            if done <= 0:
                faults.append("no completed execution in the reports")
            if not 0 < util <= 100:
                faults.append(f"utilization {util}: above 0 and at most 100 wanted")
            if not any(isinstance(v, (int, float)) and v > 0 for v in p50):
                faults.append(f"no p50 latency: {p50}")
        k.check(f"{state}: the report's values fit the state", faults)

        # ---- the exporter's way ----
        exp = Exporter()
        faults = []
        try:
            for r in reports:
                exp.feed(r)
            fams = exp.families()
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            faults.append(f"the exporter failed: {type(e).__name__} {e}")
            fams = {}
        want = [f for f in FAMILIES if state != "idle" or f not in RUNTIME_FAMILIES]
        if state != "executing":
            want = [f for f in want if f != "execution_latency_seconds"]
        if not faults:
            faults = family_faults(fams, want, "the exporter's registry")
        k.check(f"{state}: the Prometheus client builds every series from the reports", faults)

        # ---- monitor --prometheus, read by the client's parser ----
        path = os.path.join(d, f"{state}.prom")
        faults = []
        try:
            text = open(path, encoding="utf-8").read()
            fams = {f.name: f for f in text_string_to_metric_families(text)}
            # a single exposition has latencies only when an execution
            # ended in its own sampling window: then they must be there
            done = sum(smp.value for f in fams.values() for smp in f.samples
                       if smp.name == "execution_status_total" and
                       smp.labels.get("status_type") == "completed")
            pwant = [f for f in want if f != "execution_latency_seconds" or done > 0]
            if not re.search(r"^# TYPE ", text, re.M) or not re.search(r"^# HELP ", text, re.M):
                faults.append("no HELP or TYPE lines")
            faults += family_faults(fams, pwant, "monitor --prometheus")
        except (OSError, ValueError) as e:
            faults.append(f"{path}: {e}")
        k.check(f"{state}: monitor --prometheus: every family with its labels", faults)

    print(f"1..{k.n}")
    return 1 if k.fails else 0


if __name__ == "__main__":
    sys.exit(main())
