package factory_test

import (
	"context"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// cluster holds objects of three namespaces; each informer lists only its
// own namespace, as a namespaced list request to a real server would.
var cluster = map[string][]string{"team-a": {"a1", "a2"}, "team-b": {"b1"}, "team-c": {"c1"}}

// newInformer plays the part of a generated NewFilteredXxxInformer: it
// builds an informer for one namespace from the factory's InformerConfig,
// passing on its settings (here its resync period and compaction).
func newInformer(config factory.InformerConfig) cache.SharedIndexInformer {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}
			for _, name := range cluster[config.Namespace] {
				list.Items = append(list.Items, metav1.PartialObjectMetadata{
					ObjectMeta: metav1.ObjectMeta{Namespace: config.Namespace, Name: name, ResourceVersion: "1"},
				})
			}
			return list, nil
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			return watch.NewFake(), nil
		},
	}
	return cache.NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, cache.SharedIndexInformerOptions{
		ResyncPeriod: config.ResyncPeriod,
		Indexers:     cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
		Compact:      config.Compact,
	})
}

// WithNamespaces scopes every informer of a factory to a set of
// namespaces: the factory runs one list and watch per namespace (no
// cluster-wide permission needed) and hands out one informer whose indexer
// and handlers see the union.
func ExampleWithNamespaces() {
	f := factory.New(factory.WithNamespaces("team-a", "team-b"))
	informer := f.InformerFor(&metav1.PartialObjectMetadata{}, newInformer)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer f.Shutdown()
	f.Start(ctx)
	if err := f.WaitForCacheSync(ctx).AsError(); err != nil {
		panic(err)
	}
	keys := informer.GetIndexer().ListKeys()
	slices.Sort(keys)
	fmt.Println(keys)
	// Output:
	// [team-a/a1 team-a/a2 team-b/b1]
}
