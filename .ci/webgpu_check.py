#!/usr/bin/env python3
"""Checks of .ci/run on the JSON reports of the WebGPU host's corpus runs.

  webgpu_check.py right CORPUS REPORT.json
      every implementation of the report ran; all positive fixtures pass
      Level 1 and Level 2; every negative fixture of a phase it claims
      passes (code and command index); the others are exactly the fixtures
      of the phases it does not claim. Prints the Level 3 preview.

  webgpu_check.py wrong CORPUS REPORT.json REPORT.txt
      against a runtime made wrong on purpose (readbacks one word short,
      the duplicate-id error swallowed): each implementation fails exactly
      the fixtures with readbacks and the duplicate-id negatives, with a
      message that says why.

The expected sets come from the corpus files, not from a run.
"""
import glob
import json
import os
import sys


def corpus(root):
    out = {}
    for path in sorted(p for folder in ("positive", "negative", "negative_schema") for p in glob.glob(os.path.join(root, folder, "*.json"))):
        rel = os.path.relpath(path, root)
        with open(path) as f:
            out[rel] = json.load(f)
    return out


def has_readbacks(doc):
    return any(isinstance(c, dict) and c.get("cmd") == "QueueSubmit" and c.get("readbacks") for c in doc["commands"])


def right(root, report):
    fixtures = corpus(root)
    positives = sorted(p for p in fixtures if p.startswith("positive/"))
    doc = json.load(open(report))
    impls = doc["implementations"]
    assert len(impls) >= 1, "no implementation in the report"
    for im in impls:
        name, s = im["name"], im["summary"]
        assert im["error"] is None, f"{name}: {im['error']}"
        assert im["protocol"] == 2, f"{name}: protocol {im['protocol']}"
        claimed = im["phases"]
        assert s["harness_errors"] == 0, f"{name}: {s['harness_errors']} fixtures without a verdict"
        assert s["level2_checked"] == len(positives) == s["level2_passed"], f"{name}: Level 2 {s['level2_passed']} of {s['level2_checked']}, {len(positives)} positives"
        unclaimed = set()
        for r in im["results"]:
            exp = fixtures[r["corpus_path"]]["expected"]
            if r["class"] != "positive" and exp.get("phase") not in claimed:
                unclaimed.add(r["corpus_path"])
                assert r["actual_outcome"] == "not_claimed" and not r["passed"], f"{name}: {r['corpus_path']}: {r['actual_outcome']}"
            else:
                assert r["passed"], f"{name}: {r['corpus_path']}: expected {exp}, got {r['actual_outcome']} {r['actual_code']} at {r['actual_command_index']}: {r['message']}"
        assert s["not_claimed"] == len(unclaimed), f"{name}: not claimed {s['not_claimed']}, want {len(unclaimed)}"
        assert s["failed"] == 0 and s["passed"] == s["run"] - len(unclaimed), f"{name}: {s}"
        adapter = im.get("adapter") or {}
        print(f"{name}: Level 1 {s['passed']} of {s['run']} ({s['not_claimed']} not claimed: phases {', '.join(claimed)}), "
              f"Level 2 {s['level2_passed']} of {s['level2_checked']}, Level 3 preview {s['level3_agreed']} of {s['level3_compared']} "
              f"equal to the reference; adapter {adapter.get('vendor')} {adapter.get('architecture')}, {adapter.get('driver', 'driver not named')}, {adapter.get('platform')}")
    rows = doc.get("level3_preview", [])
    assert rows, "no Level 3 preview rows: the readback fixtures were not compared"
    for row in rows:
        groups = " | ".join(", ".join(g["sources"]) + f" ({g['size']} bytes" + (f", first differing byte {g['first_differing_byte']}" if "first_differing_byte" in g else "") + ")" for g in row["groups"])
        unusable = "".join(f" | {u}: not comparable" for u in row.get("unusable", []))
        print(f"  Level 3 preview {row['corpus_path']} readback {row['readback']}: {'agree' if row['agree'] else 'differ'}: {groups}{unusable}")


def under_cause(out, cause, fixture):
    """Whether the text report lists fixture under a cause line saying
    cause: the failures are grouped by cause, each cause's first fixtures
    on the indented lines after it, the rest counted ("... and N more")."""
    lines = out.splitlines()
    for i, l in enumerate(lines):
        if cause not in l:
            continue
        depth = len(l) - len(l.lstrip())
        j = i + 1
        while j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > depth:
            if fixture in lines[j] or lines[j].strip().startswith("... and "):
                return True
            j += 1
    return False


def wrong(root, report, text):
    fixtures = corpus(root)
    short = {p for p, d in fixtures.items() if p.startswith("positive/") and has_readbacks(d)}
    dup = {p for p, d in fixtures.items() if d.get("expected", {}).get("code") == "DRP2_ERR_DUPLICATE_ID"}
    assert short and dup, "the corpus has no fixture the faults affect"
    doc = json.load(open(report))
    out = open(text).read()
    for im in doc["implementations"]:
        name = im["name"]
        failing = {r["corpus_path"]: r for r in im["results"] if not r["passed"] and r["actual_outcome"] != "not_claimed"}
        assert set(failing) == short | dup, f"{name}: failing {sorted(failing)}, want {sorted(short | dup)}"
        for p in short:
            m = failing[p]["message"] or ""
            assert m.startswith("Level 2: ") and "data holds" in m and "bytes; size is" in m, f"{name}: {p}: {m!r}"
            assert im["level2"][p] is False, f"{name}: {p}: Level 2 not failed"
        for p in dup:
            r = failing[p]
            assert r["actual_outcome"] == "success", f"{name}: {p}: {r}"
            exp = fixtures[p]["expected"]
            want = f"expected {exp['phase']} {exp['code']} at command {exp['command_index']}, got success"
            assert under_cause(out, want, os.path.basename(p)), f"{name}: the text report does not say {want!r} for {p}"
        print(f"{name}: fails exactly the {len(short)} readback fixtures (Level 2: data one word short) and the {len(dup)} duplicate-id negatives (got success)")


if __name__ == "__main__":
    if sys.argv[1] == "right":
        right(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "wrong":
        wrong(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"unknown check {sys.argv[1]}")
