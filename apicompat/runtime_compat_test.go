package apicompat_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/informer-gen/informer-gen/apicompat"

	// The packages compared are loaded by import path from this module;
	// these imports keep them in go.mod.
	_ "github.com/informer-gen/informer-gen/listwatch"
	_ "github.com/informer-gen/informer-gen/runtime/cache"
	_ "github.com/informer-gen/informer-gen/runtime/lister"
	_ "k8s.io/client-go/listers"
	_ "k8s.io/client-go/tools/cache"
)

const (
	clientGoCache   = "k8s.io/client-go/tools/cache"
	ourCache        = "github.com/informer-gen/informer-gen/runtime/cache"
	clientGoListers = "k8s.io/client-go/listers"
	ourLister       = "github.com/informer-gen/informer-gen/runtime/lister"
	ourListWatch    = "github.com/informer-gen/informer-gen/listwatch"
)

// requiredCacheNames are the tools/cache names controllers and client-go
// v0.37's generated code use most (issue 9's list, counted in
// kube-controller-manager and code-generator output): each must exist in
// runtime/cache, and, like every shared name, with a compatible
// declaration.
var requiredCacheNames = []string{
	// Keys and names.
	"KeyFunc", "ExplicitKey", "MetaNamespaceKeyFunc", "DeletionHandlingMetaNamespaceKeyFunc",
	"SplitMetaNamespaceKey", "DeletedFinalStateUnknown", "ObjectName", "NewObjectName",
	"ParseObjectName", "ObjectToName", "MetaObjectToName", "DeletionHandlingObjectToName",
	// Handlers.
	"ResourceEventHandler", "ResourceEventHandlerFuncs", "ResourceEventHandlerDetailedFuncs",
	"FilteringResourceEventHandler", "ResourceEventHandlerRegistration", "HandlerOptions",
	// Typed API.
	"Object", "DeletedObject", "TypedResourceEventHandler", "TypedResourceEventHandlerFuncs",
	"TypedResourceEventHandlerDetailedFuncs", "TypedFilteringResourceEventHandler",
	"TypedIndexers", "TypedIndexFunc", "TypedIndexer", "TypedIndexersToIndexers",
	"TypedSharedIndexInformer", "NewTypedSharedIndexInformer",
	// Informers.
	"SharedInformer", "SharedIndexInformer", "NewSharedInformer", "NewSharedIndexInformer",
	"NewSharedIndexInformerWithOptions", "SharedIndexInformerOptions", "InformerName",
	"NewInformerName", "InformerNameAndResource", "InformerMetricsProvider", "Controller",
	"TransformFunc", "WatchErrorHandler", "WatchErrorHandlerWithContext",
	// Waiting.
	"InformerSynced", "WaitForCacheSync", "WaitForNamedCacheSync",
	"WaitForNamedCacheSyncWithContext", "DoneChecker", "WaitFor", "IsDone",
	// Stores, indexes, listers.
	"Store", "Indexer", "NewStore", "NewIndexer", "Indexers", "IndexFunc",
	"MetaNamespaceIndexFunc", "NamespaceIndex", "ListAll", "ListAllByNamespace",
	"GenericLister", "GenericNamespaceLister", "NewGenericLister",
	// List and watch.
	"ListerWatcher", "ListerWatcherWithContext", "ListWatch", "ListFunc", "WatchFunc",
	"ListWithContextFunc", "WatchFuncWithContext", "ToListWatcherWithWatchListSemantics",
	"ToListerWatcherWithContext", "Reflector", "NewReflector", "NewReflectorWithOptions",
	"DeltaFIFO", "NewDeltaFIFOWithOptions", "Delta", "Deltas", "DeltaType", "SyncResult",
}

// kubernetesCacheNames are the further tools/cache names k8s.io/kubernetes
// v1.36.3 uses outside client-go (issue 17): client-go's older stores and
// queues and the single-handler informer constructors, with the names
// their declarations need. Each must exist in runtime/cache with a
// compatible declaration.
var kubernetesCacheNames = []string{
	// Keyed and expiring stores.
	"ThreadSafeStore", "NewThreadSafeStore", "Indices", "KeyError", "ExpirationCache",
	"ExpirationPolicy", "TTLPolicy", "TimestampedEntry", "NewTTLStore", "NewExpirationStore",
	"FakeExpirationPolicy", "NewFakeExpirationStore", "UndeltaStore", "NewUndeltaStore",
	// The mutation cache.
	"MutationCache", "NewIntegerResourceVersionMutationCache",
	"NewIntegerResourceVersionMutationCacheWithOptions", "MutationCacheOptions",
	"ResourceVersionComparator",
	// Queues.
	"Queue", "FIFO", "NewFIFO", "ErrFIFOClosed", "PopProcessFunc", "QueueWithBatch",
	"ProcessBatchFunc", "RealFIFO", "RealFIFOOptions", "NewRealFIFO", "NewRealFIFOWithOptions",
	"ReplacedAll", "SyncAll", "Bookmark", "ReplacedAllInfo", "SyncAllInfo", "BookmarkInfo",
	// Single-handler informers.
	"NewInformer", "NewInformerWithOptions", "InformerOptions", "NewIndexerInformer",
	"NewTransformingInformer", "NewTransformingIndexerInformer",
}

