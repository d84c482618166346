#!/usr/bin/env python3
"""A toy DRP2 implementation speaking the drp2-fixtures adapter protocol.

It shows how little an adapter needs (see docs/harness.md): read one JSON
object a line from stdin, answer one a line on stdout, flush. It knows only
two rules of DRP2 and "executes" a stream by answering every readback with
zero bytes, so it fails most of a real corpus. It also carries one
deliberate bug, marked below, so that the harness's tests show a failure.
Standard library only; run it with: drp2-fixtures run --implementation
'python3 examples/python/drp2_adapter.py'.
"""
import base64
import json
import sys


def verdict(commands):
    """Returns (outcome, phase, code, command_index) for a stream."""
    created = {}  # id -> index of the command that created it
    for i, c in enumerate(commands):
        if not isinstance(c, dict) or not isinstance(c.get("cmd"), str):
            return "error", "schema_validation", "DRP2_ERR_INVALID_ARGUMENT", i
        if c["cmd"].startswith("Create") and "id" in c:
            if c["id"] in created:
                # Deliberately wrong: the duplicate is command i, but this
                # blames the command that created the id first.
                return "error", "semantic_validation", "DRP2_ERR_DUPLICATE_ID", created[c["id"]]
            created[c["id"]] = i
    return "success", None, None, None


def replies(commands):
    """One QueueSubmitReply per QueueSubmit with readbacks, zero-filled."""
    out = []
    for c in commands:
        if isinstance(c, dict) and c.get("cmd") == "QueueSubmit" and c.get("readbacks"):
            out.append({"cmd": "QueueSubmitReply", "submission_id": c.get("submission_id"),
                        "readbacks": [dict(buffer_id=r["buffer_id"], offset=r["offset"], size=r["size"],
                                           data=base64.b64encode(bytes(r["size"])).decode()) for r in c["readbacks"]]})
    return out


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            answer = {"type": "hello", "protocol": 1, "name": "python-example", "version": "0.1",
                      "drp2_versions": ["2.0"], "executes": True}
        elif msg["type"] == "fixture":
            outcome, phase, code, index = verdict(msg["commands"])
            answer = {"type": "verdict", "seq": msg["seq"], "outcome": outcome}
            if outcome == "error":
                answer.update(phase=phase, code=code, command_index=index)
            else:
                answer["replies"] = replies(msg["commands"])
        else:  # goodbye
            return
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
