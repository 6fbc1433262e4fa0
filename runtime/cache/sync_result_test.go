package cache

import (
	"context"
	"errors"
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	notServedErr = &InformerSyncError{Resource: widgetsGVR, Err: apierrors.NewNotFound(widgetsGVR.GroupResource(), "")}
	forbiddenErr = &InformerSyncError{Resource: podsGVR, Err: forbidden(podsGVR.GroupResource(), "list", "")}
)

// AsError is nil when every informer synced, and otherwise names each typed
// and metadata-only informer that did not, in a stable order, wrapping Err
// and then each informer's reason.
func TestSyncResultAsErrorNamesTheUnsyncedInformers(t *testing.T) {
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	tests := []struct {
		name string
		res  SyncResult
		want string
	}{
		{"all synced", SyncResult{Synced: map[reflect.Type]bool{reflect.TypeOf(&metav1.PartialObjectMetadata{}): true}}, ""},
		{"a typed informer did not sync", SyncResult{
			Err:    context.DeadlineExceeded,
			Synced: map[reflect.Type]bool{reflect.TypeOf(&metav1.PartialObjectMetadata{}): false, reflect.TypeOf(&metav1.Status{}): true},
		}, "failed to sync all caches: *v1.PartialObjectMetadata: context deadline exceeded"},
		{"metadata-only informers did not sync", SyncResult{
			Err:            context.Canceled,
			Synced:         map[reflect.Type]bool{reflect.TypeOf(&metav1.Status{}): false},
			SyncedMetadata: map[schema.GroupVersionResource]bool{widgets: false, pods: false, {Resource: "synced"}: true},
		}, "failed to sync all caches: *v1.Status, /v1, Resource=pods (metadata), example.com/v1, Resource=widgets (metadata): context canceled"},
		{"the reasons follow, once each, in a stable order", SyncResult{
			Err:            notServedErr,
			Synced:         map[reflect.Type]bool{reflect.TypeOf(&metav1.Status{}): false, reflect.TypeOf(&metav1.PartialObjectMetadata{}): false},
			Errors:         map[reflect.Type]error{reflect.TypeOf(&metav1.Status{}): notServedErr, reflect.TypeOf(&metav1.PartialObjectMetadata{}): forbiddenErr},
			SyncedMetadata: map[schema.GroupVersionResource]bool{pods: false},
			MetadataErrors: map[schema.GroupVersionResource]error{pods: forbiddenErr},
		}, "failed to sync all caches: *v1.PartialObjectMetadata, *v1.Status, /v1, Resource=pods (metadata): " + notServedErr.Error() + "; " + forbiddenErr.Error() + "; " + forbiddenErr.Error()},
		{"informers keyed by resource did not sync", SyncResult{
			Err:             context.Canceled,
			SyncedResources: map[schema.GroupVersionResource]bool{widgets: false, pods: true},
			ResourceErrors:  map[schema.GroupVersionResource]error{widgets: notServedErr},
		}, "failed to sync all caches: example.com/v1, Resource=widgets: context canceled; " + notServedErr.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.res.AsError()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("AsError() = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("AsError() = %v, want %q", err, tt.want)
			}
			for _, want := range append(tt.res.reasons(), tt.res.Err) {
				if !errors.Is(err, want) {
					t.Errorf("AsError() does not wrap %v", want)
				}
			}
		})
	}
}