// restClientCacheNames are the tools/cache names runtime/cache cannot
// declare: they take client-go's REST client (cache.Getter is satisfied by
// rest.Interface), and the runtime never imports client-go. The listwatch
// module (github.com/informer-gen/informer-gen/listwatch) declares them
// (TestListWatchModuleDeclaresTheRESTClientNamesCompatibly).
var restClientCacheNames = []string{"Getter", "NewListWatchFromClient", "NewFilteredListWatchFromClient"}

func compare(t *testing.T, upstream, ours string) *apicompat.Report {
	t.Helper()
	r, err := apicompat.Compare(".", upstream, ours, apicompat.ClientGoRuntime())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every exported name of client-go's tools/cache is declared, compatibly,
// in runtime/cache, or, for the names that need client-go's REST client,
// in the listwatch module. A name client-go adds fails the test, naming
// it, until it is declared.
func TestRuntimeCacheIsSourceCompatibleWithClientGo(t *testing.T) {
	r := compare(t, clientGoCache, ourCache)
	for _, f := range r.Incompatible {
		t.Errorf("incompatible %s", f)
	}
	for _, name := range r.Missing {
		if !slices.Contains(restClientCacheNames, name) {
			t.Errorf("tools/cache name %s is missing from %s", name, ourCache)
		}
	}
	for _, name := range slices.Concat(requiredCacheNames, kubernetesCacheNames) {
		if !slices.Contains(r.Shared, name) {
			t.Errorf("required name %s is missing from %s", name, ourCache)
		}
	}
	for _, name := range restClientCacheNames {
		if !slices.Contains(r.Missing, name) {
			t.Errorf("%s is declared in %s now: drop it from restClientCacheNames", name, ourCache)
		}
	}
	for _, f := range r.ExtraMethods {
		t.Logf("note: %s", f)
	}
	if !t.Failed() {
		t.Logf("every tools/cache name present and compatible: %d in %s, %d (%v) in %s",
			len(r.Shared), ourCache, len(restClientCacheNames), restClientCacheNames, ourListWatch)
	}
}

// The names runtime/cache cannot declare (restClientCacheNames) are
// declared compatibly in the listwatch module: listwatch.Getter has cache.Getter's methods, and code
// calling cache.NewListWatchFromClient compiles against
// listwatch.NewListWatchFromClient, which returns our cache.ListWatch. The
// functions are compared with tools/cache mapped to runtime/cache (for
// ListWatch), so their only difference must be the Getter parameter's
// package; Getter is compared with tools/cache mapped to listwatch.
func TestListWatchModuleDeclaresTheRESTClientNamesCompatibly(t *testing.T) {
	getter, err := apicompat.Compare(".", clientGoCache, ourListWatch, apicompat.Mapping{clientGoCache: ourListWatch})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(getter.Shared, "Getter") || slices.Contains(getter.IncompatibleNames(), "Getter") {
		t.Errorf("Getter is missing from %s or incompatible: %v", ourListWatch, getter.Incompatible)
	}
	funcs := compare(t, clientGoCache, ourListWatch)
	getterOnly := regexp.MustCompile(`^parameter 1: upstream cache\.Getter, ours listwatch\.Getter;`)
	for _, f := range funcs.Incompatible {
		if f.Name == "Getter" || getterOnly.MatchString(f.Reason) {
			continue
		}
		t.Errorf("incompatible %s", f)
	}
	for _, name := range restClientCacheNames {
		if name != "Getter" && !slices.Contains(funcs.Shared, name) {
			t.Errorf("%s is missing from %s", name, ourListWatch)
		}
	}
}

func TestRuntimeListerIsSourceCompatibleWithClientGoListers(t *testing.T) {
	m := apicompat.ClientGoRuntime()
	r, err := apicompat.Compare(".", clientGoListers, ourLister, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Incompatible {
		t.Errorf("incompatible %s", f)
	}
	for _, name := range []string{"ResourceIndexer", "New", "NewNamespaced"} {
		if !slices.Contains(r.Shared, name) {
			t.Errorf("required name %s is missing from %s", name, ourLister)
		}
	}
}
