package metadatainformer_test

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/metadata/fake"

	"github.com/informer-gen/informer-gen/dynamic/metadatainformer"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// The factory's informers are built with its compaction: by default the
// cached objects share their equal labels (a value is shared from its
// second sighting on, so of three objects at least two hold one map);
// under factory.WithoutCompaction each keeps its own.
func TestFactoryInformersCompactUnlessTurnedOff(t *testing.T) {
	for _, tt := range []struct {
		name       string
		opts       []metadatainformer.SharedInformerOption
		wantShared bool
	}{
		{"default", nil, true},
		{"WithoutCompaction", []metadatainformer.SharedInformerOption{metadatainformer.WithFactoryOptions(factory.WithoutCompaction())}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			scheme := fake.NewTestScheme()
			if err := metav1.AddMetaToScheme(scheme); err != nil {
				t.Fatal(err)
			}
			client := fake.NewSimpleMetadataClient(scheme,
				object("Widget", "c", "w1", "web"), object("Widget", "c", "w2", "web"), object("Widget", "c", "w3", "web"))
			f := metadatainformer.NewSharedInformerFactoryWithOptions(client, 0, tt.opts...)
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
				l := obj.(*metav1.PartialObjectMetadata).Labels
				if !reflect.DeepEqual(l, map[string]string{"app": "web"}) {
					t.Fatalf("cached labels %v, want app=web", l)
				}
				maps[reflect.ValueOf(l).Pointer()] = true
			}
			if shared := len(maps) < len(objs); shared != tt.wantShared {
				t.Errorf("equal labels of cached objects shared: %t (%d maps for %d objects), want %t", shared, len(maps), len(objs), tt.wantShared)
			}
		})
	}
}
