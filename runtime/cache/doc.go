// Package cache is the runtime that generated informers and listers run
// on: a Reflector lists and watches one kind of object, a DeltaFIFO queues
// the changes, and a SharedIndexInformer applies them to an Indexer (the
// cache listers read) and fans them out to any number of event handlers.
// It depends on k8s.io/apimachinery, k8s.io/klog and k8s.io/utils (for its
// injectable clock) only, never on k8s.io/client-go.
//
// # Layout: a front over an internal engine
//
// This package is the front: every name client-go's tools/cache exports,
// the typed and handler API, and the compatibility code (compat_*.go).
// The engine lives in internal packages whose contracts are exported,
// documented methods; the front adapts them, and no engine component
// type-asserts another:
//
//   - internal/store: the thread-safe indexed store (store.Indexed), the
//     informer's cache and the content of NewIndexer/NewStore; its keyed
//     methods (SwapKeyed, DeleteKeyed, ListKeyed, PeekByKey, ...) are the
//     informer's and the queue's contract with it. KeyFunc, IndexFunc and
//     Indexers are its types, aliased here.
//   - internal/probe: the open-addressing table the store and the
//     delivery backlog share.
//   - internal/queue: the delta queue (queue.FIFO: deltas per key,
//     deduplicated deletes, tombstones, relist units, the initial
//     population, the compaction hint), built with its cache reader and
//     compactor (queue.New); its pop hands a queue.Batch whose
//     ReplacedAll says it is a relist; over its key-queue container
//     (queue.Keys). It also holds the reflector's sink contract
//     (queue.Sink, queue.FirstList), which the FIFO implements. Delta,
//     Deltas, DeltaType and DeletedFinalStateUnknown are its types,
//     aliased here; DeltaFIFO wraps a FIFO.
//   - internal/delivery: listeners, their backlog, the processor and
//     resync.
//   - internal/controller: the informer's processing pipeline
//     (controller.Controller, client-go's controller and HandleDeltas):
//     Run pops the queue's batches and applies each to the cache and the
//     delivery (the relist predicate, UID-aware delete and add, a relist
//     unit held until stored whole); Join adds a handler to a running
//     informer. It is built per run with the queue, the cache, the
//     processor and, as its own interfaces, the mutation detector
//     (controller.Observer) and the metrics. sharedIndexInformer keeps
//     client-go's declarations, the configuration and the lifecycle.
//   - internal/taint: the informer's side of its compaction guard
//     (taint.Holder finds and marks the cached objects holding a mutated
//     shared copy and asks for a relist; taint.Set, the marks the relist
//     predicate reads); compaction_guard.go decides when it runs.
//   - internal/mutation: the cache mutation detector (mutation.Detector),
//     the controller's Observer when an informer runs one; this package
//     decides when (mutation_detector.go, test_checks.go) and builds
//     client-go's MutationDetector over it (compat_mutation_detector.go).
//   - internal/reflector: the reflector's engine (reflector.Engine): list,
//     watch and watch-list I/O, paging, back-off, resync, the position
//     (resourceVersion) and a shard's selector, writing to one queue.Sink
//     and driving internal/protocol's state one step at a time; its
//     ListerWatcher, Metrics and shard contracts are its own interfaces
//     (Shard, ShardSubscription, ShardNarrowing, ShardServerApplied,
//     ServerStream and VeryShortWatchError are its types, aliased here).
//     The Reflector here is a client-go-shaped wrapper: its options,
//     store interfaces and exported fields, turned into the engine's
//     Config and per-run settings (reflector.go, reflector_compat.go).
//   - internal/protocol: the reflector's protocol as a value (State) and
//     its transition function (State.Next); internal/reflector does the
//     I/O of each step.
//
// The DeltaFIFO gets what the informer wires into it at construction
// (queueWiring: the cache reader, the compaction, the synced channel,
// passed on to queue.New), and the Reflector writes to one sink, the
// exported contract queue.Sink (internal/queue/sink.go), given at
// construction: the informer hands it its queue (first lists stream,
// other lists are prepared page by page); NewReflectorWithOptions, the client-go-shaped constructor, picks
// once from its store the DeltaFIFO's or an adapter of any other
// client-go store (Replace, Bookmark, UpdateResourceVersion;
// reflector_sink.go), and hands it to the engine (internal/reflector). Both list kinds (paged and watch list) ask that
// sink where listed objects go.
// The compaction is a constructor argument too: generated informers name
// their kind's walks (SharedIndexInformerOptions.Compactor); the registry
// of package compact is the fallback of hand-built informers.
//
// # Pipeline
//
//	ListerWatcher --list/watch--> Reflector --Add/Update/Delete/Replace--> DeltaFIFO
//	                                                                          |
//	                                        (queue.FIFO)      PopBatch (informer goroutine)
//	                                                                          v
//	                                     Indexer (cache) <--apply-- controller.Controller
//	                                          ^                               |
//	                          listers read ---+                     notifications
//	                                                                          v
//	                             delivery.Processor --Push--> Listener (one per handler,
//	                                                            own goroutine, bounded backlog)
//	                                                                          |
//	                                                       OnAdd / OnUpdate / OnDelete / OnResync
//
// The Reflector lists, then watches from the list's resourceVersion,
// resuming a dropped watch from the last resourceVersion it saw and
// relisting when that version expired (410 Gone). It writes into a
// DeltaFIFO, which records per object key the changes not yet applied
// (Added, Updated, Deleted, Replaced, Sync), merges consecutive deletes and
// hands keys out in the order they were first queued. The informer's
// processing goroutine pops keys in batches, applies them to the Indexer
// and appends notifications to each handler's buffer, while the reflector
// keeps queueing; nobody sleeps or wakes per change while changes flow.
// Each handler runs on its own goroutine, so a slow handler never slows
// the cache or the other handlers.
//
// Generated informers of types that decode themselves from protobuf (the
// types of k8s.io/api) watch through package runtime/protowatch: it opens
// the watch with the clientset's REST client, reads the stream's frames
// itself and decodes each event's object once, from the frame (client-go
// copies it twice before); the events and errors are client-go's.
//
// An optional TransformFunc (SharedInformer.SetTransform, before Run)
// rewrites each object version once, before it enters the queue, so the
// cache and the handlers only ever see transformed objects. After it,
// when SharedIndexInformerOptions.Compact is set (generated factories set
// it), package runtime/compact interns the object's strings and shares
// its parts that repeat across cached objects. An object that replaces
// one the cache or the queue holds for its key (a watch event, a changed
// object of a relist) is compacted against that version: the parts equal
// to it are taken from it as they are, and only the parts that changed
// are walked (internal/queue/fifo_prepare.go).
//
// # Relists without noise
//
// A relist (the first list, or one after the watch could not resume)
// is compared with the cache key by key:
//
//   - an object whose resourceVersion equals the cached one produces no
//     notification at all (the cached object is kept); handlers that asked
//     for resyncs do not get one either: resyncs come only from their own
//     timer;
//   - an object whose resourceVersion changed produces one OnUpdate;
//   - a cached object missing from the list produces one OnDelete carrying
//     a DeletedFinalStateUnknown tombstone whose Obj is the last state this
//     client knew;
//   - an object not cached produces one OnAdd.
//
// A relist after the first list is atomic, as client-go's AtomicFIFO
// (default since 1.36) makes it: the cache holds the whole new list, its
// deletions applied, before any handler is notified of any change of it,
// so a handler reading the cache during a relist never sees half of it.
// It travels as one unit: the Reflector stores the list with one Replace;
// the queue marks the entry that closes it (relistLast) and hands the
// unit to the informer as one batch flagged ReplacedAll (queue.Batch),
// however large, and
// nothing after it; the informer stores it whole, its notifications held
// in the apply call's delivery.Batch, then delivers them (Batch.End). The first list
// still streams: handlers hear of its first objects while later ones are
// being listed, and a first watch list goes into the DeltaFIFO as its
// events arrive (sink.OpenFirstList), not at its initial-events-end
// bookmark.
//
// What a relist holds in memory is bounded by how each page is prepared as
// it arrives, before the next page is requested: an object the cache holds
// at the same resourceVersion is replaced by the cached object at once
// (the listed copy becomes garbage), and every other object goes through
// the informer's transform at once (so managedFields, stripped by default
// in generated factories, never pile up for a whole list). A relist after
// a compaction, where few objects changed, then costs little more than
// the objects that changed on top of the cache. BenchmarkRelistPeakHeap
// measures it.
//
// # Re-created objects (UID awareness)
//
// When an object arrives whose UID differs from the cached object's under
// the same key (it was deleted and re-created and the deletion was not
// observed), handlers get OnDelete of the cached object followed by OnAdd
// of the new one, never an OnUpdate across two different objects. On a
// relist the delete carries a DeletedFinalStateUnknown tombstone; on a
// watch ADDED or MODIFIED event it carries the cached object itself.
//
// # Delivery guarantee
//
// Each handler has its own goroutine and its own buffer. Its methods are
// called one at a time, never concurrently, and the notifications of one
// object key are never reordered. While the handler keeps up, it receives
// every notification in the order the cache changed, across keys too.
// isInInitialList is true exactly for the adds of the first list's objects
// (and, for a handler added to a running informer, of the cache's content
// at that time); an object the watch re-creates before the informer
// applied the list is added again with false.
//
// A panic in a handler is recovered per notification: it is logged with
// the handler's name (HandlerOptions.Name) and counted
// (Metrics.HandlerPanicked). With utilruntime.ReallyCrash set, the default,
// it then goes on and crashes the process, as in client-go; otherwise that
// one notification is dropped and delivery continues.
//
// A handler that falls behind does not make the informer hold an unbounded
// backlog: beyond an in-order buffer of at most 1024 notifications (grown
// on demand, released when the handler idles), the pending notifications are coalesced per key, so the memory a lagging
// handler holds is bounded by the number of distinct object keys, not by
// the number of events. When it catches up the handler has been told, for
// every key:
//
//   - the final state: its view built from OnAdd/OnUpdate/OnDelete equals
//     the cache (an object it never saw and that is gone again is not
//     mentioned at all);
//   - every delete of an object it had been told about, before any add of
//     a re-created object under that key;
//   - an OnAdd before any OnUpdate of an object, and OnUpdate(old, new)
//     with old the state it was last given.
//
// What a lagging handler may miss is intermediate states: successive
// updates of one key merge into one OnUpdate from the oldest to the newest
// state; a pending resync merges into any other pending notification of
// its key; and while it lags, notifications of different keys may be
// delivered in a different order than the changes happened.
//
// The cost of a lagging handler is about 50 bytes per object key with a
// pending notification (no key is copied), plus the objects that only it
// still needs: for a pending update, the state the handler was last given,
// which the cache has usually dropped; for a pending delete, the deleted
// object. For a handler stalled while every object changes, the retained
// old states dominate (they are as large as the objects).
//
// A handler that only acts on the latest state of each object can give up
// the retained old states: in latest-only mode (HandlerOptions.LatestOnly),
// an update that
// reaches the handler through the per-key coalescing, that is beyond the
// in-order buffer, arrives as OnUpdate(nil, new). Everything
// else above holds unchanged: while the handler keeps up it receives the
// exact old state; it still gets the final state of every key, every
// delete with the last state (or a tombstone), and an update only for an
// object it was told about.
//
// # Handlers and resync
//
// A handler added after the informer started first receives the cache
// content as OnAdd with isInInitialList true; its registration's HasSynced
// becomes true once it has been handed all of it (for handlers added before
// Run: once it has been handed the whole first list). RemoveEventHandler
// stops deliveries at once; pending notifications are dropped.
//
// A handler asks for periodic resyncs with a resync period (at least one
// second). The informer checks for due resyncs at the shortest period
// requested before Run (a period requested after Run that is shorter than
// the check period is raised to it). A resync calls ResyncHandler.OnResync
// when the handler implements it (ResourceEventHandlerFuncs and typed
// handlers do), and OnUpdate(obj, obj) otherwise.
//
// # Goroutines and locks
//
// A running SharedIndexInformer has these goroutines: the Reflector's Run
// goroutine (internal/reflector's Engine.Run; its protocol:
// internal/protocol/state.go) and, with a resync period,
// its resync goroutine, both writing into the DeltaFIFO; the informer's
// processing goroutine (internal/controller's Controller.Run), the only
// caller of PopBatch, which applies batches to the Indexer and pushes
// notifications; one goroutine per handler
// (delivery's Listener.run), the only caller of that handler; and the
// goroutine of the informer's delivery.Processor, which starts and stops
// the listeners (package internal/delivery documents both). Waiting for a sync
// takes no goroutine of its own: the informer's HasSyncedChecker channel
// is its DeltaFIFO's, closed by the processing goroutine when the initial
// population is applied, and its failures reach AfterSyncError's
// functions (SyncErrorNotifier) on the Reflector's goroutine. A handler's
// HasSyncedChecker, once asked for and while the informer runs, has one
// goroutine that waits for the handler's initial list and closes its
// channel; it ends then or when the informer stops. Only
// WaitForCacheSync(WithContext), given bare InformerSynced functions,
// polls (every 10 ms; WaitFor waits on channels).
//
// Locks are taken in this order, never the reverse:
//
//	sharedIndexInformer.mu        configuration and lifecycle (AddEventHandler)
//	  controller.Controller.applyMu a batch applied to the Indexer and listeners
//	    delivery.Processor.mu     the listener lists and resync schedules
//	      delivery.Listener.mu    one handler's buffers
//	queue.FIFO.popMu              the consumer's batch (DeltaFIFO's queue)
//	  queue.FIFO.mu               the queue
//	store.Indexed.mu              the Indexer (internal/store): innermost,
//	                              taken under applyMu (applying) and under
//	                              FIFO.mu (Replace, Resync, Delete's
//	                              check and list preparation read the
//	                              cache); it waits for a writer, never
//	                              skips. The compaction hint of a watch
//	                              event reads it (PeekByKey) with no
//	                              queue lock held, on the reflector's
//	                              goroutine or, for objects a watch's
//	                              decoder compacts, on the stream's
//	                              (decoded_compaction.go)
//	compact.Decoded.mu            a leaf: objects the decoder compacted,
//	                              never held while another lock is taken
//
// No queue lock is held while an informer lock is taken: PopBatch
// releases FIFO.mu before the batch is applied under applyMu. Each
// type's fields say which of these guards them.
//
// # Compatibility with client-go
//
// Every name this package shares with k8s.io/client-go/tools/cache v0.37
// has client-go's declaration (same parameters, results, fields and
// methods; some types have more), so code written against client-go
// compiles after rewriting the import path; the apicompat module checks it.
// Both lifecycle forms exist: Run(stopCh) and RunWithContext(ctx),
// WaitForCacheSync(stopCh, ...) and WaitForCacheSyncWithContext(ctx, ...).
// What this package does differently on purpose is what the sections
// above describe: relists without noise, UID-aware delete and add, bounded
// lagging handlers, OnResync for handlers that implement ResyncHandler;
// and typed adapters report objects of another type instead of panicking.
//
// # Compatibility code: compat_*.go
//
// For code written against client-go, the package also has client-go's
// older stores and queues and the rest of its tools/cache, which the
// informer never uses. They live in files named compat_<concept>.go (and
// their tests in compat_<concept>_test.go), each exported type's doc says
// "the informer does not use it", and no other file of the package uses
// what they declare (TestCompatibilityCodeIsFencedInCompatFiles):
// ThreadSafeStore (compat_thread_safe_store.go, a store keyed by its
// callers, over this package's indexed store), the expiring stores
// (compat_expiration_store.go: ExpirationCache, NewTTLStore,
// NewExpirationStore; NewFakeExpirationStore), UndeltaStore, MutationCache,
// FIFO and the Queue interface (compat_fifo.go), RealFIFO
// (compat_real_fifo*.go), the single-handler informer constructors
// (compat_informer_constructors.go: NewInformer, NewIndexerInformer,
// NewInformerWithOptions, which run a shared informer with one handler),
// the low-level controller (compat_controller_config.go: Config and New,
// a Reflector filling a Queue popped into Process), Heap, transactions on
// stores (compat_transaction.go), FakeCustomStore, RetryWithDeadline, the
// standalone MutationDetector (compat_mutation_detector.go) and the
// reflector's MetricsProvider (kept, not used, as in client-go).
//
// Options this package accepts for client-go's sake but does not use
// (InformerOptions.MinWatchTimeout, Reflector.MaxInternalErrorRetryDuration,
// the Steps of ReflectorOptions.Backoff, DeltaFIFOOptions.Logger,
// NewThreadSafeStore's indices, SetReflectorMetricsProvider's provider)
// are logged once per process, at V(2), when set
// (ignored_option.go).
//
// Also kept for client-go, but part of the informer's API:
// ShutDownEventHandler, and the optional interfaces a custom store under
// a Reflector may implement: ReflectorBookmarkStore (told of each
// bookmark), ResourceVersionUpdater (told of each resourceVersion) and
// TransformingStore (its transform applies to a watch list's objects).
// Getter, NewListWatchFromClient and NewFilteredListWatchFromClient need
// client-go's REST client: the listwatch module provides them.
//
// # Test checks
//
// In a test binary, informers run two checks by default: the mutation
// detector (below) of every informer that compacts its objects, and a
// check after each handler call that the handler did not mutate what it
// was given. INFORMER_GEN_TEST_CHECKS=true or =false in the environment
// turns them on or off in any binary (test_checks.go); an informer reads
// the switch once, when it is made, and it is the only place the package
// asks whether it runs in a test binary. KUBE_CACHE_MUTATION_DETECTOR,
// when set, still decides the detector.
//
// # Compaction guard
//
// Outside test binaries a compacting informer holds its compaction guard
// (compaction_guard.go; compact.Guard, by default compact.DefaultGuard())
// while it runs: the guard samples the canonical copies the cached
// objects share, and when one was mutated it calls the informer's
// taint.Holder.Corrupted (internal/taint), which finds the cached objects holding it,
// marks them (tainted: the next relist replaces them though their
// resourceVersion did not change, see unchangedRelist) and asks the
// reflector for a relist through the channel the informer gave it
// (Reflector.relist, the engine's Run.Relist: the watch ends, the
// reflector lists again).
// SharedIndexInformerOptions.DisableCompactionGuard and
// INFORMER_GEN_COMPACTION_GUARD turn it off.
//
// # Debugging
//
// With KUBE_CACHE_MUTATION_DETECTOR=true in the environment, or
// SharedIndexInformerOptions.DetectCacheMutations, the informer keeps a
// deep copy of every cached object and panics, every second and when Run
// ends, if a cached object was mutated (handlers and lister readers must
// deep-copy before changing objects). It doubles memory and costs a deep
// copy per change: do not use it in production.
package cache
