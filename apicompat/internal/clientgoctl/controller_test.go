package clientgoctl

import (
	"context"
	"sort"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
)

func configMap(ns, name string, annotations map[string]string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations, ResourceVersion: "1"},
		Data:       data,
	}
}

// actions renders the fake clientset's write actions as "verb ns/name".
func actions(client *fake.Clientset) []string {
	var out []string
	for _, a := range client.Actions() {
		switch a.GetVerb() {
		case "create", "update":
			cm := a.(interface{ GetObject() runtime.Object }).GetObject().(*corev1.ConfigMap)
			out = append(out, a.GetVerb()+" "+a.GetNamespace()+"/"+cm.Name)
		case "delete":
			out = append(out, "delete "+a.GetNamespace()+"/"+a.(core.DeleteAction).GetName())
		}
	}
	sort.Strings(out)
	return out
}

// TestSync is a kube-controller-manager-style table test: the informer is
// never started, its indexer is filled directly and Sync is called.
func TestSync(t *testing.T) {
	src := configMap("a", "cfg", map[string]string{MirrorTo: "b"}, map[string]string{"k": "v"})
	tests := []struct {
		name    string
		cached  []*corev1.ConfigMap
		sync    cache.ObjectName
		want    []string
		wantErr bool
	}{
		{
			name:   "a source without a copy gets one",
			cached: []*corev1.ConfigMap{src},
			sync:   cache.NewObjectName("a", "cfg"),
			want:   []string{"create b/cfg"},
		},
		{
			name:   "an up-to-date copy is left alone",
			cached: []*corev1.ConfigMap{src, configMap("b", "cfg", map[string]string{MirrorOf: "a/cfg"}, map[string]string{"k": "v"})},
			sync:   cache.NewObjectName("a", "cfg"),
		},
		{
			name:   "a stale copy is updated",
			cached: []*corev1.ConfigMap{src, configMap("b", "cfg", map[string]string{MirrorOf: "a/cfg"}, map[string]string{"k": "old"})},
			sync:   cache.NewObjectName("a", "cfg"),
			want:   []string{"update b/cfg"},
		},
		{
			name:   "copies of a deleted source are deleted",
			cached: []*corev1.ConfigMap{configMap("b", "cfg", map[string]string{MirrorOf: "a/cfg"}, nil)},
			sync:   cache.NewObjectName("a", "cfg"),
			want:   []string{"delete b/cfg"},
		},
		{
			name: "a copy in the old target namespace moves",
			cached: []*corev1.ConfigMap{src,
				configMap("c", "cfg", map[string]string{MirrorOf: "a/cfg"}, map[string]string{"k": "v"})},
			sync: cache.NewObjectName("a", "cfg"),
			want: []string{"create b/cfg", "delete c/cfg"},
		},
		{
			name:    "a foreign ConfigMap in the way is not overwritten",
			cached:  []*corev1.ConfigMap{src, configMap("b", "cfg", nil, nil)},
			sync:    cache.NewObjectName("a", "cfg"),
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var objs []runtime.Object
			for _, cm := range tt.cached {
				objs = append(objs, cm)
			}
			client := fake.NewClientset(objs...)
			informer := NewInformer(client, 0)
			c, err := New(ctx, client, informer)
			if err != nil {
				t.Fatal(err)
			}
			for _, cm := range tt.cached {
				if err := informer.GetIndexer().Add(cm); err != nil {
					t.Fatal(err)
				}
			}
			err = c.Sync(ctx, tt.sync)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Sync error = %v, want error %v", err, tt.wantErr)
			}
			if got := actions(client); !equal(got, tt.want) {
				t.Fatalf("actions = %q, want %q", got, tt.want)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestObjectNames(t *testing.T) {
	cm := configMap("ns", "n", nil, nil)
	if got := cache.MetaObjectToName(cm); got != cache.NewObjectName("ns", "n") || got.String() != "ns/n" {
		t.Fatalf("MetaObjectToName = %v", got)
	}
	if got, err := cache.ObjectToName(cm); err != nil || got.Name != "n" {
		t.Fatalf("ObjectToName = %v, %v", got, err)
	}
	tomb := cache.DeletedFinalStateUnknown{Key: "ns/gone"}
	if got, err := cache.DeletionHandlingObjectToName(tomb); err != nil || got != cache.NewObjectName("ns", "gone") {
		t.Fatalf("DeletionHandlingObjectToName(tombstone) = %v, %v", got, err)
	}
	if got, err := cache.ParseObjectName("cluster-scoped"); err != nil || got.Namespace != "" {
		t.Fatalf("ParseObjectName = %v, %v", got, err)
	}
	d := cache.DeletedObject[*corev1.ConfigMap]{FinalStateUnknown: &tomb}
	if d.GetKey() != "ns/gone" || d.GetName() != "gone" || d.GetNamespace() != "ns" {
		t.Fatalf("DeletedObject names = %q %q %q", d.GetKey(), d.GetNamespace(), d.GetName())
	}
}

// TestRunMirrorsThroughTheInformer runs the informer and the controller
// against a fake clientset.
func TestRunMirrorsThroughTheInformer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewClientset(configMap("a", "cfg", map[string]string{MirrorTo: "b"}, map[string]string{"k": "v"}))
	informer := NewInformer(client, 0)
	c, err := New(ctx, client, informer)
	if err != nil {
		t.Fatal(err)
	}
	stopCh := make(chan struct{})
	informerDone := make(chan struct{})
	go func() {
		defer close(informerDone)
		informer.Run(stopCh)
	}()
	defer func() {
		close(stopCh)
		<-informerDone
	}()
	if !cache.WaitForCacheSync(stopCh, informer.HasSynced) {
		t.Fatal("informer did not sync")
	}
	runDone := make(chan error, 1)
	go func() { runDone <- c.Run(ctx, 2) }()
	defer func() {
		cancel()
		if err := <-runDone; err != nil {
			t.Error(err)
		}
	}()

	cached := func(key string) (*corev1.ConfigMap, bool) {
		obj, ok, _ := informer.GetIndexer().GetByKey(key)
		if !ok {
			return nil, false
		}
		return obj.(*corev1.ConfigMap), true
	}
	cachetest.Eventually(t, "the copy", func() bool { cm, ok := cached("b/cfg"); return ok && cm.Data["k"] == "v" })

	src, _ := cached("a/cfg")
	upd := src.DeepCopy()
	upd.Data = map[string]string{"k": "v2"}
	upd.ResourceVersion = "2"
	if _, err := client.CoreV1().ConfigMaps("a").Update(ctx, upd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	cachetest.Eventually(t, "the updated copy", func() bool { cm, ok := cached("b/cfg"); return ok && cm.Data["k"] == "v2" })

	if err := client.CoreV1().ConfigMaps("a").Delete(ctx, "cfg", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	cachetest.Eventually(t, "the copy's deletion", func() bool { _, ok := cached("b/cfg"); return !ok })
	cachetest.Eventually(t, "both deletes counted", func() bool { return c.Deletes.Load() == 2 })
}
