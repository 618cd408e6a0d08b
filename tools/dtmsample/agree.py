#!/usr/bin/env python3
"""Counts how validate's JSON lines (from a sample of tools/dtmsample) agree
with the table: the search's proved mate against the table's "dm N".

    mateline validate --no-dtm --json -o out.jsonl sample.epd
    python3 tools/dtmsample/agree.py out.jsonl
"""
import collections, json, sys

tally = collections.Counter()
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            want = r.get("expected", {}).get("mate")
            if r.get("status") != "mate":
                tally["not proved (" + r.get("status", "?") + ")"] += 1
            elif r.get("mate") == want:
                tally["same mate"] += 1
            else:
                tally["DIFFERENT"] += 1
                print("differs:", r["fen"], "table", want, "search", r.get("mate"))
for k, v in sorted(tally.items()):
    print(f"{k}: {v}")
sys.exit(1 if tally["DIFFERENT"] else 0)
