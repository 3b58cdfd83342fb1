# SPDX-License-Identifier: GPL-2.0-or-later
# The mawk baseline of tests/bench/report.sh: the aggregation `boottrace
# report` does on a function trace with stack blocks, in awk: per function
# hits, first/last time and tasks; per (function, stack) counts; per
# (function, parent) counts; then a summary like the report's.
/^#/ { next }
/^ => / {
	if (instack) stk = stk ";" substr($0, 5)
	next
}
{
	if (instack) { sc[cur SUBSEP stk]++; instack = 0 }
	i = index($0, "] ")
	if (!i) next
	rest = substr($0, i + 2)
	j = index(rest, ": ")
	if (!j) next
	body = substr(rest, j + 2)
	split(substr(rest, 1, j - 1), tsf, " ")
	ts = tsf[length(tsf)] + 0
	tk = substr($0, 1, index($0, " [") - 1)
	gsub(/^ +| +$/, "", tk)
	if (body == "<stack trace>") { instack = 1; stk = ""; next }
	k = index(body, " <-")
	f = k ? substr(body, 1, k - 1) : body
	p = k ? substr(body, k + 3) : ""
	cur = f
	hits[f]++
	if (!(f in first)) first[f] = ts
	last[f] = ts
	ft[f SUBSEP tk]++
	if (p != "") fp[f SUBSEP p]++
}
END {
	if (instack) sc[cur SUBSEP stk]++
	for (f in hits) { nf++; printf "%s %d %.6f %.6f\n", f, hits[f], first[f], last[f] }
	for (k in sc) ns++
	for (k in ft) nt++
	print nf " functions, " ns " (function, stack) pairs, " nt " (function, task) pairs"
}
