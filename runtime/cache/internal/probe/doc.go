// Package probe holds Table, the one open-addressing hash table of
// runtime/cache: the key -> id table of the store's objectTable, the key
// -> change table of a delivery listener's backlog and the large id sets
// of the store's indexes all use it.
//
// A Table stores bare slots, 4 or 8 bytes each, and nothing else per
// entry: what a slot means is its owner's business, within these rules.
// The zero slot marks an empty position. The width of the slot type
// decides how a slot is hashed, at compile time:
//
//   - a 64-bit slot is tag<<32 | ref: tag is a 32-bit hash of the owner's
//     key, already well mixed, whose low bits are the home position; ref
//     refers to something the owner keeps (a slab entry, a queued change),
//     against which it confirms a tag match when it looks a key up (see
//     Table.First);
//   - a 32-bit slot is its own key (an id+1) and its own tag; the table
//     spreads it by Fibonacci hashing, taking the high bits of tag*φ.
//
// The table probes linearly, deletes by backward shift (no tombstones) and
// grows by doubling; its size is 0 or a power of two.
//
// A Table is not safe for concurrent use: its owner guards it. It starts
// no goroutine and takes no lock.
package probe
