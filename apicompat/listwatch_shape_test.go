package apicompat_test

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	clientgocache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/listwatch"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// The listwatch module's names, written in client-go's shapes with
// runtime/cache's ListWatch: TestListWatchModuleDeclaresTheClientGoOnlyNamesCompatibly
// reports only the first difference of a function, which is the Getter
// parameter's package; these declarations pin the rest at compile time.
// The two Getters are assignable both ways: they have the same methods.
var (
	_ listwatch.Getter     = clientgocache.Getter(nil)
	_ clientgocache.Getter = listwatch.Getter(nil)

	_ func(listwatch.Getter, string, string, fields.Selector) *cache.ListWatch                   = listwatch.NewListWatchFromClient
	_ func(listwatch.Getter, string, string, func(options *metav1.ListOptions)) *cache.ListWatch = listwatch.NewFilteredListWatchFromClient
)
