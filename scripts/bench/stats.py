#!/usr/bin/env python3
"""One table of scripts/bench.sh: medians and ratios from its timed runs.

    stats.py --runs CASE.runs.csv --commands FILE --title TITLE [--base K]
             [--factor F] [--base-name NAME] [--stats-prefix PREFIX]
             [--bin DIR] [--work DIR] [--old DIR] [--build NAME=DIR ...] --json OUT.json --md OUT.md

The runs file has one row per timed run (columns date, host, script, case,
tool, run, seconds, bytes, row, label, status, extra: KEY=VALUE;...); the
commands file one command line per variant. Each variant's median is divided
by F times the median of variant K (the baseline, run in the same rounds).
PREFIX K.stats.json, where present, is the --stats of variant K's last
round: its runs, temp bytes and phases (each rank's, under mpirun) are
noted under the table. Standard library only: it runs on the GPU machines.
"""
import argparse
import csv
import json
import os
import platform
import statistics
import subprocess


def machine(bin_dir):
    """What the numbers were measured on, in one line and as a dict."""
    info = {"host": platform.node(), "threads": os.cpu_count()}
    try:
        with open("/proc/meminfo") as f:
            kib = next(int(line.split()[1]) for line in f if line.startswith("MemTotal"))
        info["memory_gib"] = round(kib / 1048576)
    except (OSError, StopIteration):
        pass
    try:
        gpus = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30).stdout.split("\n")
        info["gpus"] = [g for g in gpus if g.strip()]
    except (OSError, subprocess.SubprocessError):
        info["gpus"] = []
    try:
        version = subprocess.run([os.path.join(bin_dir, "gsort"), "--version"], capture_output=True, text=True,
                                 timeout=30).stdout.split("\n")
        info["gsort"] = version[0]
    except (OSError, subprocess.SubprocessError):
        info["gsort"] = "?"
    return info


def read_runs(path):
    """[(row, label, [seconds of good runs], [statuses], {extra: [values]})] in row order."""
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            k = int(r["row"])
            entry = rows.setdefault(k, {"label": r["label"], "seconds": [], "status": [], "extra": {}, "bytes": 0})
            entry["bytes"] = int(float(r["bytes"]))
            entry["status"].append(r["status"])
            if r["status"] == "ok":
                entry["seconds"].append(float(r["seconds"]))
            for pair in filter(None, r["extra"].split(";")):
                key, _, value = pair.partition("=")
                try:
                    entry["extra"].setdefault(key, []).append(float(value))
                except ValueError:
                    pass
    return [dict(rows[k], row=k) for k in sorted(rows)]


def stats_note(path):
    """A line or a few from a --stats file: one process's runs and phases, or each rank's."""
    try:
        with open(path) as f:
            s = json.load(f)
    except (OSError, ValueError):
        return []
    if s.get("per_rank"):
        lines = []
        for r in s["per_rank"]:
            p = r.get("phases", {})
            keys = ("exchange_s", "exchange_wait_s", "sort_s", "part_write_s", "write_s", "total_s")
            lines.append("rank %d: %s; sent %.2f GB, received %.2f GB" % (
                r.get("rank", -1), ", ".join("%s %.2f" % (k[:-2], p[k]) for k in keys if k in p),
                r.get("bytes_sent", 0) / 1e9, r.get("bytes_received", 0) / 1e9))
        return lines
    temp = s.get("temp") or {}
    phases = ", ".join("%s %.2f" % (k, v) for k, v in (s.get("phases_s") or {}).items() if v >= 0.005)
    parts = ["runs %s" % s.get("runs", "?")]
    if s.get("runs"):
        parts.append("temp %.2f GB%s" % (temp.get("bytes_written", 0) / 1e9,
                                         ", compressed" if temp.get("compressed") else ""))
    return ["%s; %s" % ("; ".join(parts), phases)]


def cell(text):
    """Text for a Markdown table's cell."""
    return str(text).replace("|", "\\|")


