package ring

import (
	"fmt"
	"strings"
	"time"
)

// simTable summarizes changes by kind and ring size, as docs/sharding.md
// shows them.
func simTable(p simParams, changes []change) string {
	type bucket struct {
		kind   string
		lo, hi int
	}
	buckets := []bucket{{"join", 2, 10}, {"join", 11, 50}, {"join", 51, 100}, {"leave", 50, 99}, {"crash", 50, 99}}
	var b strings.Builder
	fmt.Fprintf(&b, "LeaseDuration %v, RenewDeadline %v, RenewPeriod %v, watch delay %v, apply %v, %d virtual nodes\n\n",
		p.leaseDuration, p.renewDeadline, p.renewPeriod, p.watchDelay, p.applyTime, p.vnodes)
	b.WriteString("| change | N after | changes | moved / ideal 1/N (mean, min-max) | uncovered (mean, max) | converged (mean, max) | doubly held |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, bk := range buckets {
		var n int
		var ratio, lo, hi float64
		var unc, uncMax, conv, convMax time.Duration
		var overlap float64
		lo = 1e9
		for _, c := range changes {
			if c.kind != bk.kind || c.after < bk.lo || c.after > bk.hi || c.before < 2 && c.kind == "join" {
				continue
			}
			r := c.moved / c.ideal
			n, ratio, lo, hi = n+1, ratio+r, min(lo, r), max(hi, r)
			unc, uncMax = unc+c.uncovered, max(uncMax, c.uncovered)
			conv, convMax = conv+c.converge, max(convMax, c.converge)
			overlap += c.overlap
		}
		if n == 0 {
			continue
		}
		d := time.Duration(n)
		fmt.Fprintf(&b, "| %s | %d-%d | %d | %.2f (%.2f-%.2f) | %v, %v | %v, %v | %.4f |\n", bk.kind, bk.lo, bk.hi, n,
			ratio/float64(n), lo, hi, (unc / d).Round(time.Millisecond), uncMax, (conv / d).Round(time.Millisecond), convMax, overlap)
	}
	return b.String()
}
