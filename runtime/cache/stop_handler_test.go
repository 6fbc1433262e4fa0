package cache

import (
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// stopRecorder records adds and OnStop, in order.
type stopRecorder struct {
	mu     sync.Mutex
	events []string
}

func (r *stopRecorder) record(e string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *stopRecorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

func (r *stopRecorder) OnAdd(obj any, _ bool) { r.record("add") }
func (r *stopRecorder) OnUpdate(_, _ any)     {}
func (r *stopRecorder) OnDelete(any)          {}
func (r *stopRecorder) OnStop()               { r.record("stop") }

// typedStopRecorder is stopRecorder as a typed handler.
type typedStopRecorder struct{ r *stopRecorder }

func (t typedStopRecorder) OnAdd(*metav1.PartialObjectMetadata, bool)             { t.r.record("add") }
func (t typedStopRecorder) OnUpdate(_, _ *metav1.PartialObjectMetadata)           {}
func (t typedStopRecorder) OnDelete(DeletedObject[*metav1.PartialObjectMetadata]) {}
func (t typedStopRecorder) OnStop()                                               { t.r.record("stop") }

// A handler implementing StopHandler hears OnStop exactly once, after its
// last notification, when its informer stops or it is removed; the
// package's handler wrappers pass OnStop on.
func TestStopHandlerIsToldOnceAfterTheLastNotification(t *testing.T) {
	tests := []struct {
		name   string
		wrap   func(r *stopRecorder) ResourceEventHandler
		remove bool // end by RemoveEventHandler instead of stopping the informer
	}{
		{name: "informer stops", wrap: func(r *stopRecorder) ResourceEventHandler { return r }},
		{name: "handler removed", wrap: func(r *stopRecorder) ResourceEventHandler { return r }, remove: true},
		{name: "filtering wrapper", wrap: func(r *stopRecorder) ResourceEventHandler {
			return FilteringResourceEventHandler{FilterFunc: func(any) bool { return true }, Handler: r}
		}},
		{name: "typed handler", wrap: func(r *stopRecorder) ResourceEventHandler {
			return typedHandler[*metav1.PartialObjectMetadata]{h: typedStopRecorder{r}}
		}},
		{name: "typed filtering wrapper", wrap: func(r *stopRecorder) ResourceEventHandler {
			return typedHandler[*metav1.PartialObjectMetadata]{h: TypedFilteringResourceEventHandler[*metav1.PartialObjectMetadata]{
				FilterFunc: func(*metav1.PartialObjectMetadata) bool { return true }, Handler: typedStopRecorder{r}}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newModelServer()
			fill(srv, 3)
			rec := &stopRecorder{}
			var reg ResourceEventHandlerRegistration
			inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) { reg = mustAdd(t, s, tt.wrap(rec), HandlerOptions{}) })
			cachetest.Eventually(t, "three adds", func() bool { return len(rec.snapshot()) == 3 })
			if tt.remove {
				if err := inf.RemoveEventHandler(reg); err != nil {
					t.Fatal(err)
				}
				cachetest.Eventually(t, "OnStop after removal", func() bool { return len(rec.snapshot()) == 4 })
			}
			inf.stop(t)
			cachetest.Eventually(t, "OnStop", func() bool { return len(rec.snapshot()) >= 4 })
			got := rec.snapshot()
			want := []string{"add", "add", "add", "stop"}
			if len(got) != len(want) {
				t.Fatalf("handler saw %v, want %v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("handler saw %v, want %v", got, want)
				}
			}
		})
	}
}
