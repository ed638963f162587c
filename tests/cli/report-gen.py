#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Documents with a known time series, for tests/cli/test-report.sh.

report-gen.py nodes DIR NODES INTERVALS STALLS writes DIR/node-K.json (K from 1):
atio --json run documents in the interval schema, each with INTERVALS
intervals of 1 s (IOPS), of which STALLS (at intervals 2, 5, 8, ...) are
stalls in which no I/O completed on any node; and DIR/intervals.json, the
merged "intervals", "timeline" and per-document "interval_values" that the
test adds to `atio merge --json` of the node documents with
report-gen.py attach DIR MERGE OUT (the merge's own figures come from atio
merge itself).

report-gen.py driver MERGE OUT wraps that merge in a driver's -o
document: one test, two iterations, its nodes and a failed one.

report-gen.py count PAGE CHART prints what chart CHART of a page (or of
the DOM Chromium dumps of it) holds: series, points per series, marked
bands, bars, whiskers. report-gen.py intervals DOC prints how many
intervals a document has. report-gen.py marks PAGE CHART prints a
chart's heat-map cells and ringed marks, then each mark's name;
report-gen.py legend PAGE CHART its legend entries and how many pairs of
them overlap, each entry's box from its sample to the end of its name at
LEGEND_CHAR pixels a character (the widest a 12px sans-serif draws one).
report-gen.py shift DOC OUT SECONDS [mbs] writes DOC with its start and
end moved by SECONDS (and with mbs, its rates given as MB/s): a run that
began that much later on the wall clock.

Latency values are placed in atio's histogram buckets (sub_bits 7) with the
bucket formula of include/atio/stats/hist.h; no percentile is computed here: the
documents' percentile fields are left null, the report reads the buckets.
"""
import html.parser
import json
import re
import sys

SUB_BITS = 7


def index(v):
    msb = (v | 1).bit_length() - 1
    k = msb - SUB_BITS if msb > SUB_BITS else 0
    return (k << SUB_BITS) + (v >> k)


def low(i):
    if i < 2 << SUB_BITS:
        return i
    k = (i >> SUB_BITS) - 1
    return (i - (k << SUB_BITS)) << k


def hist(values):
    """values: {latency_ns: count} -> a latency_ns object with buckets."""
    b = {}
    for v, c in values.items():
        if c:
            b[index(v)] = b.get(index(v), 0) + c
    count = sum(values.values())
    seen = [v for v, c in values.items() if c]
    return {
        "count": count,
        "min": min(seen) if seen else 0,
        "mean": (sum(v * c for v, c in values.items()) / count) if count else 0,
        "p50": None, "p90": None, "p99": None, "p99.9": None,
        "max": max(seen) if seen else 0,
        "sub_bits": SUB_BITS,
        "buckets": [[i, low(i), b[i]] for i in sorted(b)],
    }


def add(total, values):
    for v, c in values.items():
        total[v] = total.get(v, 0) + c


def attach(out, merge, dest):
    with open(merge) as f:
        doc = json.load(f)
    with open("%s/intervals.json" % out) as f:
        iv = json.load(f)
    doc["intervals"] = iv["intervals"]
    doc["timeline"] = iv["timeline"]
    for d, rates in zip(doc["documents_merged"], iv["interval_values"]):
        d["interval_values"] = rates
    with open(dest, "w") as f:
        json.dump(doc, f)


class Counter(html.parser.HTMLParser):
    """What one chart (<svg data-chart=ID>) of a page or DOM dump holds."""

    def __init__(self, chart):
        super().__init__()
        self.chart, self.depth, self.found = chart, 0, False
        self.points, self.bands, self.bars, self.whiskers = [], 0, 0, 0
        self.cells, self.marks, self.names, self.legend, self.text = 0, 0, [], [], None
        self.xticks, self.first = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and a.get("data-chart") == self.chart:
            self.depth, self.found = 1, True
            return
        if not self.depth:
            return
        if tag == "svg":
            self.depth += 1
        cls = a.get("class", "")
        if tag == "path" and cls == "line":
            self.points[-1] += len(re.findall(r"[ML]", a.get("d", "")))
            m = re.match(r"M([0-9.]+) ", a.get("d", ""))
            self.first.append(float(m.group(1)) if m else None)
        elif tag == "g" and cls == "series":
            self.points.append(0)
            self.names.append(a.get("data-name", ""))
        elif tag == "rect" and cls == "cell":
            self.cells += 1
        elif tag == "circle" and cls == "mark":
            self.marks += 1
            self.names[-1] = "mark:" + self.names[-1]
        elif tag == "text" and cls == "legend":
            self.text = [float(a["x"]), float(a["y"]), ""]
        elif tag == "text" and cls == "tick" and a.get("text-anchor") == "middle":
            self.text = [float(a["x"]), None, ""]
        elif tag == "rect" and cls == "band":
            self.bands += 1
        elif tag == "rect" and cls == "bar":
            self.bars += 1
        elif tag == "path" and cls == "whisker":
            self.whiskers += 1

    def handle_data(self, data):
        if self.text is not None:
            self.text[2] += data

    def handle_endtag(self, tag):
        if self.depth and tag == "svg":
            self.depth -= 1
        if tag == "text" and self.text is not None:
            if self.text[1] is None:
                self.xticks.append((self.text[0], self.text[2]))
            else:
                self.legend.append(tuple(self.text))
            self.text = None


def parsed(page, chart):
    c = Counter(chart)
    with open(page) as f:
        c.feed(f.read())
    return c


LEGEND_CHAR = 7.2
LEGEND_SAMPLE = 34


def marks(page, chart):
    """marks PAGE CHART: "cells=N marks=M", then the names of the ringed series."""
    c = parsed(page, chart)
    print("cells=%d marks=%d" % (c.cells, c.marks))
    for n in c.names:
        if n.startswith("mark:"):
            print(n[5:])


def legend(page, chart):
    """legend PAGE CHART: "items=N overlaps=K" over the legend's entries."""
    c = parsed(page, chart)
    box = [(x - LEGEND_SAMPLE, x + len(t) * LEGEND_CHAR, y) for x, y, t in c.legend]
    over = sum(1 for i in range(len(box)) for j in range(i + 1, len(box))
               if abs(box[i][2] - box[j][2]) < 14 and box[i][0] < box[j][1] and box[j][0] < box[i][1])
    print("items=%d overlaps=%d" % (len(box), over))


