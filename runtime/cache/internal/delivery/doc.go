// Package delivery hands an informer's notifications to its event
// handlers: one Listener per handler, each with its own goroutine and a
// bounded backlog, and one Processor per informer that registers the
// listeners, runs their goroutines, schedules their resyncs and
// distributes each applied batch to them.
//
// It knows nothing of stores, queues or client-go names: a handler is
// anything with OnAdd/OnUpdate/OnDelete (runtime/cache's
// ResourceEventHandler has that method set, so it is a Handler as it is),
// optionally OnResync and OnStop; an object's key is confirmed through
// ListenerConfig.HasKey, which the informer supplies.
//
// # Data flow
//
//	controller.Controller.apply (internal/controller, under its applyMu)
//	  Processor.Begin(relist) -> Batch        the listeners registered now
//	  Batch.Distribute(Notification)          per stored change, in order
//	    relist: held in the Batch             until the cache holds it all
//	    else:   Listener.Push                 Resync: due listeners only
//	  Batch.End                               a relist's notifications go out
//	Listener.Push
//	  in-order buffer (up to FastCapacity)    while nothing is coalesced
//	  backlog (backlog.go)                    once it is full: one pending
//	                                          change per key, coalesced
//	Listener.run (its goroutine)
//	  in-order buffer first, then the backlog's oldest keys, 256 at a time
//	  -> OnAdd / OnUpdate / OnDelete / OnResync (or OnUpdate(obj, obj))
//	  -> ListenerConfig.AfterCall
//
// A Batch is a value of one apply call: it lives on the informer's
// processing goroutine and is never shared, so a relist's held
// notifications need no lock of their own.
//
// A listener that keeps up delivers every notification in order. One
// that lags holds at most FastCapacity notifications in order plus one
// coalesced change per distinct key, and delivers notifications of one
// key in order; runtime/cache's package documentation states the
// guarantee a lagging handler gets. A handler panic is recovered, logged
// with the handler's name, counted (Metrics.HandlerPanicked) and the
// notification dropped, unless utilruntime.ReallyCrash is set, in which
// case the panic goes on after it was logged and counted. An initial add
// counts as delivered either way (Listener.InitialPending).
//
// # Resync
//
// A listener asks for a resync period (ListenerConfig.Resync); the
// Processor raises it to the informer's check period when it is added
// (never, when either is 0). The Reflector calls Processor.ShouldResync at
// every check: it marks the listeners whose period elapsed, and the
// resulting Resync notifications go to those only.
//
// # Goroutines
//
// Processor.Run runs on a goroutine of the informer's: it starts one
// goroutine per listener (Listener.run, the only caller of that handler),
// including listeners added while it runs, waits for its context, stops
// every listener and returns once their goroutines ended. A listener
// stops after the handler call in progress, drops what is pending and
// calls OnStop; Processor.Remove stops one listener the same way.
//
// # Locks
//
// Taken in this order, never the reverse:
//
//	the informer's apply lock   Batch and Listener.Push run under it
//	  Processor.mu              the listener lists and resync schedules
//	    Listener.mu             one handler's buffers and backlog
//
// No lock is held while a handler runs.
package delivery
