package lister_test

import (
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/lister"
)

// A ResourceIndexer reads typed objects out of an informer's cache; here
// the cache is filled by hand, where an informer would fill it.
func Example() {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, o := range []struct{ ns, name, app string }{
		{"default", "web", "shop"},
		{"default", "db", "shop"},
		{"kube-system", "dns", "core"},
	} {
		obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: o.ns, Name: o.name, Labels: map[string]string{"app": o.app}}}
		if err := indexer.Add(obj); err != nil {
			panic(err)
		}
	}
	// As generated listers (and lister-gen's): the lowercase singular type
	// names the objects in NotFound errors.
	configMaps := lister.New[*metav1.PartialObjectMetadata](indexer, schema.GroupResource{Resource: "configmap"})

	all, _ := configMaps.List(labels.Everything())
	fmt.Println("all namespaces:", len(all))

	inDefault := lister.NewNamespaced(configMaps, "default")
	shop, _ := inDefault.List(labels.SelectorFromSet(labels.Set{"app": "shop"}))
	names := make([]string, 0, len(shop))
	for _, o := range shop {
		names = append(names, o.Name)
	}
	sort.Strings(names)
	fmt.Println("app=shop in default:", names)

	web, _ := inDefault.Get("web")
	fmt.Println("got:", web.Namespace+"/"+web.Name)

	_, err := inDefault.Get("missing")
	fmt.Println("missing is NotFound:", apierrors.IsNotFound(err))
	fmt.Println(err)
	// Output:
	// all namespaces: 3
	// app=shop in default: [db web]
	// got: default/web
	// missing is NotFound: true
	// configmap "missing" not found
}
