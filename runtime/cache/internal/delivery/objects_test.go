package delivery

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// This file holds the test fixtures of the package: objects, keys and
// handlers shaped like runtime/cache's (which this package cannot import).

// testObject returns a small namespaced object with the given identity.
func testObject(namespace, name, resourceVersion string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       namespace,
			Name:            name,
			ResourceVersion: resourceVersion,
		},
	}
}

// uidObject is testObject with a UID, for tests of re-created objects.
func uidObject(namespace, name, uid, resourceVersion string) *metav1.PartialObjectMetadata {
	o := testObject(namespace, name, resourceVersion)
	o.UID = types.UID(uid)
	return o
}

// tombstone plays runtime/cache's DeletedFinalStateUnknown: the last known
// state of an object whose delete was not observed, filed under Key.
type tombstone struct {
	Key string
	Obj any
}

// explicitKey plays runtime/cache's ExplicitKey: a key standing for itself.
type explicitKey string

// keyOf is runtime/cache's DeletionHandlingMetaNamespaceKeyFunc for the
// fixtures: namespace/name, name for cluster-scoped objects, a
// tombstone's or an explicit key's own key.
func keyOf(obj any) string {
	switch o := obj.(type) {
	case tombstone:
		return o.Key
	case explicitKey:
		return string(o)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}

// hasKey is the ListenerConfig.HasKey of the tests.
func hasKey(obj any, key string) bool { return keyOf(obj) == key }

// newListener returns a listener for h as the tests use it: named name,
// with an in-order buffer of fastCapacity (0: the default).
func newListener(h Handler, name string, fastCapacity int) *Listener {
	return NewListener(ListenerConfig{Handler: h, Name: name, FastCapacity: fastCapacity, HasKey: hasKey})
}

// funcs adapts functions to Handler as runtime/cache's
// ResourceEventHandlerDetailedFuncs does: nil functions are skipped, and
// a resync goes to resync, or to update(obj, obj) when resync is nil.
type funcs struct {
	add    func(obj any, isInInitialList bool)
	update func(oldObj, newObj any)
	delete func(obj any)
	resync func(obj any)
}

func (f funcs) OnAdd(obj any, isInInitialList bool) {
	if f.add != nil {
		f.add(obj, isInInitialList)
	}
}

func (f funcs) OnUpdate(oldObj, newObj any) {
	if f.update != nil {
		f.update(oldObj, newObj)
	}
}

func (f funcs) OnDelete(obj any) {
	if f.delete != nil {
		f.delete(obj)
	}
}

func (f funcs) OnResync(obj any) {
	switch {
	case f.resync != nil:
		f.resync(obj)
	case f.update != nil:
		f.update(obj, obj)
	}
}

// onAdd is a handler that only handles adds.
type onAdd func(obj any, isInInitialList bool)

func (f onAdd) OnAdd(obj any, isInInitialList bool) { f(obj, isInInitialList) }
func (f onAdd) OnUpdate(_, _ any)                   {}
func (f onAdd) OnDelete(any)                        {}

// captureLogs sends klog's output to the returned function's result for
// the rest of the test.
func captureLogs(t *testing.T) func() string {
	var mu sync.Mutex
	var b strings.Builder
	klog.SetLogger(funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		b.WriteString(prefix + " " + args + "\n")
	}, funcr.Options{}))
	t.Cleanup(klog.ClearLogger)
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return b.String()
	}
}

// setReallyCrash sets utilruntime.ReallyCrash for the rest of the test.
func setReallyCrash(t *testing.T, v bool) {
	old := utilruntime.ReallyCrash
	utilruntime.ReallyCrash = v
	t.Cleanup(func() { utilruntime.ReallyCrash = old })
}

// heapInUseBytes is the live heap after two collections.
func heapInUseBytes() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
