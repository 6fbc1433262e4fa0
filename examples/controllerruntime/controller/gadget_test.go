package controller

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	appsv1 "github.com/informer-gen/informer-gen/examples/controllerruntime/api/v1"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/compact"
)

// TestGadgetControllerOnInformerGenInformers runs the manager NewManager
// builds against envtest with the Gadget CRD: its cache holds Gadgets in
// informer-gen's informers, compacted with the walks informer-gen
// --walks-only generated, and the reconciler keeps each Gadget's
// ConfigMap as the Gadget changes.
func TestGadgetControllerOnInformerGenInformers(t *testing.T) {
	if !compact.Registered(&appsv1.Gadget{}) {
		t.Fatal("importing api/v1 registered no compaction walk for Gadget (zz_generated.compaction.go)")
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "config", "crd")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Error(err)
		}
	})
	mgr, err := NewManager(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := mgr.Start(ctx); err != nil {
			t.Error(err)
		}
	})
	t.Cleanup(func() { cancel(); wg.Wait() })

	informer, err := mgr.GetCache().GetInformer(ctx, &appsv1.Gadget{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%T", informer); got != "*controllerruntime.informer" {
		t.Errorf("the cache's Gadget informer is a %s, want informer-gen's (*controllerruntime.informer)", got)
	}

	c := mgr.GetClient()
	gadget := &appsv1.Gadget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "hello"},
		Spec:       appsv1.GadgetSpec{Message: "hello", Labels: map[string]string{"team": "a"}},
	}
	if err := c.Create(ctx, gadget); err != nil {
		t.Fatal(err)
	}
	key := types.NamespacedName{Namespace: "default", Name: ConfigMapName("hello")}
	waitForConfigMap(t, ctx, c, key, "hello")

	var got appsv1.Gadget
	cachetest.Eventually(t, "the Gadget's status to name its ConfigMap", func() bool {
		return c.Get(ctx, client.ObjectKeyFromObject(gadget), &got) == nil && got.Status.ConfigMap == key.Name
	})
	got.Spec.Message = "changed"
	if err := c.Update(ctx, &got); err != nil {
		t.Fatal(err)
	}
	waitForConfigMap(t, ctx, c, key, "changed")
}

// waitForConfigMap waits for the ConfigMap key to hold message, labelled
// and owned by its Gadget.
func waitForConfigMap(t *testing.T, ctx context.Context, c client.Client, key types.NamespacedName, message string) {
	t.Helper()
	cachetest.EventuallyExplained(t, func() (bool, string) {
		var cm corev1.ConfigMap
		if err := c.Get(ctx, key, &cm); err != nil {
			return false, fmt.Sprintf("configmap %s: %v", key, err)
		}
		owner := metav1.GetControllerOf(&cm)
		if cm.Data["message"] != message || cm.Labels["team"] != "a" || owner == nil || owner.Kind != "Gadget" {
			return false, fmt.Sprintf("configmap %s has data %v, labels %v, controller %v; want message %q, team a, its Gadget", key, cm.Data, cm.Labels, owner, message)
		}
		return true, ""
	})
}
