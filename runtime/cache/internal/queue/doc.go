// Package queue is the delta queue between an informer's reflector and
// its cache, and the contract the reflector writes to:
//
//   - FIFO (fifo*.go): per object key, the changes not yet applied
//     (Deltas), handed out in the order keys were first queued. Its delta
//     semantics: consecutive deletes merged, a tombstone
//     (DeletedFinalStateUnknown) for every key a relist lacks, a relist
//     popped as one Batch flagged ReplacedAll, the initial population
//     HasSynced waits for, and the compaction hint (FIFO.Hint). It is
//     built with what it needs, as constructor arguments (New): the
//     cache reader (CacheReader), the Compactor and a Config.
//   - Keys (keys.go): the key-queue container under the FIFO, a FIFO of
//     distinct keys each holding a value (the pending deltas of the key),
//     whose popped batch stays known until it is released.
//   - Sink and FirstList (sink.go): what a reflector writes what it lists
//     and watches to. A FIFO is a Sink (fifo_sink.go); runtime/cache
//     adapts any other client-go store to it for a reflector built over
//     one.
//
// runtime/cache's DeltaFIFO is a client-go-shaped wrapper of a FIFO, and
// its Delta, Deltas, DeltaType and DeletedFinalStateUnknown are aliases of
// this package's.
//
// # Data flow
//
//	reflector Run goroutine --Add/Update/Delete--> FIFO.queueEvent: Hint (FIFO.mu, then CacheReader.PeekByKey
//	                                                with no queue lock), transform + Compactor, then FIFO.mu: Keys.Push
//	                        --OpenFirstList/QueueListed/Close--> Replaced deltas as the first list arrives
//	                        --PrepareListed (per page) / ReplaceListed--> a relist: Replaced + tombstones, one unit
//	                        --AfterApplied / Prune--> a shard's barrier, tombstones of keys it left
//	resync goroutine        --Resync--> Sync deltas of cached keys not queued
//	informer goroutine      --PopBatch(max, process)--> Keys.Pop (FIFO.popMu, FIFO.mu), process(Batch)
//	                          with FIFO.mu released, then Keys.Release, barriers, HasSynced's channel
//
// # Goroutines and locks
//
// The package starts no goroutine. A FIFO's producers are the reflector's
// Run and resync goroutines; its one consumer is the informer's
// processing goroutine (PopBatch). Lock order: FIFO.popMu, then FIFO.mu,
// then the cache's lock (the CacheReader is read under FIFO.mu for
// relists, resyncs and deletes; the hint's PeekByKey is read with no
// queue lock held). No queue lock is held while process runs. Keys has no
// lock: its owner (the FIFO, under FIFO.mu) guards it.
package queue
