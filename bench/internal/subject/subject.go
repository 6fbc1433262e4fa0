// Package subject puts client-go's SharedIndexInformer and informer-gen's
// behind one small interface, so that every measurement runs the same code
// against both.
package subject

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/bench/internal/source"
)

// configMaps is the resource the listers name in NotFound errors.
var configMaps = schema.GroupResource{Resource: "configmaps"}

// Handler receives typed notifications. Its functions are called as the
// informer calls its handler: from one goroutine per handler, in order.
// Update's oldObj is nil for the merged updates of a lagging handler of
// OursLatestOnly; it is never nil otherwise.
type Handler struct {
	Add    func(obj *corev1.ConfigMap)
	Update func(oldObj, newObj *corev1.ConfigMap)
	Delete func(obj any)
}

// Informer is a shared index informer over ConfigMaps with the namespace
// index. Its methods have the concurrency contract of the informer behind
// it: all are safe for concurrent use.
type Informer interface {
	// AddHandler registers h and returns the registration's HasSynced.
	AddHandler(h Handler) (synced func() bool, err error)
	// Run runs the informer until ctx is done and returns when it stopped.
	Run(ctx context.Context)
	// HasSynced is true once the initial list is in the cache.
	HasSynced() bool
	// Lister reads the cache.
	Lister() Lister
}

// Lister reads an informer's cache through the implementation's lister.
type Lister interface {
	// List returns the ConfigMaps of namespace, by the namespace index.
	List(namespace string) ([]*corev1.ConfigMap, error)
	// Get returns the ConfigMap namespace/name.
	Get(namespace, name string) (*corev1.ConfigMap, error)
}

// Subject makes informers of one implementation.
type Subject struct {
	// Name is "clientgo", "ours" or "ours-latest-only"; benchmark names
	// use it.
	Name string
	// New returns an informer over src, with no resync and the namespace
	// index.
	New func(src *source.Source) Informer
	// Typed returns an informer of example's type over src, with no
	// resync and the namespace index.
	Typed func(src *source.Source, example runtime.Object) TypedInformer
}

// All returns client-go first, then ours (default handler options).
func All() []Subject { return []Subject{ClientGo(), Ours()} }
