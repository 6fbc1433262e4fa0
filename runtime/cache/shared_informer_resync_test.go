package cache

import (
	"strings"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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
		if got := inf.processor.ResyncPeriod(regs[name].(*registration).listener); got != w {
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
