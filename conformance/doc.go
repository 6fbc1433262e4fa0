// Package conformance drives client-go's SharedIndexInformer and the
// informer of runtime/cache side by side against one scripted, in-memory
// API server model, and checks that the two agree everywhere except where
// runtime/cache deliberately differs.
//
// The server model (Server) is runtime/cache/cachetest's Server, the fake
// API server users test their controllers against, serving ConfigMaps: one
// state (key to object, each with a UID and a resourceVersion), one global
// resourceVersion counter, a log of every change and a compaction horizon.
// List returns the state at the current resourceVersion; a watch replays
// the log after its resourceVersion (or fails with 410 Gone when that is
// older than the horizon) and then follows live changes. This package adds
// changes named by key, per-client failures and traces on top. Scripted operations add, update,
// delete and re-create objects, send bookmarks, close watches cleanly,
// compact the log while force-expiring the open watches (so changes made
// in that gap reach clients only through their relist) and make the next
// Watch calls of every client fail.
//
// Each informer talks to the server through its own Client, which records
// the exact sequence of lists and watch events the informer's reflector
// received (its Trace). Generate builds a seeded, random Scenario of
// operations; Run plays it against both informers, pausing after every
// operation that disrupts watches until both informers are watching again,
// so both observe the same sequence of server states; Check compares what
// their handlers saw:
//
//   - both final caches and both handlers' final views equal the server's
//     final state;
//   - for every key, the states runtime/cache's handler observed are a
//     subsequence of those client-go's handler observed (a change of UID
//     counting, for client-go, as a delete followed by an add) and end in
//     the same state;
//   - the deliberate differences: after a relist, runtime/cache sends no
//     update for an object whose resourceVersion is unchanged (client-go
//     sends one for each); an object whose UID changed across a relist
//     reaches runtime/cache's handler as a DeletedFinalStateUnknown delete
//     of the old object followed by an add of the new one (client-go: an
//     update from one to the other); every object that vanished across a
//     relist is delivered as a DeletedFinalStateUnknown delete carrying the
//     last state the informer received;
//   - every add of an object both handlers got carries the same
//     isInInitialList.
//
// About a third of the seeds also have an early phase: a backlog of more
// objects than runtime/cache's informer applies in one batch, and changes
// (starting with the re-creation of a listed object) made while that
// informer is held in its first batch, so they queue up behind listed
// objects not yet applied. Check then compares isInInitialList of every
// add both handlers got of the same object: only the changes of the first
// list are initial.
//
// Everything is in memory and free of I/O; the only waits are the
// reflectors' back-off before a relist (about a second, growing with each
// one), so many scenarios run concurrently.
//
// Running: go test -race ./... runs 40 seeds; -seeds=300 (or
// CONFORMANCE_SEEDS=300) more, -first-seed=N another range, -seed=N one
// seed (each failure prints its seed), -concurrency=N scenarios at once
// (64 by default).
package conformance
