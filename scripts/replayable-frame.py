#!/usr/bin/env python3
"""replayable-frame.py IN OUT: writes the graph IN with each transient's
first access made write-only where it reads and writes (the replay
compares runs, so no transient may be read before the frame writes it;
the conflicts, and so the plan, stay the same). Used by h200-prepare.sh
for issue 23's ranged frames and their GENERAL twins; the Go tests do
the same (vulkan/replay: writeFirst)."""
import json
import sys

g = json.load(open(sys.argv[1]))
imported = {r["name"] for r in g["resources"] if r.get("imported")}
seen = set()
for c in g["commands"]:
    for a in c["accesses"]:
        r = a["resource"]
        if r in imported or r in seen:
            continue
        seen.add(r)
        acc = a.get("access", [])
        if "SHADER_STORAGE_WRITE" in acc or "SHADER_WRITE" in acc:
            a["access"] = [x for x in acc if x not in ("SHADER_STORAGE_READ", "SHADER_READ")]
json.dump(g, open(sys.argv[2], "w"), indent=1)
