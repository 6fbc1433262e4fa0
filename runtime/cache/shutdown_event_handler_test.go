package cache

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The lifecycles of client-go's TestShutDownEventHandler_Lifecycles: the
// handler is shut down before the informer ran, after it was added to a
// running informer, and after the informer started with it.
func TestShutDownEventHandlerReturnsInEveryLifecycle(t *testing.T) {
	for _, tc := range []struct {
		name           string
		start, addLate bool
	}{
		{name: "informer never started"},
		{name: "started, then added, then shut down", start: true, addLate: true},
		{name: "added, then started, then shut down", start: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newModelServer()
			fill(srv, 3)
			h := ResourceEventHandlerFuncs{AddFunc: func(any) {}}
			var reg ResourceEventHandlerRegistration
			if !tc.start {
				inf := NewSharedIndexInformer(srv, &metav1.PartialObjectMetadata{}, 0, Indexers{})
				reg = mustAdd(t, inf, h, HandlerOptions{})
				if err := ShutDownEventHandler(inf, reg); err != nil {
					t.Fatal(err)
				}
				return
			}
			inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
				if !tc.addLate {
					reg = mustAdd(t, s, h, HandlerOptions{})
				}
			})
			defer inf.stop(t)
			if !WaitForCacheSyncWithContext(context.Background(), inf.HasSynced) {
				t.Fatal("informer did not sync")
			}
			if tc.addLate {
				reg = mustAdd(t, inf, h, HandlerOptions{})
			}
			if err := ShutDownEventHandler(inf, reg); err != nil {
				t.Fatal(err)
			}
			if err := ShutDownEventHandler(inf, reg); err != nil {
				t.Fatalf("second shutdown: %v", err)
			}
		})
	}
}

// Once ShutDownEventHandler returned, the handler is not running and is
// never called again: client-go's TestShutDownEventHandler_Blocking.
func TestShutDownEventHandlerWaitsForTheRunningCall(t *testing.T) {
	srv := newModelServer()
	fill(srv, 1)
	entered, release := make(chan struct{}), make(chan struct{})
	var running, afterShutdown atomic.Bool
	var shutDown atomic.Bool
	// The first call signals that it runs and waits for release; a
	// non-blocking send instead would lose the signal when the call comes
	// before the test waits for it, and the test would hang.
	var first sync.Once
	h := ResourceEventHandlerFuncs{AddFunc: func(any) {
		if shutDown.Load() {
			afterShutdown.Store(true)
		}
		running.Store(true)
		defer running.Store(false)
		first.Do(func() {
			close(entered)
			<-release
		})
	}}
	laterSeen := make(chan struct{})
	kept := ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if obj.(*metav1.PartialObjectMetadata).Name == "later" {
			close(laterSeen)
		}
	}}
	var reg ResourceEventHandlerRegistration
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		reg = mustAdd(t, s, h, HandlerOptions{})
		mustAdd(t, s, kept, HandlerOptions{})
	})
	defer inf.stop(t)
	<-entered
	done := make(chan error)
	go func() { done <- ShutDownEventHandler(inf, reg) }()
	select {
	case err := <-done:
		t.Fatalf("ShutDownEventHandler returned (%v) while the handler ran", err)
	case release <- struct{}{}:
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	shutDown.Store(true)
	if running.Load() {
		t.Fatal("the handler is still running after ShutDownEventHandler returned")
	}
	srv.put("later", false)
	<-laterSeen // the informer delivered "later" to the handlers it still has
	if afterShutdown.Load() {
		t.Fatal("the handler was called after ShutDownEventHandler returned")
	}
}

// A registration that cannot tell when its handler stopped gets
// client-go's error.
func TestShutDownEventHandlerWithoutShutdownChanFails(t *testing.T) {
	inf := &removeOnlyInformer{}
	err := ShutDownEventHandler(inf, otherRegistration{})
	if err == nil || err.Error() != "handle does not support ShutdownChan()" {
		t.Fatalf("got %v, want client-go's error", err)
	}
}

type removeOnlyInformer struct{ SharedInformer }

func (*removeOnlyInformer) RemoveEventHandler(ResourceEventHandlerRegistration) error { return nil }

type otherRegistration struct {
	ResourceEventHandlerRegistration
}
