#!/usr/bin/env python3
"""readers-table.py: issue 18's readers-sharing-a-transition decision, measured.

For the sample frame, every frame of testdata/frames and of the held-out set
(../shared/data/frames, or $ALIASPLAN_DATA/frames), prints one markdown row:
pooled bytes and barriers (hazard + alias + final) under

  old      the rule before issue 18 (commit 6ddf461: later reads in a layout got
           a DAG edge from the read that made the transition), --order dag;
  spec     this tree, --order dag (SPEC §2: the readers share the transition);
  budget   this tree, --budget OLD (the old rule's pooled bytes, or the
           smallest reachable above it), with its serializations;
  exec     this tree, --order execution, with its serializations.

Usage: scripts/readers-table.py OLD_BIN NEW_BIN
  (build them: git worktree add --detach /tmp/old 6ddf461 &&
   (cd /tmp/old && go build -o bin/aliasplan ./cmd/aliasplan); go build -o bin/aliasplan ./cmd/aliasplan)
"""
import glob, json, os, re, subprocess, sys

def plan(binary, frame, *flags):
    args = [binary, "plan", "--format", "json", *flags]
    if frame != "sample":
        args.append(frame)
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout), ""

def barriers(s):
    b = s["barriers"]
    return sum(b.get(k, 0) for k in ("hazard", "alias", "final"))

def mb(x):
    return f"{x / 1e6:.1f}"

def main():
    old_bin, new_bin = sys.argv[1], sys.argv[2]
    data = os.environ.get("ALIASPLAN_DATA", "../shared/data")
    frames = ["sample"] + sorted(glob.glob("testdata/frames/*.json")) + sorted(glob.glob(os.path.join(data, "frames/*.json")))
    print("| frame | old: pooled MB, barriers | spec: pooled MB (vs old), barriers | budget = old: pooled MB, barriers, serializations | execution: pooled MB, barriers, serializations |")
    print("|---|---|---|---|---|")
    for f in frames:
        name = "sample" if f == "sample" else (("heldout/" if not f.startswith("testdata") else "") + os.path.basename(f)[:-5])
        old, err = plan(old_bin, f)
        if old is None and "finalLayout" in err:
            # 6ddf461 predates final layouts: plan it without them (one
            # final barrier fewer, same placement).
            tmp = "/tmp/readers-table-old.json"
            with open(f) as src, open(tmp, "w") as dst:
                g = json.load(src)
                for r in g["resources"]:
                    r.pop("finalLayout", None)
                    r.get("image", {}).pop("finalLayout", None)
                json.dump(g, dst)
            old, err = plan(old_bin, tmp)
        if old is None:
            print(f"| {name} | old tree: {err} | | | |")
            continue
        new, _ = plan(new_bin, f)
        ex, _ = plan(new_bin, f, "--order", "execution")
        op, np_ = old["memory"]["pooledBytes"], new["memory"]["pooledBytes"]
        bud, err = plan(new_bin, f, "--budget", str(op))
        if bud is None:
            m = re.search(r"(\d[\d,]*) bytes", err)
            reach = m and m.group(1).replace(",", "")
            bud, err = plan(new_bin, f, "--budget", reach) if reach else (None, err)
        delta = (np_ - op) / op * 100 if op else 0
        ser = lambda s: s.get("ordering", {}).get("serializations", 0)
        btxt = f"{mb(bud['memory']['pooledBytes'])}, {barriers(bud)}, {ser(bud)}" if bud else f"({err[:60]})"
        print(f"| {name} | {mb(op)}, {barriers(old)} | {mb(np_)} ({delta:+.1f}%), {barriers(new)} | {btxt} | {mb(ex['memory']['pooledBytes'])}, {barriers(ex)}, {ser(ex)} |")

main()