def main():
    ap = argparse.ArgumentParser()
    for name in ("--runs", "--commands", "--title", "--json", "--md"):
        ap.add_argument(name, required=True)
    ap.add_argument("--base", type=int, default=0)
    ap.add_argument("--factor", type=float, default=1.0)
    ap.add_argument("--base-name", default="")
    ap.add_argument("--stats-prefix", default="")
    ap.add_argument("--bin", default="")
    ap.add_argument("--work", default="")
    ap.add_argument("--old", default="")
    ap.add_argument("--build", action="append", default=[], help="NAME=DIR: a build of BUILDS")
    ap.add_argument("--ratio", action="append", default=[],
                    help="NAME=A/B: variant A's median over variant B's, and each round's, under the table")
    a = ap.parse_args()

    with open(a.commands) as f:
        commands = f.read().split("\n")
    rows = read_runs(a.runs)
    info = machine(a.bin)
    base_rows = [r for r in rows if r["row"] == a.base and r["seconds"]]
    base = statistics.median(base_rows[0]["seconds"]) * a.factor if base_rows else None
    base_name = a.base_name or (base_rows[0]["label"] if base_rows else "baseline")
    extras = sorted({k for r in rows for k in r["extra"]})
    rounds = max((len(r["status"]) for r in rows), default=0)
    builds = dict(b.split("=", 1) for b in a.build)

    out = {"title": a.title, "machine": info, "rounds": rounds, "baseline": base_name, "bin": a.bin,
           "old": a.old or None, "builds": builds or None, "work": a.work, "variants": []}
    md = ["### " + a.title, ""]
    gpus = ", ".join(info["gpus"]) if info["gpus"] else "no GPU"
    md.append("%s: %s threads, %s GiB RAM, %s; %s; medians of %d interleaved rounds" % (
        info["host"], info["threads"], info.get("memory_gib", "?"), gpus, info["gsort"], rounds))
    md.append("")
    md.append("| variant | median s | MB/s | / %s | rounds (s) |%s" % (cell(base_name), "".join(" %s |" % e for e in extras)))
    md.append("| --- | ---: | ---: | ---: | --- |%s" % (" ---: |" * len(extras)))
    notes = []
    for r in rows:
        bad = sorted({s for s in r["status"] if s != "ok"})
        med = statistics.median(r["seconds"]) if r["seconds"] else None
        ratio = med / base if med is not None and base else None
        extra = {k: statistics.median(v) for k, v in r["extra"].items() if v}
        out["variants"].append({
            "label": r["label"], "command": commands[r["row"]] if r["row"] < len(commands) else "",
            "median_s": med, "min_s": min(r["seconds"], default=None), "max_s": max(r["seconds"], default=None),
            "mb_per_s": r["bytes"] / 1e6 / med if med else None, "ratio": ratio, "seconds": r["seconds"],
            "status": bad or ["ok"], "extra": extra, "bytes": r["bytes"]})
        cells = [r["label"], "%.3f" % med if med is not None else "-",
                 "%.0f" % (r["bytes"] / 1e6 / med) if med else "-", "%.2f" % ratio if ratio is not None else "-",
                 " ".join("%.3f" % s for s in r["seconds"]) + ("; " + ", ".join(bad) if bad else "")]
        cells += ["%g" % extra[e] if e in extra else "-" for e in extras]
        md.append("| " + " | ".join(cell(c) for c in cells) + " |")
        for line in stats_note("%s%d.stats.json" % (a.stats_prefix, r["row"])) if a.stats_prefix else []:
            notes.append("- %s: %s" % (r["label"], line))
    md.append("")
    out["ratios"] = {}
    for spec in a.ratio:
        name, _, pair = spec.partition("=")
        top, bottom = (int(k) for k in pair.split("/"))
        a_rows = [r for r in rows if r["row"] == top and r["seconds"]]
        b_rows = [r for r in rows if r["row"] == bottom and r["seconds"]]
        if not a_rows or not b_rows:
            continue
        per_round = [x / y for x, y in zip(a_rows[0]["seconds"], b_rows[0]["seconds"]) if y]
        ratio = statistics.median(a_rows[0]["seconds"]) / statistics.median(b_rows[0]["seconds"])
        out["ratios"][name] = {"median": ratio, "rounds": per_round}
        md.append("%s: %.2fx (%s over %s; rounds %s)" % (name, ratio, a_rows[0]["label"], b_rows[0]["label"],
                                                       " ".join("%.2f" % x for x in per_round)))
        md.append("")
    if notes:
        md += ["Last round's --stats:", ""] + notes + [""]
    named = "".join(", `$%s` = %s" % item for item in builds.items())
    md.append("Commands (`$WORK` = %s, `$BIN` = %s%s%s):" % (a.work, a.bin, ", `$OLD` = " + a.old if a.old else "", named))
    md.append("")
    md.append("```sh")
    md += ["%s    # %s" % (commands[r["row"]], r["label"]) for r in rows if r["row"] < len(commands)]
    md.append("```")
    with open(a.md, "w") as f:
        f.write("\n".join(md) + "\n")
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
