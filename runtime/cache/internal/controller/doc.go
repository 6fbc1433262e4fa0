// Package controller is the informer's processing pipeline: it pops the
// changes its queue holds, applies them to the cache and hands the
// notifications they cause to the handlers' listeners. It is what
// client-go calls an informer's controller (processLoop, and
// sharedIndexInformer.HandleDeltas); runtime/cache's sharedIndexInformer
// builds one per run and keeps only client-go's declarations and
// lifecycle.
//
// Its contract is its exported methods: Run (the processing loop), Join
// (a handler joining a running informer) and the relist predicate
// SameVersion. It is built with every part it uses (New, Config): the
// queue (*queue.FIFO), the cache (*store.Indexed), the delivery
// (*delivery.Processor), and, as interfaces it declares, the observer of
// stored objects (the mutation detector) and the metrics. It never asks
// a part what it is.
//
// # Data flow
//
//	Run (the informer's processing goroutine)
//	  queue.FIFO.PopBatch(MaxBatch) -> queue.Batch     FIFO.popMu, FIFO.mu (released while applied)
//	  apply(Batch)                                     Controller.applyMu
//	    delivery.Processor.Begin(ReplacedAll)          Processor.mu, briefly
//	    per delta: applyDelta
//	      Observer.Before                              (a deep copy, before readers see obj)
//	      store.Indexed.SwapKeyed / DeleteKeyed        store.Indexed.mu (write), one change
//	      Observer.Stored / Removed
//	      delivery.Batch.Distribute(Notification)      Listener.mu per listener (never blocks)
//	    delivery.Batch.End                             a relist's notifications go out whole
//	    store.Indexed.Bookmark(newest resourceVersion)
//	  Metrics.EventsProcessed(n)                       no lock
//	Join (a handler registering with a running informer)
//	  Controller.applyMu: Processor.Add, store.Indexed.ListKeyed, Listener.Push of initial adds
//
// # Goroutines and locks
//
// The package starts no goroutine: Run runs on the informer's processing
// goroutine and returns when the queue is closed; Join runs on the
// caller's. applyMu guards no field: it makes applying a batch to the
// cache and the listeners atomic with respect to a handler joining, so a
// joining handler sees each change either in its initial list or as a
// notification, never both and never neither. Lock order: applyMu is
// taken under runtime/cache's sharedIndexInformer.mu (Join) or alone
// (apply), then the processor's, the cache's and the listeners' locks in
// the order runtime/cache's doc.go gives; the queue's locks are never held
// while applyMu is taken (PopBatch releases FIFO.mu before apply).
package controller
