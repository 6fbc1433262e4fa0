package conformance

import (
	"context"
	"flag"
	"sync"
	"testing"
	"time"
)

var recoverySeedsFlag = flag.Int("recovery-seeds", envInt("RECOVERY_SEEDS", 6), "recovery scripts per fault class (env RECOVERY_SEEDS)")

// recoveryTimeout bounds one recovery script: a few seconds of steps and
// the back-off of both informers, with slack for -race.
const recoveryTimeout = 2 * time.Minute

// runRecoveries plays seeds scripts of every fault class at once and
// returns the measurements, failing t for scripts that did not recover.
func runRecoveries(t *testing.T, seeds int) []Recovery {
	var (
		mu   sync.Mutex
		recs []Recovery
		wg   sync.WaitGroup
	)
	for _, class := range FaultClasses {
		for seed := range uint64(seeds) {
			sc := GenerateRecovery(class, seed+1)
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(t.Context(), recoveryTimeout)
				defer cancel()
				rec, err := RunRecovery(ctx, sc)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					t.Errorf("%v: %v", sc, err)
					return
				}
				recs = append(recs, rec)
			})
		}
	}
	wg.Wait()
	return recs
}

// TestRecoveryAtLeastAsFastAsClientGo plays seeded fault scripts of every
// class against both informers and checks that ours reaches the server's
// final state no later than client-go's at the median of each class, and
// never takes more than twice client-go's time (times under RatioFloor
// count as RatioFloor). -v prints the table docs/benchmarks.md reports
// (run with -recovery-seeds=40 for it).
func TestRecoveryAtLeastAsFastAsClientGo(t *testing.T) {
	if testing.Short() {
		t.Skip("plays seconds of fault scripts")
	}
	recs := runRecoveries(t, *recoverySeedsFlag)
	sums := Summarize(recs)
	t.Logf("recovery after the last fault, %d scripts per class:\n%s", *recoverySeedsFlag, RecoveryTable(sums))
	for _, s := range sums {
		if s.MedianRatio > 1.0 {
			t.Errorf("%s: ours takes %.2fx client-go's time at the median (%v vs %v), want <= 1.0x", s.Class, s.MedianRatio, s.OursMedian, s.ClientGoMedian)
		}
		if s.MaxRatio > 2.0 {
			t.Errorf("%s: seed %d takes %.2fx client-go's time, want <= 2x (rerun: go test -run %s -recovery-seeds=%d -v)", s.Class, s.WorstSeed, s.MaxRatio, t.Name(), *recoverySeedsFlag)
		}
	}
}
