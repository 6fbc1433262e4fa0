package factory

import (
	"context"
	"errors"
	"reflect"
	"testing"
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
			s.InformerFor(&otherType{}, func(c InformerConfig) cache.SharedIndexInformer { return newFakeInformer(c) })
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			ended := errors.New("the test's context ended")
			if !tt.stopsEarly {
				// The only way out without fail fast; never a speed
				// assertion.
				time.AfterFunc(50*time.Millisecond, func() { cancel(ended) })
			}
			s.Start(ctx)
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
