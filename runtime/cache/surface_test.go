package cache

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// clientGoNames are the exported names runtime/cache shares with client-go
// v0.37.2's tools/cache, so that controllers move over by rewriting their
// imports; apicompat's tests check that each keeps client-go's
// declaration.
var clientGoNames = []string{
	// Keys and names.
	"DeletedFinalStateUnknown", "DeletionHandlingMetaNamespaceKeyFunc", "DeletionHandlingObjectToName",
	"ExplicitKey", "KeyFunc", "MetaNamespaceKeyFunc", "MetaObjectToName", "NamespacedNameAsObjectName",
	"NewObjectName", "ObjectName", "ObjectToName", "ParseObjectName", "SplitMetaNamespaceKey",
	// Handlers.
	"FilteringResourceEventHandler", "HandlerOptions", "ResourceEventHandler",
	"ResourceEventHandlerDetailedFuncs", "ResourceEventHandlerFuncs", "ResourceEventHandlerRegistration",
	// Typed API.
	"DeletedObject", "NewTypedSharedIndexInformer", "Object", "TypedFilteringResourceEventHandler",
	"TypedIndexFunc", "TypedIndexer", "TypedIndexerFuncToIndexerFunc", "TypedIndexers",
	"TypedIndexersToIndexers", "TypedResourceEventHandler", "TypedResourceEventHandlerDetailedFuncs",
	"TypedResourceEventHandlerFuncs", "TypedSharedIndexInformer",
	// Informers, their names and metrics.
	"Controller", "CounterMetric", "DefaultWatchErrorHandler", "GaugeMetric", "HistogramMetric",
	"InformerMetricsProvider", "InformerName", "InformerNameAndResource", "NewInformerName",
	"NewSharedIndexInformer", "NewSharedIndexInformerWithOptions", "NewSharedInformer",
	"ResetInformerNamesForTesting", "SetInformerMetricsProvider", "SharedIndexInformer",
	"SharedIndexInformerOptions", "SharedInformer", "SummaryMetric", "TransformFunc",
	"WatchErrorHandler", "WatchErrorHandlerWithContext",
	// Waiting for sync.
	"DoneChecker", "InformerSynced", "IsDone", "SyncResult", "WaitFor", "WaitForCacheSync",
	"WaitForNamedCacheSync", "WaitForNamedCacheSyncWithContext",
	// Stores, indexes and listers.
	"AppendFunc", "GenericLister", "GenericNamespaceLister", "IndexFunc", "Indexer", "Indexers",
	"ListAll", "ListAllByNamespace", "MetaNamespaceIndexFunc", "NamespaceIndex", "NewGenericLister",
	"NewIndexer", "NewStore", "Store", "StoreOption", "WithStoreMetrics", "WithTransformer",
	// Listing and watching.
	"ListFunc", "ListWatch", "ListWithContextFunc", "Lister", "ListerWatcher", "ListerWatcherWithContext",
	"ListerWithContext", "ToListWatcherWithWatchListSemantics", "ToListerWatcherWithContext",
	"ToListerWithContext", "ToWatcherWithContext", "WatchFunc", "WatchFuncWithContext", "Watcher",
	"WatcherWithContext",
	// The machinery under an informer, public in client-go.
	"Added", "Deleted", "Delta", "DeltaFIFO", "DeltaFIFOOptions", "DeltaType", "Deltas",
	"ErrFIFOClosed", "KeyListerGetter", "NewDeltaFIFO", "NewDeltaFIFOWithOptions", "NewNamedReflector",
	"NewReflector", "NewReflectorWithOptions", "PopProcessFunc", "Reflector", "ReflectorOptions",
	"ReflectorStore", "Replaced", "ResourceVersionUpdater", "Sync", "Updated",
	// client-go's older stores and queues, kept for the code that still
	// uses them (issue 17): keyed and expiring stores, the mutation cache,
	// FIFO and RealFIFO, the single-handler informer constructors.
	"KeyError", "ThreadSafeStore", "Indices", "ThreadSafeStoreOption", "NewThreadSafeStore",
	"ExpirationCache", "ExpirationPolicy", "TTLPolicy", "TimestampedEntry", "NewTTLStore",
	"NewExpirationStore", "FakeExpirationPolicy", "NewFakeExpirationStore", "UndeltaStore",
	"NewUndeltaStore", "MutationCache", "ResourceVersionComparator", "MutationCacheOptions",
	"NewIntegerResourceVersionMutationCache", "NewIntegerResourceVersionMutationCacheWithOptions",
	"Queue", "FIFO", "NewFIFO", "QueueWithBatch", "ProcessBatchFunc", "RealFIFO", "RealFIFOOptions",
	"NewRealFIFO", "NewRealFIFOWithOptions", "ReplacedAll", "SyncAll", "Bookmark", "ReplacedAllInfo",
	"SyncAllInfo", "BookmarkInfo", "InformerOptions", "NewInformer", "NewInformerWithOptions",
	"NewIndexerInformer", "NewTransformingInformer", "NewTransformingIndexerInformer",
	// The rest of client-go's tools/cache (issue 33), each in a file
	// named for it: the low-level controller, the heap, key listing,
	// transactions, the fake store, retries, the mutation detector,
	// reflector metrics and store hooks, handler shutdown.
	"Config", "New", "ProcessFunc", "ShouldResyncFunc", "Heap", "NewHeap", "LessFunc", "KeyLister",
	"KeyGetter", "FakeCustomStore", "MutationDetector", "NewCacheMutationDetector", "RetryWithDeadline",
	"NewRetryWithDeadline", "ReflectorBookmarkStore", "Transaction", "TransactionType",
	"TransactionTypeAdd", "TransactionTypeUpdate", "TransactionTypeDelete", "TransactionError",
	"TransactionStore", "ThreadSafeStoreWithTransaction", "ThreadSafeStoreTransaction",
	"TransformingStore", "VeryShortWatchError", "MetricsProvider", "SetReflectorMetricsProvider",
	"NewNamespaceKeyedIndexerAndReflector", "ErrZeroLengthDeltasObject", "IndexFuncToKeyFuncAdapter",
	"ShutDownEventHandler", "WithThreadSafeStoreMetrics",
}

