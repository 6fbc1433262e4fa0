package dynamicinformer_test

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/informer-gen/informer-gen/dynamic/dynamicinformer"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// The factory's informers are built with its compaction: by default the
// cached objects share their equal labels (a value is shared from its
// second sighting on, so of three objects at least two hold one map);
// under factory.WithoutCompaction each keeps its own.
func TestFactoryInformersCompactUnlessTurnedOff(t *testing.T) {
	for _, tt := range []struct {
		name       string
		opts       []factory.Option
		wantShared bool
	}{
		{"default", nil, true},
		{"WithoutCompaction", []factory.Option{factory.WithoutCompaction()}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			labels := func() map[string]string { return map[string]string{"app": "web", "tier": "front"} }
			client := newClient(object("Widget", "c", "w1", labels()), object("Widget", "c", "w2", labels()), object("Widget", "c", "w3", labels()))
			f := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(client, 0, tt.opts...)
			defer f.Shutdown()
			inf := f.ForResource(widgets).Informer()
			stop := guard(t)
			f.Start(stop)
			f.WaitForCacheSync(stop)
			objs := inf.GetStore().List()
			if len(objs) != 3 {
				t.Fatalf("%d widgets cached, want 3", len(objs))
			}
			maps := map[uintptr]bool{}
			for _, obj := range objs {
				l, ok := obj.(*unstructured.Unstructured).Object["metadata"].(map[string]any)["labels"].(map[string]any)
				if !ok || !reflect.DeepEqual(l, map[string]any{"app": "web", "tier": "front"}) {
					t.Fatalf("cached labels %v, want app=web, tier=front", l)
				}
				maps[reflect.ValueOf(l).Pointer()] = true
			}
			if shared := len(maps) < len(objs); shared != tt.wantShared {
				t.Errorf("equal labels of cached objects shared: %t (%d maps for %d objects), want %t", shared, len(maps), len(objs), tt.wantShared)
			}
		})
	}
}
