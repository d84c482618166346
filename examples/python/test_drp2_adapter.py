#!/usr/bin/env python3
"""The example adapter replays the adapter side of the protocol transcripts.

Every implementation in drp2-fixtures replays the same transcripts
(internal/protocol/testdata/transcripts; their README defines the format
and what is compared). Standard library only; run it with:
python3 examples/python/test_drp2_adapter.py
"""
import base64
import binascii
import contextlib
import io
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TRANSCRIPTS = os.path.join(HERE, "..", "..", "internal", "protocol", "testdata", "transcripts")
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
import drp2_adapter  # noqa: E402

# The example speaks protocol 1 only.
VERSIONS = (1, 1)

# The example's deliberate bug (see drp2_adapter.py): it blames the command
# that created a duplicate id first, not the duplicate. Its replay expects
# exactly that difference: (transcript, seq) -> members of its verdict.
DELIBERATE = {("session.txt", 3): {"command_index": 2}}


def parse(text):
    """The side and the requests with their answers; package transcript
    (Go) checks the rest of the format."""
    side, steps = "", []
    for line in text.rstrip("\n").split("\n"):
        kind, rest = line[:1], line[1:]
        rest = rest[1:] if rest.startswith(" ") else rest
        if line == "" or kind in "#=!" or line.startswith("<%"):
            continue
        if kind == ">":
            steps.append({"request": rest, "type": json.loads(rest)["type"], "answers": []})
        elif kind == "<":
            steps[-1]["answers"].append(rest)
        elif line.startswith("side:"):
            side = line[5:].strip()
    return side, steps


def claimed(step, hello):
    """Whether the harness sends step to an implementation that said hello."""
    if step["type"] != "fixture" or not step["answers"]:
        return True
    phases = json.loads(hello).get("phases")
    want = json.loads(step["answers"][0])
    return phases is None or want.get("outcome") != "error" or not want.get("phase") or want["phase"] in phases


def replay(steps):
    """Runs the example's main() with the requests on stdin, each given once
    the answer to the one before is written; returns the steps sent, the
    answer lines and the number of steps read."""
    out, sent, state = io.StringIO(), [], {"next": 0}

    def requests():
        while state["next"] < len(steps):
            step = steps[state["next"]]
            state["next"] += 1
            answers = [l for l in out.getvalue().split("\n") if l.strip()]
            if sent and not claimed(step, answers[0]):
                continue
            sent.append(step)
            yield step["request"] + "\n"

    stdin = sys.stdin
    try:
        sys.stdin = requests()
        with contextlib.redirect_stdout(out):
            drp2_adapter.main()
    finally:
        sys.stdin = stdin
    return sent, [l for l in out.getvalue().split("\n") if l.strip()], state["next"]


def data_length(data):
    """The number of bytes of base64 data, or the data as it is."""
    if not isinstance(data, str):
        return data
    try:
        return len(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return data


def normalise_verdict(w, g, session):
    for m in (w, g):
        m.pop("message", None)
    if "phase" not in g and session["protocol"] >= 2:
        w.pop("phase", None)
    for m in (w, g):
        if not session["executes"] or not m.get("replies"):
            m.pop("replies", None)
        for r in m.get("replies") or []:
            for rb in (r.get("readbacks") or []) if isinstance(r, dict) else []:
                if isinstance(rb, dict):
                    rb["data"] = data_length(rb.get("data"))


class Transcripts(unittest.TestCase):
    def compare(self, w, got, session):
        g = json.loads(got)
        self.assertIsInstance(g, dict, got)
        if w["type"] == "hello":
            self.assertEqual(g.get("type"), "hello")
            self.assertTrue(isinstance(g.get("name"), str) and g["name"].strip(), "a hello needs a name")
            self.assertEqual(g.get("protocol"), min(max(w["protocol"], VERSIONS[0]), VERSIONS[1]), got)
            if g["protocol"] < 2:
                self.assertFalse({"phases", "adapter", "error"} & set(g), got)
            session.update(protocol=g["protocol"], executes=g.get("executes") is True)
            return
        if w["type"] == "verdict":
            normalise_verdict(w, g, session)
        self.assertEqual(g, w)

    def test_transcripts(self):
        names = sorted(n for n in os.listdir(TRANSCRIPTS) if n.endswith(".txt"))
        replayed, deliberate = 0, set()
        for name in names:
            with open(os.path.join(TRANSCRIPTS, name), encoding="utf-8") as f:
                side, steps = parse(f.read())
            if side == "harness":
                continue
            replayed += 1
            with self.subTest(transcript=name):
                sent, got, read = replay(steps)
                goodbye = next((i for i, s in enumerate(steps) if s["type"] == "goodbye"), None)
                self.assertGreaterEqual(read, len(steps) if goodbye is None else goodbye + 1, "stopped reading before goodbye")
                want = [json.loads(a) for s in sent for a in s["answers"]]
                self.assertEqual(len(got), len(want), "\n".join(got))
                session = {}
                for w, g in zip(want, got):
                    if (name, w.get("seq")) in DELIBERATE:
                        w.update(DELIBERATE[(name, w["seq"])])
                        deliberate.add((name, w["seq"]))
                    self.compare(w, g, session)
        self.assertGreaterEqual(replayed, 5)
        self.assertEqual(deliberate, set(DELIBERATE), "a deliberate difference no transcript showed")


if __name__ == "__main__":
    unittest.main()
