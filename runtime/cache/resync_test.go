package cache

import (
	"strings"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"
)

func TestDetermineResyncPeriod(t *testing.T) {
	tests := []struct {
		name           string
		desired, check time.Duration
		want           time.Duration
	}{
		{"no resync wanted", 0, time.Second, 0},
		{"informer never checks", time.Minute, 0, 0},
		{"raised to the check period", time.Second, time.Minute, time.Minute},
		{"kept when longer", time.Hour, time.Minute, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := determineResyncPeriod(tt.desired, tt.check); got != tt.want {
				t.Fatalf("determineResyncPeriod(%v, %v) = %v, want %v", tt.desired, tt.check, got, tt.want)
			}
		})
	}
}

func TestProcessorShouldResyncMarksOnlyDueListeners(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	p := newProcessor(clk)
	every := func(d time.Duration) *listener {
		l := newListener(ResourceEventHandlerFuncs{}, d.String(), 0, nil)
		l.requestedResync = d
		if err := p.add(l, time.Second); err != nil {
			t.Fatal(err)
		}
		return l
	}
	fast, slow, never := every(time.Second), every(3*time.Second), every(0)
	_ = never
	steps := []struct {
		advance time.Duration
		want    []*listener
	}{
		{500 * time.Millisecond, nil},
		{500 * time.Millisecond, []*listener{fast}},
		{time.Second, []*listener{fast}},
		{time.Second, []*listener{fast, slow}},
	}
	for i, s := range steps {
		clk.Step(s.advance)
		got := p.shouldResync()
		_, syncing := p.snapshot()
		if got != (len(s.want) > 0) || len(syncing) != len(s.want) {
			t.Fatalf("step %d: shouldResync = %v with %d syncing, want %d", i, got, len(syncing), len(s.want))
		}
		for j := range s.want {
			if syncing[j] != s.want[j] {
				t.Fatalf("step %d: syncing[%d] = %s, want %s", i, j, syncing[j].name, s.want[j].name)
			}
		}
	}
}

func TestAddEventHandlerResyncPeriods(t *testing.T) {
	period := func(d time.Duration) *time.Duration { return &d }
	inf := NewSharedIndexInformer(newModelServer(), &metav1.PartialObjectMetadata{}, time.Minute, nil).(*sharedIndexInformer)
	regs := map[string]ResourceEventHandlerRegistration{}
	for name, p := range map[string]*time.Duration{
		"default":   nil,
		"too small": period(10 * time.Millisecond),
		"long":      period(time.Hour),
		"none":      period(0),
	} {
		regs[name] = mustAdd(t, inf, ResourceEventHandlerFuncs{}, HandlerOptions{Name: name, ResyncPeriod: p})
	}
	want := map[string]time.Duration{"default": time.Minute, "too small": time.Second, "long": time.Hour, "none": 0}
	for name, w := range want {
		if got := regs[name].(*registration).listener.resyncPeriod; got != w {
			t.Errorf("%s: resync period %v, want %v", name, got, w)
		}
	}
	if inf.resyncCheckPeriod != time.Second {
		t.Errorf("check period %v, want the shortest requested, 1s", inf.resyncCheckPeriod)
	}
}

// TestInformerWarnsWhenALateHandlerAsksForResyncItCannotGet pins that a
// handler asking for a resync period, added once an informer without
// resync runs, is told (in the log) that it gets none, as client-go warns.
func TestInformerWarnsWhenALateHandlerAsksForResyncItCannotGet(t *testing.T) {
	tests := []struct {
		name       string
		resync     time.Duration
		wantWarned bool
	}{
		{"resync asked", time.Minute, true},
		{"no resync asked", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			logs := captureLogs(t)
			srv := newModelServer()
			inf := startInformer(t, srv, SharedIndexInformerOptions{}, nil)
			defer inf.stop(t)
			cachetest.Eventually(t, "the informer to sync", inf.HasSynced)
			period := tc.resync
			mustAdd(t, inf, ResourceEventHandlerFuncs{}, HandlerOptions{Name: "late", ResyncPeriod: &period})
			out := logs()
			warned := strings.Contains(out, "without resync") && strings.Contains(out, `"handler"="late"`)
			if warned != tc.wantWarned {
				t.Fatalf("warned = %v, want %v; log:\n%s", warned, tc.wantWarned, out)
			}
		})
	}
}
