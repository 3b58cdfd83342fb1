#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Validate a Chrome trace-event JSON file (the JSON Object Format of the
# Chromium project's "Trace Event Format"), as boottrace report -f perfetto
# writes it: every event's required fields and their types, per phase.
# Prints "ok N events (I instant, X complete, M metadata)" or the first
# problems, exit 1. Usage: check-trace-events.py FILE
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    bad = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print("not a JSON object with a traceEvents list")
        return 1
    if doc.get("displayTimeUnit") not in (None, "ms", "ns"):
        bad.append("displayTimeUnit must be ms or ns")
    counts = {}
    named_tids = set()
    used_tids = set()
    num = (int, float)
    for i, e in enumerate(doc["traceEvents"]):
        where = "event %d (%s)" % (i, json.dumps(e)[:80])
        if not isinstance(e, dict):
            bad.append(where + ": not an object")
            continue
        ph = e.get("ph")
        if not isinstance(ph, str) or ph not in ("i", "X", "M", "B", "E"):
            bad.append(where + ": ph %r is not one this writer uses" % (ph,))
            continue
        counts[ph] = counts.get(ph, 0) + 1
        if not isinstance(e.get("name"), str) or not e["name"]:
            bad.append(where + ": name must be a non-empty string")
        for k in ("pid", "tid"):
            if not isinstance(e.get(k), int) or isinstance(e.get(k), bool):
                bad.append(where + ": %s must be an integer" % k)
        if "args" in e and not isinstance(e["args"], dict):
            bad.append(where + ": args must be an object")
        if ph == "M":
            if e.get("name") not in ("process_name", "thread_name", "process_sort_index", "thread_sort_index"):
                bad.append(where + ": unknown metadata name")
            if e.get("name") == "thread_name":
                if not isinstance(e.get("args", {}).get("name"), str):
                    bad.append(where + ": thread_name needs args.name (string)")
                named_tids.add(e.get("tid"))
            continue
        if not isinstance(e.get("ts"), num) or e["ts"] < 0:
            bad.append(where + ": ts must be a number >= 0 (microseconds)")
        if "cat" in e and not isinstance(e["cat"], str):
            bad.append(where + ": cat must be a string")
        used_tids.add(e.get("tid"))
        if ph == "i" and e.get("s") not in ("t", "p", "g"):
            bad.append(where + ": an instant event's s must be t, p or g")
        if ph == "X" and (not isinstance(e.get("dur"), num) or e["dur"] < 0):
            bad.append(where + ": a complete event needs dur >= 0")
        if e.get("cat") == "culprit":
            a = e.get("args", {})
            if not isinstance(a.get("stack"), list) or not all(isinstance(s, str) for s in a["stack"]):
                bad.append(where + ": a culprit's args.stack must be a list of strings")
            if not isinstance(a.get("culprit"), str):
                bad.append(where + ": a culprit's args.culprit must be a string")
    for t in sorted(used_tids - named_tids):
        bad.append("tid %r has events but no thread_name" % (t,))
    if bad:
        print("\n".join(bad[:20]))
        return 1
    print("ok %d events (%d instant, %d complete, %d metadata)" % (
        len(doc["traceEvents"]), counts.get("i", 0), counts.get("X", 0), counts.get("M", 0)))
    return 0


sys.exit(main())
