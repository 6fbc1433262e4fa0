// Package reflector is the reflector's engine: the I/O that keeps a
// queue.Sink in sync with an API server, behind one type, Engine, whose
// contract is its exported methods (New, Run, ListAndWatch, List,
// WatchList, LastSyncResourceVersion) and configuration (Config, Run).
// runtime/cache's Reflector is a client-go-shaped wrapper over it; the
// informer builds that Reflector with its queue's Sink.
//
// What the engine does, file by file:
//
//   - engine.go: Engine, its Config, the Run loop over
//     internal/protocol's State (step, then State.Next, then between:
//     report the error, wait the back-off), the resync goroutine, and the
//     position (LastSyncResourceVersion).
//   - list.go, pages.go: the list phase: LIST page by page (continue
//     tokens, the client-go page-size rule, restart on an expired token),
//     each page to the sink as it arrives (a first list streams through
//     Sink.OpenFirstList, any other is prepared with Sink.PrepareListed
//     and stored with Sink.ReplaceListed).
//   - watchlist.go: the watch-list phase: a watch with
//     sendInitialEvents, its initial events streamed (first list) or
//     buffered (relist) until the initial-events-end bookmark; stalls and
//     clients that cannot stream fall back to LIST.
//   - watch.go, burst.go: the watch phase: events in bursts to the sink,
//     the resourceVersion published once per burst, the idle timeout.
//   - ending.go: how a step's request ended, in internal/protocol's
//     vocabulary (protocol.Ending), from this package's errors
//     (errors.go).
//   - backoff.go: the delay between failed steps.
//   - shard.go, shard_contract.go: a shard of the collection
//     (Config.Shard): its selector on every request, objects outside it
//     dropped, a changed shard relisted or pruned, a back-off cut short.
//
// # Data flow, goroutines and locks
//
//	ListerWatcher --ListWithContext / WatchWithContext--> Engine (Run goroutine)
//	      --Add / Update / Delete / Bookmark, lists, AfterApplied, Prune--> queue.Sink
//	Engine (resync goroutine, every ResyncPeriod) --Resync--> queue.Sink
//
// Everything but the resync loop runs on the goroutine that calls Run or
// ListAndWatch and owns the engine's state without a lock; the only field
// another goroutine reads is the position (an atomic pointer, read by
// LastSyncResourceVersion). The sink takes its own locks. The engine
// never asks the sink what it is: Sink is the one contract, for both list
// kinds.
package reflector
