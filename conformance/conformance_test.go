package conformance

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/goleak"
	"k8s.io/klog/v2"
)

var (
	seedsFlag       = flag.Int("seeds", envInt("CONFORMANCE_SEEDS", 40), "number of seeded scenarios to run (env CONFORMANCE_SEEDS)")
	firstSeedFlag   = flag.Uint64("first-seed", 1, "first seed of the seeded scenarios")
	seedFlag        = flag.Uint64("seed", 0, "run only this seed (0: run -seeds seeds from -first-seed)")
	concurrencyFlag = flag.Int("concurrency", 64, "scenarios run at once")
)

// scenarioTimeout bounds one scenario. A scenario spends most of its time
// in the reflectors' back-off (at most three disruptions: under 12 s); the
// rest is slack for a loaded machine under -race.
const scenarioTimeout = 90 * time.Second

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func TestMain(m *testing.M) {
	// Both informers log every expired watch and relist; keep the output
	// to the test results.
	klog.SetLogger(logr.Discard())
	goleak.VerifyTestMain(m)
}

// scenarioOutcome is one seed's run and check.
type scenarioOutcome struct {
	scenario Scenario
	result   *Result // nil when the run could not start
	counts   Counts
	errs     []error
	elapsed  time.Duration
}

// runScenario runs and checks sc.
func runScenario(ctx context.Context, sc Scenario) scenarioOutcome {
	ctx, cancel := context.WithTimeout(ctx, scenarioTimeout)
	defer cancel()
	start := time.Now()
	r, err := Run(ctx, sc)
	out := scenarioOutcome{scenario: sc, result: r, elapsed: time.Since(start)}
	if err != nil {
		out.errs = append(out.errs, fmt.Errorf("run: %w", err))
	}
	if r != nil {
		counts, errs := Check(r)
		out.counts = counts
		out.errs = append(out.errs, errs...)
	}
	return out
}

// runSeeds runs the scenarios of seeds, at most concurrency at a time.
func runSeeds(ctx context.Context, seeds []uint64, concurrency int) []scenarioOutcome {
	outcomes := make([]scenarioOutcome, len(seeds))
	sem := make(chan struct{}, max(concurrency, 1))
	var wg sync.WaitGroup
	for i, seed := range seeds {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			outcomes[i] = runScenario(ctx, Generate(seed))
		})
	}
	wg.Wait()
	return outcomes
}

func reportFailure(t *testing.T, o scenarioOutcome) {
	t.Helper()
	const maxErrs = 12
	msgs := make([]string, 0, maxErrs+1)
	for i, err := range o.errs {
		if i == maxErrs {
			msgs = append(msgs, fmt.Sprintf("... and %d more", len(o.errs)-maxErrs))
			break
		}
		msgs = append(msgs, "  "+err.Error())
	}
	t.Errorf("%v\n%s\n(rerun with: go test -run %s -seed=%d)", o.scenario, strings.Join(msgs, "\n"), t.Name(), o.scenario.Seed)
}

// TestSeededScenariosMatchClientGo runs -seeds generated scenarios against
// both informers and checks each with Check. Over enough seeds, every
// deliberate difference must have been exercised.
func TestSeededScenariosMatchClientGo(t *testing.T) {
	var seeds []uint64
	if *seedFlag != 0 {
		seeds = []uint64{*seedFlag}
	} else {
		for i := range *seedsFlag {
			seeds = append(seeds, *firstSeedFlag+uint64(i))
		}
	}
	start := time.Now()
	outcomes := runSeeds(t.Context(), seeds, *concurrencyFlag)
	elapsed := time.Since(start)

	var total Counts
	var longest, sum time.Duration
	failed := 0
	for _, o := range outcomes {
		total.Add(o.counts)
		sum += o.elapsed
		longest = max(longest, o.elapsed)
		if len(o.errs) > 0 {
			failed++
			if failed <= 10 {
				reportFailure(t, o)
			}
		}
	}
	t.Logf("%d seeds from %d (concurrency %d) in %v (scenario mean %v, longest %v): %d failed; %v",
		len(seeds), seeds[0], *concurrencyFlag, elapsed.Round(time.Millisecond),
		(sum / time.Duration(len(outcomes))).Round(time.Millisecond), longest.Round(time.Millisecond), failed, total)
	if failed > 10 {
		t.Errorf("%d more seeds failed", failed-10)
	}
	if len(seeds) >= 20 {
		// The seeds must exercise what the suite is about, or it proves
		// nothing.
		for _, c := range []struct {
			name string
			n    int
		}{
			{"relists of runtime/cache", total.RelistsOurs},
			{"client-go no-op relist updates", total.Noise},
			{"UID changes across relists", total.Recreated},
			{"runtime/cache tombstones", total.Tombstones},
		} {
			if c.n == 0 {
				t.Errorf("%d seeds exercised no %s", len(seeds), c.name)
			}
		}
	}
}

// keyedNotes renders the handler calls after the initial list, per key.
func keyedNotes(notes []Note) map[string][]string {
	out := map[string][]string{}
	for _, n := range notes {
		if n.Kind == NoteAdd && n.Initial || n.Key == SentinelKey {
			continue
		}
		out[n.Key] = append(out[n.Key], n.String())
	}
	return out
}

