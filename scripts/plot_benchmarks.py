#!/usr/bin/python3
"""Draws the benchmark charts of docs/benchmarks.md as SVG files.

    scripts/plot_benchmarks.py [--data DIR] [--out DIR] [--comparison CSV]
        [--throughput CSV...] [--kernels CSV] [--stats JSON...]

  comparison.svg      the README's picture: time to sort as a multiple of
                      cp's, gsort against GNU sort, per case
                      (columns case, tool, times_cp, seconds, note: a tool
                      without times_cp is drawn as absent, with its note)
  throughput.svg      MB/s of cp, GNU sort and gsort's variants, per input
                      size, from CSVs in the benchmark driver's format
                      (scripts/bench.sh's RESULTS/*.runs.csv; medians are
                      taken per case and tool, over the runs that succeeded)
  kernels.svg         gsort's GPU sorts against CUB (and Thrust) by number of
                      keys (columns keys, n, algorithm, gkeys_per_s, median_us)
  phase_timeline.svg  the phases of runs as they ran, from their --stats JSON
                      ("timeline": each phase's start and end on each thread)

Runs with Debian's /usr/bin/python3 (python3-matplotlib). Defaults: docs/data/comparison.csv,
docs/data/throughput.csv, docs/data/kernels_h200.csv and docs/data/stats_*.json, charts into
docs/img/. Needs matplotlib: `GSORT_WITH_PLOTS=1 scripts/install_deps.sh` installs it
(Debian: python3-matplotlib).
"""
import argparse
import csv
import glob
import json
import os
import statistics
import sys
from collections import OrderedDict, defaultdict

try:
    import matplotlib
except ImportError:
    sys.exit("plot_benchmarks.py needs matplotlib: GSORT_WITH_PLOTS=1 scripts/install_deps.sh "
             "(Debian: apt-get install python3-matplotlib)")

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

# Fixed colours, so a tool looks the same in every chart.
TOOL_COLOURS = {
    "cp": "#7f7f7f",
    "GNU sort": "#d62728",
    "sortbin": "#ff7f0e",
    "gsort": "#1f77b4",
    "gsort --backend cpu": "#17becf",
    "gsort --backend gpu": "#2ca02c",
    "gsort --backend gpu --algorithm radix": "#98df8a",
    "gsort --backend gpu --algorithm merge": "#bcbd22",
    "gsort --backend hybrid": "#9467bd",
}
KERNEL_STYLES = {
    "cub radix": ("#2ca02c", "-"),
    "gsort radix": ("#1f77b4", "-"),
    "thrust": ("#7f7f7f", ":"),
    "cub merge": ("#2ca02c", "--"),
    "gsort merge": ("#1f77b4", "--"),
    "gsort rank": ("#ff7f0e", "-"),
}
# Options that name a variant of gsort in a chart (the others, such as
# --format or -o, are the same for every tool of a case).
VARIANT_OPTIONS = ("--backend", "--algorithm", "--compress-temp")


def tool_label(command):
    """'cp', 'GNU sort', or 'gsort' with the options that make it a variant."""
    words = command.split()
    while words and (words[0] == "env" or "=" in words[0]):
        words.pop(0)  # env LC_ALL=C sort ...
    if not words:
        return command
    program = words[0]
    if program == "sort":
        return "GNU sort"
    if program != "gsort":
        return program
    label = ["gsort"]
    for i, word in enumerate(words):
        if word in VARIANT_OPTIONS:
            label.append(word)
            if word != "--compress-temp" and i + 1 < len(words):
                label.append(words[i + 1])
    return " ".join(label)


def read_throughput(paths):
    """{(host, case): {tool: median MB/s}}, cases in file order."""
    seconds = OrderedDict()
    sizes = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("status", "ok") != "ok":
                    continue
                key = (row["host"], row["case"])
                tool = tool_label(row["tool"])
                if row.get("label", "").endswith("(old build)"):
                    tool += " (old build)"
                seconds.setdefault(key, defaultdict(list))[tool].append(float(row["seconds"]))
                sizes[key] = int(row["bytes"])
    return OrderedDict(
        (key, {tool: sizes[key] / 1e6 / statistics.median(times) for tool, times in tools.items()})
        for key, tools in seconds.items()
    )