// ownNames are this runtime's additions, each used by users or generated
// code: per-informer metrics, the resync handler, the context form of
// WaitForCacheSync, why an informer has not synced (SyncResult's reasons,
// for errors.As and for informers that wrap ours), when an informer
// records such a failure (the factory's fail-fast wait), whether a client
// can stream lists (generated client adapters), the seam of sharded
// informers (implemented by the shard module and by coordinators, set by
// factories), the managedFields-stripping transform the informer
// recognizes (factories set it; its decoders still hand objects over
// compact under it). The watch that decodes protobuf streams itself is
// package runtime/protowatch's.
var ownNames = []string{"ClientCannotStreamLists", "InformerSyncError", "Metrics", "ResyncHandler", "StopHandler", "SyncErrorNotifier", "SyncErrorReporter", "TypedResyncHandler", "WaitForCacheSyncWithContext",
	"ServerStream", "Shard", "ShardNarrowing", "ShardServerApplied", "ShardSetter", "ShardSource", "ShardSubscription", "StripManagedFields"}

// The public surface of runtime/cache is what users and generated code use:
// client-go's drop-in names and a few of our own. A new exported name must
// be added to one of the lists above on purpose; machinery stays
// unexported.
func TestPublicSurfaceIsTheDropInNamesAndOurOwn(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var exported []string
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					exported = append(exported, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							exported = append(exported, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								exported = append(exported, n.Name)
							}
						}
					}
				}
			}
		}
	}
	allowed := slices.Concat(clientGoNames, ownNames)
	for _, name := range exported {
		if !slices.Contains(allowed, name) {
			t.Errorf("%s is exported but is neither a client-go drop-in name nor one of ours users need: unexport it, or list it on purpose", name)
		}
	}
	for _, name := range allowed {
		if !slices.Contains(exported, name) {
			t.Errorf("%s is listed but no longer exported: update the lists", name)
		}
	}
}
