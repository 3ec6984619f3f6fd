#!/usr/bin/env python3
"""Runs `bubbles bench pdf`, pdfinfo and pikepdf over the same PDF folders in one run and
prints the comparison (see run-pdf-peers.sh, which sets up the tools and calls this in the
virtual environment that holds pikepdf).

    pdf_peers.py --bubbles BIN [--repeats N] [--json-out FILE] DIR...

Per tool and folder: every *.pdf under DIR (recursive, sorted, as `bubbles bench pdf` finds
them) is read `repeats` times, pass after pass; a file's time is the median of its repeats.
files/s = files / sum of the per-file medians (the number compared); "wall" = files / the median
time of one full pass, including everything between files.

  ours     `bubbles bench pdf DIR --json --repeats N` (its own timing, in-process, monotonic clock)
  pikepdf  in this Python process: pikepdf.open, docinfo /Title and /Keywords, len(pages), close;
           timed with perf_counter
  pdfinfo  one `pdfinfo FILE` process per file (output discarded), timed around the process
A file a tool cannot read (exception, non-zero exit) is timed like the others and counted as a
failure.
"""
import argparse
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import time


def collect(d):
    if os.path.isfile(d):
        return [d]
    found = []
    for root, _, files in os.walk(d):
        for f in files:
            if f.lower().endswith(".pdf"):
                p = os.path.join(root, f)
                found.append((os.path.relpath(p, d), p))
    return [p for _, p in sorted(found)]


def summarize(tool, times, failures, pass_seconds):
    medians = {f: statistics.median(ts) for f, ts in times.items()}
    total = sum(medians.values())
    worst = max(medians, key=medians.get)
    return {
        "tool": tool,
        "files": len(medians),
        "files_per_second": len(medians) / (total / 1e3) if total else 0.0,
        "files_per_second_wall": len(medians) / statistics.median(pass_seconds),
        "ms_per_file_median": statistics.median(medians.values()),
        "ms_per_file_worst": medians[worst],
        "worst_file": worst,
        "failures": len(failures),
        "failed_files": sorted(failures),
    }


def run_passes(files, repeats, read_one):
    times = {f: [] for f in files}
    failures = set()
    pass_seconds = []
    for _ in range(repeats):
        p0 = time.perf_counter()
        for f in files:
            t0 = time.perf_counter()
            ok = read_one(f)
            times[f].append((time.perf_counter() - t0) * 1e3)
            if not ok:
                failures.add(f)
        pass_seconds.append(time.perf_counter() - p0)
    return times, failures, pass_seconds


def bench_pikepdf(files, repeats):
    import pikepdf

    logging.getLogger("pikepdf").setLevel(logging.CRITICAL)

    def read_one(f):
        try:
            with pikepdf.open(f) as pdf:
                info = pdf.docinfo
                str(info.get("/Title", ""))
                str(info.get("/Keywords", ""))
                len(pdf.pages)
            return True
        except Exception:
            return False

    r = summarize("pikepdf " + pikepdf.__version__, *run_passes(files, repeats, read_one))
    return r


def bench_pdfinfo(files, repeats):
    def read_one(f):
        return subprocess.run(["pdfinfo", f], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0

    version = subprocess.run(["pdfinfo", "-v"], capture_output=True, text=True)
    v = (version.stderr or version.stdout).split("\n")[0].replace("pdfinfo version ", "")
    return summarize("pdfinfo " + v + " (1 process/file)", *run_passes(files, repeats, read_one))


def bench_ours(binary, d, repeats):
    out = subprocess.run([binary, "bench", "pdf", d, "--json", "--repeats", str(repeats)],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    r["tool"] = "bubbles (ours)"
    return r


def fmt_row(r, ours):
    def ratio(key):
        return "%.1fx" % (ours[key] / r[key]) if r is not ours and r[key] else "-"

    worst = os.path.basename(r["worst_file"])
    return "  %-34s %10.1f %10.1f %10.3f %10.3f  %-30s %4d  %8s %8s" % (
        r["tool"], r["files_per_second"], r["files_per_second_wall"], r["ms_per_file_median"],
        r["ms_per_file_worst"], worst[:30], r["failures"], ratio("files_per_second"),
        ratio("files_per_second_wall"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bubbles", required=True)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json-out")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()

    results = {"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "machine": machine(), "repeats": a.repeats,
               "corpora": []}
    for d in a.dirs:
        files = collect(d)
        if not files:
            print("pdf_peers: no *.pdf files under %s" % d, file=sys.stderr)
            sys.exit(1)
        print("%s: %d files, %.1f MB" % (d, len(files), sum(os.path.getsize(f) for f in files) / 1e6),
              file=sys.stderr, flush=True)
        ours = bench_ours(a.bubbles, d, a.repeats)
        pike = bench_pikepdf(files, a.repeats)
        pdfinfo = bench_pdfinfo(files, a.repeats)
        results["corpora"].append({"dir": d, "files": len(files), "bytes": sum(os.path.getsize(f) for f in files),
                                   "ours": ours, "pikepdf": pike, "pdfinfo": pdfinfo})

    for c in results["corpora"]:
        ours = c["ours"]
        print()
        print("%s — %d files, %.2f MB, %d repeats" % (c["dir"], c["files"], c["bytes"] / 1e6, a.repeats))
        print("  %-34s %10s %10s %10s %10s  %-30s %4s  %8s %8s" % (
            "tool", "files/s", "wall f/s", "median ms", "worst ms", "worst file", "fail", "ours÷", "wall÷"))
        for r in (ours, c["pikepdf"], c["pdfinfo"]):
            print(fmt_row(r, ours))
        big = ours.get("read_fraction_mean_over_1mb")
        print("  ours: bytes read per file mean %.0f, median %.0f (median file %.0f); read fraction mean %.2f %%, "
              "over 1 MB %s (%d files)" % (
                  ours["bytes_read_mean"], ours["bytes_read_median"], ours["file_size_median"],
                  ours["read_fraction_mean"] * 100, "-" if big is None else "%.2f %%" % (big * 100),
                  ours["files_over_1mb"]))

    print()
    print("Targets (issue 6):")
    fx = [c for c in results["corpora"] if c["dir"].rstrip("/").endswith("Fixtures")]
    for c in fx:
        r = c["ours"]["files_per_second"] / c["pikepdf"]["files_per_second"]
        print("  >= 10x pikepdf files/s on the fixture corpus: %.1fx -> %s" % (r, "met" if r >= 10 else "NOT met"))
    worst = max(results["corpora"], key=lambda c: c["ours"]["ms_per_file_worst"])["ours"]
    print("  no file slower than 20 ms: worst %.2f ms (%s) -> %s" % (
        worst["ms_per_file_worst"], worst["worst_file"], "met" if worst["ms_per_file_worst"] <= 20 else "NOT met"))
    big = [c["ours"] for c in results["corpora"] if c["ours"]["files_over_1mb"]]
    if big:
        n = sum(o["files_over_1mb"] for o in big)
        mean = sum(o["read_fraction_mean_over_1mb"] * o["files_over_1mb"] for o in big) / n
        print("  files over 1 MB read < 5 %% on average: %.2f %% over %d files -> %s" % (
            mean * 100, n, "met" if mean < 0.05 else "NOT met"))
    else:
        print("  files over 1 MB read < 5 % on average: no file over 1 MB in these folders "
              "(make the large corpus: run-pdf-peers.sh --make-large)")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
        print("\nresults written to %s" % a.json_out)


def machine():
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores, %s %s" % (cpu, os.cpu_count() or 0, platform.system(), platform.release())


if __name__ == "__main__":
    main()
