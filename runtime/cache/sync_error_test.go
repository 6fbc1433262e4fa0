package cache

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	widgetsGVR = schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "widgets"}
	podsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// forbidden is kube-apiserver's 403 for verb on resource (namespace "" is
// the cluster scope).
func forbidden(resource schema.GroupResource, verb, namespace string) error {
	scope := "at the cluster scope"
	if namespace != "" {
		scope = fmt.Sprintf("in the namespace %q", namespace)
	}
	reason := fmt.Sprintf("User \"alice\" cannot %s resource %q in API group %q %s", verb, resource.Resource, resource.Group, scope)
	return apierrors.NewForbidden(resource, "", errors.New(reason))
}

// An InformerSyncError names the resource and says what a 404 or a 403
// means, and wraps the API error.
func TestInformerSyncErrorNamesTheResourceAndWhatToDo(t *testing.T) {
	notServed := apierrors.NewNotFound(widgetsGVR.GroupResource(), "")
	tests := []struct {
		name       string
		err        *InformerSyncError
		wantPrefix string
	}{
		{"404 of a custom resource", &InformerSyncError{Resource: widgetsGVR, Err: fmt.Errorf("*v1.Widget: list: %w", notServed)},
			"widgets.stable.example.com v1: the server does not serve this resource (is the CRD installed?): *v1.Widget: list: "},
		{"404 of a built-in resource", &InformerSyncError{Resource: podsGVR, Err: apierrors.NewNotFound(podsGVR.GroupResource(), "")},
			"pods v1: the server does not serve this resource (is this API version enabled on the server?): "},
		{"404 of an informer without a resource", &InformerSyncError{Informer: "things", Err: notServed},
			"widgets.stable.example.com: the server does not serve this resource (is the CRD installed?): "},
		{"403 at the cluster scope", &InformerSyncError{Resource: podsGVR, Err: forbidden(podsGVR.GroupResource(), "list", "")},
			"pods: forbidden: list at the cluster scope (RBAC): pods is forbidden: User \"alice\" cannot list"},
		{"403 in a namespace", &InformerSyncError{Resource: widgetsGVR, Err: forbidden(widgetsGVR.GroupResource(), "watch", "a")},
			"widgets.stable.example.com: forbidden: watch in the namespace \"a\" (RBAC): "},
		{"other failure", &InformerSyncError{Resource: podsGVR, Err: apierrors.NewInternalError(errors.New("boom"))},
			"pods: Internal error occurred: boom"},
		{"other failure of an informer without a resource", &InformerSyncError{Informer: "things", Err: errors.New("boom")},
			"things: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); !strings.HasPrefix(got, tt.wantPrefix) {
				t.Errorf("Error() = %q, want it to start with %q", got, tt.wantPrefix)
			}
			var status apierrors.APIStatus
			if errors.As(tt.err.Err, &status) && !errors.As(tt.err, &status) {
				t.Error("the API error is not reachable with errors.As")
			}
		})
	}
}

// An informer whose list fails reports the failure, with its resource,
// until it syncs; the watch error handler set on it still hears every
// failure.
func TestInformerSyncErrorIsTheLastFailureUntilSynced(t *testing.T) {
	verifyNoLeaks(t)
	var failing atomic.Bool
	failing.Store(true)
	lw := &ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			if failing.Load() {
				return nil, forbidden(podsGVR.GroupResource(), "list", "")
			}
			return objectList("10", ""), nil
		},
		WatchFuncWithContext: ignoringWatch(),
	}
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{
		Identifier: (*InformerName)(nil).WithResource(podsGVR),
	})
	var heard atomic.Int32
	if err := inf.SetWatchErrorHandlerWithContext(func(context.Context, *Reflector, error) { heard.Add(1) }); err != nil {
		t.Fatal(err)
	}
	reporter := inf.(SyncErrorReporter)
	if err := reporter.SyncError(); err != nil {
		t.Fatalf("SyncError() before running = %v, want nil", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()

	cachetest.Eventually(t, "a sync error", func() bool { return reporter.SyncError() != nil })
	err := reporter.SyncError()
	var syncErr *InformerSyncError
	if !errors.As(err, &syncErr) || syncErr.Resource != podsGVR || !apierrors.IsForbidden(err) {
		t.Fatalf("SyncError() = %v, want an *InformerSyncError of pods wrapping the 403", err)
	}
	if heard.Load() == 0 {
		t.Error("the watch error handler heard no failure")
	}
	failing.Store(false)
	cachetest.Eventually(t, "informer synced", inf.HasSynced)
	if err := reporter.SyncError(); err != nil {
		t.Errorf("SyncError() once synced = %v, want nil", err)
	}
}
