// Package queue is the key-queue container under runtime/cache's
// DeltaFIFO: Keys, a FIFO of distinct keys each holding a value (the
// DeltaFIFO's pending deltas of the key), whose popped batch stays known
// until it is released; and Sink, the contract a reflector writes what it
// lists and watches to (sink.go), which runtime/cache's DeltaFIFO
// implements and an adapter of any other client-go store implements for
// a reflector built over one.
//
// # Data flow
//
//	producer (reflector, DeltaFIFO.mu held) --Queued/Push--> Keys (queue[head:], items)
//	consumer (popBatch, DeltaFIFO.mu held)   --Pop--> batch  (entries marked popped, still in items)
//	compaction hint (DeltaFIFO.mu held)      --Known--> queued or popped entry
//	consumer, batch processed                --Release--> entries reset and recycled, map shrunk
//
// The delta semantics (which deltas a key gets, deduplication of deletes,
// relist units, the initial population) stay with the DeltaFIFO, which
// gives Keys its value type and how to ready and reset a value.
//
// The reflector's Run goroutine calls a Sink (and the FirstList it
// opens); its resync goroutine calls Sink.Resync. A Sink takes its own
// locks (the DeltaFIFO's mu).
//
// # Locks
//
// Keys has no lock and starts no goroutine: it is not safe for concurrent
// use, and its owner guards it (DeltaFIFO.mu).
package queue
