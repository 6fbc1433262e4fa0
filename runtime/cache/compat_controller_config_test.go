package cache

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// newTestServer returns a cachetest server holding modelObjects named
// names.
func newTestServer(t *testing.T, names ...string) *cachetest.Server {
	t.Helper()
	srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
	for _, n := range names {
		if _, err := srv.Add(modelObject(n)); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

// runController runs c until the test ends.
func runController(t *testing.T, srv *cachetest.Server, c Controller) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.RunWithContext(ctx) }()
	t.Cleanup(func() { cancel(); <-done; srv.Wait() })
}

// Ported from k8s.io/client-go v0.37.2 tools/cache/controller_test.go
// (Example): a controller that deletes everything that comes in and
// reports each deletion, over a RealFIFO and the cachetest server.
func TestConfigControllerProcessesWhatTheReflectorQueues(t *testing.T) {
	srv := newTestServer(t)
	downstream := NewStore(DeletionHandlingMetaNamespaceKeyFunc)
	fifo := NewRealFIFO(MetaNamespaceKeyFunc, downstream, nil)
	deletions := make(chan string, 1000)
	cfg := &Config{
		Queue:         fifo,
		ListerWatcher: srv,
		ObjectType:    &metav1.PartialObjectMetadata{},
		Process: func(obj any, isInInitialList bool) error {
			newest := obj.(Deltas).Newest()
			if newest.Type != Deleted {
				if err := downstream.Add(newest.Object); err != nil {
					return err
				}
				m := newest.Object.(*metav1.PartialObjectMetadata)
				_, err := srv.Delete(m.Namespace, m.Name)
				return err
			}
			if err := downstream.Delete(newest.Object); err != nil {
				return err
			}
			key, err := DeletionHandlingMetaNamespaceKeyFunc(newest.Object)
			if err != nil {
				return err
			}
			deletions <- key
			return nil
		},
	}
	runController(t, srv, New(cfg))
	testIDs := []string{"a-hello", "b-controller", "c-framework"}
	for _, name := range testIDs {
		if _, err := srv.Add(modelObject(name)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for range testIDs {
		got = append(got, <-deletions)
	}
	slices.Sort(got)
	if want := []string{"ns/a-hello", "ns/b-controller", "ns/c-framework"}; !slices.Equal(got, want) {
		t.Fatalf("deleted %v, want %v", got, want)
	}
}

func TestConfigControllerPopsBatchesOnlyFromABatchQueue(t *testing.T) {
	for _, tc := range []struct {
		name      string
		queue     func() Queue
		withBatch bool
		wantBatch bool
	}{
		{name: "RealFIFO with ProcessBatch", queue: func() Queue { return NewRealFIFO(MetaNamespaceKeyFunc, NewStore(MetaNamespaceKeyFunc), nil) }, withBatch: true, wantBatch: true},
		{name: "RealFIFO without ProcessBatch", queue: func() Queue { return NewRealFIFO(MetaNamespaceKeyFunc, NewStore(MetaNamespaceKeyFunc), nil) }},
		{name: "DeltaFIFO with ProcessBatch", queue: func() Queue { return NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc}) }, withBatch: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newTestServer(t, "a", "b", "c")
			var mu sync.Mutex
			var singles, batches int
			cfg := &Config{
				Queue:         tc.queue(),
				ListerWatcher: srv,
				Process: func(any, bool) error {
					mu.Lock()
					singles++
					mu.Unlock()
					return nil
				},
			}
			if tc.withBatch {
				cfg.ProcessBatch = func(deltas []Delta, _ bool) error {
					mu.Lock()
					batches++
					mu.Unlock()
					return nil
				}
			}
			c := New(cfg)
			runController(t, srv, c)
			if !WaitForCacheSync(context.Background().Done(), c.HasSynced) {
				t.Fatal("not synced")
			}
			mu.Lock()
			defer mu.Unlock()
			if (batches > 0) != tc.wantBatch || (singles > 0) == tc.wantBatch {
				t.Fatalf("%d batches and %d single pops; want batches: %v", batches, singles, tc.wantBatch)
			}
		})
	}
}

func TestConfigControllerDelegatesToItsQueueAndReflector(t *testing.T) {
	srv := newTestServer(t, "a")
	c := New(&Config{Queue: NewRealFIFO(MetaNamespaceKeyFunc, NewStore(MetaNamespaceKeyFunc), nil), ListerWatcher: srv, Process: func(any, bool) error { return nil }})
	if rv := c.LastSyncResourceVersion(); rv != "" {
		t.Fatalf("LastSyncResourceVersion before Run = %q, want \"\"", rv)
	}
	if c.HasSynced() {
		t.Fatal("synced before Run")
	}
	runController(t, srv, c)
	if !WaitFor(context.Background(), "controller", c.HasSyncedChecker()) {
		t.Fatal("not synced")
	}
	cachetest.Eventually(t, "the reflector's resourceVersion", func() bool { return c.LastSyncResourceVersion() == srv.ResourceVersion() })
}

func TestConfigControllerPrefersWatchErrorHandler(t *testing.T) {
	for _, tc := range []struct {
		name                string
		plain, withContext  bool
		wantPlain, wantCtxt bool
	}{
		{name: "both set", plain: true, withContext: true, wantPlain: true},
		{name: "with context only", withContext: true, wantCtxt: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newTestServer(t, "a")
			failure := apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "", errors.New("no"))
			srv.FailLists(1, failure)
			plain, withCtx := make(chan error, 10), make(chan error, 10)
			cfg := &Config{Queue: NewRealFIFO(MetaNamespaceKeyFunc, NewStore(MetaNamespaceKeyFunc), nil), ListerWatcher: srv, Process: func(any, bool) error { return nil }}
			if tc.plain {
				cfg.WatchErrorHandler = func(_ *Reflector, err error) { plain <- err }
			}
			if tc.withContext {
				cfg.WatchErrorHandlerWithContext = func(_ context.Context, _ *Reflector, err error) { withCtx <- err }
			}
			runController(t, srv, New(cfg))
			var err error
			select {
			case err = <-plain:
				if !tc.wantPlain {
					t.Fatalf("WatchErrorHandler got %v", err)
				}
			case err = <-withCtx:
				if !tc.wantCtxt {
					t.Fatalf("WatchErrorHandlerWithContext got %v", err)
				}
			}
			if !apierrors.IsForbidden(err) {
				t.Fatalf("handler got %v, want the list's error", err)
			}
		})
	}
}
