// Package queue is the key-queue container under runtime/cache's
// DeltaFIFO: Keys, a FIFO of distinct keys each holding a value (the
// DeltaFIFO's pending deltas of the key), whose popped batch stays known
// until it is released.
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
// # Locks
//
// Keys has no lock and starts no goroutine: it is not safe for concurrent
// use, and its owner guards it (DeltaFIFO.mu).
package queue
