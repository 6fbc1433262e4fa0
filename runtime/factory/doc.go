// Package factory is the shared informer factory that generated factory.go
// files delegate to.
//
// A Shared factory hands out one informer per Go object type, however many
// times and from however many places it is asked (InformerFor), so every
// controller in a process shares one cache and one watch per type. Data
// flows from the generated code's NewInformerFunc (which builds a
// ListWatch around a typed clientset) to the informer the factory keeps;
// Start runs the informers requested so far, WaitForCacheSync waits for
// their first list, Shutdown stops them all and waits for their goroutines.
//
// Options set the namespace or namespaces watched, a list-options tweak
// (label and field selectors), default and per-type resync periods and a
// transform. With several namespaces (WithNamespaces) the factory runs one
// informer per namespace per type and presents them as one informer whose
// cache is their union: listers and handlers see every listed namespace,
// and the server is asked only for those namespaces, which lets a
// controller run with RBAC limited to them. Cluster-scoped types use
// ClusterInformerFor and get one informer regardless.
//
// By default every informer drops metadata.managedFields (StripManagedFields)
// before its cache, its handlers and any user transform see an object:
// managedFields are often most of an object's size and few controllers read
// them. WithManagedFields keeps them, for every type or for some; the
// factory logs, at its first Start, that it strips them and how to keep
// them.
//
// By default every informer also streams its initial list over one watch
// (sendInitialEvents), as client-go v0.37's do; WithoutWatchList, or
// ByObject.DisableWatchList for one type, makes them list in pages. A
// client that cannot stream (client-go's fake clientsets of any version,
// hand-built ListWatches whose watch ignores sendInitialEvents) gets a LIST
// at once or after half a second, never the five-minute stream deadline.
//
// By default every informer compacts what it caches, after the transforms
// (cache.SharedIndexInformerOptions.Compact, package runtime/compact):
// strings are interned and the parts that repeat across objects shared,
// one canonical copy per distinct value, through the walks informer-gen
// generates per type. Cached objects stay equal to the decoded ones; code
// that mutates them (forbidden) would change other objects too, so in test
// binaries the cache mutation detector is on for compacting informers.
// WithoutCompaction, or ByObject.DisableCompaction for one type, turns it
// off. The choice is an argument of each informer's constructor: the
// factory hands it to its NewInformerFunc in InformerConfig.Compact, and
// the NewInformerFunc passes it on (generated informers into
// cache.SharedIndexInformerOptions.Compact); nothing changes it after.
//
// WaitForCacheSync reports, for each informer that did not sync, its last
// list or watch failure, naming the resource (SyncResult.Errors): a CRD
// not installed (404), a permission missing (403). WithFailFastSync makes
// it return at the first of those instead of waiting for its context.
// Nothing polls: it waits on each informer's HasSyncedChecker channel (as
// client-go's factory does, through cache.WaitFor, logging nothing) and on
// its context, which, failing fast, the informers' failures cancel as they
// are recorded (cache.SyncErrorNotifier; a failure recorded before the
// wait counts at once).
//
// A several-namespace informer's HasSyncedChecker channel is closed by the
// goroutine that runs it, once every namespace's informer synced
// (multi_namespace_synced.go); a handler's, once asked for and while the
// informer runs, has one goroutine that waits for the handler in every
// namespace and ends when they synced, the informer stops or the handler
// is removed.
//
// Besides typed informers, keyed by Go type, a factory shares metadata-only
// informers (MetadataInformerFor), keyed by resource, which cache
// PartialObjectMetadata through a metadata.Client, and informers keyed by
// Go type and resource (ResourceInformerFor), for informers that cache one
// Go type for any resource, such as the dynamic module's informers of
// unstructured.Unstructured; they start, sync and stop with the rest.
//
// Every method of Shared is safe for concurrent use.
package factory
