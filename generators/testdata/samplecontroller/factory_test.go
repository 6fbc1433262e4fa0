package samplecontroller

import (
	"context"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"go.uber.org/goleak"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
	samplev1alpha1 "k8s.io/sample-controller/pkg/apis/samplecontroller/v1alpha1"
	"k8s.io/sample-controller/pkg/generated/clientset/versioned/fake"

	"example.com/samplecontroller/generated/informers/externalversions"
)

func newFoo(namespace, name string, replicas int32) *samplev1alpha1.Foo {
	return &samplev1alpha1.Foo{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       samplev1alpha1.FooSpec{DeploymentName: name + "-deployment", Replicas: &replicas},
	}
}

// watchStarted makes the fake clientset's Foo watch signal on the returned
// channel once it is registered with the object tracker, so that objects
// created afterwards are certain to reach the informer (the fake tracker
// only sends events to watches that exist when the object is created).
func watchStarted(client *fake.Clientset) <-chan struct{} {
	started := make(chan struct{}, 1)
	client.PrependWatchReactor("foos", func(action clienttesting.Action) (bool, watch.Interface, error) {
		w, err := client.Tracker().Watch(samplev1alpha1.SchemeGroupVersion.WithResource("foos"), action.GetNamespace())
		if err != nil {
			return false, nil, err
		}
		select {
		case started <- struct{}{}:
		default:
		}
		return true, w, nil
	})
	return started
}

// TestGeneratedFactorySyncsFoosFromTheFakeClientset runs the generated
// factory on sample-controller's own fake clientset: a Foo present before
// Start is listed and served by the generated lister once synced, and a Foo
// created afterwards arrives through the watch, reaches an event handler and
// the lister. Shutdown leaves no goroutine behind.
func TestGeneratedFactorySyncsFoosFromTheFakeClientset(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	client := fake.NewSimpleClientset(newFoo("ns1", "listed", 1))
	started := watchStarted(client)

	factory := externalversions.NewSharedInformerFactory(client, 0)
	foos := factory.Samplecontroller().V1alpha1().Foos()
	added := make(chan string, 8)
	if _, err := foos.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*samplev1alpha1.Foo]{
		AddFunc: func(foo *samplev1alpha1.Foo) { added <- foo.Namespace + "/" + foo.Name },
	}); err != nil {
		t.Fatal(err)
	}
	lister := foos.Lister()

	factory.StartWithContext(ctx)
	defer factory.Shutdown()
	if err := factory.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatalf("factory did not sync: %v", err)
	}

	got, err := lister.Foos("ns1").Get("listed")
	if err != nil {
		t.Fatalf("Get of the listed Foo: %v", err)
	}
	if got.Spec.DeploymentName != "listed-deployment" || got.Spec.Replicas == nil || *got.Spec.Replicas != 1 {
		t.Errorf("listed Foo has spec %+v, want deployment listed-deployment with 1 replica", got.Spec)
	}
	if _, err := lister.Foos("ns2").Get("listed"); !apierrors.IsNotFound(err) {
		t.Errorf("Get in another namespace: err = %v, want NotFound", err)
	}

	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the informer never opened its watch")
	}
	if _, err := client.SamplecontrollerV1alpha1().Foos("ns2").Create(ctx, newFoo("ns2", "watched", 3), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"ns1/listed": true, "ns2/watched": true}
	for len(want) > 0 {
		select {
		case key := <-added:
			if !want[key] {
				t.Fatalf("unexpected add of %s", key)
			}
			delete(want, key)
		case <-ctx.Done():
			t.Fatalf("no add event for %v", want)
		}
	}
	got, err = lister.Foos("ns2").Get("watched")
	if err != nil {
		t.Fatalf("Get of the watched Foo after its add event: %v", err)
	}
	if *got.Spec.Replicas != 3 {
		t.Errorf("watched Foo has %d replicas, want 3", *got.Spec.Replicas)
	}
	all, err := lister.List(labels.Everything())
	if err != nil || len(all) != 2 {
		t.Errorf("List of all Foos = %d objects, %v; want 2", len(all), err)
	}

	generic, err := factory.ForResource(samplev1alpha1.SchemeGroupVersion.WithResource("foos"))
	if err != nil {
		t.Fatalf("ForResource(foos): %v", err)
	}
	obj, err := generic.Lister().ByNamespace("ns2").Get("watched")
	if err != nil {
		t.Fatalf("generic lister Get: %v", err)
	}
	if _, ok := obj.(*samplev1alpha1.Foo); !ok {
		t.Errorf("generic lister returned %T, want *v1alpha1.Foo", obj)
	}

	cancel()
	factory.Shutdown()
}