def firstx(page, chart):
    """firstx PAGE CHART: each series' first x, in the x axis' units (from its ticks)."""
    c = parsed(page, chart)
    (p0, v0), (p1, v1) = c.xticks[0], c.xticks[-1]
    v0, v1 = float(v0), float(v1)
    print(" ".join("%.2f" % (v0 + (p - p0) * (v1 - v0) / (p1 - p0)) for p in c.first))


def shift(src, dest, seconds, mbs):
    with open(src) as f:
        d = json.load(f)
    d["start_epoch"] += seconds
    d["end_epoch"] += seconds
    if mbs:
        d["result"]["unit"] = "MB/s"
        d["result"]["value"] = d["result"]["mbs"]
        for i in d["intervals"]:
            i["value"] = i["mbs"]
    with open(dest, "w") as f:
        json.dump(d, f)


def count(page, chart):
    """count PAGE CHART: "series=N points=a,b,... bands=B bars=R whiskers=W"."""
    c = Counter(chart)
    with open(page) as f:
        c.feed(f.read())
    if not c.found:
        print("none")
        return
    print("series=%d points=%s bands=%d bars=%d whiskers=%d" % (
        len(c.points), ",".join(map(str, c.points)), c.bands, c.bars, c.whiskers))


def intervals(doc):
    """intervals DOC: the charted intervals of a run or merge document (0 without);
    of a driver's document, those of its first test's last complete
    iteration's merge."""
    with open(doc) as f:
        d = json.load(f)
    if "results" in d:
        tests = [t for r in d["results"] for t in r["tests"] if t["test"] != "warmup"]
        its = [i for i in tests[0]["iterations"] if i.get("complete") and i.get("merge")]
        d = its[-1]["merge"] if its else {}
    ivs = d.get("intervals") or []
    # the page leaves out a last interval shorter than half of one
    if len(ivs) > 1 and ivs[-1]["duration_sec"] < max(i["duration_sec"] for i in ivs) / 2:
        ivs = ivs[:-1]
    print(len(ivs))


def driver(merge, dest):
    """A driver's -o document around MERGE: one test at 4 threads, two
    iterations of that merge, its nodes named node1... with their series,
    and a node9 that failed (no series)."""
    with open(merge) as f:
        m = json.load(f)
    nodes = [{"host": "node%d" % (i + 1), "ok": True, "value": d["value"], "unit": m["unit"],
              "interval_values": d["interval_values"], "stalls": m["timeline"]["stalls"],
              "longest_stall_sec": m["timeline"]["longest_stall_sec"]}
             for i, d in enumerate(m["documents_merged"])]
    nodes.append({"host": "node9", "ok": False, "value": None, "unit": m["unit"],
                  "interval_values": None, "stalls": None, "longest_stall_sec": None})
    its = [{"iteration": k, "complete": True, "concurrent": True, "sum": m["sum"] * k,
            "unit": m["unit"], "merge": m, "nodes": nodes} for k in (1, 2)]
    doc = {
        "settings": {"atio_version": "atio 0.1.0", "time_sec": 12, "threads": [4],
                     "tests": ["randread"], "iterations": 2},
        "nodes": [{"host": n["host"]} for n in nodes],
        "results": [{"threads": 4, "tests": [
            {"threads": 4, "test": "warmup", "unit": m["unit"], "average": 1.0, "min": 1.0,
             "max": 1.0, "iterations": []},
            {"threads": 4, "test": "randread", "unit": m["unit"], "runs": 2,
             "complete_iterations": 2, "average": m["sum"] * 1.5, "min": m["sum"],
             "max": m["sum"] * 2, "iterations": its}]}],
        "interrupted": False, "exit_status": 0,
    }
    with open(dest, "w") as f:
        json.dump(doc, f)


