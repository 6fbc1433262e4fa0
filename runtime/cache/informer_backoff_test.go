package cache

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// SharedIndexInformerOptions.Backoff is the back-off of the informer's
// reflector: with it, a failed list is retried after its Duration, not
// after the default's first delay (at most 200ms); without it, the
// default applies.
func TestInformerBackoffOptionIsTheReflectorsBackoff(t *testing.T) {
	tests := []struct {
		name    string
		backoff *wait.Backoff
		// quiet is a step after which the retry must still be pending,
		// retry the step after which it must have come.
		quiet, retry time.Duration
	}{
		{name: "set: the retry waits its Duration", backoff: &wait.Backoff{Duration: time.Hour, Factor: 1, Cap: time.Hour},
			quiet: 59 * time.Minute, retry: time.Minute},
		{name: "unset: the default's first delay", quiet: 0, retry: 200 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(time.Unix(0, 0))
			lw := &refusingLister{lists: make(chan string)}
			lw.refusing.Store(true)
			inf := NewSharedIndexInformerWithOptions(&ListWatch{ListWithContextFunc: lw.ListWithContext, WatchFuncWithContext: lw.WatchWithContext},
				&metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{Clock: clk, Backoff: tc.backoff})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()

			lw.nextList(t, "first list")
			cachetest.Eventually(t, "the reflector backing off", clk.HasWaiters)
			if tc.quiet > 0 {
				// The lister blocks a list until it is received: a retry
				// that came early would have used up the only timer.
				clk.Step(tc.quiet)
				if !clk.HasWaiters() {
					t.Fatalf("the retry came within %v", tc.quiet)
				}
			}
			clk.Step(tc.retry)
			lw.nextList(t, "the retry")
		})
	}
}
