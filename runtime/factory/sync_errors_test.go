package factory

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// failingInformer never syncs and reports err as its sync error.
type failingInformer struct {
	*fakeInformer
	err error
}

func (f *failingInformer) RunWithContext(ctx context.Context) {
	<-ctx.Done()
	f.stopped.Store(true)
}

func (f *failingInformer) SyncError() error { return f.err }

var widgets = schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "widgets"}

// WaitForCacheSync reports why each informer did not sync; with
// WithFailFastSync it stops at once on a 404 or a 403 (Err is that
// failure), and waits for its context on any other failure.
func TestWaitForCacheSyncReportsWhyInformersDidNotSync(t *testing.T) {
	notServed := &cache.InformerSyncError{Resource: widgets, Err: apierrors.NewNotFound(widgets.GroupResource(), "")}
	forbidden := &cache.InformerSyncError{Resource: widgets, Err: apierrors.NewForbidden(widgets.GroupResource(), "", errors.New("no"))}
	internal := &cache.InformerSyncError{Resource: widgets, Err: apierrors.NewInternalError(errors.New("boom"))}
	tests := []struct {
		name       string
		opts       []Option
		err        error
		namespaces []string
		// stopsEarly: WaitForCacheSync returns before its context ends,
		// with the failure as Err.
		stopsEarly bool
	}{
		{"404 is reported when the context ends", nil, notServed, nil, false},
		{"403 is reported when the context ends", nil, forbidden, nil, false},
		{"fail fast stops at a 404", []Option{WithFailFastSync()}, notServed, nil, true},
		{"fail fast stops at a 403", []Option{WithFailFastSync()}, forbidden, nil, true},
		{"fail fast stops at a 403 of one of several namespaces", []Option{WithFailFastSync(), WithNamespaces("a", "b")}, forbidden, []string{"a", "b"}, true},
		{"fail fast waits through a 500", []Option{WithFailFastSync()}, internal, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.opts...)
			defer s.Shutdown()
			s.InformerFor(&metav1.PartialObjectMetadata{}, func(c InformerConfig) cache.SharedIndexInformer {
				var err error
				if c.Namespace == "" || c.Namespace == "b" {
					err = tt.err
				}
				return &failingInformer{fakeInformer: newFakeInformer(c), err: err}
			})
			var other *fakeInformer
			s.InformerFor(&otherType{}, func(c InformerConfig) cache.SharedIndexInformer {
				other = newFakeInformer(c)
				return other
			})
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			ended := errors.New("the test's context ended")
			s.Start(ctx)
			if !tt.stopsEarly {
				// The only way out without fail fast, once the healthy
				// informer synced (TestWaitForCacheSyncWaitsOnSignals
				// shows the wait going on until then).
				mustClose(t, other.syncedCh, "the healthy informer to sync")
				cancel(ended)
			}
			res := s.WaitForCacheSync(ctx)
			if tt.stopsEarly {
				if ctx.Err() != nil || !errors.Is(res.Err, tt.err) {
					t.Fatalf("Err = %v with the context ended: %v; want %v before it ends", res.Err, ctx.Err(), tt.err)
				}
			} else if !errors.Is(res.Err, ended) {
				t.Fatalf("Err = %v, want the context's cause", res.Err)
			}
			typ := reflect.TypeOf(&metav1.PartialObjectMetadata{})
			// Failing fast may come before the healthy informer synced.
			if res.Synced[typ] || (!tt.stopsEarly && !res.Synced[reflect.TypeOf(&otherType{})]) {
				t.Errorf("Synced = %v, want otherType synced and the failing type not", res.Synced)
			}
			if got := res.Errors[typ]; !errors.Is(got, tt.err) || len(res.Errors) != 1 {
				t.Errorf("Errors = %v, want %v for the failing type only", res.Errors, tt.err)
			}
			var status apierrors.APIStatus
			if err := res.AsError(); !errors.As(err, &status) || !errors.Is(err, tt.err) {
				t.Errorf("AsError() = %v, want it to wrap %v and its API error", err, tt.err)
			}
		})
	}
}

// notifyingInformer never syncs by itself; the test marks it synced or
// records failures, which it reports as a cache.SyncErrorNotifier. It
// counts HasSynced calls, so a test can tell whether anything polls.
type notifyingInformer struct {
	*fakeInformer
	hasSyncedCalls atomic.Int64

	mu   sync.Mutex // guards err, subs and next
	err  error
	subs map[int]func(error)
	next int
}

func newNotifyingInformer(c InformerConfig) *notifyingInformer {
	return &notifyingInformer{fakeInformer: newFakeInformer(c), subs: map[int]func(error){}}
}

func (n *notifyingInformer) RunWithContext(ctx context.Context) {
	<-ctx.Done()
	n.stopped.Store(true)
}

func (n *notifyingInformer) HasSynced() bool {
	n.hasSyncedCalls.Add(1)
	return n.fakeInformer.HasSynced()
}