def plot_throughput(paths, out):
    cases = read_throughput(paths)
    tools = [t for t in TOOL_COLOURS if any(t in c for c in cases.values())]
    tools += sorted({t for c in cases.values() for t in c} - set(tools))
    fig, ax = plt.subplots(figsize=(10, 4.8))
    width = 0.8 / len(tools)
    for t_index, tool in enumerate(tools):
        xs, ys = [], []
        for c_index, mbs in enumerate(cases.values()):
            if tool in mbs:
                xs.append(c_index + (t_index - (len(tools) - 1) / 2) * width)
                ys.append(mbs[tool])
        ax.bar(xs, ys, width, label=tool, color=TOOL_COLOURS.get(tool))
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([f"{case}\n{host}" for host, case in cases], fontsize=9)
    ax.set_ylabel("MB/s (input bytes / wall time, higher is better)")
    ax.set_title("gensort records, input in the page cache: gsort against cp and GNU sort")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None})
    plt.close(fig)


def read_comparison(path):
    """[(case, [(tool, times_cp or None, note)])], in file order."""
    cases = OrderedDict()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            value = float(row["times_cp"]) if row["times_cp"] else None
            cases.setdefault(row["case"], []).append((row["tool"], value, row["note"]))
    return list(cases.items())


def plot_comparison(path, out):
    """One row of bars per case, a bar per tool: its time as a multiple of
    cp's (log scale, labelled); a tool not measured there is a grey note in
    its place, never a bar."""
    cases = read_comparison(path)
    fig, ax = plt.subplots(figsize=(10, 1.0 + 0.27 * sum(len(tools) + 0.8 for _, tools in cases)))
    y, ticks, labels, labelled = 0.0, [], [], set()
    for case, tools in cases:
        top = y
        for tool, value, note in tools:
            colour = TOOL_COLOURS.get(tool, "#1f77b4")
            if value is None:
                ax.text(1.02, y, f"{tool}: {note}", va="center", fontsize=8, color="#7f7f7f", style="italic")
            else:
                ax.barh(y, value, height=0.8, color=colour, label=None if tool in labelled else tool)
                labelled.add(tool)
                ax.text(value * 1.04, y, f"{value:g}x", va="center", fontsize=8)
            y += 1
        ticks.append((top + y - 1) / 2)
        labels.append(case.replace("`", "").replace(", ", ",\n", 1))
        y += 0.8
    ax.set_xscale("log")
    ax.set_xlim(0.4, 80)
    ax.set_xticks([0.5, 1, 2, 5, 10, 20, 50])
    ax.set_xticklabels(["0.5x", "1x", "2x", "5x", "10x", "20x", "50x"])
    ax.minorticks_off()
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("time to sort / cp's time to copy the same file (log scale, lower is better)")
    ax.set_title("gsort against cp and GNU sort (files in the page cache; docs/benchmarks.md)", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None})
    plt.close(fig)


def read_kernels(path):
    """{(keys, "large"|"small"): {algorithm: [(n, value)]}}: Gkeys/s for the
    large-n rows, median microseconds for the small-n ones."""
    series = OrderedDict()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            size = "large" if row["gkeys_per_s"] else "small"
            value = float(row["gkeys_per_s"] or row["median_us"])
            series.setdefault((row["keys"], size), OrderedDict()).setdefault(row["algorithm"], []).append(
                (int(row["n"]), value))
    return series


