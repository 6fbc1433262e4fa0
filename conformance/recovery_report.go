package conformance

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// RatioFloor is the time below which two recoveries are not told apart:
// a ratio counts both times as at least RatioFloor. Both informers then
// caught up within a few of the harness's polls and scheduler slices,
// where the quotient of two milliseconds is noise, not speed.
const RatioFloor = 50 * time.Millisecond

// ClassSummary sums up the recoveries of one fault class.
type ClassSummary struct {
	Class FaultClass
	Runs  int
	// Medians and maxima of each informer's recovery time.
	ClientGoMedian, ClientGoMax, OursMedian, OursMax time.Duration
	// MedianRatio is OursMedian / ClientGoMedian, MaximaRatio OursMax /
	// ClientGoMax, and WorstRatio the largest per-script ratio of ours to
	// client-go's; all with RatioFloor.
	MedianRatio, MaximaRatio, WorstRatio float64
	// WorstSeed is the seed of WorstRatio.
	WorstSeed uint64
}

// ratio is a / b, each counted as at least RatioFloor.
func ratio(a, b time.Duration) float64 {
	return float64(max(a, RatioFloor)) / float64(max(b, RatioFloor))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Summarize groups recoveries by fault class, in FaultClasses order.
func Summarize(recs []Recovery) []ClassSummary {
	var out []ClassSummary
	for _, class := range FaultClasses {
		var cg, ours []time.Duration
		sum := ClassSummary{Class: class}
		for _, r := range recs {
			if r.Script.Class != class {
				continue
			}
			cg, ours = append(cg, r.ClientGo), append(ours, r.Ours)
			if q := ratio(r.Ours, r.ClientGo); q > sum.WorstRatio {
				sum.WorstRatio, sum.WorstSeed = q, r.Script.Seed
			}
		}
		if len(cg) == 0 {
			continue
		}
		sum.Runs = len(cg)
		sum.ClientGoMedian, sum.ClientGoMax = median(cg), slices.Max(cg)
		sum.OursMedian, sum.OursMax = median(ours), slices.Max(ours)
		sum.MedianRatio = ratio(sum.OursMedian, sum.ClientGoMedian)
		sum.MaximaRatio = ratio(sum.OursMax, sum.ClientGoMax)
		out = append(out, sum)
	}
	return out
}

// RecoveryTable renders summaries as a Markdown table.
func RecoveryTable(sums []ClassSummary) string {
	var b strings.Builder
	b.WriteString("| fault class | scripts | client-go median / max | ours median / max | ours / client-go: medians | maxima | worst script |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, s := range sums {
		fmt.Fprintf(&b, "| %s | %d | %s / %s | %s / %s | %.2fx | %.2fx | %.2fx (seed %d) |\n", s.Class, s.Runs,
			seconds(s.ClientGoMedian), seconds(s.ClientGoMax), seconds(s.OursMedian), seconds(s.OursMax),
			s.MedianRatio, s.MaximaRatio, s.WorstRatio, s.WorstSeed)
	}
	return b.String()
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