func (n *notifyingInformer) SyncError() error {
	if n.HasSynced() {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.err
}

func (n *notifyingInformer) AfterSyncError(f func(error)) func() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	id := n.next
	n.next++
	n.subs[id] = f
	return func() bool {
		n.mu.Lock()
		defer n.mu.Unlock()
		_, ok := n.subs[id]
		delete(n.subs, id)
		return ok
	}
}

// record makes err the sync error and tells the subscribers.
func (n *notifyingInformer) record(err error) {
	n.mu.Lock()
	n.err = err
	var fns []func(error)
	for _, f := range n.subs {
		fns = append(fns, f)
	}
	n.mu.Unlock()
	for _, f := range fns {
		f(err)
	}
}

func (n *notifyingInformer) subscribers() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.subs)
}

var _ cache.SyncErrorNotifier = (*notifyingInformer)(nil)

// WaitForCacheSync waits on signals: it returns as soon as the informers
// synced or, failing fast, one reports a 404 or 403, and otherwise keeps
// waiting, without polling, until its context ends; it leaves nothing
// subscribed and no goroutine behind. Run in a synctest bubble: "blocked"
// is durably blocked, and the minute that passes is the bubble's fake time.
func TestWaitForCacheSyncWaitsOnSignals(t *testing.T) {
	notServed := &cache.InformerSyncError{Resource: widgets, Err: apierrors.NewNotFound(widgets.GroupResource(), "")}
	forbidden := &cache.InformerSyncError{Resource: widgets, Err: apierrors.NewForbidden(widgets.GroupResource(), "", errors.New("no"))}
	internal := &cache.InformerSyncError{Resource: widgets, Err: apierrors.NewInternalError(errors.New("boom"))}
	ended := errors.New("the test's context ended")
	synced := func(parts []*notifyingInformer) {
		for _, p := range parts {
			p.markSynced()
		}
	}
	record := func(err error) func([]*notifyingInformer) {
		return func(parts []*notifyingInformer) { parts[len(parts)-1].record(err) }
	}
	tests := []struct {
		name  string
		opts  []Option
		event func(parts []*notifyingInformer) // what happens while it waits
		// returns: the wait ends at the event, with Err wantErr; else it
		// ends with the context, Err its cause.
		returns bool
		wantErr error
	}{
		{"returns once synced", nil, synced, true, nil},
		{"returns once every namespace synced", []Option{WithNamespaces("a", "b")}, synced, true, nil},
		{"fail fast returns at a 404", []Option{WithFailFastSync()}, record(notServed), true, notServed},
		{"fail fast returns at a 403", []Option{WithFailFastSync()}, record(forbidden), true, forbidden},
		{"fail fast returns at a 403 of one of several namespaces", []Option{WithFailFastSync(), WithNamespaces("a", "b")}, record(forbidden), true, forbidden},
		{"fail fast waits through a 500", []Option{WithFailFastSync()}, record(internal), false, ended},
		{"without fail fast, waits through a 404", nil, record(notServed), false, ended},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := New(tt.opts...)
				defer s.Shutdown()
				var parts []*notifyingInformer
				s.InformerFor(&metav1.PartialObjectMetadata{}, func(c InformerConfig) cache.SharedIndexInformer {
					n := newNotifyingInformer(c)
					parts = append(parts, n)
					return n
				})
				ctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				s.Start(ctx)
				got := make(chan cache.SyncResult, 1)
				go func() { got <- s.WaitForCacheSync(ctx) }()

				synctest.Wait()
				calls := hasSyncedCalls(parts)
				time.Sleep(time.Minute) // fake time: a poller would wake and look
				if now := hasSyncedCalls(parts); now != calls {
					t.Fatalf("HasSynced called %d times while nothing happened: the wait polls", now-calls)
				}
				tt.event(parts)
				synctest.Wait()
				var res cache.SyncResult
				select {
				case res = <-got:
					if !tt.returns {
						t.Fatalf("returned at the event (Err %v), want it to wait for its context", res.Err)
					}
				default:
					if tt.returns {
						t.Fatal("still waiting after the event")
					}
					cancel(ended)
					res = <-got
				}
				if !errors.Is(res.Err, tt.wantErr) || (tt.wantErr == nil && res.Err != nil) {
					t.Errorf("Err = %v, want %v", res.Err, tt.wantErr)
				}
				typ := reflect.TypeOf(&metav1.PartialObjectMetadata{})
				if want := tt.wantErr == nil; res.Synced[typ] != want {
					t.Errorf("Synced = %v, want %v", res.Synced, want)
				}
				for _, p := range parts {
					if n := p.subscribers(); n != 0 {
						t.Errorf("namespace %q: %d AfterSyncError subscriptions left", p.config.Namespace, n)
					}
				}
			})
		})
	}
}

func hasSyncedCalls(parts []*notifyingInformer) int64 {
	var n int64
	for _, p := range parts {
		n += p.hasSyncedCalls.Load()
	}
	return n
}
