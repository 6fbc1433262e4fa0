// Package compact makes cached objects smaller than their decoding: it
// interns strings and replaces the parts of an object that repeat across
// objects (resource maps, env and args slices, probes, ports,
// tolerations, affinity, labels) by one canonical copy per distinct value.
//
// # Data flow
//
//	Reflector --decoded object--> DeltaFIFO: transform (user's), then compaction
//	                                   |    (Table.TransformUpdate: the update walk against
//	                                   |     the cached version of the key, or the full walk)
//	                                   v
//	                       Table (canonical copies, held weakly)
//	                                   |
//	                                   v
//	                 queued delta --> cache and handlers see the compact object
//
// Every object a reflector stores (listed pages, watch-list events, watch
// events, relists) passes through the informer's transform before it is
// queued, so a full-size decoded object never outlives its decode by more
// than a page of a list. A watch's decoder may compact its objects
// itself, with the informer's compaction and hint, before it hands them
// over (Decoded, decoded.go): the informer then skips them.
//
// # Walks
//
// A walk (Walk) visits an object's fields in place: it interns each string
// (String), and for each slice, map and pointer it walks the elements
// first, then hashes the value and looks it up in the Table (Slice, Map,
// Pointer): the value already there with equal contents replaces it, or
// it becomes the canonical copy. Equality is exact (Equal): values are
// compared after their hashes match, nil and empty differ, and
// resource.Quantity compares by representation (1000m is not 1). A walk
// writes a field only when its value changes, so walking an object that is
// already compact writes nothing.
//
// informer-gen generates the walk and the equality of every type it makes
// informers for (and of the types they contain) and registers them with
// Register from the generated informer package's init; objects that
// implement Compacter compact themselves; *unstructured.Unstructured has
// a walk of its JSON tree registered here (unstructured.go: map keys
// interned, strings, maps and slices shared, none written in place); any
// other type gets a reflective walk built once per type (For), which
// interns strings and shares string maps and string slices.
//
// A value is interned or shared from its second sighting on, at another
// address in another object (Table.admit: a lossy filter of recent
// hashes): values unique to one object, or repeated only inside it, cost
// no entry. An object's UID and resourceVersion are never looked up
// (Own): no other object has them.
//
// # Updates
//
// Most objects a cache receives replace a version it holds (a watch
// event, a changed object in a relist), and most of their parts are equal
// to that version's, which is compact already. An update walk
// (RegisterUpdate, TransformUpdate) compares the new object with the old
// one field by field and takes every equal field from the old version
// as it is, without hashing it or looking it up (From); only the fields
// that changed are walked. informer-gen generates one per informer kind
// (updatePod), descending into the structs the object holds by value
// (ObjectMeta, Spec, Status) and comparing slices, maps and pointers
// whole. runtime/cache's DeltaFIFO passes the cached or queued version of
// the same key as old.
//
// # Lifetime
//
// A Table points at canonical copies weakly (package weak), from the
// 32-byte slots of its shards, open-addressed hash sets (shard.go): a
// value no object uses any more is collected, and its slot is dropped
// when the shard next fills up, which rebuilds it for twice its live
// copies (so it shrinks after deletes and churn), or on Sweep. Strings are interned with package unique, which frees them the
// same way.
//
// # Safety
//
// Cached objects must not be mutated (the informer contract). With
// compaction a mutation of a shared part changes every object holding it;
// runtime/cache's mutation detector, on in test binaries while compaction
// is on, reports such a mutation with the object's key and field path.
// In production the Guard (guard.go, guard_round.go) finds it: each
// canonical copy keeps, in its slot, the hash it was shared under and the
// check that recomputes it (check.go, one per type and walks); a sampler,
// bounded per round in copies and time, re-hashes the copies round-robin,
// and a copy whose hash changed is removed from the table and reported
// (Mutation) to the Holders, the informers compacting into the table,
// which find their objects holding it (Mutation.PathsIn) and relist to
// restore them from the server.
package compact
