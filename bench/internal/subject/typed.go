package subject

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	clientgocache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// TypedInformer is a shared index informer over any object type, for the
// measurements that are not about ConfigMaps (the live heap per object of
// other kinds). Its methods are safe for concurrent use.
type TypedInformer interface {
	// Run runs the informer until ctx is done and returns when it stopped.
	Run(ctx context.Context)
	// HasSynced is true once the initial list is in the cache.
	HasSynced() bool
	// Len is the number of cached objects.
	Len() int
}

// newClientGoTyped is client-go's informer of example's type over src,
// with the namespace index and no handler.
func newClientGoTyped(src *source.Source, example runtime.Object) TypedInformer {
	return clientGoTyped{clientgocache.NewSharedIndexInformer(clientGoLW{src}, example, 0,
		clientgocache.Indexers{clientgocache.NamespaceIndex: clientgocache.MetaNamespaceIndexFunc})}
}

type clientGoTyped struct {
	inf clientgocache.SharedIndexInformer
}

func (c clientGoTyped) Run(ctx context.Context) { c.inf.RunWithContext(ctx) }
func (c clientGoTyped) HasSynced() bool         { return c.inf.HasSynced() }
func (c clientGoTyped) Len() int                { return len(c.inf.GetStore().ListKeys()) }

// newOursTyped is our informer of example's type over src, with the
// namespace index, compaction as compact says (oursOptions) and no handler.
func newOursTyped(src *source.Source, example runtime.Object, compact bool) TypedInformer {
	return oursTyped{cache.NewSharedIndexInformerWithOptions(clientGoLW{src}, example, oursOptions(compact))}
}

type oursTyped struct{ inf cache.SharedIndexInformer }

func (o oursTyped) Run(ctx context.Context) { o.inf.RunWithContext(ctx) }
func (o oursTyped) HasSynced() bool         { return o.inf.HasSynced() }
func (o oursTyped) Len() int                { return len(o.inf.GetStore().ListKeys()) }
