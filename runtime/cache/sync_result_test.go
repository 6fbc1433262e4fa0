package cache

import (
	"context"
	"errors"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// AsError is nil when every informer synced, and otherwise names each typed
// and metadata-only informer that did not, in a stable order, wrapping Err.
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
		}, "caches not synced: *v1.PartialObjectMetadata: context deadline exceeded"},
		{"metadata-only informers did not sync", SyncResult{
			Err:            context.Canceled,
			Synced:         map[reflect.Type]bool{reflect.TypeOf(&metav1.Status{}): false},
			SyncedMetadata: map[schema.GroupVersionResource]bool{widgets: false, pods: false, {Resource: "synced"}: true},
		}, "caches not synced: *v1.Status, /v1, Resource=pods (metadata), example.com/v1, Resource=widgets (metadata): context canceled"},
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
			if !errors.Is(err, tt.res.Err) {
				t.Errorf("AsError() does not wrap %v", tt.res.Err)
			}
		})
	}
}