def plot_kernels(path, out):
    series = read_kernels(path)
    columns = 2
    rows = (len(series) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(11, 4.2 * rows), squeeze=False)
    for ax, ((keys, size), algorithms) in zip(axes.flat, series.items()):
        for algorithm, points in algorithms.items():
            points.sort()
            colour, line = KERNEL_STYLES.get(algorithm, (None, "-"))
            ax.plot([n for n, _ in points], [v for _, v in points], line, marker="o", markersize=3,
                    color=colour, label=algorithm)
        ax.set_xscale("log", base=2)
        if size == "small":
            ax.set_yscale("log")
            ax.set_title(f"{keys}, small n (launch overhead included)", fontsize=9)
            ax.set_ylabel("microseconds per sort (lower is better)")
        else:
            ax.set_title(f"{keys}, large n", fontsize=9)
            ax.set_ylabel("Gkeys/s (higher is better)")
        ax.set_xlabel("keys sorted (n)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(series):]:
        ax.set_visible(False)
    fig.suptitle("gsort's GPU sorts against CUB and Thrust (H200, medians, CUDA events)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None})
    plt.close(fig)


def plot_phase_timeline(paths, out):
    """Each run's phases as they ran: one row per thread of the run, a bar
    from each span's start_s to its end_s (the --stats "timeline"), so the
    read-ahead on its own thread shows beside the sorting and run writing.

    A --stats file from before gsort recorded the timeline has only phase
    durations (phases_s): its phases are drawn laid end to end on one row.
    """
    runs = [(os.path.basename(p), json.load(open(p))) for p in paths]
    rows = []  # (run name, stats, thread, [(phase, start, seconds)])
    for name, stats in runs:
        if "timeline" in stats:
            threads = OrderedDict()
            for span in stats["timeline"]:
                threads.setdefault(span["thread"], []).append(
                    (span["phase"], span["start_s"], span["end_s"] - span["start_s"]))
            rows += [(name, stats, thread, spans) for thread, spans in threads.items()]
        else:
            start, spans = 0.0, []
            for phase, seconds in stats["phases_s"].items():
                spans.append((phase, start, seconds))
                start += seconds
            rows.append((name, stats, "durations laid end to end", spans))

    fig, ax = plt.subplots(figsize=(11, 1.2 + 0.55 * len(rows)))
    colours = plt.get_cmap("tab20").colors
    phase_colours, labelled = {}, set()
    for y, (_, stats, _, spans) in enumerate(rows):
        for phase, start, seconds in spans:
            colour = phase_colours.setdefault(phase, colours[len(phase_colours) % len(colours)])
            ax.barh(y, seconds, left=start, height=0.6, color=colour, linewidth=0,
                    label=None if phase in labelled else phase)
            labelled.add(phase)
        ax.plot([stats["total_s"]] * 2, [y - 0.4, y + 0.4], color="black", linewidth=1.2)

    def run_label(name, stats):
        where = "in memory" if stats["in_memory"] else f"{stats['runs']} runs"
        return f"{stats['input']['bytes'] / 1e6:.0f} MB, {stats['backend']}, {where}"

    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{run_label(name, stats)}: {thread}" for name, stats, thread, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("seconds since gsort started (black line: total_s)")
    ax.set_title("Phases of gsort runs, from --stats \"timeline\" (one row per thread)", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(root, "docs", "data"))
    parser.add_argument("--out", default=os.path.join(root, "docs", "img"))
    parser.add_argument("--comparison", help="the README's comparison (default DATA/comparison.csv)")
    parser.add_argument("--throughput", nargs="*", help="benchmark CSVs (default DATA/throughput.csv)")
    parser.add_argument("--kernels", help="kernel CSV (default DATA/kernels_h200.csv)")
    parser.add_argument("--stats", nargs="*", help="--stats JSON files (default DATA/stats_*.json)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "gsort"  # the same SVG for the same data
    plt.rcParams["svg.fonttype"] = "none"  # text stays text

    written = []
    plot_comparison(args.comparison or os.path.join(args.data, "comparison.csv"), os.path.join(args.out, "comparison.svg"))
    written.append("comparison.svg")
    throughput = args.throughput or [os.path.join(args.data, "throughput.csv")]
    plot_throughput(throughput, os.path.join(args.out, "throughput.svg"))
    written.append("throughput.svg")
    plot_kernels(args.kernels or os.path.join(args.data, "kernels_h200.csv"), os.path.join(args.out, "kernels.svg"))
    written.append("kernels.svg")
    stats = args.stats or sorted(glob.glob(os.path.join(args.data, "stats_*.json")))
    if stats:
        plot_phase_timeline(stats, os.path.join(args.out, "phase_timeline.svg"))
        written.append("phase_timeline.svg")
    for name in written:
        print(os.path.join(args.out, name))


if __name__ == "__main__":
    main()