func equalKeyed(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestScriptedScenarios pins, on hand-written scenarios, the exact calls
// each informer's handler receives after its initial list. Initial objects
// are created in order, so the i-th has UID uid-i at resourceVersion i+1
// (the server starts at resourceVersion 1).
func TestScriptedScenarios(t *testing.T) {
	const a, b, c = "ns/a", "ns/b", "ns/c"
	change := func(kind ChangeKind, key string) Op { return Op{Kind: OpChange, Change: Change{Kind: kind, Key: key}} }
	tests := []struct {
		name     string
		sc       Scenario
		clientGo map[string][]string
		ours     map[string][]string
	}{{
		name: "unchanged objects across a relist: client-go updates each, ours only the changed one",
		sc: Scenario{Initial: []string{a, b, c}, Ops: []Op{
			{Kind: OpExpire, Gap: []Change{{Kind: ChangeUpdate, Key: a}}},
		}},
		clientGo: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@5)"},
			b: {"update(uid-2@3 -> uid-2@3)"},
			c: {"update(uid-3@4 -> uid-3@4)"},
		},
		ours: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@5)"},
		},
	}, {
		name: "recreated across a relist: client-go updates to the new UID, ours deletes with a tombstone then adds",
		sc: Scenario{Initial: []string{a}, Ops: []Op{
			{Kind: OpExpire, Gap: []Change{{Kind: ChangeRecreate, Key: a}}},
		}},
		clientGo: map[string][]string{
			a: {"update(uid-1@2 -> uid-2@4)"},
		},
		ours: map[string][]string{
			a: {"delete(tombstone uid-1@2)", "add(uid-2@4 initial=false)"},
		},
	}, {
		name: "deleted across a relist: both deliver a tombstone with the last received state",
		sc: Scenario{Initial: []string{a, b}, Ops: []Op{
			change(ChangeUpdate, a),
			{Kind: OpExpire, Gap: []Change{{Kind: ChangeDelete, Key: a}, {Kind: ChangeAdd, Key: c}, {Kind: ChangeDelete, Key: c}}},
		}},
		clientGo: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@4)", "delete(tombstone uid-1@4)"},
			b: {"update(uid-2@3 -> uid-2@3)"},
		},
		ours: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@4)", "delete(tombstone uid-1@4)"},
		},
	}, {
		name: "recreated on the watch: both deliver a delete and an add",
		sc: Scenario{Initial: []string{a}, Ops: []Op{
			change(ChangeRecreate, a),
			{Kind: OpBookmark},
			change(ChangeUpdate, a),
		}},
		clientGo: map[string][]string{
			a: {"delete(uid-1@3)", "add(uid-2@4 initial=false)", "update(uid-2@4 -> uid-2@5)"},
		},
		ours: map[string][]string{
			a: {"delete(uid-1@3)", "add(uid-2@4 initial=false)", "update(uid-2@4 -> uid-2@5)"},
		},
	}, {
		name: "watch closed cleanly: the changes around it arrive in order",
		sc: Scenario{Initial: []string{a}, Ops: []Op{
			change(ChangeUpdate, a),
			{Kind: OpCloseWatches},
			change(ChangeAdd, b),
		}},
		ours: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@3)"},
			b: {"add(uid-2@4 initial=false)"},
		},
	}, {
		name: "watch failing twice with 429: both retry the watch and miss nothing",
		sc: Scenario{Initial: []string{a}, Ops: []Op{
			change(ChangeUpdate, a),
			{Kind: OpFailWatches, Failures: 2, Failure: FailTooManyRequests},
			change(ChangeDelete, a),
		}},
		clientGo: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@3)", "delete(uid-1@4)"},
		},
		ours: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@3)", "delete(uid-1@4)"},
		},
	}, {
		name: "watch failing without status: both relist, client-go with an update per unchanged object",
		sc: Scenario{Initial: []string{a, b}, Ops: []Op{
			change(ChangeUpdate, a),
			{Kind: OpFailWatches, Failures: 1, Failure: FailPlain},
			change(ChangeUpdate, b),
		}},
		clientGo: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@4)", "update(uid-1@4 -> uid-1@4)"},
			b: {"update(uid-2@3 -> uid-2@3)", "update(uid-2@3 -> uid-2@5)"},
		},
		ours: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@4)"},
			b: {"update(uid-2@3 -> uid-2@5)"},
		},
	}, {
		name: "watch failing with 500: ours retries the watch, client-go relists",
		sc: Scenario{Initial: []string{a}, Ops: []Op{
			change(ChangeUpdate, a),
			{Kind: OpFailWatches, Failures: 1, Failure: FailInternal},
		}},
		clientGo: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@3)", "update(uid-1@3 -> uid-1@3)"},
		},
		ours: map[string][]string{
			a: {"update(uid-1@2 -> uid-1@3)"},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := runScenario(t.Context(), tt.sc)
			if len(o.errs) > 0 {
				reportFailure(t, o)
			}
			if o.result == nil {
				return
			}
			if tt.clientGo != nil {
				if got := keyedNotes(o.result.ClientGo.Notes); !equalKeyed(got, tt.clientGo) {
					t.Errorf("client-go handler got %v, want %v", got, tt.clientGo)
				}
			}
			if got := keyedNotes(o.result.Ours.Notes); !equalKeyed(got, tt.ours) {
				t.Errorf("runtime/cache handler got %v, want %v", got, tt.ours)
			}
		})
	}
}
