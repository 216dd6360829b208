#!/usr/bin/env python3
"""ds-variants.py RANGED.json OUTDIR: writes the variants of issue 23's
ranged depth-stencil frame that scripts/h200-depthstencil.sh replays
(each made replayable as replayable-frame.py does; the GENERAL twin is
proptest/testdata/frames/depth-stencil-general.json, made replayable by
h200-prepare.sh):
  ranged.json           the frame as written (per-aspect layouts)
  ranged-all-general    the same accesses and aspects, every layout of the
                        depth/stencil image GENERAL: the same work as the
                        ranged frame (same attachments, tests, sampled
                        aspects), only the layouts differ
  ranged-depth-general  the DEPTH-aspect accesses in GENERAL
  ranged-stencil-general the STENCIL-aspect accesses in GENERAL
  ranged-outline-both   outline tests depth and stencil read-only
                        (DEPTH_STENCIL_READ_ONLY_OPTIMAL, both aspects),
                        as the twin's whole-image read does: the ranged
                        layouts with the twin's tests in outline
"""
import copy
import json
import os
import sys


def replayable(g):
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
    return g


def ds_accesses(g):
    ds = {r["name"] for r in g["resources"] if r["type"] == "image" and r["image"]["format"].startswith(("D", "S8"))}
    for c in g["commands"]:
        for a in c["accesses"]:
            if a["resource"] in ds:
                yield c, a


def general(g, aspect=None):
    for c, a in ds_accesses(g):
        if c["name"] == "prepass":
            continue  # the first write stays an attachment write (as in the twin)
        if aspect is None or a.get("aspects") == [aspect]:
            a["layout"] = "GENERAL"
    return g


def outline_both(g):
    for c, a in ds_accesses(g):
        if c["name"] == "outline":
            a.pop("aspects", None)
            a["layout"] = "DEPTH_STENCIL_READ_ONLY_OPTIMAL"
    return g


base = json.load(open(sys.argv[1]))
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
variants = {
    "ranged": lambda g: g,
    "ranged-all-general": lambda g: general(g),
    "ranged-depth-general": lambda g: general(g, "DEPTH"),
    "ranged-stencil-general": lambda g: general(g, "STENCIL"),
    "ranged-outline-both": outline_both,
}
for name, f in variants.items():
    g = replayable(f(copy.deepcopy(base)))
    json.dump(g, open(os.path.join(out, name + ".json"), "w"), indent=1)
