package cache

import (
	"strconv"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
	"go.uber.org/goleak"
)

// A handler registered with LatestOnly that stalls gets the updates merged
// beyond its in-order buffer without their old state, and still converges;
// the same handler without the option always gets the old state.
func TestInformerLatestOnlyDropsOldStatesOfMergedUpdates(t *testing.T) {
	tests := []struct {
		latestOnly  bool
		wantNilOlds bool
	}{
		{latestOnly: false, wantNilOlds: false},
		{latestOnly: true, wantNilOlds: true},
	}
	for _, tt := range tests {
		t.Run("LatestOnly="+strconv.FormatBool(tt.latestOnly), func(t *testing.T) {
			defer goleak.VerifyNone(t)
			const keys = 3 * delivery.DefaultFastCapacity
			srv := newModelServer()
			fill(srv, keys)
			stalled := newViewHandler()
			stalled.nilOld = tt.latestOnly
			inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
				mustAdd(t, s, stalled, HandlerOptions{Name: "stalled", LatestOnly: tt.latestOnly})
			})
			defer inf.stop(t)
			waitConverged(t, srv, inf, stalled)
			gate := stalled.stall()
			// Two updates per key, more than the in-order buffer holds.
			for round := 0; round < 2; round++ {
				for i := 0; i < keys; i++ {
					srv.put("o"+strconv.Itoa(i), false)
				}
			}
			last := srv.ResourceVersion()
			cachetest.Eventually(t, "informer applied every update", func() bool {
				obj, ok, _ := inf.GetStore().GetByKey("ns/o" + strconv.Itoa(keys-1))
				return ok && obj.(object).ResourceVersion == last
			})
			close(gate)
			waitConverged(t, srv, inf, stalled)
			stalled.checkViolations(t)
			stalled.mu.Lock()
			defer stalled.mu.Unlock()
			if got := stalled.nilOlds > 0; got != tt.wantNilOlds {
				t.Fatalf("updates without old state: %d; want some: %v", stalled.nilOlds, tt.wantNilOlds)
			}
		})
	}
}
