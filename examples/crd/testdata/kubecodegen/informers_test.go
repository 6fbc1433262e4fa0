// Package kubecodegen_test runs the informers and listers informer_gen.sh
// generated beside kube_codegen.sh's clientset: the factory lists and
// watches through the generated fake clientset and the listers read what
// it saw. examples/crd's TestGenInformersReplacesGenClientWithWatch runs
// it once hack/update-codegen.sh has generated pkg/generated.
package kubecodegen_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen/informer-gen/runtime/cache"

	stablev1 "example.com/kubecodegen/pkg/apis/stable/v1"
	"example.com/kubecodegen/pkg/generated/client/versionedclient/fake"
	"example.com/kubecodegen/pkg/generated/informer/externalversions"
)

// testTimeout bounds every wait so that a bug fails the test instead of
// hanging it. It is never asserted as a speed.
const testTimeout = 30 * time.Second

// watchSignal makes cs signal on the returned channel each time a watch of
// resource has been established (the fake only delivers changes made after
// that).
func watchSignal(cs *fake.Clientset, resource string) <-chan struct{} {
	watching := make(chan struct{}, 16)
	cs.PrependWatchReactor(resource, func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if wa, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = wa.ListOptions
		}
		w, err := cs.Tracker().Watch(action.GetResource(), action.GetNamespace(), opts)
		if err == nil {
			select {
			case watching <- struct{}{}:
			default:
			}
		}
		return true, w, err
	})
	return watching
}

// addedNames returns a channel receiving the name of each object the
// informer delivers as added.
func addedNames(t *testing.T, informer cache.SharedIndexInformer) <-chan string {
	t.Helper()
	added := make(chan string, 16)
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if o, ok := obj.(metav1.Object); ok {
			added <- o.GetName()
		}
	}})
	if err != nil {
		t.Fatalf("AddEventHandler: %v", err)
	}
	return added
}

// waitFor receives from ch until want arrives.
func waitFor(ctx context.Context, t *testing.T, ch <-chan string, want string) {
	t.Helper()
	for {
		select {
		case got := <-ch:
			if got == want {
				return
			}
		case <-ctx.Done():
			t.Fatalf("%s was not delivered: %v", want, ctx.Err())
		}
	}
}

func TestGeneratedFactoryListsWatchesAndListersRead(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()

	cs := fake.NewSimpleClientset(&stablev1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "listed"}, Spec: stablev1.WidgetSpec{Size: 1}})
	// The fake's tracker files objects given to NewSimpleClientset under
	// the resource their kind guesses ("gadgets"); the clientset reads the
	// plural exception's ("gadgetries"), so a Gadget is created through it.
	gadget := &stablev1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "listed"}, Spec: stablev1.GadgetSpec{Model: "m1"}}
	if _, err := cs.StableV1().Gadgetries().Create(ctx, gadget, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create Gadget: %v", err)
	}
	watchingWidgets := watchSignal(cs, "widgets")

	informers := externalversions.NewSharedInformerFactory(cs, 0)
	widgets := informers.Stable().V1().Widgets()
	// Lister, like Informer, registers the informer that Start starts.
	widgetLister, gadgetLister := widgets.Lister(), informers.Stable().V1().Gadgetries().Lister()
	addedWidgets := addedNames(t, widgets.Informer())
	informers.StartWithContext(ctx)
	defer informers.Shutdown()
	for typ, ok := range informers.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("informer of %v did not sync", typ)
		}
	}

	w, err := widgetLister.Widgets("default").Get("listed")
	if err != nil || w.Spec.Size != 1 {
		t.Fatalf("Widgets lister Get(default/listed) = %+v, %v; want the listed Widget", w, err)
	}
	g, err := gadgetLister.Get("listed")
	if err != nil || g.Spec.Model != "m1" {
		t.Fatalf("Gadgets lister Get(listed) = %+v, %v; want the listed Gadget", g, err)
	}

	select {
	case <-watchingWidgets:
	case <-ctx.Done():
		t.Fatalf("the Widget informer did not watch: %v", ctx.Err())
	}
	created := &stablev1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "watched"}, Spec: stablev1.WidgetSpec{Size: 2}}
	if _, err := cs.StableV1().Widgets("default").Create(ctx, created, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	waitFor(ctx, t, addedWidgets, "watched")
	w, err = widgetLister.Widgets("default").Get("watched")
	if err != nil || w.Spec.Size != 2 {
		t.Fatalf("Widgets lister Get(default/watched) = %+v, %v; want the created Widget", w, err)
	}
	all, err := widgetLister.List(labels.Everything())
	if err != nil || len(all) != 2 {
		t.Fatalf("Widgets lister List = %d Widgets, %v; want 2", len(all), err)
	}
}