def main():
    if sys.argv[1] == "driver":
        driver(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "count":
        count(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] in ("marks", "legend", "firstx"):
        {"marks": marks, "legend": legend, "firstx": firstx}[sys.argv[1]](sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "shift":
        shift(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5:] == ["mbs"])
        return
    if sys.argv[1] == "intervals":
        intervals(sys.argv[2])
        return
    if sys.argv[1] == "attach":
        attach(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    out, nodes, nint, nstalls = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    stalled = {2 + 3 * s for s in range(nstalls)}
    if max(stalled, default=0) >= nint:
        sys.exit("report-gen.py: too many stalls for the intervals")
    merged = [dict() for _ in range(nint)]
    merged_ops = [0] * nint
    per_node = []
    for n in range(1, nodes + 1):
        whole, ivs, rates = {}, [], []
        for i in range(nint):
            ops = 0 if i in stalled else 1000 * n + 10 * i
            vals = {} if ops == 0 else {2000 * n: ops - 10, 40000 + 5000 * n: 9, 900000: 1}
            add(whole, vals)
            add(merged[i], vals)
            merged_ops[i] += ops
            rates.append(float(ops))
            ivs.append({
                "start_sec": float(i), "duration_sec": 1.0, "ops": ops, "bytes": ops * 4096,
                "syncs": 0, "value": float(ops), "mbs": ops * 4096 / 1048576.0,
                "iops": float(ops), "syncs_per_sec": 0.0, "stalled": i in stalled,
                "latency_ns": hist(vals),
            })
        ops = sum(whole.values())
        doc = {
            "atio": {"version": "0.1.0"},
            "settings": {"cmdline": "--read --rand -s 4K --iops -p 1 -t %d" % nint,
                         "mode": "read", "pattern": "rand", "block_size": 4096,
                         "path": "/data/<node %d> & \"co\"" % n, "interval_sec": 1.0,
                         "filesystem": "xfs"},
            "system": {"kernel": "Linux 6.1.0-test", "hostname": "node%d<b>" % n,
                       "device": "nvme0n1"},
            "start": "2026-01-01T00:00:00.000000Z", "end": "2026-01-01T00:00:00.000000Z",
            "start_epoch": 1767225600.0, "end_epoch": 1767225600.0 + nint,
            "interrupted": False, "signal": None, "measured": True,
            "result": {"time_sec": float(nint), "value": ops / nint, "unit": "IOPS",
                       "mbs": ops * 4096 / 1048576.0 / nint, "iops": ops / nint,
                       "syncs_per_sec": 0, "ops": ops, "bytes": ops * 4096, "syncs": 0,
                       "cpu_user_sec": 0.5, "cpu_sys_sec": 1.5, "truncations": 0},
            "latency_ns": hist(whole),
            "sync_latency_ns": hist({}),
            "read": None, "write": None,
            "intervals": ivs,
            "timeline": {"interval_sec": 1.0, "intervals": nint, "stalls": nstalls,
                         "longest_stall_sec": 1.0 if nstalls else 0,
                         "stall_list": [{"start_sec": s, "duration_sec": 1.0}
                                        for s in sorted(stalled)]},
            "threads": [],
        }
        with open("%s/node-%d.json" % (out, n), "w") as f:
            json.dump(doc, f)
        per_node.append(rates)
    merged_doc = {
        "intervals": [{
            "start_sec": float(i), "duration_sec": 1.0, "ops": merged_ops[i],
            "bytes": merged_ops[i] * 4096, "syncs": 0, "value": float(merged_ops[i]),
            "mbs": merged_ops[i] * 4096 / 1048576.0, "iops": float(merged_ops[i]),
            "syncs_per_sec": 0.0, "stalled": i in stalled, "documents": nodes,
            "latency_ns": hist(merged[i])} for i in range(nint)],
        "timeline": {"interval_sec": 1.0, "intervals": nint, "stalls": nstalls,
                     "longest_stall_sec": 1.0 if nstalls else 0,
                     "stall_list": [{"start_sec": s, "duration_sec": 1.0}
                                    for s in sorted(stalled)]},
        "interval_values": per_node,
    }
    with open("%s/intervals.json" % out, "w") as f:
        json.dump(merged_doc, f)


if __name__ == "__main__":
    main()
