package conformance

import (
	"fmt"
	"os"
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

// The markers of the recovery section of docs/benchmarks.md, which
// bench/cmd/benchreport keeps when it rewrites the rest of the file.
const (
	sectionStart = "<!-- recovery:start -->"
	sectionEnd   = "<!-- recovery:end -->"
	// sectionBefore is where a missing section is inserted.
	sectionBefore = "<!-- scalebench:start -->"
)

// RecoverySection renders the section of docs/benchmarks.md on recovery
// after faults: method, the table of sums and the goals.
func RecoverySection(sums []ClassSummary, seeds int, race bool) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("%s\n## Recovery after faults\n\n", sectionStart)
	p("Written by `conformance/`'s `TestRecoveryAtLeastAsFastAsClientGo -recovery-seeds %d -recovery-report` (`./hack/bench.sh`) on %s; race detector %t.\n\n",
		seeds, time.Now().UTC().Format("2006-01-02 15:04 MST"), race)
	p("**Method.** client-go v0.37.2's `SharedIndexInformer` and ours watch one in-memory server (conformance's `Server`, ConfigMaps) through clients of their own; ")
	p("a seeded script per fault class plays its steps on its own clock, without waiting for the informers (`GenerateRecovery`): ")
	p("*watch closed*: the server closes the watches 1-3 times, 10-60 ms apart, with changes between; ")
	p("*connection refused*: 1-2 outages of 0.2-2 s during which every call is refused; ")
	p("*410 Gone*: 1-2 compactions that end the watches with 410 and hide 1-4 changes; ")
	p("*compaction while disconnected*: an outage during which the server changes and compacts; ")
	p("*slow handler during a relist*: 410 Gone over 300 objects while each handler call takes 1 ms. ")
	p("After the last step the server gets one more object; the time measured, per informer, is from the last step (the fault, or the end of the outage) ")
	p("until its cache and its handler's view both equal the server's final state (polled every %v). ", recoveryPoll)
	p("Ratios count times under %v as %v (both informers then caught up within the harness's resolution).\n\n", RatioFloor, RatioFloor)
	b.WriteString(RecoveryTable(sums))
	p("\n| Goal | Met |\n|---|---|\n")
	for _, s := range sums {
		p("| %s: ours ≤ 1.0x client-go at the median (%.2fx), slowest ≤ 1.5x client-go's slowest (%.2fx), no script over 2x (worst %.2fx) | %s |\n",
			s.Class, s.MedianRatio, s.MaximaRatio, s.WorstRatio, met(s.MedianRatio <= 1 && s.MaximaRatio <= 1.5 && s.WorstRatio <= 2))
	}
	p("\nA script's own ratio after an outage is a draw of both back-offs' jitter: when client-go's next attempt happens to fall just after the outage ends, it recovers at once ")
	p("while ours waits out a delay it drew before; ours retries more densely while a fault lasts (`runtime/cache/internal/reflector/backoff.go`), so its median and its slowest script are well under client-go's, but single scripts are not always.\n")
	p("%s\n", sectionEnd)
	return b.String()
}

func met(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

// WriteRecoverySection replaces the recovery section of the Markdown file
// at path with section, inserting it before the scalebench section (or at
// the end) when the file has none.
func WriteRecoverySection(path, section string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(old)
	if i := strings.Index(doc, sectionStart); i >= 0 {
		if j := strings.Index(doc[i:], sectionEnd); j >= 0 {
			rest := strings.TrimPrefix(doc[i+j+len(sectionEnd):], "\n")
			return os.WriteFile(path, []byte(doc[:i]+section+rest), 0o644)
		}
		return fmt.Errorf("%s: %s without %s", path, sectionStart, sectionEnd)
	}
	if i := strings.Index(doc, sectionBefore); i >= 0 {
		return os.WriteFile(path, []byte(doc[:i]+section+"\n"+doc[i:]), 0o644)
	}
	return os.WriteFile(path, []byte(doc+"\n"+section), 0o644)
}
