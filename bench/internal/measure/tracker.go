package measure

import (
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// tracker is a handler that records the last resourceVersion it saw of
// each object and closes done once every updated object reached its final
// version. Its handler functions run on the informer's goroutine for the
// handler; seen may be read by others only after done is closed.
type tracker struct {
	final     []int64
	seen      []int64
	remaining int
	done      chan struct{}
	updates   atomic.Int64 // OnUpdate calls
	nilOld    atomic.Int64 // OnUpdate calls without the old object (LatestOnly merges)
	bad       atomic.Int64 // notifications of unknown objects, deletes

	// release, when set, makes the first OnUpdate block until it is
	// closed: a stalled handler.
	release <-chan struct{}
	stalled bool
}

func newTracker(in *Input, release <-chan struct{}) *tracker {
	t := &tracker{
		final:     in.Final,
		seen:      make([]int64, len(in.Final)),
		remaining: in.Config.Updated(),
		done:      make(chan struct{}),
		release:   release,
	}
	if t.remaining == 0 {
		close(t.done)
	}
	return t
}

func (t *tracker) handler() subject.Handler {
	return subject.Handler{
		Add: func(obj *corev1.ConfigMap) {
			i := dataset.Index(obj.Name)
			if i < 0 || i >= len(t.seen) {
				t.bad.Add(1)
				return
			}
			t.seen[i] = dataset.Version(obj.ResourceVersion)
		},
		Update: func(old, obj *corev1.ConfigMap) {
			if t.release != nil && !t.stalled {
				t.stalled = true
				<-t.release
			}
			t.updates.Add(1)
			// A LatestOnly handler gets merged updates without the old
			// object; the tracker needs only the new one.
			if old == nil {
				t.nilOld.Add(1)
			}
			i := dataset.Index(obj.Name)
			if i < 0 || i >= len(t.seen) {
				t.bad.Add(1)
				return
			}
			v := dataset.Version(obj.ResourceVersion)
			t.seen[i] = v
			if v == t.final[i] {
				t.remaining--
				if t.remaining == 0 {
					close(t.done)
				}
			}
		},
		Delete: func(any) { t.bad.Add(1) },
	}
}

// finalStateOK reports whether the handler's view equals the final state
// of every object. Call it only after done is closed.
func (t *tracker) finalStateOK() bool {
	if t.bad.Load() != 0 {
		return false
	}
	for i, v := range t.seen {
		if v != t.final[i] {
			return false
		}
	}
	return true
}
