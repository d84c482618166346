"""Checks that every candidate explore wrote reproduces its disagreement
under run: the built-in validator passes it (its expected block is the
validator's verdict), an implementation that differed fails it and one that
agreed passes it. Both reports list the implementations in the same order.

usage: explore_check.py EXPLORE.json RUN.json
"""
import json
import sys

found, run = (json.load(open(f)) for f in sys.argv[1:3])
assert found["disagreements"], "explore found no disagreement"
assert run["summary"]["failed"] == 0 and run["summary"]["corpus_errors"] == 0, run["summary"]
results = [{r["corpus_path"]: r["passed"] for r in im["results"]} for im in run["implementations"]]
assert len(results) == len(found["implementations"]), "not the same implementations"
for d in found["disagreements"]:
    path = d["candidate"]["path"]
    for i, a in enumerate(d["answers"]):
        assert results[i][path] == (not a.get("differs")), (path, a)
sizes = sorted(d["candidate"]["commands"] for d in found["disagreements"])
print(f"{found['streams']} streams, {len(found['disagreements'])} signatures, every candidate reproduced;"
      f" candidates of {sizes[0]} to {sizes[-1]} commands, median {sizes[len(sizes) // 2]}")
